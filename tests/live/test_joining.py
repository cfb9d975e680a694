"""A screen that opens while its table changes: whatever happens between its reading of the
table and its joining of the table's messages reaches it, once, and presence messages that
arrive out of order leave it showing who is here now."""

from __future__ import annotations

import asyncio
import re

import pytest
from channels.db import database_sync_to_async

from game import services
from game.delivery import announce
from game.delivery.broadcast import send_async
from game.live import consumers, readings, watch
from game.screen import Screen
from game.services import presence
from tests.factories import act, game_of, open_table
from tests.live.test_consumers import WHOLE_TABLE, connect, drain, last_word, online
from tests.waiting import until_async

pytestmark = pytest.mark.django_db(transaction=True)
ONLINE = re.compile(r'<div id="table-presence" hidden data-online="([\d ]*)"')


def snapshot_of(table) -> dict:
    return services.table_reads.snapshot(table, game=game_of(table))


def log_events(table) -> list[dict]:
    return services.table_reads.log_events(game_of(table))


def online_shown(messages: list[str]) -> str:
    """Which seats the last of these frames marks connected."""
    return ONLINE.findall("".join(messages))[-1]


@database_sync_to_async
def started_table():
    return open_table(deck=["5", "9", "4", "1", "2", "3"])


async def test_someone_arriving_while_a_screen_reads_its_table_is_shown_connected(monkeypatch):
    """Ana's socket opens (elsewhere) while a spectator's screen reads the table, her arrival
    told to every screen just after that reading: the spectator sees her connected."""
    table, (ana, _ben) = await started_table()
    read_table = consumers._read_table

    async def read_as_ana_arrives(code):
        read = await read_table(code)
        with announce.held():  # told just after (below)
            arrival = await database_sync_to_async(presence.arrived)(code=code, player_key=ana.key, channel="ana-phone")
        await send_async(code, arrival)
        return read

    monkeypatch.setattr(consumers, "_read_table", read_as_ana_arrives)
    socket = await connect(table.code, None)
    first = await socket.receive_from(timeout=10)
    assert online_shown([first]) == ""  # nobody was connected when it read the table
    assert online_shown([first, *await drain(socket, online(0))]) == "0"
    await socket.disconnect()


async def test_a_move_made_while_a_screen_reads_its_table_reaches_it_once(monkeypatch):
    """Ben draws while Ana's screen reads the table: the move is on her screen, its line once
    in her log, whether it was saved before her reading (its message still on its way) or
    after it. (Its announcement is held, and sent after the reading: still on its way.)"""
    read_table, act = consumers._read_table, database_sync_to_async(services.game_act)
    for before_reading in (True, False):
        table, (ana, ben) = await started_table()

        async def read_as_ben_draws(code, before_reading=before_reading, ben=ben):
            with announce.held():
                if before_reading:
                    move = await act(code=code, player=ben, action={"kind": "draw"}, version=1)
                    read = await read_table(code)
                else:
                    read = await read_table(code)
                    move = await act(code=code, player=ben, action={"kind": "draw"}, version=1)
            await send_async(code, move)
            return read

        monkeypatch.setattr(consumers, "_read_table", read_as_ben_draws)
        socket = await connect(table.code, ana.key)
        frames = await drain(socket, WHOLE_TABLE)  # once it is drawn, a line said comes after the move's message
        frames += (await drain(socket, await last_word(table.code, ben)))[:-1]
        seen = "".join(frames)
        assert seen.count('log__line--drawn">Ben draws 4.</li>') == 1, (before_reading, frames)
        versions = re.findall(r'id="table-meta"[^>]*data-version="(\d+)"', seen)
        assert versions[-1] == "2", (before_reading, versions)
        if before_reading:
            assert len(frames) == 1, frames  # the late message draws nothing: the table shows it
        await socket.disconnect()


