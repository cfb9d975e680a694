"""Per-viewer HTML of a table, drawn from a snapshot (selectors.snapshot) and the new events.

The same snapshot is drawn differently for each viewer: your own seat at the bottom, controls
only for the seat that must decide, none for spectators. Player keys are used to find "you"
and never reach the HTML.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, override
from django.utils.translation import gettext as _

from game.engine.cards import SEVN_DISTINCT, VALUE

from . import log
from .bots.odds import bust_chance, crossroads_busts
from .cards_ui import card_name, face

STATUS_LABELS = {
    "in": lambda: _("In round"),
    "passed": lambda: _("Passed"),
    "frozen": lambda: _("Frozen"),
    "bust": lambda: _("Bust"),
}


STEP_LABELS = {
    "sum": gettext_lazy("Sum of values"),
    "double": gettext_lazy("Doubled (×2)"),
    "plus": gettext_lazy("Plus cards"),
    "sevn": "SEVN",
    "floor": gettext_lazy("Never below zero"),
}


def step_label(name: str) -> str:
    """A scoring step's name: bonus cards' steps are named after their card."""
    return str(STEP_LABELS[name]) if name in STEP_LABELS else card_name(name)


def _cards(row: list[str], fresh: set[str], bust: bool) -> tuple[list[dict], list[dict]]:
    """A row split into scoring values and the rest, each in the order the cards joined."""
    values, extras = [], []
    last_position = {code: position for position, code in enumerate(row)}
    for position, code in enumerate(row):
        card = {
            "face": face(code),
            "new": code in fresh and last_position[code] == position,
            "busting": bust and position == len(row) - 1,  # the duplicate that busted the row
        }
        (values if code in VALUE else extras).append(card)
    return values, extras


def _fresh_cards(events: list[dict], round_number: int) -> dict[int, set[str]]:
    """Cards that joined a row in this update (they flip in), per seat, this round only."""
    fresh: dict[int, set[str]] = {}
    current_round = None
    for event in events:
        if event["type"] == "round_started":
            current_round = event["round"]
            fresh = {}
        elif event["type"] in ("joined", "bust") and current_round in (None, round_number):
            fresh.setdefault(event["seat"], set()).add(event["card"])
    return fresh


class SeatFacts(NamedTuple):
    """What a seat's panel shows, before anything is drawn: equal facts, equal panels."""

    over: bool
    index: int
    nickname: str
    bot_level: str
    away: bool
    is_dealer: bool
    status: str
    total: int
    round_score: int
    row: tuple[str, ...]
    winner: bool


def _seat_facts(snapshot: dict, index: int) -> SeatFacts:
    game = snapshot["game"]
    view = game["view"]
    seat_view = view["seats"][index]
    seat = next((s for s in snapshot["seats"] if s["index"] == index),
                {"nickname": game["players"][index], "bot_level": "", "away": False})
    row, status, round_score = seat_view["row"], seat_view["status"], seat_view["round_score"]
    if game["over"] and view["last_round"]:  # the game ended: show its last round as it ended
        final = view["last_round"]
        row, status, round_score = final["rows"][index], final["statuses"][index], final["scores"][index]
    return SeatFacts(game["over"], index, seat["nickname"], seat["bot_level"], seat["away"], index == view["dealer"],
                     status, seat_view["total"], round_score, tuple(row), game["over"] and index == view["winner"])


def _seat_panel(facts: SeatFacts, fresh: set[str], shake: bool) -> dict:
    """The seat template's context: cards drawn, labels in the viewer's language."""
    values, extras = _cards(list(facts.row), fresh, facts.status == "bust")
    return {
        "index": facts.index, "nickname": facts.nickname, "bot_level": facts.bot_level, "away": facts.away,
        "is_dealer": facts.is_dealer, "status": facts.status, "status_label": STATUS_LABELS[facts.status](),
        "total": facts.total, "round_score": facts.round_score, "values": values, "extras": extras,
        "distinct": sum(1 for code in facts.row if code in VALUE) if facts.status != "bust" else None,
        "shake": shake, "winner": facts.winner,
    }


