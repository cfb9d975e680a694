"""The engine's modules form a line: no module imports, directly or through others, itself."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[4] / "game" / "games" / "sevn" / "engine"


def engine_imports(path: Path) -> set[str]:
    """The engine modules that `path` imports (relative or as `game.games.sevn.engine.x`)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 1:
            module = node.module
        elif node.module and node.module.startswith("game.games.sevn.engine."):
            module = node.module.removeprefix("game.games.sevn.engine.")
        else:
            continue
        if module is None:  # from . import a, b
            names |= {alias.name for alias in node.names}
        else:
            names.add(module.split(".")[0])
    return names


def import_graph() -> dict[str, set[str]]:
    return {path.stem: engine_imports(path) for path in ENGINE.glob("*.py") if path.stem != "__init__"}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path of module names, or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return None
        for imported in sorted(graph.get(module, ())):
            cycle = visit(imported, path + [module])
            if cycle:
                return cycle
        done.add(module)
        return None

    for module in sorted(graph):
        cycle = visit(module, [])
        if cycle:
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_relative_imports():
    graph = import_graph()
    assert "cards" in graph["state"] and "state" in graph["table"]


def test_engine_import_graph_is_acyclic():
    assert find_cycle(import_graph()) is None
