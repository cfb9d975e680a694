"""Issue 35, items 6 and 8 on the README's scale-out stack (deploy/local_stack.py: PostgreSQL,
Redis, two Daphne behind nginx), as a hostile client tried them: each limit holds across both
processes (the counts live in Redis, the socket caps in each process), with the stack's default
limits. (The same in one process: tests/runtime/test_limits_everywhere.py and
tests/runtime/test_forwarded_address.py.)"""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest
from websockets.asyncio.client import connect

from bench import hardening
from deploy.local_stack import Stack
from deploy.players import Browser
from game.services.lobby import CODE_ALPHABET, CODE_LENGTH

PASSWORD = "a-long-password-1"
TABLES_PER_PERSON, TABLES_PER_ADDRESS = 30, 120  # SEVN_TABLES_PER_HOUR(_PER_ADDRESS)'s defaults
LOOKUPS, REPORTS, PERSON_SOCKETS = 30, 20, 20  # SEVN_LOOKUPS_PER_MINUTE, _REPORTS_PER_HOUR, _MAX_PERSON_SOCKETS
EDGE = 1.5  # a sliding minute estimated from two fixed ones lets a little more through, never double
TOO_MANY_LOOKUPS = "Too many tables looked up"


@pytest.fixture(scope="module")
def stack():
    with Stack(env=hardening.stack_env(), pg_max_connections=30) as running:
        yield running


UNKNOWN = itertools.count()


def unknown_code() -> str:
    """A code no table has, a new one each time: "O", "0" and "1" are not in the alphabet codes are
    made of (game.services.lobby.CODE_ALPHABET), so it is a look-up that finds nothing for certain
    (random codes of that alphabet could, rarely, be a table the stack made)."""
    return f"NO{next(UNKNOWN):04d}"


def test_an_unknown_code_is_no_tables_code_and_never_the_same_twice():
    codes = [unknown_code() for _ in range(100)]
    assert len(set(codes)) == 100 and all(len(code) == CODE_LENGTH for code in codes)
    assert all(set(code) - set(CODE_ALPHABET) for code in codes)


def people(stack: Stack, *names: str, friends: bool = False) -> None:
    """Accounts with a confirmed e-mail (and, if asked, the first two friends), made as an
    operator would."""
    make = "".join(
        f"u = User.objects.create_user({name!r}, {name.lower() + '@example.com'!r}, {PASSWORD!r}); "
        "EmailAddress.objects.create(user=u, email=u.email, verified=True, primary=True); "
        for name in names
    )
    befriend = (
        "from game.services import friends as f; "
        f"a, b = User.objects.get(username={names[0]!r}), User.objects.get(username={names[1]!r}); "
        "f.friend_request(user=a, name=b.username); f.friend_accept(user=b, from_id=a.pk)"
        if friends
        else ""
    )
    imports = "from django.contrib.auth.models import User; from allauth.account.models import EmailAddress; "
    hardening.manage(stack, "shell", "-c", imports + make + befriend)


def signed_in(port: int, name: str, address: str) -> Browser:
    browser = Browser(port, address)
    status, _location = browser.post("/en/accounts/login/", {"login": name, "password": PASSWORD})
    assert status == 302, status
    return browser


def on_both_processes(stack: Stack, browser: Browser) -> list[Browser]:
    """The same person (one cookie jar) straight at each Daphne process: what one process lets
    through, the other must count too."""
    twins = []
    for server in stack.servers:
        twin = Browser(server.port, browser.address)
        twin.cookies = browser.cookies
        twins.append(twin)
    return twins


def count(stack: Stack, query: str) -> int:
    ((found,),) = stack.postgres.sql(query)
    return int(found)


def post(browser: Browser, path: str, data: dict, headers: dict | None = None) -> tuple[int, str]:
    status, _headers, text = browser.request(
        "POST", path, {**data, "csrfmiddlewaretoken": browser.cookies["csrftoken"]}, headers=headers, follow=False
    )
    return status, text