def _controls(snapshot: dict, me: int | None, names: list[str]) -> dict | None:
    """What the deciding viewer may choose, with the odds the room shows."""
    game = snapshot["game"]
    view = game["view"]
    if me is None or game["over"] or view["current"] != me or snapshot["room"]["status"] != "playing":
        return None
    pending = view["pending"]
    kind = pending["kind"]
    controls = {"kind": kind, "version": _VERSION}  # filled in per update: the rest repeats (see _decision)
    if kind == "turn":
        controls["can_draw"] = view["deck_count"] + view["discard_count"] > 0
        if snapshot["room"]["show_odds"]:
            controls["bust_chance"] = round(100 * bust_chance(view, me))
    elif kind in ("freeze", "triple_draw", "gift"):
        controls["options"] = [
            {"seat": seat, "name": names[seat], "round_score": view["seats"][seat]["round_score"],
             "is_you": seat == me}
            for seat in pending["options"]
        ]
    elif kind == "ballast":
        controls["card"] = face(pending["card"])
    elif kind == "crossroads":
        busts = crossroads_busts(view, me)
        controls["picks"] = [
            {"pick": i, "face": face(code), "busts": busts[i]} for i, code in enumerate(pending["cards"])
        ]
    return controls


def _summary(view: dict, names: list[str]) -> dict | None:
    last = view.get("last_round")
    if not last:
        return None
    seats = []
    for index, steps in enumerate(last["steps"]):
        seats.append({
            "name": names[index], "score": last["scores"][index], "status": last["statuses"][index],
            "sevn": last["sevn"] == index,
            "cards": [{"face": face(code), "busting": last["statuses"][index] == "bust" and i == len(row) - 1}
                      for row in [last["rows"][index]] for i, code in enumerate(row)],
            "steps": [{"label": step_label(s["step"]), **s} for s in steps] if steps else None,
            "total": view["seats"][index]["total"],
        })
    return {"round": last["round"], "seats": seats}


def _viewer(snapshot: dict, viewer_key: str | None) -> dict | None:
    return next((s for s in snapshot["seats"] if viewer_key and s["player_key"] == viewer_key), None)


def _names(snapshot: dict) -> list[str]:
    names = list(snapshot["game"]["players"])
    for seat in snapshot["seats"]:
        if seat["index"] < len(names):
            names[seat["index"]] = seat["nickname"]
    return names


class Parts:
    """Pieces of the table, rendered once and reused while what they show is unchanged.

    Every socket of a room receives the same update, and most of the table does not change
    from one move to the next. A piece is cached under its language, its name and the exact
    data it shows, so the first socket to draw a changed piece renders it and every other
    viewer (and every later update that shows the same) reuses it.
    """

    _cache: OrderedDict = OrderedDict()
    SIZE = 2048

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
    """A seat's panel; its head (name, badges, total) changes only between rounds, its row with
    every card, so the head is drawn apart and reused."""
    head = Parts.get("seat-head", (panel["nickname"], panel["bot_level"], panel["away"], panel["is_dealer"],
                                   panel["total"]), lambda: render_to_string("table/_seat_head.html", {
                                       "seat": panel, "you_badge": _YOU_BADGE}))
    return render_to_string("table/_seat.html", {"seat": panel, "head": mark_safe(head), "sevn_goal": SEVN_DISTINCT,
                                                 "marks": _MARKS})


