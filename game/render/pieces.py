"""A table as pieces: one element each (a seat, the bar, the centre, the controls, ...), with
what it shows and how to draw it. Drawing is cached by what a piece shows, so every viewer of
an update, and every later update that shows the same, reuses what was drawn once."""

from __future__ import annotations

import functools
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from game.engine.cards import SEVN_DISTINCT

from ..cards_ui import face
from ..identity import tag
from .panels import (
    VERSION_MARK,
    SeatFacts,
    choices,
    fresh_cards,
    log_entries,
    round_summary,
    scoreboard,
    seat_facts,
    seat_names,
    seat_panel,
    standings_rows,
    viewer_seat,
)


class Parts:
    """Pieces of the table, rendered once and reused while what they show is unchanged.

    Every socket of a room receives the same update, and most of the table does not change
    from one move to the next. A piece is cached under its language, its name and the exact
    data it shows, so the first socket to draw a changed piece renders it and every other
    viewer (and every later update that shows the same) reuses it.
    """

    _cache: OrderedDict = OrderedDict()
    SIZE = 8192  # about 5 MB; fifty busy tables (their names, rows, log lines) fit without churning

    @classmethod
    def get(cls, name: str, content: object, produce) -> str:
        key = (get_language(), name, content)
        html = cls._cache.get(key)
        if html is None:
            html = cls._cache[key] = produce()
            if len(cls._cache) > cls.SIZE:
                cls._cache.popitem(last=False)
        else:
            cls._cache.move_to_end(key)
        return html


class Piece(NamedTuple):
    """One element of the table: what it shows, and how to draw it (only when needed).

    Two pieces that show the same draw the same element, give or take a one-off animation
    mark (a card flipping in, a bust shaking), so a screen that shows it already is not sent
    it again, and nothing is drawn for it.
    """

    shows: Hashable
    draw: Callable[[], str]


# A seat panel is drawn once and then marked as "you" (or not) for each viewer: these stand in
# the drawn panel where the mark goes. (Whose turn it is shows through #table-meta, in CSS.)
_MARKS, _YOU_BADGE = mark_safe("\x00seat-marks\x00"), mark_safe("\x00you-badge\x00")


def _seat_drawn(panel: dict) -> str:
    """A seat's panel. Its head (name, badges, total) changes only between rounds and its status
    line takes few values, so both are drawn apart and reused; only the row is new each time."""
    shows = (panel["index"], panel["nickname"], panel["bot_level"], panel["away"], panel["is_dealer"], panel["total"])
    head = Parts.get(
        "seat-head", shows, lambda: render_to_string("table/_seat_head.html", {"seat": panel, "you_badge": _YOU_BADGE})
    )
    status = Parts.get(
        "seat-status",
        (panel["status"], panel["distinct"], panel["round_score"]),
        lambda: render_to_string("table/_seat_status.html", {"seat": panel, "sevn_goal": SEVN_DISTINCT}),
    )
    return render_to_string(
        "table/_seat.html",
        {"seat": panel, "head": mark_safe(head), "status": mark_safe(status), "label": panel["label"], "marks": _MARKS},
    )


def _seat_html(facts: SeatFacts, fresh: set[str], shake: bool, is_you: bool) -> str:
    animation = (shake, tuple(sorted(fresh)))  # one-off marks: a card flipping in, a bust shaking
    html = Parts.get("seat", (facts, animation), lambda: _seat_drawn(seat_panel(facts, fresh, shake)))
    if not is_you:
        return html.replace(_MARKS, "").replace(_YOU_BADGE, "")
    badge = format_html('<span class="badge badge--you">{}</span>', _("you"))
    return html.replace(_MARKS, " seat--you").replace(_YOU_BADGE, badge)


def _shared(method):
    """A TableDraw method whose piece every viewer of the update shares: made once."""

    @functools.wraps(method)
    def shared(self, *args):
        return self._once((method.__name__, *args), lambda: method(self, *args))

    return shared


