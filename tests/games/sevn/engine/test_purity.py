"""The engine is pure Python: standard library only, no Django."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.purity import loads_without_django

ENGINE = Path(__file__).resolve().parents[4] / "game" / "games" / "sevn" / "engine"
STDLIB = set(sys.stdlib_module_names)


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_the_standard_library():
    for path in ENGINE.glob("*.py"):
        foreign = imported_modules(path) - STDLIB - {"__future__"}
        assert not foreign, f"{path.name} imports {foreign}"


def test_engine_imports_without_django_installed_or_loaded():
    ok, error = loads_without_django("game.games.sevn.engine")
    assert ok, error


def test_deck_is_the_one_definition_of_the_counts():
    from game.games.sevn.engine import DECK
    from game.games.sevn.engine.cards import VALUE

    assert sum(DECK.values()) == 120
    assert len(VALUE) == 17
    assert all(DECK[str(v)] == max(v, 1) for v in range(14))