def _seat_html(facts: SeatFacts, fresh: set[str], shake: bool, is_you: bool) -> str:
    animation = (shake, tuple(sorted(fresh)))  # one-off marks: a card flipping in, a bust shaking
    html = Parts.get("seat", (facts, animation), lambda: _seat_drawn(_seat_panel(facts, fresh, shake)))
    if not is_you:
        return html.replace(_MARKS, "").replace(_YOU_BADGE, "")
    badge = format_html('<span class="badge badge--you">{}</span>', _("you"))
    return html.replace(_MARKS, " seat--you").replace(_YOU_BADGE, badge)


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
        self.names = _names(snapshot)
        self.current_name = self.names[self.view["current"]] if self.view["current"] is not None else None
        self.shared = {
            "room": self.room, "game": self.game, "view": self.view, "current_name": self.current_name,
            "deadline_ms": int(self.game["deadline"] * 1000) if self.game["deadline"] else None,
            "summary": bool(self.view.get("last_round")),
            "show_summary": any(e["type"] == "round_scored" for e in self.events),
        }
        self._memo: dict = {}

    def _once(self, name: str, produce) -> object:
        if name not in self._memo:
            self._memo[name] = produce()
        return self._memo[name]

    def _piece(self, name: str, shows: Hashable, produce) -> Piece:
        return Piece(shows, lambda: self._once(name, lambda: Parts.get(name, shows, produce)))

    def seat(self, index: int, is_you: bool) -> Piece:
        facts = self._once(f"seat-facts-{index}", lambda: _seat_facts(self.snapshot, index))

        def html() -> str:
            fresh = self._once("fresh", lambda: _fresh_cards(self.events, self.view["round"]))
            shaking = self._once("shaking", lambda: {e["seat"] for e in self.events if e["type"] == "bust"})
            return _seat_html(facts, fresh.get(index, set()), index in shaking, is_you)

        return Piece((facts, is_you), lambda: self._once(f"seat-{index}-{is_you}", html))

    def bar(self, your_turn: bool) -> Piece:
        view, shared = self.view, self.shared
        shows = (self.room["code"], view["round"], view["target"], self.current_name, shared["deadline_ms"],
                 shared["summary"], self.game["over"], your_turn)
        return self._piece(f"bar-{your_turn}", shows, lambda: render_to_string(
            "table/_bar.html", {**shared, "controls": your_turn or None}))

    def piles(self) -> Piece:
        view = self.view
        return self._piece("piles", (view["deck_count"], view["discard_count"]), lambda: render_to_string(
            "table/_piles.html", {"view": view}))

    def center(self) -> Piece:
        view, names = self.view, self.names
        held = view["pending"]["card"] if view["pending"] and "card" in view["pending"] else None
        shows = (tuple(view["revealed"]), view["active"], tuple(view["queue"]),
                 tuple(names[seat] for seat in view["queue_seats"]), held, self.current_name if held else None)
        return self._piece("center", shows, lambda: render_to_string("table/_center.html", {
            "current_name": self.current_name,
            "revealed": [face(code) for code in view["revealed"]],
            "held": face(held) if held else None,
            "active": face(view["active"]) if view["active"] else None,
            "queue": [{"face": face(code), "owner": names[owner]}
                      for code, owner in zip(view["queue"], view["queue_seats"], strict=True)],
        }))

    def waiting(self, seated: bool) -> Piece:
        shows = (seated, self.current_name, self.game["over"])
        return self._piece(f"waiting-{seated}", shows, lambda: render_to_string("table/_controls.html", {
            **self.shared, "me": 0 if seated else None, "controls": None, "is_host": False}))

    def standings(self) -> Piece:
        view, names = self.view, self.names
        if not self.game["over"]:
            return Piece(None, str)
        shows = (tuple(names), tuple(seat["total"] for seat in view["seats"]), view["winner"])
        return self._piece("standings", shows, lambda: render_to_string(
            "table/_standings.html", {"standings": _standings(view, names)}))

    def summary(self) -> Piece:
        view, names, shared = self.view, self.names, self.shared
        if not shared["summary"]:
            return Piece(None, str)
        shows = (self.game["id"], len(view["history"]), self.game["over"])  # a new summary per scored round
        return self._piece("summary", shows, lambda: render_to_string(
            "table/_summary.html", {**shared, "summary": _summary(view, names)}))

    def log(self) -> str:
        return self._once("log", lambda: _log_update(self.snapshot, self.events) if self.events else "")


def _meta(game: dict, deadline_ms: int | None, show_summary: bool, timer: int) -> Piece:
    """The table's version, whose turn it is and its clock (what the page's script and style
    read), sent with every change. Only numbers go in, so nothing needs escaping."""
    turn = game["view"]["current"] if not game["over"] and game["view"]["current"] is not None else ""
    return Piece((game["id"], game["version"], turn, deadline_ms, show_summary), lambda: (
        f'<div id="table-meta" hidden data-game="{int(game["number"])}" data-version="{int(game["version"])}" '
        f'data-turn="{turn}" '
        f'data-deadline="{int(deadline_ms) if deadline_ms else ""}" data-now="{int(time.time() * 1000)}" '
        f'data-timer="{int(timer)}"{" data-show-summary" if show_summary else ""}></div>'))


# The decider's controls differ from one update to the next by the table version in their
# forms only: they are drawn once per choice with this in its place.
_VERSION = mark_safe("\x00version\x00")


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
        drawn = Parts.get("decision", (_frozen(controls), is_host), lambda: render_to_string(
            "table/_controls.html", {**draw.shared, "me": me, "controls": controls, "is_host": is_host}))
        return drawn.replace(_VERSION, str(version))

    return Piece(("decide", draw.game["id"], version), html)