def played_out(stack: Stack, code: str) -> None:
    """The table's game played to its end through the services, each seat as the medium bot
    would (a person's moves, on the stack's own PostgreSQL)."""
    hardening.manage(
        stack,
        "shell",
        "-c",
        "import random\n"
        "from game import registry, services\n"
        "from game.core.identity import Player\n"
        "from game.models import Game, Seat, Table\n"
        f"table = Table.objects.get(code={code!r})\n"
        "kind, rng = registry.of(table), random.Random(7)\n"
        "for _ in range(5000):\n"
        "    game = Game.objects.get(table=table)\n"
        "    if game.over:\n"
        "        break\n"
        "    state = kind.from_json(game.state)\n"
        "    seat = Seat.objects.get(table=table, index=kind.acting(state))\n"
        "    player = Player(key=seat.player_key, user_id=seat.user_id)\n"
        "    action = kind.bot_action('medium', state, rng)\n"
        "    services.game_act(code=table.code, player=player, action=action, version=game.version)\n"
        "assert Game.objects.get(table=table).over\n",
    )


# --- 6. limits that hold for every route --------------------------------------------------------


def test_play_again_forty_times_invites_no_stranger_and_stops_at_the_table_allowance(stack):
    people(stack, "Ana", "Ben")  # not friends: Ben only sat down at Ana's table
    ana = signed_in(stack.nginx.port, "Ana", "127.0.60.1")
    ben = signed_in(stack.nginx.port, "Ben", "127.0.60.2")
    code = ana.new_table("Ana", 2, target=50)
    ben.join(code, "Ben")
    ana.start(code)
    played_out(stack, code)  # "Play again" comes once a game is over
    processes = on_both_processes(stack, ben)
    answers = [post(processes[n % 2], f"/en/t/{code}/again/", {}) for n in range(40)]
    assert all(status == 302 for status, _text in answers), answers
    assert (
        count(
            stack,
            "SELECT count(*) FROM game_invitation i JOIN auth_user u ON u.id = i.to_user_id WHERE u.username = 'Ana'",
        )
        == 0
    )  # no invitation, so no toast
    made = count(stack, "SELECT count(*) FROM game_table WHERE host_name = 'Ben'")
    assert 1 <= made <= TABLES_PER_PERSON, made  # 40 before
    said = processes[0].get(f"/en/t/{code}/")
    assert "You opened too many tables lately" in said


def test_new_tables_from_one_address_stop_at_its_allowance_whatever_the_session(stack):
    browser = Browser(stack.nginx.port, "127.0.61.1")
    browser.get("/en/")
    processes = on_both_processes(stack, browser)
    before = count(stack, "SELECT count(*) FROM game_table WHERE host_name = 'Zed'")
    statuses = []
    for n in range(TABLES_PER_ADDRESS + 30):
        sender = processes[n % 2]
        sender.cookies = {"csrftoken": browser.cookies["csrftoken"]}  # a fresh guest each time
        statuses.append(
            post(sender, "/en/tables/new/", {"nickname": "Zed", "seat_count": 2, "target": 250, "turn_seconds": 0})[0]
        )
    made = count(stack, "SELECT count(*) FROM game_table WHERE host_name = 'Zed'") - before
    assert made <= TABLES_PER_ADDRESS and statuses.count(400) >= 30, (made, statuses)  # 200 in 2.5 s before


def test_the_fair_deal_seed_counts_against_the_look_up_limit(stack):
    browser = Browser(stack.nginx.port, "127.0.62.1")
    browser.get("/en/")
    processes = on_both_processes(stack, browser)
    answers = [post(processes[n % 2], f"/en/t/{unknown_code()}/seed/", {"seed": "abc"}) for n in range(60)]
    told = [text for status, text in answers if status == 400]
    refused = [text for status, text in answers if status == 429]
    assert len(told) <= LOOKUPS * EDGE and len(refused) >= 60 - LOOKUPS * EDGE, (len(told), len(refused))
    assert all(TOO_MANY_LOOKUPS in text for text in refused)  # 132 codes a second answered before


