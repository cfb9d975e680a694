"""The live table socket: per-viewer views, errors only to the sender, refusals, secrets."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from game.core.identity import NICKNAME_KEY, SESSION_KEY
from sevn_site.asgi import application
from tests.factories import game_of, open_table, state_of
from tests.live.swaps import swapped_ids

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


@database_sync_to_async
def session_for(key: str | None, nickname: str = "") -> str:
    session = SessionStore()
    if key:
        session[SESSION_KEY] = key
    if nickname:  # the name a guest typed before (the chat's spectators write under it)
        session[NICKNAME_KEY] = nickname
    session.create()
    return session.session_key


async def connect(code: str, key: str | None, lang: str = "en", nickname: str = "") -> WebsocketCommunicator:
    headers = [ORIGIN, HOST, (b"cookie", f"sessionid={await session_for(key, nickname)}".encode())]
    socket = WebsocketCommunicator(application, f"/ws/t/{code}/?lang={lang}", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def drain(socket: WebsocketCommunicator, until: str | tuple[str, ...], seconds: float = 10.0) -> list[str]:
    """What the socket was sent up to and including the first message that says `until` (or
    any one of them): a marker the test names (a piece's id, a table's version, a line of the
    log, who is online), however late a loaded machine brings it; whatever came before it (an
    earlier presence mark, say) comes with it. Never a quiet moment taken for the end: on a
    loaded machine a message may come after any pause."""
    markers = (until,) if isinstance(until, str) else until
    loop = asyncio.get_running_loop()
    deadline, messages = loop.time() + seconds, []
    while True:
        left = deadline - loop.time()
        assert left > 0, f"no message with {until!r} within {seconds} s; before it: {messages}"
        try:
            messages.append(await socket.receive_from(timeout=left))
        except TimeoutError:
            raise AssertionError(f"no message with {until!r} within {seconds} s; before it: {messages}") from None
        if any(marker in messages[-1] for marker in markers):
            return messages


async def first_with(socket: WebsocketCommunicator, text: str, seconds: float = 10.0) -> str:
    """The first message that says `text` (those before it are passed over)."""
    return (await drain(socket, text, seconds))[-1]


# A table socket's first table, and who is online (its seat's own arrival is in it).
WHOLE_TABLE = 'id="table"'
BOTH_ONLINE = 'data-online="0 1"'


def online(*seats: int) -> str:
    """The marker of the presence mark every screen shows when these seats have a socket open."""
    return f'data-online="{" ".join(map(str, seats))}"'


async def last_word(code: str, player, text: str = "that is all") -> str:
    """A chat line said at the table: the service announces it to every screen of the table as it
    commits, through the group as every update is, so what a screen is sent after it came after
    everything broadcast before it. Its text is the marker to drain to, so that what was not sent
    before it was not sent at all."""
    from game import services

    await database_sync_to_async(services.chat_post)(code=code, player=player, text=text)
    return text


@database_sync_to_async
def started_table(deck=None, names=("Ana", "Ben")):
    return open_table(names=names, deck=deck)


@database_sync_to_async
def current_state(table):
    return state_of(table)


@database_sync_to_async
def version_of(table):
    return game_of(table).version


async def test_two_players_and_a_spectator_each_get_their_own_view():
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    sockets = [await connect(table.code, ana.key), await connect(table.code, ben.key), await connect(table.code, None)]
    first = [(await socket.receive_from()) for socket in sockets]
    # Ben (seat 1, left of the dealer) decides first
    assert 'data-key="d"' not in first[0] and "Waiting for Ben" in first[0]
    assert 'data-key="d"' in first[1] and "Your turn" in first[1]
    assert 'data-key="d"' not in first[2] and "You are watching this game." in first[2]
    for socket in sockets:
        await socket.disconnect()


async def test_a_move_reaches_every_viewer_at_once():
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    sockets = [await connect(table.code, ana.key), await connect(table.code, ben.key), await connect(table.code, None)]
    for socket in sockets:
        await drain(socket, BOTH_ONLINE)
    await sockets[1].send_to(text_data=json.dumps({"kind": "draw", "version": "1"}))
    updates = [await first_with(socket, 'data-version="2"') for socket in sockets]
    for html in updates:
        assert "Ben draws 4." in html and 'data-version="2"' in html
        # only what changed is sent, each piece swapped in by its id: Ben's row, not the table
        assert "table" not in swapped_ids(html) and "seat-1" in swapped_ids(html) and 'aria-label="4"' in html
    assert 'data-key="d"' in updates[0]  # now Ana decides
    assert 'data-key="d"' not in updates[1] and 'data-key="d"' not in updates[2]
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.parametrize(
    "message, error",
    [
        ("not json", "That move was not understood."),
        (json.dumps({"kind": "fly"}), "That move was not understood."),
        (json.dumps({"kind": "freeze"}), "That move was not understood."),
        (json.dumps(["draw"]), "That move was not understood."),
        (json.dumps({"kind": "draw", "pad": "x" * 5000}), "That message is too large."),
        (json.dumps({"kind": "draw", "version": "0"}), "The table changed before your move arrived. Here it is again."),
    ],
)
async def test_bad_messages_get_an_error_only_for_the_sender_and_change_nothing(message, error):
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    ana_socket, ben_socket = await connect(table.code, ana.key), await connect(table.code, ben.key)
    for socket in (ana_socket, ben_socket):  # each table drawn (late on a busy machine), then both online
        assert WHOLE_TABLE in (await drain(socket, BOTH_ONLINE))[0]
    before = await current_state(table)
    await ben_socket.send_to(text_data=message)
    reply = await first_with(ben_socket, 'class="toast"')
    assert error in reply
    # Ana hears nothing of it before a line said after it (a presence mark may come meanwhile)
    heard = await drain(ana_socket, await last_word(table.code, ana))
    assert not [html for html in heard if "toast" in html or WHOLE_TABLE in html]
    assert await current_state(table) == before and await version_of(table) == 1
    await ana_socket.disconnect()
    await ben_socket.disconnect()


async def test_out_of_turn_and_spectator_moves_are_refused_to_the_sender_only():
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    ana_socket, ben_socket = await connect(table.code, ana.key), await connect(table.code, ben.key)
    watcher = await connect(table.code, "guest:watcher")
    for socket in (ana_socket, ben_socket, watcher):
        await drain(socket, BOTH_ONLINE)
    await ana_socket.send_to(text_data=json.dumps({"kind": "draw", "version": "1"}))
    assert "It is not your turn." in await first_with(ana_socket, "toast")
    await watcher.send_to(text_data=json.dumps({"kind": "draw", "version": "1"}))
    assert "only seated players can play" in await first_with(watcher, "toast")
    heard = await drain(ben_socket, await last_word(table.code, ben))  # Ben hears neither refusal
    assert not [html for html in heard if "toast" in html or WHOLE_TABLE in html]
    assert await version_of(table) == 1
    for socket in (ana_socket, ben_socket, watcher):
        await socket.disconnect()


async def test_reconnect_gets_the_full_current_table():
    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2"])
    ben_socket = await connect(table.code, ben.key)
    await drain(ben_socket, WHOLE_TABLE)
    await ben_socket.send_to(text_data=json.dumps({"kind": "draw", "version": "1"}))
    await drain(ben_socket, 'data-version="2"')
    await ben_socket.disconnect()
    again = await connect(table.code, ben.key)
    snapshot = await again.receive_from()
    assert 'data-version="2"' in snapshot and "Ben draws 4." in snapshot and 'id="log"' in snapshot
    assert 'aria-label="4"' in snapshot
    await again.disconnect()


async def test_socket_without_origin_is_refused():
    table, (ana, _ben) = await started_table()
    socket = WebsocketCommunicator(application, f"/ws/t/{table.code}/")
    connected, _ = await socket.connect()
    assert not connected


async def test_unknown_table_code_gets_a_clear_error():
    socket = await connect("ZZZZZZ", None)
    reply = await socket.receive_from()
    assert "There is no table with that code." in reply
    closing = await socket.receive_output()
    assert closing["type"] == "websocket.close" and closing["code"] == 4404


@pytest.mark.parametrize(
    "lang, said",
    [("de", "Es gibt keinen Tisch mit diesem Code."), ("pl", "Nie ma stołu o takim kodzie.")],
)
async def test_the_reason_a_socket_is_closed_for_is_said_in_its_pages_language(lang, said):
    """The toast before the close (the page keeps it under its note) is in the page's language,
    and so is the close frame's reason, cut to what a frame holds."""
    socket = await connect("ZZZZZZ", None, lang=lang)
    assert said in await socket.receive_from()
    closing = await socket.receive_output()
    assert closing["code"] == 4404 and closing["reason"] == said