def game_pieces(snapshot: dict, viewer_key: str | None, events: list[dict] = (), csrf_token: str = "",
                key: str | None = None) -> tuple[tuple | None, dict[str, Piece]]:
    """One viewer's table as pieces (element id -> Piece, in page order) and its frame: what the
    arrangement around the pieces depends on. A lobby or closed table has no pieces (frame None):
    it is always drawn whole."""
    room = snapshot["room"]
    if snapshot["game"] is None or room["status"] in ("lobby", "closed"):
        return None, {}
    draw = TableDraw.of(snapshot, events, key)
    mine = _viewer(snapshot, viewer_key)
    me = mine["index"] if mine is not None and mine["index"] < len(draw.view["seats"]) else None
    is_host = bool(viewer_key) and viewer_key == room["host_key"]
    if key is None:  # a draw of its own (a whole table on connect): nobody to share with
        return _pieces(draw, me, is_host, csrf_token)
    # viewers in the same place (every spectator, say) share one set of pieces per update
    return draw._once(("pieces", me, is_host, csrf_token if is_host else ""),
                      lambda: _pieces(draw, me, is_host, csrf_token))


def _pieces(draw: TableDraw, me: int | None, is_host: bool, csrf_token: str) -> tuple[tuple, dict[str, Piece]]:
    room, game, view = draw.room, draw.game, draw.view
    n = len(view["seats"])
    controls = _controls(draw.snapshot, me, draw.names)
    if controls is not None:
        controls_piece = _decision(draw, me, controls, is_host)
    elif is_host and game["over"]:
        controls_piece = Piece(("rematch", game["id"]), lambda: render_to_string(
            "table/_controls.html", {**draw.shared, "me": me, "controls": None, "is_host": True,
                                     "csrf_token": csrf_token}))
    else:
        controls_piece = draw.waiting(me is not None)
    start = 0 if me is None else me + 1  # your seat at the bottom, the others clockwise after you
    order = tuple((start + i) % n for i in range(n) if (start + i) % n != me)
    pieces = {
        "table-meta": _meta(game, draw.shared["deadline_ms"], draw.shared["show_summary"], room["turn_seconds"]),
        "table-bar": draw.bar(controls is not None),
        **{f"seat-{index}": draw.seat(index, False) for index in order},
        **({f"seat-{me}": draw.seat(me, True)} if me is not None else {}),
        "table-piles": draw.piles(),
        "table-center": draw.center(),
        "controls": controls_piece,
        "standings": draw.standings(),
        "summary": draw.summary(),
    }
    paused = not game["over"] and room["status"] == "playing" and all(
        s["bot_level"] or s["away"] for s in draw.snapshot["seats"])
    frame = (room["status"], game["id"], me, order, paused, game["over"], draw.shared["summary"])
    return frame, pieces


def table_context(snapshot: dict, viewer_key: str | None, events: list[dict] = (), csrf_token: str = "",
                  key: str | None = None) -> dict:
    """Everything the table template needs for one viewer, its pieces drawn."""
    room = snapshot["room"]
    seats = snapshot["seats"]
    mine = _viewer(snapshot, viewer_key)
    context = {
        "room": room, "is_host": bool(viewer_key) and viewer_key == room["host_key"],
        "my_seat": mine and mine["index"], "seated": mine is not None,
        "seats_taken": len(seats), "game": None,
    }
    if csrf_token:  # a socket's own token; a page request has the context processor's
        context["csrf_token"] = csrf_token
    if snapshot["game"] is None or room["status"] == "lobby":
        by_index = {seat["index"]: seat for seat in seats}
        context["lobby"] = [
            {"index": i, "seat": by_index.get(i), "is_you": by_index.get(i) is not None and by_index[i] is mine}
            for i in range(room["seat_count"])
        ]
        context["can_start"] = len(seats) >= 2
        return context
    frame, pieces = game_pieces(snapshot, viewer_key, events, csrf_token, key)
    context.update(TableDraw.of(snapshot, events, key).shared)
    if frame is None:  # closed: the banner only
        return context
    drawn = {name: mark_safe(piece.draw()) for name, piece in pieces.items()}
    me = frame[2]
    context.update({
        "me": me, "paused": frame[4], "pieces": pieces, "frame": frame,
        "meta": drawn["table-meta"], "bar": drawn["table-bar"], "piles": drawn["table-piles"],
        "center": drawn["table-center"],
        "others": mark_safe("".join(drawn[f"seat-{index}"] for index in frame[3])),
        "you": drawn[f"seat-{me}"] if me is not None else "",
        "controls": drawn["controls"], "standings": drawn["standings"], "summary_html": drawn["summary"],
    })
    return context