async def person_sockets(port: int, browser: Browser, many: int) -> tuple[list, list[int]]:
    """`many` /ws/me/ sockets of one signed-in person straight at one process: those left open,
    and the close codes of those closed at once."""
    cookie = "; ".join(f"{key}={value}" for key, value in browser.cookies.items())
    opened, closed = [], []
    for _ in range(many):
        sock = await connect(
            f"ws://127.0.0.1:{port}/ws/me/?lang=en",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": cookie},
            local_addr=(browser.address, 0),
        )
        opened.append(sock)
    for sock in opened[PERSON_SOCKETS:]:  # past the cap: each is closed (waited for, not assumed)
        try:
            await asyncio.wait_for(sock.wait_closed(), 30)
        except TimeoutError:  # still open: the cap did not hold
            await sock.close()
        closed.append(sock.close_code)
    return opened[:PERSON_SOCKETS], closed


def test_one_account_s_page_sockets_are_capped_and_those_kept_hear_invitations(stack):
    people(stack, "Cleo", "Dan", friends=True)
    cleo = signed_in(stack.nginx.port, "Cleo", "127.0.63.1")
    dan = signed_in(stack.nginx.port, "Dan", "127.0.63.2")
    code = dan.new_table("Dan", 3)

    async def scenario() -> tuple[list[int], list[str]]:
        kept, closed = await person_sockets(stack.servers[0].port, cleo, PERSON_SOCKETS + 15)  # 3,000 before
        status, _text = await asyncio.to_thread(
            post,
            dan,
            f"/en/t/{code}/invite/",
            {"user": count(stack, "SELECT id FROM auth_user WHERE username = 'Cleo'")},
        )
        assert status == 302
        heard = [await asyncio.wait_for(sock.recv(), 30) for sock in kept]  # every one kept is live
        for sock in kept:
            await sock.close()
        return closed, heard

    closed, heard = asyncio.run(scenario())
    assert closed == [4430] * 15, closed
    assert len(heard) == PERSON_SOCKETS and all(code in toast for toast in heard)


# --- 8. the forwarded-address rule ----------------------------------------------------------------


def test_forged_forwarded_addresses_through_nginx_count_as_the_sender(stack):
    """From 127.0.0.1 itself (a trusted address), through nginx: 25 reports each naming another
    address are one address's reports, and look-ups naming a victim's address lock out the
    sender, not the victim."""
    people(stack, "Eve", "Fay")
    eve = signed_in(stack.nginx.port, "Eve", "127.0.64.1")
    code = eve.new_table("Eve", 2)
    reporter = Browser(stack.nginx.port, "127.0.0.1")
    reporter.get(f"/en/t/{code}/")
    token = reporter.cookies["csrftoken"]
    accepted = 0
    for n in range(25):
        reporter.cookies = {"csrftoken": token}  # a fresh guest each time
        _status, text = post(
            reporter,
            f"/en/t/{code}/report/",
            {"reason": "spam", "seat": "0", "comment": f"n{n}"},
            headers={"HX-Request": "true", "X-Forwarded-For": f"198.51.100.{n + 1}"},
        )
        accepted += "Thank you" in text
        time.sleep(0.06)  # time under test: nginx's own page rate (20 a second), kept under, as below
    assert accepted == REPORTS, accepted  # 25 before

    victim = "127.0.65.1"
    looked = []
    for _ in range(int(LOOKUPS * EDGE) + 1):
        looked.append(reporter.request("GET", f"/en/t/{unknown_code()}/", headers={"X-Forwarded-For": victim}))
        time.sleep(0.06)  # time under test: under nginx's page rate (20 a second), so the app answers each
    assert TOO_MANY_LOOKUPS in looked[-1][2], looked[-1][:2]  # the sender's own count ran out
    status, _headers, _text = Browser(stack.nginx.port, victim).request("GET", f"/en/t/{unknown_code()}/")
    assert status == 404  # the victim is not locked out
