"""A table socket under faults and abuse: crashes and bad input leave no task behind, a
flooding socket is slowed then closed without touching other tables, a lost broadcast is found
and drawn, and moves carry their version."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async

from game import services
from game.delivery import announce
from game.live import consumers, watch
from game.models import Presence
from game.services import presence
from tests.live.test_consumers import (
    BOTH_ONLINE,
    WHOLE_TABLE,
    connect,
    current_state,
    drain,
    first_with,
    last_word,
    online,
    started_table,
    version_of,
)
from tests.waiting import until_async

pytestmark = pytest.mark.django_db(transaction=True)


def live_tasks() -> int:
    return sum(1 for task in asyncio.all_tasks() if not task.done())


async def settled(before: int) -> None:
    """Once the tasks a closed socket left have ended (no more than there were before it)."""
    await until_async(lambda: live_tasks() == before, "the socket's tasks ended", seconds=5)


FUZZ = [
    '{"kind":"freeze","seat":Infinity,"version":1}',
    '{"kind":"freeze","seat":-Infinity,"version":1}',
    '{"kind":"freeze","seat":1e400,"version":1}',
    '{"kind":"crossroads","pick":Infinity,"version":1}',
    '{"kind":"crossroads","pick":true,"version":1}',
    '{"kind":"freeze","seat":1.9,"version":1}',
    '{"kind":"draw","version":1,"x":' + "[" * 1000 + "]" * 1000 + "}",
    '{"kind":"draw"}',
    "\x00",
    "{",
]


async def test_fuzzed_messages_get_an_answer_close_nothing_and_leave_no_task():
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    before = live_tasks()
    socket = await connect(table.code, ben.key)
    await drain(socket, WHOLE_TABLE)
    for text in FUZZ:  # each answered, in turn
        await socket.send_to(text_data=text)
        assert 'class="toast"' in await first_with(socket, "toast"), text
    await socket.send_to(bytes_data=b"\x00\x01")
    assert 'class="toast"' in await first_with(socket, "toast")
    assert await version_of(table) == 1
    await socket.send_to(text_data=json.dumps({"kind": "draw", "version": 1}))  # still open and playing
    await drain(socket, 'data-version="2"')
    await socket.disconnect()
    await settled(before)
    assert not await database_sync_to_async(Presence.objects.exists)()


async def test_a_crashing_handler_leaves_no_task_and_marks_the_player_gone(monkeypatch):
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    before = live_tasks()
    socket = await connect(table.code, ben.key)
    await drain(socket, WHOLE_TABLE)
    assert await database_sync_to_async(Presence.objects.count)() == 1

    async def crash(self, error):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(consumers.TableConsumer, "_refuse", crash)
    await socket.send_to(text_data=json.dumps({"kind": "fly", "version": 1}))
    with pytest.raises(RuntimeError):
        await socket.wait(timeout=2)
    await settled(before)
    assert not await database_sync_to_async(Presence.objects.exists)()
    assert watch.count() == 0


async def test_a_failing_group_discard_still_forgets_the_socket(monkeypatch):
    table, (ana, ben) = await started_table()
    before = live_tasks()
    socket = await connect(table.code, ben.key)
    await drain(socket, WHOLE_TABLE)

    async def unreachable(*args, **kwargs):
        raise ConnectionError("redis went away")

    from channels.layers import get_channel_layer

    monkeypatch.setattr(get_channel_layer("local"), "group_discard", unreachable)
    await socket.disconnect()
    await settled(before)
    assert not await database_sync_to_async(Presence.objects.exists)()


async def test_a_flooding_socket_is_slowed_then_closed_while_another_table_plays_on(settings, monkeypatch):
    settings.SEVN_SOCKET_RATE, settings.SEVN_SOCKET_BURST, settings.SEVN_SOCKET_CLOSE_AFTER = 5, 10, 100
    calls = []
    real = services.game_act

    def counted(**kwargs):
        calls.append(kwargs["code"])
        return real(**kwargs)

    monkeypatch.setattr(services, "game_act", counted)
    flooded, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    quiet, (cleo, dan) = await started_table(deck=["5", "9", "4", "1", "2"], names=("Cleo", "Dan"))
    flooder, dan_socket, cleo_socket = (
        await connect(flooded.code, ana.key),
        await connect(quiet.code, dan.key),
        await connect(quiet.code, cleo.key),
    )
    await drain(flooder, WHOLE_TABLE)
    for socket in (dan_socket, cleo_socket):
        await drain(socket, BOTH_ONLINE)
    stale = json.dumps({"kind": "draw", "version": 0})
    for _ in range(150):
        await flooder.send_to(text_data=stale)
    replies = []
    while True:
        output = await flooder.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            break
        replies.append(output["text"])
    assert output["code"] == consumers.CLOSE_FLOODING and "too many messages" in output["reason"]
    assert any("Slow down" in reply for reply in replies) and "too many messages and was closed" in replies[-1]
    assert all('id="table"' not in reply for reply in replies)  # refusals never redraw the table
    assert calls == []  # stale moves were refused from the screen, without the database
    await dan_socket.send_to(text_data=json.dumps({"kind": "draw", "version": 1}))
    await drain(cleo_socket, 'data-version="2"')
    assert await version_of(flooded) == 1
    for socket in (dan_socket, cleo_socket):
        await socket.disconnect()


async def test_too_many_sockets_from_one_address_are_refused_with_a_reason(settings):
    settings.SEVN_MAX_SOCKETS_PER_ADDRESS = 2
    table, (ana, ben) = await started_table()
    first, second = await connect(table.code, ana.key), await connect(table.code, ben.key)
    third = await connect(table.code, None)
    assert "Too many open tables" in await third.receive_from()
    closing = await third.receive_output()
    assert closing["type"] == "websocket.close" and closing["code"] == consumers.CLOSE_TOO_MANY_SOCKETS
    await first.disconnect()
    fourth = await connect(table.code, None)  # a closed socket frees its place
    assert 'id="table"' in await fourth.receive_from()
    for socket in (second, fourth):
        await socket.disconnect()


async def test_a_move_whose_broadcast_fails_still_reaches_this_servers_screens(monkeypatch):
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    ana_socket, ben_socket = await connect(table.code, ana.key), await connect(table.code, ben.key)
    await drain(ana_socket, BOTH_ONLINE)
    await drain(ben_socket, BOTH_ONLINE)

    async def layer_down(code, update):
        raise ConnectionError("redis restarting")

    monkeypatch.setattr(watch, "send_async", layer_down)
    await ben_socket.send_to(text_data=json.dumps({"kind": "draw", "version": 1}))
    for socket in (ana_socket, ben_socket):
        assert "Ben draws 4." in await first_with(socket, 'data-version="2"')
    for socket in (ana_socket, ben_socket):
        await socket.disconnect()


async def test_a_screen_that_missed_a_move_finds_out_from_the_database(monkeypatch):
    """A move committed but never broadcast (the layer lost it): the check finds the screen
    behind, and once nothing has arrived for RESYNC_AFTER, draws it again. (Time under test, on
    the consumers' own clock: RESYNC_AFTER passes at once.)"""
    clock = {"now": 1000.0}
    monkeypatch.setattr(consumers, "time", SimpleNamespace(monotonic=lambda: clock["now"]))
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    socket = await connect(table.code, ana.key)
    await drain(socket, WHOLE_TABLE)
    with announce.held():  # and never sent: lost
        await database_sync_to_async(services.game_act)(code=table.code, player=ben, action={"kind": "draw"}, version=1)
    assert await watch.check_once() == 0  # an update may still be on its way
    clock["now"] += watch.RESYNC_AFTER / 2
    assert await watch.check_once() == 0
    clock["now"] += watch.RESYNC_AFTER / 2
    assert await watch.check_once() == 1
    assert "Ben draws 4." in await first_with(socket, 'data-version="2"')
    assert await watch.check_once() == 0 and await watch.check_once() == 0  # caught up: nothing more
    await socket.disconnect()


async def test_the_heartbeat_refreshes_live_sockets_only():
    table, (ana, ben) = await started_table()
    ana_socket, ben_socket = await connect(table.code, ana.key), await connect(table.code, ben.key)
    for socket in (ana_socket, ben_socket):
        await drain(socket, BOTH_ONLINE)
    await database_sync_to_async(Presence.objects.update)(seen="2000-01-01T00:00:00Z")
    await ben_socket.disconnect()
    await watch.heartbeat()
    rows = await database_sync_to_async(lambda: list(Presence.objects.values_list("player_key", "seen")))()
    assert [key for key, _seen in rows] == [ana.key] and rows[0][1].year > 2000
    await ana_socket.disconnect()


async def test_a_live_sockets_row_a_sweep_took_for_stale_comes_back_at_the_next_heartbeat():
    """A process too busy to beat in time has its rows swept as stale while its sockets live:
    the next heartbeat makes them again, so the person at their screen does not count as gone.
    A socket closed meanwhile stays gone."""
    table, (ana, ben) = await started_table()
    ana_socket, ben_socket = await connect(table.code, ana.key), await connect(table.code, ben.key)
    for socket in (ana_socket, ben_socket):
        await drain(socket, BOTH_ONLINE)
    await database_sync_to_async(Presence.objects.all().delete)()  # the sweep of stale rows
    await ben_socket.disconnect()
    await watch.heartbeat()
    rows = await database_sync_to_async(lambda: list(Presence.objects.values_list("player_key", "table__code")))()
    assert rows == [(ana.key, table.code)]
    await watch.heartbeat()  # nothing missing now: nothing made twice
    assert await database_sync_to_async(Presence.objects.count)() == 1
    await ana_socket.disconnect()
    assert await database_sync_to_async(Presence.objects.count)() == 0


async def test_screens_see_a_socket_a_sweep_took_for_stale_go_and_come_back():
    """Ben's row went stale (his process too busy to vouch for it in time, or killed): the sweep
    removes it and tells Ana's screen he is not connected; his process, alive after all, makes
    his row again at its next heartbeat and tells her he is."""
    table, (ana, ben) = await started_table()
    ana_socket, ben_socket = await connect(table.code, ana.key), await connect(table.code, ben.key)
    for socket in (ana_socket, ben_socket):
        await drain(socket, BOTH_ONLINE)
    await database_sync_to_async(Presence.objects.filter(player_key=ben.key).update)(seen="2000-01-01T00:00:00Z")
    await watch.call(presence.mark_absent)
    await drain(ana_socket, online(0))
    await watch.heartbeat()
    await drain(ana_socket, BOTH_ONLINE)
    await watch.heartbeat()  # nothing missing now: nothing told before a line said after it
    assert len(await drain(ana_socket, await last_word(table.code, ana))) == 1
    for socket in (ana_socket, ben_socket):
        await socket.disconnect()


async def test_the_heartbeat_comes_by_the_clock_however_long_each_screens_check_waits(monkeypatch):
    """On a loaded process each screens' check waits seconds for the database thread; the
    heartbeat still comes every HEARTBEAT of real time (counting ten checks made it 30 s here,
    and the rows of people at their screens went stale: they counted as gone)."""
    clock = {"now": 1000.0}
    beats: list[float] = []

    async def slow_check() -> int:
        clock["now"] += 3.0  # each check takes 3 s of the clock
        if clock["now"] > 1100:
            raise asyncio.CancelledError
        return 0

    async def beat() -> None:
        beats.append(clock["now"])

    monkeypatch.setattr(watch.time, "monotonic", lambda: clock["now"])
    monkeypatch.setattr(watch, "CHECK_SECONDS", 0)
    monkeypatch.setattr(watch, "check_once", slow_check)
    monkeypatch.setattr(watch, "heartbeat", beat)
    with pytest.raises(asyncio.CancelledError):
        await watch.run_forever()
    gaps = [later - earlier for earlier, later in zip(beats, beats[1:], strict=False)]
    heartbeat = watch.presence.HEARTBEAT.total_seconds()
    assert len(beats) >= 8 and max(gaps) <= heartbeat + 3.0 < watch.presence.STALE_AFTER.total_seconds(), beats


async def test_a_screen_that_is_up_to_date_is_never_redrawn_by_the_check():
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    sockets = [await connect(table.code, ana.key), await connect(table.code, ben.key), await connect(table.code, None)]
    for socket in sockets:
        await drain(socket, BOTH_ONLINE)
    await sockets[1].send_to(text_data=json.dumps({"kind": "draw", "version": 1}))
    for socket in sockets:
        await drain(socket, 'data-version="2"')
    assert [await watch.check_once() for _ in range(3)] == [0, 0, 0]
    for socket in sockets:
        await socket.disconnect()


async def test_an_update_after_a_gap_in_versions_brings_the_whole_log():
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2", "3"])
    socket = await connect(table.code, ana.key)
    await drain(socket, WHOLE_TABLE)
    act = database_sync_to_async(services.game_act)
    with announce.held():  # its update lost
        await act(code=table.code, player=ben, action={"kind": "draw"}, version=1)
    await act(code=table.code, player=ana, action={"kind": "draw"}, version=2)
    html = "".join(await drain(socket, 'id="log"'))
    assert "Ben draws 4." in html and 'data-version="3"' in html
    await socket.disconnect()


async def test_two_identical_moves_on_two_sockets_apply_once():
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    first, second = await connect(table.code, ben.key), await connect(table.code, ben.key)
    await drain(first, WHOLE_TABLE)
    await drain(second, WHOLE_TABLE)
    move = json.dumps({"kind": "draw", "version": 1})
    await asyncio.gather(first.send_to(text_data=move), second.send_to(text_data=move))
    replies = await drain(first, 'data-version="2"') + await drain(second, 'data-version="2"')
    for socket in (first, second):  # a socket answers its messages in turn: its move's answer came first
        await socket.send_to(text_data="not json")
        replies += await drain(socket, "That move was not understood.")
    replies = "".join(replies)
    assert await version_of(table) == 2
    assert "The table changed before your move arrived" in replies
    assert len((await current_state(table))["seats"][1]["row"]) == 2  # dealt one, drew one
    for socket in (first, second):
        await socket.disconnect()


async def test_the_last_socket_of_a_player_closing_tells_the_others_at_once():
    table, (ana, ben) = await started_table()
    ana_socket, ben_socket = await connect(table.code, ana.key), await connect(table.code, ben.key)
    await drain(ana_socket, BOTH_ONLINE)
    await drain(ben_socket, BOTH_ONLINE)
    await ben_socket.disconnect()
    await drain(ana_socket, online(0))
    await ana_socket.disconnect()


async def test_a_spectator_without_a_session_sees_who_is_here_in_its_first_table():
    """A watcher's socket changes no presence (it has no seat), so nothing would tell it who is
    here until someone came or went: its first table says so itself."""
    table, (ana, ben) = await started_table()
    ana_socket = await connect(table.code, ana.key)
    await drain(ana_socket, WHOLE_TABLE)
    watcher = await connect(table.code, None)
    first = await watcher.receive_from()
    assert 'id="table-presence" hidden data-online="0" data-known' in first
    for socket in (watcher, ana_socket):
        await socket.disconnect()


@pytest.mark.parametrize("lang, said", [("en", "Too many messages from this address"), ("pl", "Za dużo wiadomości")])
async def test_an_address_that_flooded_is_told_why_and_closed_before_any_database_work(monkeypatch, lang, said):
    """Its new sockets are opened only to say why, in the page's language, and closed for good
    (4429: the page says it is disconnected, with the reason and Reload, not "Reconnecting…");
    no session, user or table is looked up for them."""
    import channels.auth
    from channels.testing import WebsocketCommunicator

    from game.runtime import limits
    from sevn_site.asgi import application
    from tests.live.test_consumers import HOST, ORIGIN

    table, (ana, _ben) = await started_table()
    work = []
    monkeypatch.setattr(channels.auth, "get_user", lambda scope: work.append("session and user"))
    monkeypatch.setattr(consumers, "_read_table", lambda code: work.append("table"))
    limits.penalise(limits.client_address({}))  # the test communicator's scope names no client
    socket = WebsocketCommunicator(application, f"/ws/t/{table.code}/?lang={lang}", headers=[ORIGIN, HOST])
    connected, _ = await socket.connect()
    assert connected
    toast = await socket.receive_from()
    assert 'data-reason="flooding"' in toast and said in toast
    assert await socket.receive_output() == {"type": "websocket.close", "code": 4429}
    assert work == []
