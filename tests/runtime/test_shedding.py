"""A full process (game.runtime.capacity) turns new table sockets away with 4503, "busy, try
again later", before any database work, while the sockets it already has are served as before; it
takes new ones again once there is room. Full means SEVN_MAX_SOCKETS open, or work starting
SEVN_BUSY_DELAY_MS late (the probe: the wait for the database thread)."""

from __future__ import annotations

import asyncio
import json
import time

import channels.auth
import pytest
from asgiref.sync import sync_to_async

from game.live import admission, consumers
from game.runtime import capacity, limits
from tests.live.test_consumers import BOTH_ONLINE, WHOLE_TABLE, connect, drain, started_table
from tests.waiting import until_async

pytestmark = pytest.mark.django_db(transaction=True)


async def turned_away(socket, code: int = admission.CLOSE_BUSY) -> bool:
    """The socket was closed as busy (full, or a crowd being let in: `code`), with nothing sent
    before the close."""
    output = await socket.receive_output(timeout=2)
    return output == {"type": "websocket.close", "code": code}


async def test_a_full_process_turns_new_sockets_away_before_any_work_and_serves_the_open_ones(settings, monkeypatch):
    settings.SEVN_MAX_SOCKETS = 2
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    ana_socket, ben_socket = await connect(table.code, ana.key), await connect(table.code, ben.key)
    for socket in (ana_socket, ben_socket):
        await drain(socket, BOTH_ONLINE)
    work = []
    monkeypatch.setattr(channels.auth, "get_user", lambda scope: work.append("session and user"))
    monkeypatch.setattr(limits, "lookups_exhausted", lambda address: work.append("cache"))
    monkeypatch.setattr(consumers, "_read_table", lambda code: work.append("table"))

    newcomer = await connect(table.code, ben.key)
    assert await turned_away(newcomer)
    assert work == []  # no session or user looked up, no cache, no table read for it
    assert capacity.turned_away() == 1 and capacity.open_sockets() == 2
    monkeypatch.undo()

    await ben_socket.send_to(text_data=json.dumps({"kind": "draw", "version": 1}))  # the open ones play on
    await drain(ana_socket, 'data-version="2"')
    await ana_socket.disconnect()
    again = await connect(table.code, None)  # room again: it gets in
    assert 'id="table"' in await again.receive_from()
    for socket in (ben_socket, again):
        await socket.disconnect()


async def test_a_crowd_arriving_at_once_is_let_in_a_few_at_a_time(settings, monkeypatch):
    """SEVN_MAX_CONNECTING new sockets being let in at once (their tables not yet sent): the
    next newcomer is turned away until one of them has its table, told that only a crowd is
    being let in (it comes back within seconds, not after a full process's long pauses)."""
    settings.SEVN_MAX_CONNECTING = 1
    table, (ana, ben) = await started_table()
    release, real = asyncio.Event(), consumers._read_table

    async def slow_read(code):
        await release.wait()  # the database thread has a queue before this read
        return await real(code)

    monkeypatch.setattr(consumers, "_read_table", slow_read)
    first = await connect(table.code, ana.key)
    await until_async(lambda: capacity.connecting_now() == 1, "the first socket being let in")
    assert await turned_away(await connect(table.code, ben.key), admission.CLOSE_ARRIVING)
    release.set()
    assert 'id="table"' in await first.receive_from()
    assert capacity.connecting_now() == 0
    second = await connect(table.code, ben.key)
    assert 'id="table"' in await second.receive_from()
    for socket in (first, second):
        await socket.disconnect()


def test_a_process_late_and_letting_a_crowd_in_says_it_is_full_not_arriving(settings):
    """Turned away while a crowd is let in AND work waits: the lasting reason is the one said
    (the page's long pauses), not the passing one."""
    settings.SEVN_MAX_CONNECTING, settings.SEVN_BUSY_DELAY_MS = 1, 500
    letting_in = capacity.LettingIn()
    assert capacity.refusal() == "connecting"
    for _ in range(3):
        capacity.record_delay(2.0)
    assert capacity.refusal() == "delay"
    letting_in.done()
    assert capacity.refusal() == "delay" and capacity.turned_away() == 3