class TableDraw:
    """One update's table, as pieces: what every viewer shares is drawn at most once.

    The sockets of a process that receive the same update (its id, in one language) share
    one TableDraw; each asks only for its own arrangement and, if it decides, its controls.
    """

    _recent: OrderedDict = OrderedDict()
    KEPT = 64

    @classmethod
    def of(cls, snapshot: dict, events: list[dict], key: str | None) -> TableDraw:
        if key is None:
            return cls(snapshot, events)
        index = (key, get_language())
        draw = cls._recent.get(index)
        if draw is None:
            draw = cls._recent[index] = cls(snapshot, events)
            if len(cls._recent) > cls.KEPT:
                # its pieces' closures point back at it: clear them, or only a full pass of the
                # garbage collector (a pause for every table) frees an old draw
                cls._recent.popitem(last=False)[1]._memo.clear()
        return draw

    def __init__(self, snapshot: dict, events: list[dict]) -> None:
        self.snapshot, self.events = snapshot, list(events)
        self.room, self.game = snapshot["room"], snapshot["game"]
        self.view = self.game["view"]
        self.names = seat_names(snapshot)
        self.current_name = self.names[self.view["current"]] if self.view["current"] is not None else None
        self.shared = {
            "room": self.room,
            "game": self.game,
            "view": self.view,
            "current_name": self.current_name,
            "deadline_ms": int(self.game["deadline"] * 1000) if self.game["deadline"] else None,
            "summary": bool(self.view.get("last_round")),
            "show_summary": not self.game["over"] and any(e["type"] == "round_scored" for e in self.events),
            "host_name": self.room["host_name"],
        }
        self._memo: dict = {}

    def _once(self, name: Hashable, produce) -> object:
        if name not in self._memo:
            self._memo[name] = produce()
        return self._memo[name]

    def _piece(self, name: str, shows: Hashable, produce) -> Piece:
        return Piece(shows, lambda: self._once(name, lambda: Parts.get(name, shows, produce)))

    @_shared
    def seat(self, index: int, is_you: bool) -> Piece:
        facts = self._once(f"seat-facts-{index}", lambda: seat_facts(self.snapshot, index))

        def html() -> str:
            fresh = self._once("fresh", lambda: fresh_cards(self.events, self.view["round"]))
            shaking = self._once("shaking", lambda: {e["seat"] for e in self.events if e["type"] == "bust"})
            return _seat_html(facts, fresh.get(index, set()), index in shaking, is_you)

        return Piece((facts, is_you), lambda: self._once(f"seat-{index}-{is_you}", html))

    @_shared
    def bar(self) -> Piece:
        """The table's code, round, target and the last round's button: new once per round."""
        view, shared = self.view, self.shared
        shows = (self.room["code"], view["round"], view["target"], shared["summary"])
        return self._piece("bar", shows, lambda: render_to_string("table/_bar.html", shared))

    @_shared
    def turn(self, your_turn: bool) -> Piece:
        """Who decides, with a clock if the table has one (its time comes from #table-meta):
        a handful of looks per game, each drawn once."""
        over = self.game["over"]
        shows = (None if over else self.current_name, your_turn, bool(self.shared["deadline_ms"]))
        return self._piece(
            f"turn-{your_turn}",
            shows,
            lambda: render_to_string(
                "table/_turn.html", {"current_name": shows[0], "over": over, "controls": your_turn, "clock": shows[2]}
            ),
        )

    @_shared
    def pile(self, kind: str) -> Piece:
        """The deck or the discard pile, by its count alone (the same counts recur all game)."""
        count = self.view[f"{kind}_count"]
        return self._piece(
            f"pile-{kind}", count, lambda: render_to_string("table/_pile.html", {"kind": kind, "count": count})
        )

    @_shared
    def center(self, yours: bool) -> Piece:
        """The cards in play in the middle; a card held for a decision says whose it is ("you"
        on the decider's own screen)."""
        view, names = self.view, self.names
        held = view["pending"]["card"] if view["pending"] and "card" in view["pending"] else None
        shows = (
            tuple(view["revealed"]),
            view["active"],
            tuple(view["queue"]),
            tuple(names[seat] for seat in view["queue_seats"]),
            held,
            self.current_name if held else None,
            yours and bool(held),
        )
        return self._piece(
            f"center-{shows[-1]}",
            shows,
            lambda: render_to_string(
                "table/_center.html",
                {
                    "current_name": self.current_name,
                    "yours": shows[-1],
                    "revealed": [face(code) for code in view["revealed"]],
                    "held": face(held) if held else None,
                    "active": face(view["active"]) if view["active"] else None,
                    "queue": [
                        {"face": face(code), "owner": names[owner], "size": "sm" if face(code)["short"] else "chip"}
                        for code, owner in zip(view["queue"], view["queue_seats"], strict=True)
                    ],
                },
            ),
        )

    @_shared
    def waiting(self, seated: bool) -> Piece:
        shows = (seated, self.current_name, self.game["over"], self.room["host_name"])
        return self._piece(
            f"waiting-{seated}",
            shows,
            lambda: render_to_string(
                "table/_controls.html", {**self.shared, "me": 0 if seated else None, "controls": None, "is_host": False}
            ),
        )

    @_shared
    def standings(self) -> Piece:
        """Game over: the winner, the final standings and the celebration, in view at the top."""
        view, names = self.view, self.names
        if not self.game["over"]:
            return Piece(None, str)
        shows = (tuple(names), tuple(seat["total"] for seat in view["seats"]), view["winner"])
        return self._piece(
            "standings",
            shows,
            lambda: render_to_string("table/_standings.html", {"standings": standings_rows(view, names)}),
        )

    @_shared
    def scores(self) -> Piece:
        """Every round's scores and the running totals, with their chart: new once per round."""
        view, names = self.view, self.names
        if not view["history"]:
            return Piece(None, str)
        shows = (tuple(names), tuple(tuple(scores) for scores in view["history"]), view["target"], self.game["over"])
        return self._piece(
            "scores",
            shows,
            lambda: render_to_string(
                "table/_scores.html", {"board": scoreboard(view, names), "over": self.game["over"]}
            ),
        )

    @_shared
    def summary(self) -> Piece:
        view, names, shared = self.view, self.names, self.shared
        if not shared["summary"]:
            return Piece(None, str)
        shows = (self.game["id"], len(view["history"]), self.game["over"])  # a new summary per scored round
        return self._piece(
            "summary",
            shows,
            lambda: render_to_string("table/_summary.html", {**shared, "summary": round_summary(view, names)}),
        )

    def common(self) -> tuple[dict[str, Piece], bool]:
        """The pieces every viewer of this update shares (each seat as someone else's), and
        whether the game waits for a person to come back."""
        return self._once("common", self._common)

    def _common(self) -> tuple[dict[str, Piece], bool]:
        game, room = self.game, self.room
        common = {
            "table-meta": _meta(game, self.shared["deadline_ms"], self.shared["show_summary"], room["turn_seconds"]),
            "table-bar": self.bar(),
            **{f"seat-{index}": self.seat(index, False) for index in range(len(self.view["seats"]))},
            "pile-deck": self.pile("deck"),
            "pile-discard": self.pile("discard"),
            "standings": self.standings(),
            "scores": self.scores(),
            "summary": self.summary(),
        }
        paused = (
            not game["over"]
            and room["status"] == "playing"
            and all(s["bot_level"] or s["away"] for s in self.snapshot["seats"])
        )
        return common, paused

    def log(self) -> str:
        return self._once("log", lambda: log_update(self.snapshot, self.events) if self.events else "")


