"""A viewer's table as HTML: the whole of it (a page, a socket that just opened) or, for a
socket, only what changed since it last drew (Screen)."""

from __future__ import annotations

from collections.abc import Hashable
from contextlib import nullcontext

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, override

from .. import kinds
from ..identity import tag
from ..selectors import fingerprint
from .panels import log_entries, viewer_seat
from .pieces import TableDraw, game_pieces, log_lines, presence_piece
from .sevens import render_sevens_table


def speaking(language: str):
    """The viewer's language for what is drawn next (nothing to switch if it is already on)."""
    return nullcontext() if get_language() == language else override(language)


def sevens_playing(snapshot: dict) -> bool:
    """A Sevens game on the table (drawn by render.sevens; its lobby and closed banner are shared)."""
    return (
        snapshot["room"].get("kind") == "sevens"
        and snapshot["game"] is not None
        and snapshot["room"]["status"] not in ("lobby", "closed")
    )


def table_context(
    snapshot: dict,
    viewer_key: str | None,
    events: list[dict] = (),
    key: str | None = None,
    asked: frozenset = frozenset(),
    online: tuple[int, ...] | None = None,
) -> dict:
    """Everything the table template needs for one viewer, its pieces drawn (`asked`, `online`:
    what the viewer's screen knows of rematch requests and open sockets)."""
    room = snapshot["room"]
    seats = snapshot["seats"]
    mine = viewer_seat(snapshot, viewer_key)
    context = {
        "room": room,
        "is_host": bool(viewer_key) and tag(viewer_key) == room["host"],
        "my_seat": mine and mine["index"],
        "seated": mine is not None,
        "seats_taken": len(seats),
        "game": None,
    }
    if snapshot["game"] is None or room["status"] == "lobby":
        by_index = {seat["index"]: seat for seat in seats}
        context["lobby"] = [
            {"index": i, "seat": by_index.get(i), "is_you": by_index.get(i) is not None and by_index[i] is mine}
            for i in range(room["seat_count"])
        ]
        kind = kinds.of(room)
        context["can_start"] = len(seats) >= kind.min_seats
        context["bots_left"] = kind.max_bots - sum(1 for seat in seats if seat["bot_level"])
        return context
    if snapshot["room"].get("kind") == "sevens":
        if sevens_playing(snapshot):
            context["sevens_html"] = mark_safe(render_sevens_table(snapshot, viewer_key, asked=asked, online=online))
        return context
    frame, pieces = game_pieces(snapshot, viewer_key, events, key, asked, online)
    context.update(TableDraw.of(snapshot, events, key).shared)
    if frame is None:  # closed: the banner only
        return context
    drawn = {name: mark_safe(piece.draw()) for name, piece in pieces.items()}
    me = frame[2]
    context.update(
        {
            "me": me,
            "paused": frame[4],
            "pieces": pieces,
            "frame": frame,
            "meta": drawn["table-meta"],
            "bar": drawn["table-bar"],
            "turn": drawn["table-turn"],
            "presence": drawn["table-presence"],
            "scores": drawn["scores"],
            "deck": drawn["pile-deck"],
            "discard": drawn["pile-discard"],
            "center": drawn["table-center"],
            "others": mark_safe("".join(drawn[f"seat-{index}"] for index in frame[3])),
            "you": drawn[f"seat-{me}"] if me is not None else "",
            "controls": drawn["controls"],
            "standings": drawn["standings"],
            "summary_html": drawn["summary"],
        }
    )
    return context


def render_table(
    snapshot: dict, viewer_key: str | None, events: list[dict] = (), oob: bool = False, key: str | None = None
) -> str:
    if sevens_playing(snapshot):
        return render_sevens_table(snapshot, viewer_key, oob=oob)
    context = table_context(snapshot, viewer_key, events, key)
    context.update(oob=oob)
    return render_to_string("table/_table.html", context)