def test_a_presence_message_older_than_what_the_screen_knows_changes_nothing():
    """Presence messages are numbered by the table as they are made: a screen keeps the latest
    count, whichever order they arrive in, and a reading of the table that found count n is
    newer than message n (it was taken after it)."""
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    snapshot = snapshot_of(table)
    first = presence.arrived(code=table.code, player_key=ana.key, channel="ana")
    second = presence.arrived(code=table.code, player_key=ben.key, channel="ben")
    told = [first["events"][-1]["told"], second["events"][-1]["told"]]
    assert told[1] == told[0] + 1

    screen = Screen(None, "en")  # a spectator's: no seat of its own to mark
    assert online_shown([screen.full(snapshot, [], [], told=told[0] - 1)]) == ""
    assert online_shown([screen.update(second["snapshot"], second["events"])]) == "0 1"
    assert screen.update(first["snapshot"], first["events"]) == ""  # the older one, later: ignored
    assert screen.update(second["snapshot"], second["events"]) == ""

    again = Screen(None, "en")  # read after the second message was made: keeps its reading
    assert online_shown([again.full(snapshot, [], [0, 1], told=told[1])]) == "0 1"
    assert again.update(first["snapshot"], first["events"]) == ""
    assert again.update(second["snapshot"], second["events"]) == ""
    gone = presence.left(channel="ana")
    assert online_shown([again.update(gone["snapshot"], gone["events"])]) == "1"

    stale = Screen(None, "en")  # a reading as old as the first message: the second is newer
    stale.full(snapshot, [], [0], told=told[0])
    assert online_shown([stale.update(second["snapshot"], second["events"])]) == "0 1"


def test_an_update_whose_earlier_lines_never_came_asks_for_the_whole_log():
    """A presence message (sent after Ben's draw) drew the table of that version before the
    draw's own update, which was then lost: the next move's update finds the log one version
    short, so the screen reads the table and log again; its table alone would look current."""
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    screen = Screen(ana.key, "en")
    screen.full(snapshot_of(table), log_events(table), [0, 1], told=0)
    drawn = act(table, ben, {"kind": "draw"})  # version 2: its update is lost on the way
    arrived = presence.arrived(code=table.code, player_key=ben.key, channel="ben")
    assert arrived["snapshot"]["game"]["version"] == 2
    assert not screen.misses_lines_before(arrived["snapshot"], arrived["events"])
    assert "Ben draws 4." not in screen.update(arrived["snapshot"], arrived["events"])
    passed = act(table, ana, {"kind": "draw"})  # version 3
    assert screen.misses_lines_before(passed["snapshot"], passed["events"])
    assert not screen.misses_lines_before(drawn["snapshot"], drawn["events"])  # the lost one itself, late
    assert "Ben draws 4." in screen.update(drawn["snapshot"], drawn["events"])
    assert not screen.misses_lines_before(passed["snapshot"], passed["events"])


async def test_sockets_asking_together_share_a_reading_that_started_after_they_asked():
    """A reading under way may be older than a socket's joining of its table's messages: one who
    asks meanwhile waits for the next reading, which starts once that one is done and which all
    who ask meanwhile share (a crowd arriving costs two readings, not one each)."""
    database = {"version": 1}
    gates: list[asyncio.Event] = []

    async def read():
        seen = database["version"]  # the table as the database holds it when the reading starts
        gates.append(asyncio.Event())
        await gates[-1].wait()
        return seen

    first = asyncio.ensure_future(readings.fresh("T1", read))
    await until_async(lambda: gates, "the first reading under way")
    database["version"] = 2  # a move, broadcast before the next sockets joined
    crowd = [asyncio.ensure_future(readings.fresh("T1", read)) for _ in range(5)]
    await asyncio.sleep(0)  # one turn of the loop (no time): a reading the crowd began at once would be under way
    assert len(gates) == 1  # the next reading waits for the one under way
    gates[0].set()
    assert await first == 1
    await until_async(lambda: len(gates) == 2, "the next reading, once that one is done")
    gates[1].set()
    assert [await reading for reading in crowd] == [2] * 5
    assert len(gates) == 2
    assert await readings.fresh("T1", read_now(database)) == 2  # nothing under way: at once


def read_now(database):
    async def read():
        return database["version"]

    return read


