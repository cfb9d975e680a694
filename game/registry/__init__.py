"""The games a table can play: the one place the platform names them.

`GAMES` lists the game packages of game/games, each a folder that offers the platform two things
(its `__init__.py` says so): `replay`, how a game record replays (plain Python), and `load()`, its
Kind (game.core.kind.Kind, which needs Django). Everything else reaches a game through `of(table)`,
`KINDS` or `replays()`, never by importing its folder (import-linter checks this, see
pyproject.toml). The list is explicit, as boardgame.io's `Server({games: [...]})` and
scalachess's `Variant.list` are: adding a game is its folder and its name on the `GAMES` line
(with the import above it).

The Kinds are made on first use, not on import: `python -m game.verify` reads the games' replays
from here in a Python without Django (tests/fair/test_verify.py runs it so), and the Kinds are
Django's side of the games. A game's partials live in its own folder (`<folder>/templates/`):
game.registry.templates finds them for Django, and game.registry.static its stylesheet, so adding
a game touches neither the settings nor the platform's templates.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from game.games import sevens, sevn

if TYPE_CHECKING:
    from game.core.kind import Kind

GAMES: tuple[ModuleType, ...] = (sevn, sevens)  # the start page offers them in this order; the first is the default


def __getattr__(name: str) -> Any:
    """`KINDS` (each game's Kind by its name) and `DEFAULT` (the game a table plays unless its host
    chooses another: the first listed), made when first asked for."""
    if name not in ("KINDS", "DEFAULT"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if "KINDS" not in globals():
        kinds = {kind.name: kind for kind in (game.load() for game in GAMES)}
        globals().update(KINDS=kinds, DEFAULT=next(iter(kinds)))
    return globals()[name]


def _kinds() -> dict[str, Kind]:
    return __getattr__("KINDS")


def of(table) -> Kind:
    """The game a table plays (a Table, or a snapshot's table dict; one that names no game
    plays the default)."""
    name = table.get("kind", __getattr__("DEFAULT")) if isinstance(table, dict) else table.kind
    return _kinds()[name]


def choices() -> list[tuple[str, Any]]:
    """The games as a model's or a form's choices: (name, label), in the listed order
    (`Table.kind`'s choices are this function, so a new game needs no migration)."""
    return [(kind.name, kind.label) for kind in _kinds().values()]


def replays() -> dict[str, ModuleType]:
    """Each game's replay module by the game's name, for game.fair's verifier: the listed games'
    without making a Kind (so without Django), and those of games registered since."""
    modules = {game.replay.NAME: game.replay for game in GAMES if getattr(game, "replay", None) is not None}
    modules.update({name: kind.replay for name, kind in globals().get("KINDS", {}).items() if kind.replay})
    return modules


def action_fields(action: str) -> dict[str, Callable[[object], object]]:
    """The fields a move of this kind carries besides its kind, as a game names them in its
    Kind's `actions`, each with the converter its Kind gives (`fields`: game.core.fields); a
    KeyError for a move no game knows."""
    for kind in _kinds().values():
        if action in kind.actions:
            return {field: kind.fields[field] for field in kind.actions[action]}
    raise KeyError(action)


def register(kind: Kind) -> None:
    """Add a game at run time (the tests' own third game is registered so, from its test). A Kind
    that lacks a piece could not have been made (game.core.kind); anything else is refused here."""
    from game.core.kind import Kind

    if not isinstance(kind, Kind):
        raise TypeError(f"{kind!r} is not a game.core.kind.Kind.")
    _kinds()[kind.name] = kind


def unregister(name: str) -> None:
    _kinds().pop(name, None)
