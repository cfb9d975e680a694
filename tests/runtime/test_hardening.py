"""Issue 25 ("hardening, round two") in one process: the admin login's throttle, the one
look-up limit every answer about a table code counts against, the client's address behind a
trusted proxy only, reports per address and folded, the chat allowance as one step, look-alike
names. (The same on the real stack: tests/scaleout/test_hardening.py.)"""

from __future__ import annotations

import threading

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.hashers import MD5PasswordHasher
from django.contrib.auth.models import User
from django.test import Client

from game.core.errors import ServiceError
from game.core.identity import Player
from game.runtime import limits, proxy
from sevn_site.asgi import application
from tests.factories import open_table

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


# --- 7. X-Forwarded-For only from a trusted proxy ---------------------------------------------


def test_a_forwarded_address_counts_only_from_a_trusted_proxy(settings):
    settings.SEVN_TRUSTED_PROXIES = "127.0.0.1, 10.9.0.0/16"
    assert proxy.resolve("127.0.0.1", "203.0.113.7") == "203.0.113.7"  # nginx on this machine
    assert proxy.resolve("10.9.3.4", "198.51.100.1, 203.0.113.7") == "203.0.113.7"  # the last hop it saw
    assert proxy.resolve("127.0.0.1", "203.0.113.7, 10.9.0.5") == "203.0.113.7"  # behind two trusted proxies
    assert proxy.resolve("192.0.2.50", "203.0.113.7") == "192.0.2.50"  # anyone else: their own address
    assert proxy.resolve("127.0.0.1", "not-an-address") == "127.0.0.1"
    assert proxy.resolve("127.0.0.1", None) == "127.0.0.1"
    meta = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    assert limits.client_address(meta) == "203.0.113.7"
    scope = {"type": "websocket", "client": ["192.0.2.50", 5], "headers": [(b"x-forwarded-for", b"203.0.113.7")]}
    assert limits.client_address(scope) == "192.0.2.50"
    assert limits.client_address({**scope, "client": ["127.0.0.1", 5]}) == "203.0.113.7"


@pytest.mark.django_db
def test_forged_forwarded_addresses_from_an_untrusted_peer_share_its_one_limit(settings):
    settings.SEVN_LOOKUPS_PER_MINUTE = 5
    client = Client(REMOTE_ADDR="192.0.2.50")
    statuses = [client.get(f"/en/t/ZZZZ{n:02d}/", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code for n in range(8)]
    assert statuses[:6] == [404] * 6 and statuses[6:] == [429, 429]
    # the proxy on this machine forwards real clients: each has its own count
    nginx = Client(REMOTE_ADDR="127.0.0.1")
    assert nginx.get("/en/t/ZZZZ99/", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 404


# --- 1. the admin login -----------------------------------------------------------------------


class CountingHasher(MD5PasswordHasher):
    calls = 0

    def encode(self, password, salt):
        CountingHasher.calls += 1
        return super().encode(password, salt)


@pytest.fixture
def counted_hashes(settings):
    settings.PASSWORD_HASHERS = ["tests.runtime.test_hardening.CountingHasher"]
    CountingHasher.calls = 0
    return CountingHasher


def admin_try(client: Client, password: str, username: str = "boss") -> int:
    return client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password, "next": "/admin/"}
    ).status_code


@pytest.mark.django_db
def test_admin_login_is_throttled_per_address_and_a_refused_try_hashes_nothing(settings, counted_hashes):
    settings.SEVN_LOGINS_PER_MINUTE = 3
    User.objects.create_superuser("boss", "", "right-password-1")
    client = Client(REMOTE_ADDR="192.0.2.10")
    statuses = [admin_try(client, f"wrong-{n}") for n in range(4)]
    assert statuses == [200] * 4  # three failures allowed, the fourth counted past the limit
    hashed = counted_hashes.calls
    statuses = [admin_try(client, f"wrong-{n}") for n in range(20)]
    assert statuses == [429] * 20 and counted_hashes.calls == hashed  # no hash for a refused try
    assert admin_try(client, "right-password-1") == 429  # until the minute is over
    assert admin_try(Client(REMOTE_ADDR="192.0.2.11"), "right-password-1", username="other") == 200  # others may


