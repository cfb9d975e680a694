"""A system check (run by every manage.py command and at start) of what a Kind's abstract methods
and required data (game.core.kind) cannot say. A game that lacks a method or an attribute cannot
even be made; these hold between its parts, or between games: it is a Kind, registered by its own
short name; its folder has its partials; every field its moves carry has a converter; its replay
module is its own; a game that keeps points gives places; and no two games name a setting alike
(the start page's form has one field per name)."""

from __future__ import annotations

from django.core import checks

from game import registry
from game.core.kind import Kind

# The start page's own fields (game.pages.forms.CreateTableForm), which no game's setting may be named.
FORM_FIELDS = ("kind", "nickname", "seat_count", "turn_seconds", "bot_speed", "members_only", "rated")
FORM_FIELDS += ("pace", "window_start", "window_end", "time_zone")


def kinds_complete(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    errors = []
    for name, kind in registry.KINDS.items():
        if not isinstance(kind, Kind):  # made by the game's load() without the Kind's checks
            errors.append(checks.Error(f"The game {name!r} is not a game.core.kind.Kind.", id="game.E001"))
            continue
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
        if type(kind).points is not Kind.points and type(kind).places is Kind.places:
            message = f"The game {name!r} keeps points but gives no places (its Kind's places, for results)."
            errors.append(checks.Error(message, id="game.E007"))
        if kind.replay is not None and getattr(kind.replay, "NAME", None) != name:
            errors.append(checks.Error(f"The game {name!r}'s replay module names another game.", id="game.E004"))
    return errors + _options_apart()


def _options_apart() -> list[checks.CheckMessage]:
    errors = []
    owners: dict[str, str] = {}
    for name, kind in registry.KINDS.items():
        for option in getattr(kind, "options", ()):  # not a Kind at all: game.E001 says so
            if option.name in FORM_FIELDS or option.name in owners:
                other = owners.get(option.name, "the start page")
                message = f"The game {name!r} names a setting {option.name!r}, as {other!r} does: rename it."
                errors.append(checks.Error(message, id="game.E005"))
            owners[option.name] = name
    return errors
