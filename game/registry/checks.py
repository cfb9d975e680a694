"""A system check (run by every manage.py command and at start): each registered game fills the
Kind protocol, so a game missing a piece fails at start, not at its first table."""

from __future__ import annotations

import inspect

from django.core import checks

from game import registry
from game.core.kind import Kind

ATTRIBUTES = (
    "name",
    "label",
    "about",
    "min_seats",
    "max_seats",
    "max_bots",
    "secret",
    "illegal",
    "folder",
    "table_template",
)
ATTRIBUTES += ("seat_range", "start_note", "actions")


def kinds_complete(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    errors = []
    for name, kind in registry.KINDS.items():
        missing = [attribute for attribute in ATTRIBUTES if not hasattr(kind, attribute)]
        missing += [
            method
            for method, base in inspect.getmembers(Kind, inspect.isfunction)
            if getattr(type(kind), method) is base and "raise NotImplementedError" in inspect.getsource(base)
        ]
        if missing:
            errors.append(checks.Error(f"The game {name!r} lacks {', '.join(sorted(missing))}.", id="game.E001"))
        if kind.name != name or len(name) > 8:
            errors.append(
                checks.Error(f"The game {name!r} must be registered by its name (8 letters at most).", id="game.E002")
            )
        if not (kind.folder / "templates").is_dir():
            errors.append(checks.Error(f"The game {name!r} has no templates folder.", id="game.E003"))
        if kind.replay is not None and getattr(kind.replay, "NAME", None) != name:
            errors.append(checks.Error(f"The game {name!r}'s replay module names another game.", id="game.E004"))
    return errors