async def test_deck_order_seed_and_player_keys_never_reach_a_client():
    table, (ana, ben) = await started_table()
    state = await current_state(table)
    game = await database_sync_to_async(game_of)(table)
    socket = await connect(table.code, ben.key)
    html = "".join(await drain(socket, WHOLE_TABLE))
    await socket.send_to(text_data=json.dumps({"kind": "draw", "version": "1"}))
    html += "".join(await drain(socket, ('data-version="2"', 'class="toast"')))  # the draw, or its refusal
    assert str(game.seed) not in html and ana.key not in html and ben.key not in html
    deck_order = ",".join(state["deck"][-12:])
    assert deck_order not in html.replace('"', "")
    assert '"rng"' not in html and "shuffles" not in html
    await socket.disconnect()


async def test_closed_by_staff_reaches_every_viewer():
    """Staff close the table from admin (a thread): the service tells every screen as it commits."""
    from game import services

    table, (ana, _ben) = await started_table()
    socket = await connect(table.code, ana.key)
    await drain(socket, WHOLE_TABLE)
    await database_sync_to_async(services.table_close)(code=table.code, reason="")
    await drain(socket, "This table was closed by staff.")
    await socket.disconnect()


@pytest.mark.parametrize("path", ["echo", "echo-lean"])
async def test_the_benchmark_echo_floors_reach_every_socket_of_their_group(path):
    from bench.echo_asgi import application as bench_application

    sockets = []
    for _ in range(3):
        socket = WebsocketCommunicator(bench_application, f"/ws/{path}/test/", headers=[ORIGIN, HOST])
        assert (await socket.connect())[0]
        sockets.append(socket)
    await sockets[0].send_to(text_data="ping")
    assert [await socket.receive_from() for socket in sockets] == ["ping"] * 3
    for socket in sockets:
        await socket.disconnect()