def _meta(game: dict, deadline_ms: int | None, show_summary: bool, timer: int) -> Piece:
    """The table's version, whose turn it is and its clock (what the page's script and style
    read), sent with every change. Only numbers go in, so nothing needs escaping."""
    turn = game["view"]["current"] if not game["over"] and game["view"]["current"] is not None else ""
    return Piece(
        (game["id"], game["version"], turn, deadline_ms, show_summary),
        lambda: (
            f'<div id="table-meta" hidden data-game="{int(game["number"])}" data-version="{int(game["version"])}" '
            f'data-turn="{turn}" '
            f'data-deadline="{int(deadline_ms) if deadline_ms else ""}" data-now="{int(time.time() * 1000)}" '
            f'data-timer="{int(timer)}"{" data-show-summary" if show_summary else ""}></div>'
        ),
    )


def _frozen(value: object) -> Hashable:
    if isinstance(value, dict):
        return tuple((key, _frozen(item)) for key, item in value.items())
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


def _decision(draw: TableDraw, me: int, controls: dict, is_host: bool) -> Piece:
    """The deciding viewer's choices: new with every version, drawn once per kind of choice."""
    version = draw.game["version"]

    def html() -> str:
        drawn = Parts.get(
            "decision",
            (_frozen(controls), is_host),
            lambda: render_to_string(
                "table/_controls.html", {**draw.shared, "me": me, "controls": controls, "is_host": is_host}
            ),
        )
        return drawn.replace(VERSION_MARK, str(version))

    return Piece(("decide", draw.game["id"], version), html)


def presence_piece(online: tuple[int, ...] | None) -> Piece:
    """Which seats have a socket open (as the last presence change said), read by the style:
    a seat is not redrawn when its person comes and goes. None: not known yet."""
    return Piece(
        ("presence", online),
        lambda: (
            f'<div id="table-presence" hidden data-online="{" ".join(str(int(seat)) for seat in online or ())}"'
            f"{' data-known' if online is not None else ''}></div>"
        ),
    )


