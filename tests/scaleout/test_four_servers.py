"""The scale-out stack with four Daphne processes behind nginx (deploy/local_stack.py), to show
that nothing assumes two: pages are served by every process, tables' sockets spread over all
four (nginx hashes the table's path over however many upstream lines there are), every move
reaches every screen, a move crosses to screens of the same table on each other process exactly
once, and a deadline all four processes see fires once."""

from __future__ import annotations

import asyncio
import time

import pytest

from deploy.local_stack import Stack
from deploy.players import META, Browser, Screen, Seat, address_of, started_table
from tests.waiting import until_async

SERVERS = 4
POOL = 5  # connections per Daphne process: 4 x 5, well under max_connections
# Tables through nginx: with four processes equally likely for each, all four get one but for a
# chance of 4 x (3/4)^40, about 1 in 25,000.
TABLES = 40


@pytest.fixture(scope="module")
def stack():
    with Stack(
        servers=SERVERS,
        env={"DB_POOL_SIZE": str(POOL), "DB_POOL_MIN": "1", "SEVN_BOT_DELAY_MS": "0", "LOG_LEVEL": "WARNING"},
        pg_max_connections=40,
    ) as running:
        yield running


class CountingScreen(Screen):
    """A screen that keeps every table version its socket was sent, in order, until told to stop
    (sockets closing send everyone a presence update of the same version)."""

    def __init__(self) -> None:
        super().__init__()
        self.versions: list[tuple[int, int]] = []
        self.recording = True

    def read(self, html: str) -> bool:
        if self.recording and (match := META.search(html)) is not None:
            self.versions.append((int(match.group(1)), int(match.group(2))))
        return super().read(html)


def database_version(stack, code: str) -> tuple[int, int]:
    ((number, version),) = stack.postgres.sql(
        "SELECT g.number, g.version FROM game_game g JOIN game_table r ON r.id = g.table_id "
        f"WHERE r.code = '{code}' ORDER BY g.number DESC LIMIT 1"
    )
    return number, version


async def connect_then_play(stack, seats: list[Seat], seconds: float, before_closing=None) -> None:
    """Every socket connects and shows its table with its players connected (nobody plays yet),
    then the players play for `seconds`, then every socket reads what is still coming until it
    shows the table the database holds; then `before_closing()`, and the sockets close."""
    players = [seat for seat in seats if seat.plays]
    people = {seat.code: sum(player.code == seat.code for player in players) for seat in seats}
    for seat in seats:
        seat.plays = False
    until = time.monotonic() + 120 + seconds
    running = asyncio.gather(*(seat.run(until) for seat in seats))
    # each table drawn, and the players' arrivals (presence, of the same version) drawn with it
    await until_async(
        lambda: all(seat.screen.version[1] >= 0 and seat.screen.online >= people[seat.code] for seat in seats),
        "every screen with its table and its players",
        seconds=60,
        every=0.1,
    )
    for seat in players:
        seat.plays = True
        asyncio.ensure_future(seat._decide())  # answer the table already shown
    await asyncio.sleep(seconds)  # time under test: play goes on for this long
    for seat in players:
        seat.plays = False  # (a decision still thinking sends nothing now)
    codes = {seat.code for seat in seats}

    def answered(seat: Seat) -> bool:
        """The seat's last move, if it sent one, has come back: applied (its screen shows a later
        version) or refused. Until then it may still be on its way to the database, and screens
        equal to the database now would miss it."""
        last = max(seat.sent, default=None)
        return last is None or seat.screen.version > last or seat.refused_at >= seat.sent[last]

    def caught_up() -> bool:  # (the screens' own check runs every second)
        held = {code: database_version(stack, code) for code in codes}
        return all(answered(seat) for seat in players) and all(seat.screen.version == held[seat.code] for seat in seats)

    await until_async(caught_up, "every screen showing the table the database holds", seconds=30, every=0.2)
    if before_closing is not None:
        before_closing()
    for seat in seats:
        seat.until = time.monotonic()
    await running


