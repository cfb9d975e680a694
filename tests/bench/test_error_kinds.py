"""Every kind of error the load client counts (deploy/players.py, bench/service_load.py's
"error_kinds"), each made here: the real table socket refuses or closes, what it sent is played
to the load client's Seat as if over the wire, and the Seat counts exactly that kind. The kinds
no message of ours makes (a dropped connection, a refused or slow handshake) are played to it
as the websockets library reports them."""

from __future__ import annotations

import json
import time

import pytest
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.frames import Close
from websockets.http11 import Response

from deploy.players import Browser, Seat, errors_of
from game import services
from game.live import admission, consumers
from tests.live.test_consumers import WHOLE_TABLE, connect, drain, started_table

pytestmark = pytest.mark.django_db(transaction=True)

STALE = json.dumps({"kind": "draw", "version": "0"})


class Replay:
    """One socket's messages as the server sent them, then its close (None: it stays open;
    1006: the connection dropped, with no close frame, as websockets reports it)."""

    def __init__(self, texts: list[str], code: int | None) -> None:
        self.texts, self.code = list(texts), code
        self.seat: Seat | None = None  # the seat reading it (counted() says)

    async def recv(self) -> str:
        if self.texts:
            return self.texts.pop(0)
        if self.code is not None:
            raise ConnectionClosed(None if self.code == 1006 else Close(self.code, ""), None)
        # open and quiet, as a read that times out says: nothing more comes, and the seat has met
        # all there was to meet, so its time is up now
        if self.seat is not None:
            self.seat.until = time.monotonic()
        raise TimeoutError

    async def send(self, text: str) -> None:
        pass

    async def close(self) -> None:
        pass


async def transcript(socket, until: str | None = None) -> Replay:
    """What a communicator's consumer sent from now on: its messages up to its close, or (with
    `until`) up to the first that says `until`, the socket then left open."""
    texts = []
    while True:
        output = await socket.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return Replay(texts, output["code"])
        texts.append(output["text"])
        if until is not None and until in texts[-1]:
            return Replay(texts, None)


async def counted(*attempts, seconds: float = 10) -> Seat:
    """A load client's Seat that meets these connection attempts in turn (a Replay, or what the
    attempt raised), then a quiet open socket; its counts by kind. It stops once an open socket
    has nothing more to say (or after `seconds`: a deadline, not a wait)."""
    seat = Seat(Browser(0), "TABLE", plays=False)
    waiting = list(attempts)

    async def connect_next() -> None:
        attempt = waiting.pop(0) if waiting else Replay([], None)
        if isinstance(attempt, BaseException):
            raise attempt
        attempt.seat = seat
        seat.socket = attempt

    seat.connect = connect_next
    await seat.run(time.monotonic() + seconds)
    return seat


async def refusal(message: str, key: str = "ben") -> Replay:
    """Ben's (or a watcher's) socket at a started table after it sent `message`."""
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    socket = await connect(table.code, ben.key if key == "ben" else ana.key if key == "ana" else None)
    await drain(socket, WHOLE_TABLE)
    await socket.send_to(text_data=message)
    replay = await transcript(socket, 'class="toast"')
    await socket.disconnect()
    return replay


@pytest.mark.parametrize(
    "message, key, kind",
    [
        (STALE, "ben", "toast_stale"),  # made on a table that has changed since
        (json.dumps({"kind": "draw", "version": "1"}), "ana", "toast_not_your_turn"),
        (json.dumps({"kind": "draw", "version": "1"}), None, "toast_spectator"),
        ("not json", "ben", "toast_malformed"),
        (json.dumps({"kind": "draw", "version": "1", "pad": "x" * 5000}), "ben", "toast_too_big"),
        (json.dumps({"kind": "draw"}), "ben", "toast_no_version"),
    ],
)
async def test_each_refusal_of_a_move_is_counted_as_its_own_kind(message, key, kind):
    seat = await counted(await refusal(message, key))
    assert dict(seat.errors) == {kind: 1} and errors_of(seat.errors) == 1