def _standings(view: dict, names: list[str]) -> list[dict]:
    rows = [{"name": names[i], "total": s["total"], "winner": i == view["winner"]} for i, s in enumerate(view["seats"])]
    return sorted(rows, key=lambda row: -row["total"])


def render_table(snapshot: dict, viewer_key: str | None, events: list[dict] = (), oob: bool = False,
                 csrf_token: str = "", key: str | None = None) -> str:
    context = table_context(snapshot, viewer_key, events, csrf_token, key)
    context.update(oob=oob)
    return render_to_string("table/_table.html", context)


def log_entries(snapshot: dict, events: list[dict]) -> list[dict]:
    return log.lines(events, _names(snapshot)) if snapshot["game"] is not None else []


_OPENING_TAG = re.compile(r"^\s*<[a-z]+")


@lru_cache(maxsize=512)  # every screen of a process is sent the same changed pieces
def _swapped_in(html: str) -> str:
    """A piece sent on its own: htmx swaps it for the element with its id."""
    return _OPENING_TAG.sub(lambda m: m.group(0) + ' hx-swap-oob="true"', html, count=1)


class Screen:
    """What one socket's viewer has on screen, so that an update sends only what changed.

    A whole table is sent when the socket opens and whenever the arrangement changes (the
    game, the seats' order, the standings or the round summary appearing); otherwise only the
    pieces that show something new, each swapped in by its id, and nothing is drawn for the
    rest. The screen is the socket's own: it lives as long as the connection, no game state.
    """

    def __init__(self, viewer_key: str | None, language: str, csrf_token: str = "") -> None:
        self.viewer_key, self.language, self.csrf_token = viewer_key, language, csrf_token
        self.frame: tuple | None = None
        self.shown: dict[str, Hashable] = {}
        self.version: tuple[int, int] | None = None

    def full(self, snapshot: dict, log_events: list[dict]) -> str:
        """The whole table and the whole log (on connect, and after a refused move)."""
        with override(self.language):
            html = self._table(snapshot, [], None)
            return html + render_to_string("table/_log.html", {
                "entries": log_entries(snapshot, log_events), "oob": True})

    def update(self, snapshot: dict, events: list[dict], key: str | None = None) -> str:
        """What changed since this screen was last drawn, and the new log lines ("" if nothing)."""
        game = snapshot["game"]
        if game is not None and self.version is not None and self.version[0] == game["id"] \
                and game["version"] < self.version[1]:
            return ""  # an older update overtaken by a newer one (several servers): already shown
        with override(self.language):
            frame, pieces = game_pieces(snapshot, self.viewer_key, events, self.csrf_token, key)
            if frame is None or frame != self.frame:
                html = self._table(snapshot, events, key)
            else:
                sent = []
                for name, piece in pieces.items():
                    if self.shown.get(name) != piece.shows:
                        self.shown[name] = piece.shows
                        sent.append(_swapped_in(piece.draw()))
                self._remember(game)
                html = "".join(sent)
            if events and game is not None:
                html += TableDraw.of(snapshot, events, key).log()
            return html

    def _table(self, snapshot: dict, events: list[dict], key: str | None) -> str:
        context = table_context(snapshot, self.viewer_key, events, self.csrf_token, key)
        pieces = context.get("pieces", {})
        self.frame = context.get("frame")
        self.shown = {name: piece.shows for name, piece in pieces.items()}
        self._remember(snapshot["game"])
        context.update(oob=True)
        return render_to_string("table/_table.html", context)

    def _remember(self, game: dict | None) -> None:
        self.version = (game["id"], game["version"]) if game is not None else None


def _log_update(snapshot: dict, events: list[dict]) -> str:
    entries = log_entries(snapshot, events)
    if not entries:
        return ""
    return render_to_string("table/_log_append.html", {"entries": entries}) + render_to_string(
        "table/_announce.html", {"entries": entries[-4:]})


def render_error(message: str, language: str) -> str:
    with override(language):
        return render_to_string("table/_toast.html", {"message": message})