async def test_a_process_whose_work_starts_late_takes_no_new_socket_until_it_catches_up(settings):
    settings.SEVN_BUSY_DELAY_MS = 500
    table, (ana, ben) = await started_table()
    inside = await connect(table.code, ana.key)
    await drain(inside, WHOLE_TABLE)
    for _ in range(3):
        capacity.record_delay(2.0)  # three probes came back two seconds late
    assert capacity.reason_full() == "delay"
    assert await turned_away(await connect(table.code, ben.key))
    await inside.send_to(text_data=json.dumps({"kind": "chat", "text": "still here"}))
    await drain(inside, "still here")  # the socket it has is served
    while capacity.reason_full() is not None:
        capacity.record_delay(0.0)  # the probes come back on time: the smoothed delay fades
    later = await connect(table.code, ben.key)
    assert 'id="table"' in await later.receive_from()
    for socket in (inside, later):
        await socket.disconnect()


async def test_the_probe_counts_the_wait_for_the_database_thread(settings, monkeypatch):
    """Every database call of a process runs on one thread: work queued there waits, the event
    loop may be idle meanwhile. The probe hops to that thread, so the wait shows."""
    # Time under test: a wait behind the thread, measured. The probe every 0.05 s (not 0.5), so
    # that its errand is queued early in a hold of one second (not two).
    settings.SEVN_BUSY_DELAY_MS = 300
    monkeypatch.setattr(capacity, "PROBE_SECONDS", 0.05)
    probe = asyncio.ensure_future(capacity.probe_forever())
    try:
        await sync_to_async(time.sleep)(1.0)  # a database call holding the thread for a second
        await sync_to_async(lambda: None)()  # behind the probe's errand, queued meanwhile: it is back
        # its wait (>= 0.9 s, halved once) is over 300 ms
        await until_async(lambda: capacity.reason_full() == "delay", "the probe's late sample")
        # nothing holds it now: room again, as the probes come back on time
        await until_async(lambda: capacity.reason_full() is None, "room again")
    finally:
        probe.cancel()


async def test_open_sockets_are_counted_back_to_zero_whatever_closed_them(settings):
    async def settled(socket) -> list[str]:
        """What it was sent: up to its table, or its refusal and close."""
        outputs = []
        while True:
            output = await socket.receive_output(timeout=10)
            outputs.append(output["type"])
            if output["type"] == "websocket.close" or WHOLE_TABLE in output.get("text", ""):
                return outputs

    settings.SEVN_MAX_SOCKETS_PER_ADDRESS = 2
    table, (ana, ben) = await started_table()
    sockets = [await connect(table.code, ana.key), await connect(table.code, ben.key)]
    sockets.append(await connect(table.code, None))  # over the address's limit: refused (4430)
    settings.SEVN_MAX_SOCKETS_PER_ADDRESS = 64
    sockets.append(await connect("NOSUCH", None))  # no table (4404)
    closes = [(await settled(socket))[-1] for socket in sockets]
    assert closes == ["websocket.send", "websocket.send", "websocket.close", "websocket.close"]
    settings.SEVN_MAX_SOCKETS = 2
    sockets.append(await connect(table.code, None))  # busy (4503)
    assert await settled(sockets[-1]) == ["websocket.close"]
    assert capacity.open_sockets() == 2 and capacity.connecting_now() == 0
    for socket in sockets:
        await socket.disconnect()
    assert capacity.open_sockets() == 0


def test_the_table_page_says_busy_in_its_language(client, db):
    from tests.factories import open_table

    table, _players = open_table()
    for prefix, busy in (
        ("en", "The server is busy: retrying in a moment…"),
        ("de", "Der Server ist ausgelastet: erneuter Versuch in Kürze\u00a0…"),
        ("nl", "De server is overbelast: zo meteen een nieuwe poging…"),
        ("pl", "Serwer jest przeciążony: za chwilę ponowna próba…"),
        ("fr", "Le serveur est surchargé\u202f: nouvelle tentative dans un instant…"),
    ):
        page = client.get(f"/{prefix}/t/{table.code}/").content.decode()
        assert f'data-busy="{busy}"' in page, prefix


def test_health_says_when_a_process_is_full(client, settings, db):
    settings.SEVN_MAX_SOCKETS = 1
    capacity.socket_opened()
    body = client.get("/healthz").json()
    assert body["status"] == "ok" and body["full"] == "sockets" and body["table_sockets"] == 1
    capacity.socket_closed()
    assert client.get("/healthz").json()["full"] is None
