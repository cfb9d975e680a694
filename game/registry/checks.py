"""A system check (run by every manage.py command and at start): each registered game fills the
Kind protocol, so a game missing a piece fails at start, not at its first table; and no two games
name a setting alike (the start page's form has one field per name)."""

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
# The start page's own fields (game.pages.forms.CreateTableForm), which no game's setting may be named.
FORM_FIELDS = ("kind", "nickname", "seat_count", "turn_seconds", "bot_speed", "members_only", "rated")


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
        unconverted = {field for carried in kind.actions.values() for field in carried} - set(kind.fields)
        if unconverted:
            message = f"The game {name!r} names no converter (its Kind's fields) for {', '.join(sorted(unconverted))}."
            errors.append(checks.Error(message, id="game.E006"))
        if kind.replay is not None and getattr(kind.replay, "NAME", None) != name:
            errors.append(checks.Error(f"The game {name!r}'s replay module names another game.", id="game.E004"))
    return errors + _options_apart()


def _options_apart() -> list[checks.CheckMessage]:
    errors = []
    owners: dict[str, str] = {}
    for name, kind in registry.KINDS.items():
        for option in kind.options:
            if option.name in FORM_FIELDS or option.name in owners:
                other = owners.get(option.name, "the start page")
                message = f"The game {name!r} names a setting {option.name!r}, as {other!r} does: rename it."
                errors.append(checks.Error(message, id="game.E005"))
            owners[option.name] = name
    return errors
