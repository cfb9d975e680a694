"""The log's sentences for what the table itself does, the same in every game (a game starting,
someone away, back or removed, a rematch asked for), and the log entries of an update."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext_lazy as _

SENTENCES = {
    "game_started": _("A new game starts."),
    "back": _("%(who)s is back."),
    "removed": _("Staff removed %(who)s: a bot plays the seat."),
    "away": _("%(who)s is away: a bot plays for them until they are back."),
    "rematch_asked": _("%(who)s would like a rematch."),
    "missed": _("Time ran out for %(who)s: a bot played the turn."),
    "let_go": _("Everyone still playing agreed to let %(who)s go: leaving this game does not count against them."),
}


def name(names: list[str], index: object) -> str:
    """A seat's name, or nothing when the event names no seat."""
    return names[index] if isinstance(index, int) else ""


def lines(events: list[dict], names: list[str], say: Callable[[dict, list[str]], str | None]) -> list[dict]:
    """Log entries {"seq", "text", "kind"} for the events that have a sentence (`say`: the game's)."""
    entries = []
    for event in events:
        text = say(event, names)
        if text:
            entries.append({"seq": event.get("seq"), "text": text, "kind": event["type"]})
    return entries
