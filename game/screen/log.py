"""The table's log as HTML: each event in its game's words (the Kind's `log_line`), drawn as list
items; an update's new lines drawn once per language for every screen."""

from __future__ import annotations

import json

from django.utils.safestring import mark_safe

from game import registry
from game.drawkit import log
from game.drawkit.common import seat_names
from game.drawkit.pieces import Piece, drawn


def log_entries(snapshot: dict, events: list[dict]) -> list[dict]:
    """Log entries {"seq", "text", "kind"} for a game's events, in the active language."""
    if snapshot["game"] is None:
        return []
    return log.lines(events, seat_names(snapshot), registry.of(snapshot["table"]).log_line)


def log_lines(entries: list[dict]) -> str:
    """Log entries as list items; the same sentence recurs often, so each is drawn once."""
    return mark_safe(
        "".join(drawn("table/_log_line.html", (entry["kind"], entry["text"]), _log_line_context) for entry in entries)
    )


def _log_line_context(line: tuple[str, str]) -> dict:
    return {"entry": {"kind": line[0], "text": line[1]}}


def log_piece(snapshot: dict, events: list[dict]) -> Piece:
    """An update's new log lines, appended to the log, and the latest read out by screen readers:
    drawn once per language for every screen (its data: the events as JSON, and the names)."""
    kind = registry.of(snapshot["table"]).name
    return Piece("table/_log_append.html", (kind, tuple(seat_names(snapshot)), json.dumps(events)), _log_context)


def _log_context(data: tuple[str, tuple[str, ...], str]) -> dict:
    kind, names, events = data
    entries = log.lines(json.loads(events), list(names), registry.KINDS[kind].log_line)
    return {"lines": log_lines(entries), "announce": " ".join(entry["text"] for entry in entries[-4:])}


def last_move_piece(snapshot: dict, recent: tuple[dict, ...]) -> Piece:
    """#table-last-move: the latest log line of the events a screen heard, in one line near the
    table (for phones, whose log is far below; empty until there is one)."""
    kind = registry.of(snapshot["table"])
    names = seat_names(snapshot)
    latest = next((event for event in reversed(recent) if kind.log_line(event, names) is not None), None)
    data = (kind.name, tuple(names), json.dumps(latest) if latest is not None else "")
    return Piece("table/_last_move.html", data, _last_move_context)


def _last_move_context(data: tuple[str, tuple[str, ...], str]) -> dict:
    kind, names, event = data
    return {"text": registry.KINDS[kind].log_line(json.loads(event), list(names)) if event else ""}
