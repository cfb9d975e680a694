"""The games a table can play: the one place the platform names them.

Each game's folder gives one `KIND` (game.core.kind.Kind); everything else reaches a game
through `of(table)` or `KINDS`, never by importing its folder (import-linter checks this, see
pyproject.toml). The list is explicit, as boardgame.io's `Server({games: [...]})` and
scalachess's `Variant.list` are: two games in one repository need no discovery.

A game's partials live in its own folder (`<folder>/templates/`): game.registry.templates finds
them for Django, so adding a game touches neither the settings nor the platform's templates.
"""

from __future__ import annotations

from game.core.kind import Kind
from game.games.sevens.kind import KIND as SEVENS
from game.games.sevn.kind import KIND as SEVN

KINDS: dict[str, Kind] = {kind.name: kind for kind in (SEVN, SEVENS)}
DEFAULT = SEVN.name  # the game a table plays unless its host chooses another


def of(table) -> Kind:
    """The game a table plays (a Table, or a snapshot's table dict; one that names no game
    plays the default)."""
    name = table.get("kind", DEFAULT) if isinstance(table, dict) else table.kind
    return KINDS[name]


def action_fields(action: str) -> tuple[str, ...]:
    """The fields a move of this kind carries besides its kind, as a game names them in its
    Kind's `actions` (a KeyError for a move no game knows)."""
    for kind in KINDS.values():
        if action in kind.actions:
            return kind.actions[action]
    raise KeyError(action)


def register(kind: Kind) -> None:
    """Add a game (the tests' own third game does; the site's games are listed above)."""
    KINDS[kind.name] = kind


def unregister(name: str) -> None:
    KINDS.pop(name, None)