async def test_a_move_that_fails_on_the_server_is_a_server_error(monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("the database went away mid-move")

    monkeypatch.setattr(services, "game_act", broken)
    seat = await counted(await refusal(json.dumps({"kind": "draw", "version": "1"})))
    assert dict(seat.errors) == {"toast_server_error": 1}


async def test_slow_down_notices_and_the_flooding_close_are_counted_apart(settings):
    settings.SEVN_SOCKET_RATE, settings.SEVN_SOCKET_BURST, settings.SEVN_SOCKET_CLOSE_AFTER = 1, 2, 20
    table, (ana, ben) = await started_table()
    socket = await connect(table.code, ben.key)
    await drain(socket, WHOLE_TABLE)
    for _ in range(40):
        await socket.send_to(text_data=STALE)
    replay = await transcript(socket)
    assert replay.code == consumers.CLOSE_FLOODING
    seat = await counted(replay)
    # the closing toast is the close's reason, not an error of its own
    assert seat.errors["closed_4429_flooding"] == 1 and seat.errors["toast_slow_down"] >= 1
    assert set(seat.errors) == {"closed_4429_flooding", "toast_slow_down", "toast_stale"}


async def test_sockets_refused_as_they_open_are_counted_by_close_and_reason(settings):
    table, (ana, ben) = await started_table()
    settings.SEVN_MAX_SOCKETS_PER_ADDRESS = 1
    first = await connect(table.code, ana.key)
    too_many = await transcript(await connect(table.code, ben.key))
    await first.disconnect()
    settings.SEVN_MAX_SOCKETS_PER_ADDRESS, settings.SEVN_LOOKUPS_PER_MINUTE = 64, 1
    no_table = await transcript(await connect("ZZZZZ1", None))
    await transcript(await connect("ZZZZZ2", None))
    lookups = await transcript(await connect(table.code, ana.key))  # the address asked about too many
    seat = await counted(too_many, no_table, lookups)
    assert dict(seat.errors) == {
        "closed_4430_too_many_sockets": 1,
        "closed_4404_no_table": 1,
        "closed_4429_lookups": 1,
    }


@pytest.mark.parametrize(
    "attempt, kind",
    [
        (Replay([], 4429), "closed_4429"),  # Daphne's frame guard closes with no toast
        (Replay([], None), None),  # (a quiet open socket: nothing)
        (Replay([], 1006), "closed_1006"),  # dropped: no close frame at all (a process killed)
        (InvalidStatus(Response(429, "Too Many Requests", Headers())), "handshake_429"),
        (InvalidStatus(Response(403, "Forbidden", Headers())), "handshake_403"),
        (TimeoutError(), "handshake_timeout"),
        (ConnectionRefusedError(), "connect_failed"),
        (InvalidHandshake("not a WebSocket answer"), "handshake_invalid"),
    ],
)
async def test_connections_that_fail_without_a_message_of_ours_are_counted_by_how(attempt, kind):
    seat = await counted(attempt)
    assert dict(seat.errors) == ({kind: 1} if kind else {})


async def test_a_server_turning_a_new_socket_away_is_busy_not_an_error(settings):
    settings.SEVN_MAX_SOCKETS = 1
    table, (ana, ben) = await started_table()
    inside = await connect(table.code, ana.key)
    await drain(inside, WHOLE_TABLE)
    turned_away = await transcript(await connect(table.code, ben.key))
    assert turned_away.texts == [] and turned_away.code == admission.CLOSE_BUSY
    await inside.disconnect()
    getting_in = await connect(table.code, ben.key)
    seat = await counted(turned_away, await transcript(getting_in, WHOLE_TABLE))
    assert dict(seat.errors) == {"busy_shed": 1} and errors_of(seat.errors) == 0
    assert seat.screen.version[1] == 1  # it tried again and got its table
    await getting_in.disconnect()
