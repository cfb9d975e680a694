"""The platform knows a game only through its Kind: a third game that exists only here (high
card: engine.py, kind.py, its partials, rulebook and look) is registered by one line, in its
fixture, and played through the real table. The host creates the table with the home page's
form, with the game's own setting (how many hands) and in its own seat range, a bot takes the
other seat, the game is played over the table socket to its end, and the host starts the rematch;
its rules page is in the rulebook, its look on every page. And the site's own games are each
their folder and their name in the registry: no other file of the platform names them."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.staticfiles import finders
from django.test import Client

from game import registry
from game.models import Event, Game, Table
from sevn_site.asgi import application
from tests.games.highcard.kind import KIND

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[3]
META = re.compile(r'id="table-meta" hidden data-game="(\d+)" data-version="(\d+)"')


@pytest.fixture
def high_card():
    registry.register(KIND)  # the one line a game needs (the site's own games: the registry's GAMES)
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
        "/en/tables/new/", {"kind": "high", "nickname": "Ana", "seat_count": "2", "turn_seconds": "0", "hands": "2"}
    )
    assert created.status_code == 302
    table = await Table.objects.aget()
    assert table.kind == "high" and created["Location"] == f"/en/t/{table.code}/"
    assert table.options == {"hands": 2}  # its setting, kept as its Kind checked it
    lobby = (await sync_to_async(host.get)(f"/en/t/{table.code}/")).content.decode()
    assert "2 seats · 2 hands" in lobby and "Two players are needed." in lobby
    assert '<link rel="stylesheet" href="/static/games/high.css">' in lobby  # its look, on its own table's page
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

    for _round in range(2):  # Ana draws, then the bot, and the round is scored; the two hands the table chose
        await _move(socket, shown, kind="draw")
        shown = await _receive_until(socket, "Draw a high card" if _round < 1 else 'data-action="rematch"')
    assert "Game over:" in shown and "wins round 2." in shown

    game = await Game.objects.aget(table=table)
    assert game.over and game.number == 1
    events = [event async for event in Event.objects.filter(game=game).values_list("data", flat=True)]
    assert sum(1 for event in events if event["type"] == "round_won") == 2

    assert await sync_to_async(_post)(host, f"/en/t/{table.code}/start/") == 302  # the rematch
    shown = await _receive_until(socket, "Draw a high card")
    assert META.findall(shown)[-1][0] == "2" and "Round 1" in shown
    await socket.disconnect()


def test_no_file_outside_the_tests_names_the_third_game():
    """The platform needs no line about high card: everything it is, is in this folder (the README
    may point at this test; no code, template, stylesheet, setting or catalogue names it)."""
    names = ("highcard", "HighCard", "high/_table", "high/rules", "games/high", "draw a high card")
    mentions = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in ("tests", ".git", ".venv", "staticfiles", "artifacts", "node_modules") or not path.is_file():
            continue
        if path.suffix not in (".py", ".html", ".js", ".css", ".toml", ".json", ".txt", ".cfg", ".po"):
            continue
        text = path.read_text(errors="ignore")
        mentions += [f"{path}: {name}" for name in names if name.lower() in text.lower()]
    assert mentions == []


def test_the_start_page_offers_its_seat_range_and_its_setting_and_the_server_keeps_to_them(high_card):
    client = Client()
    home = client.get("/en/").content.decode()
    radio = re.search(r'<input type="radio" name="kind" value="high"[^>]*>', home)
    assert radio and 'data-seat-min="2" data-seat-max="10"' in radio.group(0)  # for the page's script
    assert '<input type="radio" name="kind" value="sevens" id="id_kind_1" data-seat-min="3" data-seat-max="7">' in home
    assert '<option value="10">10</option>' in home  # the seat choices reach its largest table
    field = re.search(r'<div class="form__field" data-for-game="high">.*?</div>', home, re.S)
    assert field and 'name="hands"' in field.group(0) and "(High card)" in field.group(0)
    form = {"kind": "high", "nickname": "Ana", "turn_seconds": "0"}
    assert client.post("/en/tables/new/", {**form, "seat_count": "10"}).status_code == 302
    refused = client.post("/en/tables/new/", {**form, "seat_count": "4", "hands": "9"})
    assert refused.status_code == 400 and Table.objects.count() == 1  # not among its choices
    too_many = client.post("/en/tables/new/", {**form, "kind": "sevn", "seat_count": "10"})
    assert too_many.status_code == 400 and "A table has 2 to 8 seats." in too_many.content.decode()
    assert Table.objects.get().options == {"hands": 3}  # no hands asked for: its default


def test_its_rules_page_is_in_the_rulebook_in_every_language_and_its_look_is_served(high_card):
    client = Client()
    page = client.get("/en/rules/high/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<h1>How to play high card</h1>" in html and "Aces are high." in html
    assert 'href="/en/rules/high/" aria-current="page">How to play high card</a>' in html  # in the rulebook's menu
    assert 'href="/en/rules/sevens/">How to play Sevens</a>' in html
    assert "Asse sind hoch." in client.get("/de/rules/high/").content.decode()  # its prose, loaded from its folder
    sevn_rules = client.get("/en/rules/full/").content.decode()
    assert 'href="/en/rules/high/">How to play high card</a>' in sevn_rules
    assert 'href="/en/rules/high/">How to play high card</a>' in client.get("/en/").content.decode()
    assert client.get("/en/rules/high/other/").status_code == 404
    sheet_path = ROOT / "tests" / "games" / "highcard" / "static" / "games" / "high.css"
    assert Path(finders.find("games/high.css")) == sheet_path
    sheet = client.get("/static/games/high.css")
    assert sheet.status_code == 200 and b".high-board" in b"".join(sheet.streaming_content)


# The platform: every file of the site but the games' folders and their history (migrations).
PLATFORM = ("game", "rules", "sevn_site", "templates", "static")
LEFT_OUT = ("game/games/", "game/migrations/", "rules/migrations/")


def _platform_files() -> list[Path]:
    return sorted(
        path
        for top in PLATFORM
        for path in (ROOT / top).rglob("*")
        if path.suffix in (".py", ".html", ".css", ".js")
        and not str(path.relative_to(ROOT)).startswith(LEFT_OUT)
        and "__pycache__" not in path.parts
    )


def _code(path: Path) -> str:
    """A file's code without its comments and docstrings (prose may use a game as an example)."""
    text = path.read_text()
    if path.suffix == ".py":
        tree = ast.parse(text)
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        words = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                words.append(repr(node.value))
            elif isinstance(node, ast.Name):
                words.append(node.id)
            elif isinstance(node, ast.Attribute):
                words.append(node.attr)
            elif isinstance(node, ast.ImportFrom):
                words += [node.module or ""] + [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                words += [alias.name for alias in node.names]
        return "\n".join(words)
    if path.suffix == ".html":
        return re.sub(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", "", text, flags=re.S)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


# The site is called SEVN too: its own static files (static/sevn/), cache keys ("sevn:..."), cookie
# and salts ("sevn_mark", "sevn.chat.author") are the site's, not the game's.
SITE_FILES = "|".join(re.escape(path.name) for path in (ROOT / "static" / "sevn").iterdir())


def _names(game: str) -> re.Pattern:
    """How code names a game: its name as a key ('sevens') or a word of code (an import of it), its
    folder (game.games.sevn, games/sevn), its templates ("sevn/_seat.html") or its classes (.sevens-cell)."""
    word = rf"(?<![\w'\"./:-]){game}(?![\w'\"./:-])"
    return re.compile(
        rf"""['"]{game}['"]|{word}|games[./]{game}\b|['"]{game}/(?!(?:{SITE_FILES})['"]|js/|\*\.js['"])|\.{game}(?:-|__)"""
    )


def test_a_game_of_the_site_is_its_folder_and_its_name_in_the_registry():
    """Each game the site lists is named, outside its folder, by the registry alone, and there on
    two lines of one file (its import and its place in GAMES); the test's own game by no file at
    all but its test. So what a new game touches outside its folder is counted: one file."""
    touched = {}
    for game in registry.GAMES:
        name = game.__name__.rsplit(".", 1)[1]
        pattern = _names(name)
        touched[name] = sorted(str(path.relative_to(ROOT)) for path in _platform_files() if pattern.search(_code(path)))
        lines = (ROOT / "game" / "registry" / "__init__.py").read_text().splitlines()
        naming = [line for line in lines if re.search(rf"\b{name}\b", line.split("#")[0])]
        assert naming == [
            "from game.games import sevens, sevn",
            "GAMES: tuple[ModuleType, ...] = (sevn, sevens)  "
            "# the start page offers them in this order; the first is the default",
        ], naming
    assert touched == {"sevn": ["game/registry/__init__.py"], "sevens": ["game/registry/__init__.py"]}