class Screen:
    """What one socket's viewer has on screen, so that an update sends only what changed.

    A whole table is sent when the socket opens and whenever the arrangement changes (the
    game, the seats' order, the standings or the round summary appearing); otherwise only the
    pieces that show something new, each swapped in by its id, and nothing is drawn for the
    rest. The screen is the socket's own: it lives as long as the connection, no game state.
    """

    def __init__(self, viewer_key: str | None, language: str) -> None:
        self.viewer_key, self.language = viewer_key, language
        self.frame: tuple | None = None
        self.shown: dict[str, Hashable] = {}
        self.version: tuple[int, int] | None = None
        self.snapshot: dict | None = None  # the last one drawn (shared with every other screen: read only)
        self.online: tuple[int, ...] | None = None  # seats with a socket open, from the last presence change
        self.asked: dict[int, set[int]] = {}  # game id -> seats that asked for a rematch

    @property
    def fingerprint(self) -> tuple | None:
        """Which state of the table this screen shows (compared with the database's by game.watch)."""
        return fingerprint(self.snapshot)

    def misses_lines_before(self, snapshot: dict) -> bool:
        """Whether this update skips versions this screen never saw (their log lines with them)."""
        game = snapshot["game"]
        return (
            game is not None
            and self.version is not None
            and self.version[0] == game["id"]
            and game["version"] > self.version[1] + 1
        )

    def seated(self, viewer_key: str | None) -> bool:
        return self.snapshot is not None and viewer_seat(self.snapshot, viewer_key) is not None

    def decides(self, viewer_key: str | None) -> bool:
        """Whether the table shown waits for this viewer's decision."""
        game = self.snapshot and self.snapshot["game"]
        if not game or game["over"] or game["view"]["current"] is None:
            return False
        mine = viewer_seat(self.snapshot, viewer_key)
        return mine is not None and mine["index"] == game["view"]["current"]

    def _heard(self, snapshot: dict, events: list[dict]) -> None:
        """What an update says besides the table: who asked for a rematch, whose sockets are open."""
        game = snapshot["game"]
        for event in events:
            if event["type"] == "presence":
                self.online = tuple(event["online"])
            elif event["type"] == "rematch_asked" and game is not None:
                self.asked.setdefault(game["id"], set()).add(event["seat"])

    def _asked(self, snapshot: dict) -> frozenset:
        game = snapshot["game"]
        return frozenset(self.asked.get(game["id"], ())) if game is not None else frozenset()

    def full(self, snapshot: dict, log_events: list[dict], online: list[int] | None = None) -> str:
        """The whole table and the whole log (on connect, and after a refused move); `online`:
        whose sockets are open, as the database says at this moment."""
        game = snapshot["game"]
        if online is not None:
            self.online = tuple(online)
        if game is not None:  # the log is where earlier rematch requests are
            self.asked[game["id"]] = {e["seat"] for e in log_events if e["type"] == "rematch_asked"}
        with speaking(self.language):
            html = self._table(snapshot, [], None)
            return html + render_to_string(
                "table/_log.html", {"lines": log_lines(log_entries(snapshot, log_events)), "oob": True}
            )

    def update(self, snapshot: dict, events: list[dict], key: str | None = None) -> str | None:
        """What changed since this screen was last drawn, and the new log lines ("" if nothing).

        None when an update with log lines arrives after a newer one (two servers broadcast
        moments apart): its table is already shown but its lines would be missing or out of
        order, so the caller draws the whole table and log again from the database."""
        game = snapshot["game"]
        self._heard(snapshot, events)
        if (
            game is not None
            and self.version is not None
            and self.version[0] == game["id"]
            and game["version"] < self.version[1]
        ):
            if all(event["type"] == "presence" for event in events):  # it needs no table of its own
                return self._presence_only()
            return None if events else ""
        self.snapshot = snapshot
        if sevens_playing(snapshot):  # small: drawn whole every time
            with speaking(self.language):
                html = self._table(snapshot, events, key)
                if events:
                    html += TableDraw.of(snapshot, events, key).log()
                return html
        with speaking(self.language):
            frame, pieces = game_pieces(snapshot, self.viewer_key, events, key, self._asked(snapshot), self.online)
            if frame is None or frame != self.frame:
                html = self._table(snapshot, events, key)
            else:
                sent = []
                for name, piece in pieces.items():
                    if self.shown.get(name) != piece.shows:
                        self.shown[name] = piece.shows
                        sent.append(piece.draw())  # htmx's socket extension swaps it in by its id
                self._remember(game)
                html = "".join(sent)
            if events and game is not None:
                html += TableDraw.of(snapshot, events, key).log()
            return html

    def _presence_only(self) -> str:
        """An older update that only says whose sockets are open: the marks, nothing else."""
        if self.frame is None or "table-presence" not in self.shown:
            return ""
        piece = presence_piece(self.online)
        if self.shown["table-presence"] == piece.shows:
            return ""
        self.shown["table-presence"] = piece.shows
        return piece.draw()

    def _table(self, snapshot: dict, events: list[dict], key: str | None) -> str:
        self.snapshot = snapshot
        if sevens_playing(snapshot):
            self.frame, self.shown = ("sevens",), {}
            self._remember(snapshot["game"])
            return render_sevens_table(
                snapshot, self.viewer_key, oob=True, asked=self._asked(snapshot), online=self.online
            )
        context = table_context(snapshot, self.viewer_key, events, key, self._asked(snapshot), self.online)
        pieces = context.get("pieces", {})
        self.frame = context.get("frame")
        self.shown = {name: piece.shows for name, piece in pieces.items()}
        self._remember(snapshot["game"])
        context.update(oob=True)
        return render_to_string("table/_table.html", context)

    def _remember(self, game: dict | None) -> None:
        self.version = (game["id"], game["version"]) if game is not None else None


def render_error(message: str, language: str) -> str:
    with override(language):
        return render_to_string("table/_toast.html", {"message": message})


def render_notice(message: str, language: str) -> str:
    """Good news for whoever asked (a report received), in the toast's place."""
    with override(language):
        return render_to_string("table/_toast.html", {"message": message, "ok": True})
