"""The page's script in pieces (issue 36): static/sevn/sevn.js only imports the modules under
static/sevn/js/, all of them, each small, each saying at its top why it exists, none in an
import cycle (collectstatic's rewriting of imports to hashed names needs none), and the
create form's seat ranges come from the games' Kinds, not from a copy in a script. That the
modules load and work in a browser: tests/browser/test_client_modules.py."""

from __future__ import annotations

import re
from pathlib import Path

from django.test import Client

from game import registry

STATIC = Path(__file__).resolve().parents[2] / "static" / "sevn"
ENTRY = STATIC / "sevn.js"
MODULES = sorted((STATIC / "js").glob("*.js"))
MOST_LINES = 300
IMPORT = re.compile(r"""^import\s+(?:[^"';]*?\s+from\s+)?["'](\./[^"']+)["'];$""", re.MULTILINE)
LISTENS = re.compile(r"addEventListener|\.on[a-z]+\s*=|setTimeout|setInterval|Observer\(")


def imports(path: Path) -> list[Path]:
    return [(path.parent / name).resolve() for name in IMPORT.findall(path.read_text())]


def without_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.DOTALL)


def test_the_entry_only_imports_modules():
    code = without_comments(ENTRY.read_text())
    lines = [line for line in code.splitlines() if line.strip()]
    assert lines and all(IMPORT.fullmatch(line) for line in lines), "sevn.js holds code besides imports"
    assert not LISTENS.search(code)
    assert len(ENTRY.read_text().splitlines()) < 40


def test_every_module_is_small_says_why_and_is_reached_from_the_entry_without_a_cycle():
    assert len(MODULES) >= 10
    for module in MODULES:
        text = module.read_text()
        assert len(text.splitlines()) <= MOST_LINES, f"{module.name} is longer than {MOST_LINES} lines"
        assert text.startswith("/* ") and len(text.split("*/", 1)[0]) > 60, f"{module.name} says not why it exists"
        for imported in imports(module):
            assert imported.exists(), f"{module.name} imports {imported.name}, which is not there"

    reached: set[Path] = set()

    def visit(path: Path, trail: tuple[Path, ...]) -> None:
        assert path not in trail, "import cycle: " + " -> ".join(p.name for p in (*trail, path))
        reached.add(path)
        for imported in imports(path):
            visit(imported, (*trail, path))

    visit(ENTRY.resolve(), ())
    assert {module.resolve() for module in MODULES} <= reached, "a module nothing imports"


def test_the_entry_names_every_module_keyboard_first():
    """All at once: the browser asks for every module as soon as it has read sevn.js (one named
    only inside another waits for that one to arrive). The key hints' listener first: the
    table cards' stops the keys it uses."""
    named = imports(ENTRY)
    assert set(named) == {module.resolve() for module in MODULES}
    assert named[0].name == "keyboard.js" and not imports(named[0])


def test_the_page_loads_the_entry_as_a_module(client: Client, db):
    page = client.get("/en/").content.decode()
    assert re.search(r'<script type="module" src="/static/sevn/sevn\.js"></script>', page)


def test_each_game_radio_carries_its_kinds_seat_range(client: Client, db):
    page = client.get("/en/").content.decode()
    for name, kind in registry.KINDS.items():
        radio = re.search(rf'<input[^>]*value="{name}"[^>]*>', page)
        assert radio, name
        assert f'data-seat-min="{kind.min_seats}"' in radio.group(0)
        assert f'data-seat-max="{kind.max_seats}"' in radio.group(0)
    assert not re.search(r"SEATS|\[\s*[23]\s*,\s*[78]\s*\]", (STATIC / "js" / "game_choice.js").read_text())