def game_pieces(
    snapshot: dict,
    viewer_key: str | None,
    events: list[dict] = (),
    key: str | None = None,
    asked: frozenset = frozenset(),
    online: tuple[int, ...] | None = None,
) -> tuple[tuple | None, dict[str, Piece]]:
    """One viewer's table as pieces (element id -> Piece, in page order) and its frame: what the
    arrangement around the pieces depends on. A lobby or closed table has no pieces (frame None):
    it is always drawn whole. `asked`: the seats that asked for a rematch; `online`: the seats
    with a socket open, as far as this screen knows."""
    room = snapshot["room"]
    if snapshot["game"] is None or room["status"] in ("lobby", "closed"):
        return None, {}
    draw = TableDraw.of(snapshot, events, key)
    mine = viewer_seat(snapshot, viewer_key)
    me = mine["index"] if mine is not None and mine["index"] < len(draw.view["seats"]) else None
    is_host = bool(viewer_key) and tag(viewer_key) == room["host"]
    asked = frozenset(seat for seat in asked if seat < len(draw.view["seats"])) if draw.game["over"] else frozenset()
    if key is None:  # a draw of its own (a whole table on connect): nobody to share with
        return _pieces(draw, me, is_host, asked, online)
    # viewers in the same place (every spectator, say) share one set of pieces per update
    return draw._once(("pieces", me, is_host, asked, online), lambda: _pieces(draw, me, is_host, asked, online))


def _rematch(draw: TableDraw, me: int, is_host: bool, asked: frozenset) -> Piece:
    """Game over, for a seated viewer: the host starts a rematch (and sees who asked for one);
    anyone else seated may ask for one."""
    asked_names = tuple(draw.names[seat] for seat in sorted(asked) if seat != me)
    shows = ("rematch", draw.game["id"], is_host, asked_names if is_host else me in asked)
    return Piece(
        shows,
        lambda: render_to_string(
            "table/_controls.html",
            {
                **draw.shared,
                "me": me,
                "controls": None,
                "is_host": is_host,
                "asked_names": asked_names,
                "you_asked": me in asked,
            },
        ),
    )


def _pieces(
    draw: TableDraw, me: int | None, is_host: bool, asked: frozenset, online: tuple[int, ...] | None
) -> tuple[tuple, dict[str, Piece]]:
    room, game, view = draw.room, draw.game, draw.view
    n = len(view["seats"])
    controls = choices(draw.snapshot, me, draw.names)
    if controls is not None:
        controls_piece = _decision(draw, me, controls, is_host)
    elif game["over"] and (me is not None or is_host):
        controls_piece = _rematch(draw, me, is_host, asked)
    else:
        controls_piece = draw.waiting(me is not None)
    start = 0 if me is None else me + 1  # your seat at the bottom, the others clockwise after you
    order = tuple((start + i) % n for i in range(n) if (start + i) % n != me)
    common, paused = draw.common()
    pieces = {name: common[name] for name in ("table-meta", "table-bar")}
    pieces["table-presence"] = presence_piece(online)
    pieces["table-turn"] = draw.turn(controls is not None)
    for name in ("standings", "scores", "summary"):
        pieces[name] = common[name]
    for index in order:
        pieces[f"seat-{index}"] = common[f"seat-{index}"]
    for name in ("pile-deck", "pile-discard"):
        pieces[name] = common[name]
    pieces["table-center"] = draw.center(controls is not None)
    if me is not None:
        pieces[f"seat-{me}"] = draw.seat(me, True)
    pieces["controls"] = controls_piece
    frame = (room["status"], game["id"], me, order, paused, game["over"], draw.shared["summary"])
    return frame, pieces


def log_lines(entries: list[dict]) -> str:
    """Log entries as list items; the same sentence recurs often, so each is drawn once."""
    return mark_safe(
        "".join(
            Parts.get(
                "log-line",
                (entry["kind"], entry["text"]),
                lambda entry=entry: render_to_string("table/_log_line.html", {"entry": entry}),
            )
            for entry in entries
        )
    )


def log_update(snapshot: dict, events: list[dict]) -> str:
    """New log lines appended to the log, and the latest read out by screen readers."""
    entries = log_entries(snapshot, events)
    if not entries:
        return ""
    return render_to_string(
        "table/_log_append.html",
        {"lines": log_lines(entries), "announce": " ".join(entry["text"] for entry in entries[-4:])},
    )