@pytest.mark.django_db
def test_admin_login_is_throttled_per_account_whatever_the_address(settings, counted_hashes):
    settings.SEVN_LOGINS_PER_MINUTE = 3
    User.objects.create_superuser("boss", "", "right-password-1")
    statuses = [admin_try(Client(REMOTE_ADDR=f"192.0.2.{n}"), "wrong", username="Boss") for n in range(10)]
    assert statuses[:4] == [200] * 4 and set(statuses[4:]) == {429}
    assert admin_try(Client(REMOTE_ADDR="192.0.2.99"), "right-password-1") == 429
    assert Client(REMOTE_ADDR="192.0.2.99").get("/admin/login/").status_code == 200  # the page itself shows


@pytest.mark.django_db
def test_admin_login_still_signs_in(settings):
    User.objects.create_superuser("boss", "", "right-password-1")
    client = Client(REMOTE_ADDR="192.0.2.10")
    assert admin_try(client, "wrong") == 200
    assert admin_try(client, "right-password-1") == 302
    assert client.get("/admin/").status_code == 200


# --- 3. one look-up limit for every answer about a code -----------------------------------


@pytest.mark.django_db
def test_the_report_and_chat_forms_count_unknown_codes_and_are_refused_past_the_limit(settings):
    settings.SEVN_LOOKUPS_PER_MINUTE = 4
    table, _players = open_table()
    client = Client(REMOTE_ADDR="192.0.2.20", HTTP_HX_REQUEST="true")
    answers = []
    for n in range(3):
        answers.append(client.post(f"/en/t/ZZZZ{n:02d}/report/", {"reason": "spam", "seat": "0"}))
        answers.append(client.post(f"/en/t/YYYY{n:02d}/chat/", {"text": "hello"}))
    told = [response for response in answers if b"There is no table with that code" in response.content]
    assert len(told) == 5 and answers[-1].status_code == 429
    # past the limit a real table is refused alike: nothing tells it exists
    assert client.post(f"/en/t/{table.code}/report/", {"reason": "spam", "seat": "0"}).status_code == 429
    assert client.get(f"/en/t/{table.code}/").status_code == 429
    assert client.post(f"/en/t/{table.code}/join/", {"nickname": "Zed"}).status_code == 429
    assert Client(REMOTE_ADDR="192.0.2.21").get(f"/en/t/{table.code}/").status_code == 200


async def socket_close(code: str, address: str) -> tuple[str, int]:
    socket = WebsocketCommunicator(application, f"/ws/t/{code}/?lang=en", headers=[ORIGIN, HOST])
    socket.scope["client"] = [address, 40000]
    connected, _ = await socket.connect()
    assert connected
    said = await socket.receive_from()
    closing = await socket.receive_output()
    await socket.disconnect()  # as the browser answers the close: the consumer ends at once
    return said, closing.get("code", 0)


@pytest.mark.django_db(transaction=True)
async def test_table_sockets_count_unknown_codes_and_are_refused_past_the_limit(settings):
    settings.SEVN_LOOKUPS_PER_MINUTE = 3
    closes = [(await socket_close(f"ZZZZ{n:02d}", "192.0.2.30"))[1] for n in range(6)]
    assert closes[:4] == [4404] * 4 and closes[4:] == [4429, 4429]
    said, code = await socket_close("ZZZZ99", "192.0.2.30")
    assert code == 4429 and "Too many tables looked up" in said
    assert (await socket_close("ZZZZ99", "192.0.2.31"))[1] == 4404


# --- 4. reports: per address, and folded --------------------------------------------------------


