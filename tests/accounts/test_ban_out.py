"""A suspended or banned person is out, everywhere, at once (issue 35, item 1): every socket of
theirs closes within a second (the table with its chat, and /ws/me/), the old session acts as
that player nowhere, a banned person back as a guest from the same browser (or the same address,
while the ban lasts) is still refused tables, the suspended person reads why, until when and how
to appeal, and a suspended account's profile answers as one that does not exist."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.contrib.auth import SESSION_KEY as AUTH_SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.utils import timezone

from game import services
from game.core.identity import ACCOUNT_KEY, MARK_COOKIE, NICKNAME_KEY, SESSION_KEY, Player
from game.models import Friendship, Invitation, Profile, Rating, Sanction, Seat, Table
from sevn_site.asgi import application
from tests.accounts.helpers import PASSWORD, log_in, sign_up
from tests.accounts.test_home import account
from tests.live.test_consumers import WHOLE_TABLE, drain

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")
TABLE = {"nickname": "", "seat_count": 2, "target": 250, "turn_seconds": 30}
SOON = 1.0  # seconds: "within a second"

pytestmark = pytest.mark.django_db


def superuser_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw-123456"))
    return client


def suspend(admin: Client, user: User, duration: str = "7d", reason: str = "cheating with a second account"):
    return admin.post(
        "/admin/auth/user/",
        {"action": "suspend", "_selected_action": [user.pk], "apply": "1", "duration": duration, "reason": reason},
    )


def signed_in_session(user: User, key: str) -> str:
    """A session as a log-in leaves it (game.accounts.signals): the account and its player key."""
    session = SessionStore()
    session[AUTH_SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "allauth.account.auth_backends.AuthenticationBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session[ACCOUNT_KEY] = [user.pk, key]
    session[SESSION_KEY] = key
    session.create()
    return session.session_key


async def socket_at(path: str, session_key: str) -> WebsocketCommunicator:
    cookie = (b"cookie", f"sessionid={session_key}".encode())
    socket = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST, cookie])
    connected, _ = await socket.connect()
    assert connected
    return socket


async def closed_with(socket: WebsocketCommunicator, within: float) -> tuple[int, list[str]]:
    """Everything the socket is sent until it is closed, and the close's code; fails if it stays
    open past `within` seconds."""
    said = []
    deadline = asyncio.get_running_loop().time() + within
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, "the socket is still open"
        output = await socket.receive_output(timeout=left)
        if output["type"] == "websocket.close":
            return output["code"], said
        said.append(output.get("text", ""))


async def heard_within(socket: WebsocketCommunicator, sentence: str, seconds: float) -> str:
    """The first message holding `sentence`, read within `seconds` (a redraw may come first: the
    socket's own arrival told to the table)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        left = deadline - asyncio.get_running_loop().time()
        message = await socket.receive_from(timeout=max(left, 0.01))
        if sentence in message:
            return message


@pytest.mark.django_db(transaction=True)
async def test_a_suspension_closes_every_socket_of_the_account_within_a_second_and_a_bot_gets_the_seat():
    @database_sync_to_async
    def setup():
        sam, sam_player = account("Sam")
        ana = Player(key="guest:ana")
        playing = services.table_create(player=ana, nickname="Ana", seat_count=2)
        services.seat_take(code=playing.code, player=sam_player, nickname="")
        services.game_start(code=playing.code, player=ana)
        watched = services.table_create(player=Player(key="guest:cy"), nickname="Cy", seat_count=2)
        return sam, sam_player, playing, watched, signed_in_session(sam, sam_player.key)

    sam, sam_player, playing, watched, session_key = await setup()
    at_table = await socket_at(f"/ws/t/{playing.code}/", session_key)
    watching = await socket_at(f"/ws/t/{watched.code}/", session_key)  # a table Sam only watches
    page = await socket_at("/ws/me/", session_key)
    for socket in (at_table, watching):
        await drain(socket, WHOLE_TABLE)

    response = await database_sync_to_async(lambda: suspend(superuser_client(), sam))()
    assert response.status_code == 302

    for socket in (at_table, watching):
        code, said = await closed_with(socket, SOON)
        assert code == 4403 and any("Your account was suspended" in text for text in said)
    code, _said = await closed_with(page, SOON)
    assert code == 4401  # the page does not open it again (static/sevn/js/invitations.js)

    # The seat is not Sam's to play from this browser any more: a new socket of the old session
    # is a spectator's, its move refused; the seat is left to the absence path (a bot).
    again = await socket_at(f"/ws/t/{playing.code}/", session_key)
    await drain(again, WHOLE_TABLE)
    await again.send_to(text_data=json.dumps({"kind": "draw", "version": 1, "game": 1}))
    assert await heard_within(again, "only seated players can play", SOON)
    await again.disconnect()

    @database_sync_to_async
    def present():
        from game.models import Presence

        return Presence.objects.filter(player_key=sam_player.key).count()

    assert await present() == 0  # Sam counts as gone: the absence sweep gives the seat to a bot


def test_the_old_session_of_a_suspended_account_acts_as_it_nowhere_and_reads_why():
    browser = Client()
    sign_up(browser, "Sam")
    sam = User.objects.get(username="Sam")
    key = Profile.objects.get(user=sam).player_key
    assert browser.post("/en/tables/new/", TABLE).status_code == 302  # before: Sam plays
    public = services.table_create(player=Player(key="guest:ana"), nickname="Ana", seat_count=3)

    assert suspend(superuser_client(), sam).status_code == 302

    page = browser.get("/en/", follow=True)
    assert page.redirect_chain[-1][0] == "/en/accounts/inactive/"
    text = page.content.decode()
    assert "cheating with a second account" in text and "appeals@localhost" in text
    created = browser.post("/en/tables/new/", {**TABLE, "nickname": "Sneaky"})
    assert created.status_code == 400
    joined = browser.post(f"/en/t/{public.code}/join/", {"nickname": "Sneaky"})
    assert not Seat.objects.filter(table=public).exclude(player_key="guest:ana").exists(), joined.status_code
    assert Table.objects.filter(host_key=key).count() == 1  # only the table made before
    chat = browser.post(f"/en/t/{public.code}/chat/", {"text": "hello"})
    assert not public.chat.filter(author_key=key).exists(), chat.status_code

    superuser_client_again().post("/admin/auth/user/", {"action": "reinstate", "_selected_action": [sam.pk]})
    assert "Signed in as" not in browser.get("/en/").content.decode()  # the session ended for good
    log_in(browser, "Sam")
    assert "Signed in as" in browser.get("/en/").content.decode()  # the reinstated account logs in


def test_a_suspended_person_s_next_page_says_why_even_after_their_open_page_s_fetches_and_htmx():
    """The table page of the suspended person fetches a token and swaps pieces before they
    reload: those requests do not use up the one page that says why; having read it, they
    browse as a guest."""
    browser = Client()
    sign_up(browser, "Sam")
    sam = User.objects.get(username="Sam")
    assert suspend(superuser_client(), sam).status_code == 302

    assert browser.get("/csrf-token/", headers={"Sec-Fetch-Mode": "cors"}).status_code == 200
    assert browser.get("/en/", headers={"HX-Request": "true"}).status_code == 200
    page = browser.get("/en/", headers={"Sec-Fetch-Mode": "navigate"})
    assert page.status_code == 302 and page.url == "/en/accounts/inactive/"
    assert "appeals@localhost" in browser.get(page.url).content.decode()
    assert browser.get("/en/", headers={"Sec-Fetch-Mode": "navigate"}).status_code == 200  # read: once


def test_a_suspended_person_logging_in_reads_why_until_when_and_how_to_appeal_in_their_language():
    sign_up(Client(), "Sam")
    sam = User.objects.get(username="Sam")
    suspend(superuser_client(), sam, duration="7d", reason="threats in chat")
    until = Profile.objects.get(user=sam).suspended_until
    assert until is not None and timedelta(days=6) < until - timezone.now() <= timedelta(days=7)

    english = Client()
    page = log_in(english, "Sam")
    assert page.status_code == 302
    text = english.get(page["Location"]).content.decode()
    assert "threats in chat" in text and str(until.year) in text and "appeals@localhost" in text
    assert "This account is inactive" not in text and "Signed in as" not in text

    german = Client()
    page = log_in(german, "Sam", language="de")
    text = german.get(page["Location"]).content.decode()
    assert "threats in chat" in text and "Einspruch" in text

    forever = Client()
    suspend(superuser_client_again(), sam, duration="permanent", reason="again")
    text = forever.get(log_in(forever, "Sam")["Location"]).content.decode()
    assert "until a moderator lifts it" in text


def superuser_client_again() -> Client:
    client = Client()
    client.force_login(User.objects.get(username="root"))
    return client


def test_a_suspension_for_a_while_ends_when_its_time_is_up():
    sign_up(Client(), "Sam")
    sam = User.objects.get(username="Sam")
    suspend(superuser_client(), sam, duration="24h")
    assert "Signed in as" not in _logged_in_page("Sam")
    Profile.objects.filter(user=sam).update(suspended_until=timezone.now() - timedelta(minutes=1))
    assert "Signed in as" in _logged_in_page("Sam")


def _logged_in_page(name: str) -> str:
    client = Client()
    log_in(client, name, PASSWORD)
    return client.get("/en/").content.decode()


def reported_guest(browser: Client) -> tuple[Table, object]:
    """Ben, a guest in `browser`, sits at Ana's table and insults her; Ana reports the line."""
    ana = Player(key="guest:ana")
    table = services.table_create(player=ana, nickname="Ana", seat_count=3)
    assert browser.post(f"/en/t/{table.code}/join/", {"nickname": "Ben"}).status_code in (200, 302)
    ben_key = browser.session[SESSION_KEY]
    line = services.chat_post(code=table.code, player=Player(key=ben_key), text="you are all idiots")["body"]["line"]
    report = services.report_create(code=table.code, player=ana, reason="insults", message_id=line["id"])
    return table, report


def ban(admin: Client, report, duration: str = "7d"):
    data = {"ban-duration": duration, "ban-reason": "insults"}
    return admin.post(f"/admin/game/report/{report.id}/act/ban/", data)


def test_a_banned_guest_back_with_a_new_session_is_refused_tables_from_the_same_browser_and_address():
    browser = Client()
    table, report = reported_guest(browser)
    admin = superuser_client()
    assert ban(admin, report).status_code == 302

    browser.session.flush()  # the session gone (cleared, or logged out): a new guest key
    browser.cookies.pop("sessionid", None)
    refused = browser.post("/en/tables/new/", {**TABLE, "nickname": "Benny"})
    assert refused.status_code == 400 and "You are banned from tables" in refused.content.decode()

    elsewhere = Client()  # no mark, same address: refused while the ban lasts
    assert elsewhere.post("/en/tables/new/", {**TABLE, "nickname": "Benjamin"}).status_code == 400
    other_address = Client(REMOTE_ADDR="10.9.8.7")  # somebody else entirely
    assert other_address.post("/en/tables/new/", {**TABLE, "nickname": "Cleo"}).status_code == 302

    sanction = Sanction.objects.get(kind="ban")
    assert sanction.address == "127.0.0.1"
    admin.post("/admin/game/sanction/", {"action": "lift", "_selected_action": [sanction.id]})
    assert browser.post("/en/tables/new/", {**TABLE, "nickname": "Benny"}).status_code == 302


def test_a_banned_account_that_logs_out_stays_refused_as_a_guest_in_that_browser():
    browser = Client(REMOTE_ADDR="10.1.1.1")
    table, report = reported_guest(browser)
    sign_up(browser, "Ben")  # the reported guest makes an account (the report follows)
    report.refresh_from_db()
    ban(superuser_client(), report)
    browser.post("/en/accounts/logout/")
    assert "Signed in as" not in browser.get("/en/").content.decode()
    refused = browser.post("/en/tables/new/", {**TABLE, "nickname": "Benny"})
    assert refused.status_code == 400 and "You are banned from tables" in refused.content.decode()
    assert Client(REMOTE_ADDR="10.2.2.2").post("/en/tables/new/", {**TABLE, "nickname": "Cleo"}).status_code == 302


def test_a_ban_logs_the_account_out_of_every_browser_it_was_signed_in_to(django_capture_on_commit_callbacks):
    browser = Client(REMOTE_ADDR="10.1.1.1")
    table, report = reported_guest(browser)
    sign_up(browser, "Ben")  # the reported guest makes an account (the report follows)
    phone = Client(REMOTE_ADDR="10.3.3.3")
    log_in(phone, "Ben")
    sign_up(Client(), "Cleo")
    cleo = Client(REMOTE_ADDR="10.4.4.4")
    log_in(cleo, "Cleo")
    for signed_in, name in ((browser, "Ben"), (phone, "Ben"), (cleo, "Cleo")):
        assert f"Signed in as {name}" in signed_in.get("/en/").content.decode()
    report.refresh_from_db()

    with django_capture_on_commit_callbacks(execute=True):
        assert ban(superuser_client(), report).status_code == 302

    for was_ben in (browser, phone):  # a stranger at the next request, wherever Ben was signed in
        assert "Signed in as" not in was_ben.get("/en/").content.decode()
    refused = browser.post("/en/tables/new/", {**TABLE, "nickname": "Benny"})  # and still refused
    assert refused.status_code == 400 and "You are banned from tables" in refused.content.decode()
    assert "Signed in as Cleo" in cleo.get("/en/").content.decode()  # nobody else is logged out
    log_in(phone, "Ben")  # Ben may sign in again, and is still banned from tables
    assert "Signed in as Ben" in phone.get("/en/").content.decode()
    again = phone.post("/en/tables/new/", {**TABLE, "nickname": ""})
    assert again.status_code == 400 and "You are banned from tables" in again.content.decode()


@pytest.mark.django_db(transaction=True)
async def test_a_ban_closes_the_banned_persons_table_sockets_within_a_second():
    @database_sync_to_async
    def setup():
        browser = Client()
        table, report = reported_guest(browser)
        return table, report, browser.session.session_key

    table, report, session_key = await setup()
    socket = await socket_at(f"/ws/t/{table.code}/", session_key)
    await drain(socket, WHOLE_TABLE)
    await database_sync_to_async(lambda: ban(superuser_client(), report))()
    code, said = await closed_with(socket, SOON)
    assert code == 4403 and any("You were banned from tables" in text for text in said)


@pytest.mark.django_db(transaction=True)
async def test_a_ban_on_a_guest_who_signed_up_since_closes_their_account_page_socket_too():
    """The report names the guest key, which became the account's: the ban finds the account
    behind it, and its /ws/me/ (invitations) closes with the table's."""

    @database_sync_to_async
    def setup():
        browser = Client(REMOTE_ADDR="10.1.1.1")
        table, report = reported_guest(browser)
        sign_up(browser, "Ben")
        report.refresh_from_db()
        return report, browser.session.session_key

    report, session_key = await setup()
    page = await socket_at("/ws/me/", session_key)
    await database_sync_to_async(lambda: ban(superuser_client(), report))()
    code, _said = await closed_with(page, SOON)
    assert code == 4401


def test_a_suspended_accounts_profile_answers_as_one_that_does_not_exist_everywhere():
    sign_up(Client(), "Sam")
    sam = User.objects.get(username="Sam")
    ana, _player = account("Ana")
    Rating.objects.create(user=sam, kind="sevn", mu=30, sigma=5, value=1650, games=3)
    Friendship.objects.create(from_user=ana, to_user=sam, status=Friendship.Status.FRIENDS)
    Friendship.objects.create(from_user=sam, to_user=ana, status=Friendship.Status.FRIENDS)
    friend = Client()
    friend.force_login(ana, backend="allauth.account.auth_backends.AuthenticationBackend")
    assert friend.get("/en/u/Sam/").status_code == 200
    assert "/u/Sam/" in friend.get("/en/ratings/sevn/").content.decode()
    assert "Sam" in friend.get("/en/friends/").content.decode()
    sams_table = services.table_create(
        player=Player(key=Profile.objects.get(user=sam).player_key, user_id=sam.pk, username="Sam"),
        nickname="",
        seat_count=2,
    )
    Invitation.objects.create(table=sams_table, from_user=sam, to_user=ana)
    assert "Sam" in friend.get("/en/invitations/").content.decode()
    suspend(superuser_client(), sam)
    assert "Sam" not in friend.get("/en/invitations/").content.decode()
    assert "/u/Sam/" not in friend.get("/en/ratings/sevn/").content.decode()
    assert "Sam" not in friend.get("/en/friends/").content.decode()
    missing = friend.get("/en/u/Nobody/")
    suspended = friend.get("/en/u/Sam/")
    assert suspended.status_code == missing.status_code == 404
    said_missing = friend.post("/en/friends/add/", {"name": "Nobody"}, follow=True).content.decode()
    said_suspended = friend.post("/en/friends/add/", {"name": "Sam"}, follow=True).content.decode()
    assert "nobody with that name" in said_missing.lower() and "nobody with that name" in said_suspended.lower()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_the_browser_of_a_suspended_account_cannot_chat_as_a_new_guest():
    @database_sync_to_async
    def setup():
        browser = Client()
        sign_up(browser, "Sam")
        public = services.table_create(player=Player(key="guest:ana"), nickname="Ana", seat_count=3)
        suspend(superuser_client(), User.objects.get(username="Sam"))
        assert browser.post("/en/tables/new/", {**TABLE, "nickname": "Sneaky"}).status_code == 400  # a new guest
        session = browser.session
        session[NICKNAME_KEY] = "Sneaky"
        session.save()
        return public, session.session_key, browser.cookies[MARK_COOKIE].value

    public, session_key, mark = await setup()
    cookie = (b"cookie", f"sessionid={session_key}; {MARK_COOKIE}={mark}".encode())
    socket = WebsocketCommunicator(application, f"/ws/t/{public.code}/", headers=[ORIGIN, HOST, cookie])
    assert (await socket.connect())[0]
    await drain(socket, WHOLE_TABLE)
    await socket.send_to(text_data=json.dumps({"kind": "chat", "text": "I am back"}))
    assert await heard_within(socket, "The account last used in this browser is suspended", SOON)
    await socket.disconnect()
    assert not await database_sync_to_async(lambda: public.chat.exists())()
