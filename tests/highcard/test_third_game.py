"""The platform knows a game only through its Kind: a third game that exists only here (high
card: engine.py, kind.py, one partial) is registered and played through the real table. The
host creates the table with the home page's form, a bot takes the other seat, the game is played
over the table socket to its end, and the host starts the rematch."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from game import registry
from game.models import Event, Game, Table
from sevn_site.asgi import application

from .kind import KIND

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
META = re.compile(r'id="table-meta" hidden data-game="(\d+)" data-version="(\d+)"')


@pytest.fixture
def high_card():
    registry.register(KIND)
    yield KIND
    registry.unregister(KIND.name)


def _post(client: Client, path: str, **data) -> int:
    return client.post(path, data).status_code


async def _receive_until(socket: WebsocketCommunicator, text: str) -> str:
    """What the socket sends until a message holding `text` (the last table drawn in it)."""
    received = ""
    while text not in received:
        received += await socket.receive_from(timeout=5)
    return received


async def _move(socket: WebsocketCommunicator, shown: str, **action) -> None:
    game, version = META.findall(shown)[-1]
    await socket.send_to(text_data=json.dumps({**action, "version": version, "game": game}))


async def test_a_third_game_is_created_seated_played_to_the_end_and_rematched(high_card):
    host = Client()
    created = await sync_to_async(host.post)(
        "/en/tables/new/", {"kind": "high", "nickname": "Ana", "seat_count": "2", "turn_seconds": "0"}
    )
    assert created.status_code == 302
    table = await Table.objects.aget()
    assert table.kind == "high" and created["Location"] == f"/en/t/{table.code}/"
    lobby = (await sync_to_async(host.get)(f"/en/t/{table.code}/")).content.decode()
    assert "2 seats · 3 rounds" in lobby and "Two players are needed." in lobby
    assert await sync_to_async(_post)(host, f"/en/t/{table.code}/bot/", level="easy") == 302
    assert await sync_to_async(_post)(host, f"/en/t/{table.code}/start/") == 302

    cookie = f"sessionid={host.cookies['sessionid'].value}".encode()
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"), (b"cookie", cookie)]
    socket = WebsocketCommunicator(application, f"/ws/t/{table.code}/?lang=en", headers=headers)
    assert (await socket.connect())[0]
    shown = await _receive_until(socket, "Draw a high card")
    assert 'data-game="high"' in shown and "Ana: –" in shown

    await socket.send_to(text_data=json.dumps({"kind": "play", "card": "8D", "version": "1", "game": "1"}))
    await _receive_until(socket, "That move was not understood.")  # not this game's move: refused, nothing changed

    for _round in range(3):  # Ana draws, then the bot, and the round is scored; three rounds
        await _move(socket, shown, kind="draw")
        shown = await _receive_until(socket, "Draw a high card" if _round < 2 else 'data-action="rematch"')
    assert "Game over:" in shown and "wins round 3." in shown

    game = await Game.objects.aget(table=table)
    assert game.over and game.number == 1
    events = [event async for event in Event.objects.filter(game=game).values_list("data", flat=True)]
    assert sum(1 for event in events if event["type"] == "round_won") == 3

    assert await sync_to_async(_post)(host, f"/en/t/{table.code}/start/") == 302  # the rematch
    shown = await _receive_until(socket, "Draw a high card")
    assert META.findall(shown)[-1][0] == "2" and "Round 1" in shown
    await socket.disconnect()


def test_no_file_outside_the_tests_names_the_third_game():
    """The platform needs no line about high card: everything it is, is in this folder."""
    names = ("highcard", "HighCard", "high/_table", "draw a high card")
    mentions = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in ("tests", ".git", ".venv", "staticfiles", "artifacts", "node_modules") or not path.is_file():
            continue
        if path.suffix not in (".py", ".html", ".js", ".css", ".toml", ".md", ".json", ".txt", ".cfg", ".po"):
            continue
        text = path.read_text(errors="ignore")
        mentions += [f"{path}: {name}" for name in names if name.lower() in text.lower()]
    assert mentions == []