@pytest.mark.django_db
def test_a_thousand_reports_with_fresh_sessions_from_one_address_leave_a_handful_queued(settings):
    from game.models import Report

    table, _players = open_table()
    accepted = 0
    for n in range(1000):
        client = Client(REMOTE_ADDR="192.0.2.40", HTTP_HX_REQUEST="true")  # no cookie: a fresh guest each time
        response = client.post(f"/en/t/{table.code}/report/", {"reason": "spam", "seat": str(n % 2), "comment": n})
        accepted += b"Thank you" in response.content
    assert accepted == settings.SEVN_REPORTS_PER_HOUR
    queued = Report.objects.filter(status=Report.Status.OPEN)
    assert queued.count() == 2  # one entry for each person reported
    assert sorted(queued.values_list("count", flat=True)) == [10, 10]


@pytest.mark.django_db
def test_reports_of_one_person_at_one_table_fold_into_one_entry_while_it_is_open(settings):
    from game import services
    from game.core.identity import Player
    from game.models import Report

    table, _players = open_table(names=("Ana", "Ben", "Cy"))
    reporters = [Player(key=f"guest:reporter-{n}") for n in range(3)]
    for reporter in reporters:
        services.report_create(code=table.code, player=reporter, reason="insults", seat_index=1)
    entry = Report.objects.get()
    assert entry.count == 3 and entry.last_reported >= entry.created and entry.reported_name == "Ben"
    assert [item["reason"] for item in entry.more] == ["insults", "insults"]  # who else, why, when
    with pytest.raises(ServiceError):  # a folded reporter has reported it already, too
        services.report_create(code=table.code, player=reporters[2], reason="spam", seat_index=1)
    services.report_create(code=table.code, player=reporters[0], reason="spam", seat_index=0)
    assert Report.objects.count() == 2  # another person: an entry of their own
    Report.objects.filter(id=entry.id).update(status=Report.Status.HANDLED)
    services.report_create(code=table.code, player=Player(key="guest:late"), reason="insults", seat_index=1)
    assert Report.objects.filter(status=Report.Status.OPEN, reported_name="Ben").get().count == 1  # a new entry


@pytest.mark.django_db
def test_one_person_is_limited_whatever_address_they_use(settings):
    settings.SEVN_REPORTS_PER_HOUR = 3
    table, _players = open_table(names=("Ana", "Ben", "Cy"))
    client = Client(HTTP_HX_REQUEST="true")
    said = [
        client.post(f"/en/t/{table.code}/report/", {"reason": "spam", "seat": n % 3}, REMOTE_ADDR=f"192.0.2.{n}")
        for n in range(5)
    ]
    assert [b"Too many reports" in response.content for response in said] == [False] * 3 + [True] * 2


# --- 5. a move whose database connection broke is tried once more -------------------------------


@pytest.mark.django_db(transaction=True)  # (a move inside a test's transaction is not retried)
def test_a_move_that_lost_its_database_connection_is_tried_again(monkeypatch):
    from django.db import OperationalError

    from game import services
    from game.services import store
    from tests.factories import deciding, game_of

    table, players = open_table(deck=["5", "9", "4", "1", "2", "3", "6", "7"])  # a deal where passing is a choice
    version = game_of(table).version
    real, broken = store.locked_table_and_game, []

    def breaks_once(*args, **kwargs):
        if not broken:
            broken.append(1)
            raise OperationalError("server closed the connection unexpectedly")
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "locked_table_and_game", breaks_once)
    update = services.game_act(
        code=table.code, player=deciding(table, players), action={"kind": "pass"}, version=version
    )
    assert broken and game_of(table).version == version + 1 and update["snapshot"]