async def test_production_routing_has_no_echo_sockets():
    socket = WebsocketCommunicator(application, "/ws/echo/test/", headers=[ORIGIN, HOST])
    with pytest.raises(ValueError):  # no route
        await socket.connect()


async def test_an_update_overtaken_by_a_newer_one_brings_the_whole_log_again():
    """Two servers may broadcast two moves moments apart in the wrong order: the socket shows
    the newer table and, for the older update's log lines, re-reads table and log; the older
    update, when it comes, is in that log already and draws nothing more. (The moves' own
    announcements are held here, and sent in the other order.)"""
    from game import services
    from game.delivery import announce, broadcast

    table, (ana, ben) = await started_table(deck=["5", "9", "4", "1", "2", "3"])
    socket = await connect(table.code, ana.key)
    await drain(socket, WHOLE_TABLE)
    act = database_sync_to_async(services.game_act)
    with announce.held():
        older = await act(code=table.code, player=ben, action={"kind": "draw"}, version="1")
        newer = await act(code=table.code, player=ana, action={"kind": "draw"}, version="2")
    await broadcast.send_async(table.code, newer)
    again = await first_with(socket, 'data-version="3"')
    await broadcast.send_async(table.code, older)
    # the older one draws nothing: the next thing the socket is sent is a line said after it
    assert len(await drain(socket, await last_word(table.code, ana))) == 1
    log = again[again.index('id="log"') :]  # (the table's last-move line says "Ana draws 1." too)
    assert "Ben draws 4." in log and "Ana draws 1." in log
    assert log.index("Ben draws 4.") < log.index("Ana draws 1.") and 'data-version="3"' in again
    assert '<p id="table-last-move" class="last-move" aria-hidden="true">Ana draws 1.</p>' in again
    await socket.disconnect()


def test_quick_dispatch_still_matches_channels_dispatch_but_for_the_database_hop():
    """TableConsumer's dispatch is Channels' own minus closing stale connections (a thread hop
    per message). If an upgrade of Channels changes what its dispatch does, this fails loudly."""
    import inspect

    from channels.consumer import AsyncConsumer

    code = AsyncConsumer.dispatch.__code__
    source = inspect.getsource(AsyncConsumer.dispatch).split('"""')[-1]  # the body after its docstring
    body = [line.strip() for line in source.splitlines() if line.strip() and not line.strip().startswith("#")]
    assert code.co_argcount == 2
    assert body == [
        "handler = getattr(self, get_handler_name(message), None)",
        "if handler:",
        "await aclose_old_connections()",
        "await handler(message)",
        "else:",
        'raise ValueError("No handler for message type %s" % message["type"])',
    ], body


async def test_sockets_closing_at_once_clear_their_presence_together(monkeypatch):
    """A crowd closing at once (game.live.leaving): every presence row goes, in fewer batches
    than sockets, and a spectator who stays sees every seat disconnected."""
    from game.models import Presence
    from game.services import presence

    batches = []
    left_all = presence.left_all

    def counted(*, channels):
        batches.append(list(channels))
        return left_all(channels=channels)

    monkeypatch.setattr(presence, "left_all", counted)
    table, people = await started_table(deck=["5", "9", "4", "1", "2"], names=("Ana", "Ben", "Cy", "Di"))
    watcher = await connect(table.code, None)
    sockets = [await connect(table.code, person.key) for person in people]
    for socket in (watcher, *sockets):
        await drain(socket, online(0, 1, 2, 3))
    assert await database_sync_to_async(Presence.objects.count)() == 4
    await asyncio.gather(*(socket.disconnect() for socket in sockets))
    assert await database_sync_to_async(Presence.objects.count)() == 0
    closed = [channel for batch in batches for channel in batch]
    assert len(closed) == len(set(closed)) == 4 and len(batches) < 4
    shown = "".join(await drain(watcher, 'data-online=""'))
    assert 'data-online=""' in shown.split('id="table-presence"')[-1].split(">")[0]
    await watcher.disconnect()