def test_pages_and_tables_spread_over_the_four_processes_and_every_screen_gets_every_move(stack):
    tables = []
    for n in range(TABLES):
        code, browsers = started_table(stack.nginx.port, 2, n=n, target=1000)
        tables.append((code, [Seat(browser, code, think=0.05, seed=n * 10 + i) for i, browser in enumerate(browsers)]))
    asyncio.run(connect_then_play(stack, [seat for _code, seats in tables for seat in seats], 5))

    served = [server.requests() for server in stack.servers]
    assert all(any(request.startswith(("GET /en/", "POST /en/")) for request in got) for got in served)
    on = [server.table_sockets() for server in stack.servers]
    for code, _seats in tables:  # nginx keeps a table's sockets together, on one process
        assert sum(code in codes for codes in on) == 1, (code, on)
    assert all(on), f"tables per process: {[len(codes) for codes in on]}"
    for code, seats in tables:
        held = database_version(stack, code)
        assert held[1] > 1, f"{code} did not move"
        assert [seat.screen.version for seat in seats] == [held] * len(seats), code


def test_a_move_crosses_to_a_screen_on_each_other_process_once(stack):
    """Ana plays through nginx, Ben straight to a process nginx did not pick for the table, and
    someone watches on each of the four: every move is made on one process and reaches the other
    three through Redis, each screen getting each version once, in order."""
    code, (ana, ben) = started_table(stack.nginx.port, 2, n=100, target=1000)
    servers = stack.servers
    probe = Seat(ana, code, plays=False)
    asyncio.run(connect_then_play(stack, [probe], 0))  # nginx picks the table's process now
    (home,) = [index for index, server in enumerate(servers) if code in server.table_sockets()]
    other = (home + 1) % SERVERS
    direct = Browser(servers[other].port, ben.address)
    direct.cookies = ben.cookies
    players = [Seat(ana, code, think=0.1, seed=1), Seat(direct, code, think=0.1, seed=2)]
    watchers = [
        Seat(Browser(server.port, address_of(5000 + index)), code, plays=False) for index, server in enumerate(servers)
    ]
    for watcher in watchers:
        watcher.screen = CountingScreen()

    def stop_recording() -> None:
        for watcher in watchers:
            watcher.screen.recording = False

    asyncio.run(connect_then_play(stack, [*players, *watchers], 6, stop_recording))

    held = database_version(stack, code)
    assert held[1] > 5, "too few moves to tell"
    for index, watcher in enumerate(watchers):
        first = watcher.screen.versions[0]  # the table as the socket opened
        later = [version for version in watcher.screen.versions if version > first]
        assert later == [(held[0], v) for v in range(first[1] + 1, held[1] + 1)], (index, watcher.screen.versions)
    assert all(code in server.table_sockets() for server in servers)
    assert [seat.screen.version for seat in players] == [held, held]


def test_a_deadline_all_four_processes_see_fires_once(stack):
    code, browsers = started_table(stack.nginx.port, 2, n=120, timer=15)
    watchers = [
        Seat(Browser(server.port, address_of(5100 + index)), code, plays=False)
        for index, server in enumerate(stack.servers)
    ]
    people = [Seat(browser, code, plays=False) for browser in browsers]  # seated and here: nobody is away
    number, version = database_version(stack, code)

    async def scenario() -> None:
        screens = [*people, *watchers]
        until = time.monotonic() + 60
        running = asyncio.gather(*(seat.run(until) for seat in screens))
        await until_async(lambda: all(seat.screen.version[1] >= 0 for seat in screens), "every table shown", 60)
        stack.postgres.sql(
            "UPDATE game_game SET deadline = now() - interval '1 second' "
            f"WHERE table_id = (SELECT id FROM game_table WHERE code = '{code}') AND number = {number}"
        )
        await until_async(lambda: all(seat.screen.version[1] > version for seat in screens), "the timeout shown", 30)
        # time under test: every process polls every 0.2 s; one that found the deadline due too
        # would apply it again within a poll or two (a version more, a second timeout row)
        await asyncio.sleep(1.0)
        for seat in screens:
            seat.until = time.monotonic()
        await running

    asyncio.run(scenario())
    ((timeouts,),) = stack.postgres.sql(
        "SELECT count(*) FROM game_event e JOIN game_game g ON g.id = e.game_id JOIN game_table t "
        f"ON t.id = g.table_id WHERE t.code = '{code}' AND e.kind = 'timeout'"
    )
    assert timeouts == 1
    assert database_version(stack, code) == (number, version + 1)
    assert [watcher.screen.version for watcher in watchers] == [(number, version + 1)] * SERVERS