@pytest.mark.django_db(transaction=True)
def test_a_move_is_tried_again_a_bounded_number_of_times(monkeypatch):
    """A restart on a loaded machine outlasted one pool wait: a few tries, then the error."""
    from django.db import OperationalError

    from game import services
    from game.services import play, store
    from tests.factories import deciding, game_of

    table, players = open_table(deck=["5", "9", "4", "1", "2", "3", "6", "7"])  # a deal where passing is a choice
    version, calls = game_of(table).version, []

    def always_breaks(*args, **kwargs):
        calls.append(1)
        raise OperationalError("the database system is shutting down")

    monkeypatch.setattr(store, "locked_table_and_game", always_breaks)
    monkeypatch.setattr(play, "RECONNECT_PAUSE_S", 0)
    with pytest.raises(OperationalError):
        services.game_act(code=table.code, player=deciding(table, players), action={"kind": "pass"}, version=version)
    assert len(calls) == 1 + play.RECONNECT_TRIES


# --- 8. the chat allowance in one step; look-alike names; combining marks -----------------------


class ReadTogether:
    """The cache, with every read held until all the parallel posts have read (the moment the
    race needs: each one checks before any of them has written)."""

    def __init__(self, cache, parties: int) -> None:
        self.cache, self.barrier = cache, threading.Barrier(parties, timeout=2)

    def get(self, *args, **kwargs):
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            pass
        return self.cache.get(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.cache, name)


def test_parallel_chat_lines_get_no_more_than_the_allowance(monkeypatch):
    from django.core.cache import cache

    monkeypatch.setattr(limits, "cache", ReadTogether(cache, 12))
    allowed = []
    threads = [threading.Thread(target=lambda: allowed.append(limits.chat_wait("guest:fast") == 0)) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert allowed.count(True) == limits.CHAT_MESSAGES


@pytest.mark.django_db
@pytest.mark.parametrize(
    "nickname",
    ["Αdmin", "Mоderator", "Вot Ada", "ᗅdmin", "B\u0337o\u0337t\u0337 Ada", "𝐒𝐭𝐚𝐟𝐟", "ѕtaff", "Сomputer"],
)
def test_names_that_look_like_staff_or_a_bot_are_refused_in_any_letters(nickname):
    from game import services

    table, _players = open_table(start=False)
    with pytest.raises(ServiceError) as refused:
        services.seat_take(code=table.code, player=Player(key="guest:imp"), nickname=nickname)
    assert refused.value.code == "reserved_nickname"


@pytest.mark.django_db
@pytest.mark.parametrize("nickname", ["Аna", "ANA", "Ana\u0301\u0301", "Ａｎａ"])
def test_a_name_that_looks_like_a_seated_one_is_refused_at_the_table_and_in_its_chat(nickname):
    from game import services

    table, _players = open_table(start=False)  # Ana and Ben sit here
    with pytest.raises(ServiceError) as refused:
        services.seat_take(code=table.code, player=Player(key="guest:imp"), nickname=nickname)
    assert refused.value.code == "nickname_taken"
    with pytest.raises(ServiceError) as refused:
        services.chat_post(code=table.code, player=Player(key="guest:watcher"), text="hi", nickname=nickname)
    assert refused.value.code == "nickname_taken"


@pytest.mark.django_db
@pytest.mark.parametrize("nickname", ["Zoë", "李雷", "Robotnik", "Botanist", "Việt", "Анна", "Ádmiral"])
def test_real_names_in_any_script_are_still_welcome(nickname):
    from game import services

    table, _players = open_table(start=False)
    services.seat_take(code=table.code, player=Player(key="guest:new"), nickname=nickname)


@pytest.mark.django_db
def test_combining_marks_are_capped_in_names_and_chat_lines():
    from game import services
    from game.models import ChatMessage

    table, (ana, _ben) = open_table(start=False)
    with pytest.raises(ServiceError) as refused:
        services.chat_post(code=table.code, player=ana, text="\u0301" * 199)
    assert refused.value.code == "chat_blank"
    services.chat_post(code=table.code, player=ana, text="Z" + "\u0337\u0322\u034e\u0301\u0338" * 30 + "algo")
    stored = ChatMessage.objects.get().text
    assert stored.endswith("algo") and len(stored) <= 1 + 2 + 4  # Z (or Ź, composed) and two marks
    name = services.clean_nickname("Zed" + "\u0336" * 40)
    assert name == "Zed\u0336\u0336"
