"""A full server on the README's stack (deploy/local_stack.py, one Daphne behind nginx here, on
PostgreSQL and Redis): with SEVN_MAX_SOCKETS open, the process turns a new table socket away
as busy (4503) before any work; the load client, as the page does, counts it as busy (not an
error) and tries again after a growing pause, and gets in once someone leaves. The people
already seated play on meanwhile, their moves applied and shown as ever."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct
import time

import pytest

from deploy.local_stack import Stack
from deploy.players import CLOSE_BUSY, Browser, Seat, address_of, errors_of, started_table
from game.live import transport
from tests.waiting import until, until_async

ROOM = 2  # table sockets the process takes


@pytest.fixture(scope="module")
def stack():
    with Stack(servers=1, env={"SEVN_MAX_SOCKETS": str(ROOM), "SEVN_BOT_DELAY_MS": "0"}) as running:
        yield running


async def until_true(check, seconds: float = 60) -> None:
    """Once `check()` holds (asked every 0.1 s: it may read the stack's database)."""
    await until_async(check, "it happened", seconds, every=0.1)


def test_a_new_socket_waits_as_busy_while_the_server_is_full_and_gets_in_once_there_is_room(stack):
    code, browsers = started_table(stack.nginx.port, 2, n=4600)
    people = [Seat(browser, code, think=0.05, seed=i) for i, browser in enumerate(browsers)]
    newcomer = Seat(Browser(stack.nginx.port, address_of(4600 * 8 + 5)), code, plays=False)

    async def scene() -> None:
        until = time.monotonic() + 120
        playing = [asyncio.ensure_future(seat.run(until)) for seat in people]
        await until_true(lambda: all(seat.screen.version[1] >= 1 for seat in people))
        waiting = asyncio.ensure_future(newcomer.run(until))
        await until_true(lambda: newcomer.errors["busy_shed"] >= 1)
        shown = people[0].screen.version
        await until_true(lambda: people[0].screen.version[1] >= shown[1] + 3)  # the seated play on
        people[1].until = time.monotonic()  # one of them leaves: room for one
        await playing[1]
        await until_true(lambda: newcomer.screen.version != (0, -1))  # in, with the table
        for seat in (people[0], newcomer):
            seat.until = time.monotonic()
        await asyncio.gather(playing[0], waiting)

    asyncio.run(scene())
    figures = stack.servers[0].health()[1]
    assert newcomer.errors["busy_shed"] >= 1 and figures["turned_away"] >= newcomer.errors["busy_shed"]
    assert errors_of(newcomer.errors) == 0 and newcomer.screen.version[0] >= 1
    assert all(errors_of(seat.errors) == 0 for seat in people), [dict(seat.errors) for seat in people]
    # every socket counted out again, once the server has seen them close
    until(lambda: stack.servers[0].health()[1]["table_sockets"] == 0, "every socket counted out", 10, every=0.1)


def turned_away_and_dropped(port: int, code: str) -> tuple[bytes, float]:
    """A table socket asked for through nginx at nine tenths into a second of the clock, that
    never answers the server's close: what came back, and how long after the close the server
    dropped the connection."""
    while not 0.9 <= time.time() % 1 < 0.95:  # time under test: autobahn's timers round down to the whole second
        time.sleep(0.01)
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(
            (
                f"GET /ws/t/{code}/?lang=en HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
                f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n"
            ).encode()
        )
        received, closed_at = b"", None
        while True:
            try:
                chunk = sock.recv(4096)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
            if closed_at is None and b"\r\n\r\n" in received and len(received.split(b"\r\n\r\n", 1)[1]) >= 4:
                closed_at = time.monotonic()
        return received, time.monotonic() - (closed_at or time.monotonic())


def test_a_socket_turned_away_is_given_seconds_to_answer_the_close_not_dropped_before_its_handshake(stack):
    """A busy turn-away is a handshake, then a close (4503) the client answers. autobahn's own
    wait for that answer ("1 s", which its timers round down to the whole second: at nine tenths
    into a second, 0.1 s) dropped the connection of a loaded process before nginx had read the
    handshake: nginx saw a reset and answered 502 when no other process had room. The server
    waits CLOSE_HANDSHAKE_SECONDS (game.live.transport) now, from any moment of the second."""
    code, browsers = started_table(stack.nginx.port, 2, n=4700)
    people = [Seat(browser, code, plays=False) for browser in browsers]

    async def full_then_knock() -> list[tuple[bytes, float]]:
        until = time.monotonic() + 60
        sitting = [asyncio.ensure_future(seat.run(until)) for seat in people]  # ROOM sockets: full
        await until_true(lambda: all(seat.screen.version != (0, -1) for seat in people))
        knocks = await asyncio.gather(
            *(asyncio.to_thread(turned_away_and_dropped, stack.nginx.port, code) for _ in range(3))
        )
        for seat in people:
            seat.until = time.monotonic()
        await asyncio.gather(*sitting)
        return knocks

    for received, waited in asyncio.run(full_then_knock()):
        assert received.startswith(b"HTTP/1.1 101 "), received[:80]
        frame = received.split(b"\r\n\r\n", 1)[1]
        assert frame[0] == 0x88 and struct.unpack("!H", frame[2:4])[0] == CLOSE_BUSY, frame  # "busy", unmasked
        assert transport.CLOSE_HANDSHAKE_SECONDS - 1 <= waited <= transport.CLOSE_HANDSHAKE_SECONDS + 5, waited


def test_people_a_full_server_kept_out_past_grace_get_their_turn_back_when_they_get_in(stack):
    """Kept out long enough to count as gone (turned away as busy, say: no socket for
    presence.GRACE), a person's pending decision is due within ABSENT_TURN (3 s). Once their
    socket opens it is theirs again: they take longer than that to answer the table they are
    shown, and their move is applied, with no timeout taking it first and no stale refusal."""
    code, browsers = started_table(stack.nginx.port, 2, n=4800)
    stack.postgres.sql(
        "UPDATE game_seat SET last_seen = now() - interval '20 seconds' "
        f"WHERE table_id = (SELECT id FROM game_table WHERE code = '{code}')"
    )

    def hurried() -> bool:
        return bool(
            stack.postgres.sql(
                "SELECT 1 FROM game_game g JOIN game_table t ON t.id = g.table_id "
                f"WHERE t.code = '{code}' AND g.deadline < now() + interval '4 seconds'"
            )
        )

    people = [Seat(browser, code, think=4.0, seed=i) for i, browser in enumerate(browsers)]

    def actions_and_timeouts() -> list[tuple]:
        return stack.postgres.sql(
            "SELECT e.kind, e.data ? 'bot' FROM game_event e JOIN game_game g ON g.id = e.game_id "
            f"JOIN game_table t ON t.id = g.table_id WHERE t.code = '{code}' AND e.kind IN ('action', 'timeout')"
        )

    async def scene() -> None:
        await until_true(hurried, seconds=20)  # the server's sweep counted them gone
        running = [asyncio.ensure_future(seat.run(time.monotonic() + 30)) for seat in people]
        # they answer after thinking 4 s, past ABSENT_TURN (time under test): until a person's move is in
        await until_true(lambda: {("action", False), ("timeout", False)} & set(actions_and_timeouts()), seconds=30)
        for seat in people:
            seat.until = time.monotonic()
        await asyncio.gather(*running)

    asyncio.run(scene())
    events = actions_and_timeouts()
    assert ("timeout", False) not in events, events
    assert ("action", False) in events, events  # a person's own move, applied
    assert all(errors_of(seat.errors) == 0 for seat in people), [dict(seat.errors) for seat in people]