async def test_a_socket_that_joins_while_another_s_reading_is_under_way_gets_the_move_made_meanwhile(monkeypatch):
    """Ana's screen is reading the table (the database thread is slow); Ben draws, his update is
    broadcast; then a spectator's socket joins and asks: it is shown the draw, which a share of
    Ana's reading (begun before it) would not hold, and whose broadcast came before it joined."""
    table, (ana, ben) = await started_table()
    release, read, read_table = asyncio.Event(), asyncio.Event(), consumers._read_table
    slow = {"once": True}
    asked, fresh = [], readings.fresh

    async def slow_read(code):
        reading = await read_table(code)
        if slow["once"]:  # Ana's: it read the table, then waits for its turn back on the loop
            slow["once"] = False
            read.set()
            await release.wait()
        return reading

    def noted(code, reading):
        asked.append(code)
        return fresh(code, reading)

    monkeypatch.setattr(consumers, "_read_table", slow_read)
    monkeypatch.setattr(readings, "fresh", noted)
    anas = await connect(table.code, ana.key)
    await asyncio.wait_for(read.wait(), 10)
    await database_sync_to_async(services.game_act)(code=table.code, player=ben, action={"kind": "draw"}, version=1)
    watching = asyncio.ensure_future(connect(table.code, None))
    await until_async(lambda: len(asked) == 2, "the spectator's socket asked for the table")
    release.set()
    spectator = await watching
    shown, seen = await drain(spectator, WHOLE_TABLE), await drain(anas, WHOLE_TABLE)
    said = await last_word(table.code, ben)  # after both tables: what comes before it is all there is
    shown = "".join(shown + (await drain(spectator, said))[:-1])
    assert re.findall(r'id="table-meta"[^>]*data-version="(\d+)"', shown)[-1] == "2"
    assert shown.count('log__line--drawn">Ben draws 4.</li>') == 1
    seen = "".join(seen + (await drain(anas, said))[:-1])
    assert seen.count('log__line--drawn">Ben draws 4.</li>') == 1  # Ana's: her reading, then the update
    for socket in (anas, spectator):
        await socket.disconnect()


async def test_a_chat_line_said_while_a_screen_joins_is_shown_once(monkeypatch):
    """Ben says something while Ana's screen opens: his line is in the chat it reads and its
    message reaches the socket after: the line shows once."""
    table, (ana, ben) = await started_table()
    read_table = consumers._read_table

    async def read_as_ben_speaks(code):
        read = await read_table(code)
        said = await database_sync_to_async(services.chat_post)(code=code, player=ben, text="hello there", phrase="")
        await send_async(code, said)
        return read

    monkeypatch.setattr(consumers, "_read_table", read_as_ben_speaks)
    socket = await connect(table.code, ana.key)
    frames = await drain(socket, WHOLE_TABLE)
    frames += (await drain(socket, await last_word(table.code, ana)))[:-1]  # all that came before a line said after
    assert "".join(frames).count("hello there") == 1, frames
    await socket.disconnect()


async def test_the_screens_check_leaves_a_socket_still_reading_its_table_alone(monkeypatch):
    """A socket joins its table's messages, then reads the table, slowly on a busy process: the
    screens' check does not take it for a screen left behind and read the table a second time."""
    table, (ana, _ben) = await started_table()
    release, reading, read_table, reads = asyncio.Event(), asyncio.Event(), consumers._read_table, []

    async def slow_read(code):
        reads.append(code)
        reading.set()
        await release.wait()
        return await read_table(code)

    monkeypatch.setattr(consumers, "_read_table", slow_read)
    monkeypatch.setattr(watch, "RESYNC_AFTER", 0.0)
    socket = await connect(table.code, ana.key)  # the handshake is answered before the reading
    await asyncio.wait_for(reading.wait(), 10)
    for _ in range(3):  # (a check that read it again would wait here for the reading under way)
        assert await asyncio.wait_for(watch.check_once(), 2) == 0
    release.set()
    frames = await drain(socket, WHOLE_TABLE)
    frames += (await drain(socket, await last_word(table.code, ana)))[:-1]  # all that came before a line said after
    assert sum('id="table"' in frame for frame in frames) == 1 and len(reads) == 1
    await socket.disconnect()
