"""The Sevens engine and bots are pure Python: the standard library (and the engine) only. (The
hard bot's optional C loops are loaded with the standard library's ctypes; test_native.py
holds them to the Python's results.)"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.purity import loads_without_django

SEVENS = Path(__file__).resolve().parents[3] / "game" / "games" / "sevens"
STDLIB = set(sys.stdlib_module_names)


def absolute_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module)
    return names


def test_the_engine_imports_only_the_standard_library():
    for path in (SEVENS / "engine").glob("*.py"):
        foreign = {name for name in absolute_imports(path) if name.split(".")[0] not in STDLIB | {"__future__"}}
        assert not foreign, f"{path.name} imports {foreign}"


def test_the_bots_import_only_the_standard_library_and_the_sevens_engine():
    for path in (SEVENS / "bots").glob("*.py"):
        foreign = {
            name
            for name in absolute_imports(path)
            if name.split(".")[0] not in STDLIB | {"__future__"} and not name.startswith("game.games.sevens.engine")
        }
        assert not foreign, f"{path.name} imports {foreign}"


@pytest.mark.parametrize("package", ["game.games.sevens.engine", "game.games.sevens.bots"])
def test_imports_without_django_installed_or_loaded(package):
    ok, error = loads_without_django(package)
    assert ok, error
