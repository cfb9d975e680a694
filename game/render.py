"""Per-viewer HTML of a table, drawn from a snapshot (selectors.snapshot) and the new events.

The same snapshot is drawn differently for each viewer: your own seat at the bottom, controls
only for the seat that must decide, none for spectators. Player keys are used to find "you"
and never reach the HTML.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, override
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


def step_label(name: str) -> str:
    return {
        "sum": _("Sum of values"),
        "double": _("Doubled (×2)"),
        "plus": _("Plus cards"),
        "featherweight": card_name("featherweight"),
        "heavyweight": card_name("heavyweight"),
        "ladder": card_name("ladder"),
        "sevn": "SEVN",
        "floor": _("Never below zero"),
    }[name]


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


def _seat_panels(snapshot: dict, events: list[dict]) -> list[dict]:
    game = snapshot["game"]
    view = game["view"]
    by_index = {seat["index"]: seat for seat in snapshot["seats"]}
    fresh = _fresh_cards(events, view["round"])
    busted_now = {e["seat"] for e in events if e["type"] == "bust"}
    final = view["last_round"] if game["over"] else None  # the game ended: show its last round as it ended
    panels = []
    for index, seat_view in enumerate(view["seats"]):
        seat = by_index.get(index, {"nickname": game["players"][index], "bot_level": "", "away": False})
        if final:
            seat_view = dict(seat_view, row=final["rows"][index], status=final["statuses"][index],
                             round_score=final["scores"][index])
        status = seat_view["status"]
        values, extras = _cards(seat_view["row"], fresh.get(index, set()), status == "bust")
        panels.append({
            "index": index, "nickname": seat["nickname"], "bot_level": seat["bot_level"], "away": seat["away"],
            "is_dealer": index == view["dealer"], "is_current": index == view["current"],
            "status": status, "status_label": STATUS_LABELS[status](), "total": seat_view["total"],
            "round_score": seat_view["round_score"], "values": values, "extras": extras,
            "distinct": sum(1 for code in seat_view["row"] if code in VALUE) if status != "bust" else None,
            "shake": index in busted_now, "winner": game["over"] and index == view["winner"],
        })
    return panels


def _controls(snapshot: dict, me: int | None, names: list[str]) -> dict | None:
    """What the deciding viewer may choose, with the odds the room shows."""
    game = snapshot["game"]
    view = game["view"]
    if me is None or game["over"] or view["current"] != me or snapshot["room"]["status"] != "playing":
        return None
    pending = view["pending"]
    kind = pending["kind"]
    controls = {"kind": kind, "version": game["version"]}
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
    viewer (and every later update that shows the same) reuses it. Only what differs per
    viewer is drawn each time: the order of the seats and the choices of the one who decides.
    """

    _cache: OrderedDict = OrderedDict()
    SIZE = 2048

    @classmethod
    def get(cls, name: str, content: object, produce) -> str:
        key = (get_language(), name, repr(content))
        html = cls._cache.get(key)
        if html is None:
            html = cls._cache[key] = produce()
            if len(cls._cache) > cls.SIZE:
                cls._cache.popitem(last=False)
        else:
            cls._cache.move_to_end(key)
        return html


# A seat panel is drawn once and then marked as "you" (or not) for each viewer: these stand in
# the drawn panel where the mark goes.
_YOU_CLASS, _YOU_BADGE = mark_safe("\x00you-class\x00"), mark_safe("\x00you-badge\x00")


def _seat_html(panel: dict, is_you: bool, game: dict) -> str:
    html = Parts.get("seat", (panel, game["over"]), lambda: render_to_string("table/_seat.html", {
        "seat": panel, "game": game, "sevn_goal": SEVN_DISTINCT, "you_class": _YOU_CLASS, "you_badge": _YOU_BADGE}))
    if not is_you:
        return html.replace(_YOU_CLASS, "").replace(_YOU_BADGE, "")
    badge = format_html('<span class="badge badge--you">{}</span>', _("you"))
    return html.replace(_YOU_CLASS, " seat--you").replace(_YOU_BADGE, badge)


class TableDraw:
    """One update's table, drawn piece by piece: what every viewer shares is drawn once.

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
                cls._recent.popitem(last=False)
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

    def _piece(self, name: str, produce) -> str:
        if name not in self._memo:
            self._memo[name] = produce()
        return self._memo[name]

    def seat(self, index: int, is_you: bool) -> str:
        if "panels" not in self._memo:
            self._memo["panels"] = _seat_panels(self.snapshot, self.events)
        return self._piece(f"seat-{index}-{is_you}",
                           lambda: _seat_html(self._memo["panels"][index], is_you, self.game))

    def bar(self, your_turn: bool) -> str:
        view, shared = self.view, self.shared
        content = (self.room["code"], view["round"], view["target"], self.current_name, shared["deadline_ms"],
                   shared["summary"], self.game["over"], your_turn)
        return self._piece(f"bar-{your_turn}", lambda: Parts.get("bar", content, lambda: render_to_string(
            "table/_bar.html", {**shared, "controls": your_turn or None})))

    def center(self) -> str:
        view, names = self.view, self.names
        held = view["pending"]["card"] if view["pending"] and "card" in view["pending"] else None
        content = (view["deck_count"], view["discard_count"], view["revealed"], view["active"], view["queue"],
                   view["queue_seats"], held, self.current_name)
        return self._piece("center", lambda: Parts.get("center", content, lambda: render_to_string(
            "table/_center.html", {
                "view": view, "current_name": self.current_name,
                "revealed": [face(code) for code in view["revealed"]],
                "held": face(held) if held else None,
                "active": face(view["active"]) if view["active"] else None,
                "queue": [{"face": face(code), "owner": names[owner]}
                          for code, owner in zip(view["queue"], view["queue_seats"], strict=True)],
            })))

    def waiting(self, seated: bool) -> str:
        content = (seated, self.current_name, self.game["over"])
        return self._piece(f"waiting-{seated}", lambda: Parts.get("waiting", content, lambda: render_to_string(
            "table/_controls.html", {**self.shared, "me": 0 if seated else None, "controls": None,
                                     "is_host": False})))

    def standings(self) -> str:
        view, names = self.view, self.names
        if not self.game["over"]:
            return ""
        return self._piece("standings", lambda: Parts.get(
            "standings", (names, view["seats"], view["winner"]),
            lambda: render_to_string("table/_standings.html", {"standings": _standings(view, names)})))

    def summary(self) -> str:
        view, names, shared = self.view, self.names, self.shared
        if not shared["summary"]:
            return ""
        return self._piece("summary", lambda: Parts.get(
            "summary", (view["last_round"], view["history"], names, shared["show_summary"]),
            lambda: render_to_string("table/_summary.html", {**shared, "summary": _summary(view, names)})))

    def log(self) -> str:
        return self._piece("log", lambda: _log_update(self.snapshot, self.events) if self.events else "")


def table_context(snapshot: dict, viewer_key: str | None, events: list[dict] = (), csrf_token: str = "",
                  key: str | None = None) -> dict:
    """Everything the table template needs for one viewer (shared pieces come pre-rendered)."""
    room = snapshot["room"]
    seats = snapshot["seats"]
    mine = _viewer(snapshot, viewer_key)
    context = {
        "room": room, "is_host": bool(viewer_key) and viewer_key == room["host_key"],
        "my_seat": mine and mine["index"], "seated": mine is not None, "now_ms": int(time.time() * 1000),
        "seats_taken": len(seats), "game": None,
    }
    if snapshot["game"] is None or room["status"] == "lobby":
        by_index = {seat["index"]: seat for seat in seats}
        context["lobby"] = [
            {"index": i, "seat": by_index.get(i), "is_you": by_index.get(i) is not None and by_index[i] is mine}
            for i in range(room["seat_count"])
        ]
        context["can_start"] = len(seats) >= 2
        return context
    draw = TableDraw.of(snapshot, events, key)
    game, view = draw.game, draw.view
    n = len(view["seats"])
    me = mine["index"] if mine is not None and mine["index"] < n else None
    controls = _controls(snapshot, me, draw.names)
    if controls is not None or (context["is_host"] and game["over"]):  # choices or a form: this viewer's own
        controls_html = render_to_string("table/_controls.html", {
            **draw.shared, "me": me, "controls": controls, "is_host": context["is_host"], "csrf_token": csrf_token})
    else:
        controls_html = draw.waiting(me is not None)
    start = 0 if me is None else me + 1  # your seat at the bottom, the others clockwise after you
    context.update(draw.shared)
    context.update({
        "me": me,
        "others": mark_safe("".join(draw.seat((start + i) % n, False) for i in range(n) if (start + i) % n != me)),
        "you": mark_safe(draw.seat(me, True)) if me is not None else "",
        "bar": mark_safe(draw.bar(controls is not None)),
        "center": mark_safe(draw.center()),
        "controls": mark_safe(controls_html),
        "standings": mark_safe(draw.standings()),
        "summary_html": mark_safe(draw.summary()),
        "paused": not game["over"] and room["status"] == "playing" and all(s["bot_level"] or s["away"] for s in seats),
        "timer_seconds": room["turn_seconds"],
    })
    return context


def _standings(view: dict, names: list[str]) -> list[dict]:
    rows = [{"name": names[i], "total": s["total"], "winner": i == view["winner"]} for i, s in enumerate(view["seats"])]
    return sorted(rows, key=lambda row: -row["total"])


def render_table(snapshot: dict, viewer_key: str | None, events: list[dict] = (), oob: bool = False,
                 csrf_token: str = "", key: str | None = None) -> str:
    context = table_context(snapshot, viewer_key, events, csrf_token, key)
    context.update(oob=oob, csrf_token=csrf_token)
    return render_to_string("table/_table.html", context)


def log_entries(snapshot: dict, events: list[dict]) -> list[dict]:
    return log.lines(events, _names(snapshot)) if snapshot["game"] is not None else []


def render_update(snapshot: dict, viewer_key: str | None, language: str, events: list[dict],
                  full_log: list[dict] | None = None, csrf_token: str = "", key: str | None = None) -> str:
    """The HTML pushed to one socket: the table, the log (all of it, or the new lines) and
    the spoken announcement of the new lines. Everything is swapped in by element id.
    `key` names the update, so the sockets sharing it draw its common pieces only once."""
    with override(language):
        parts = [render_table(snapshot, viewer_key, events, oob=True, csrf_token=csrf_token, key=key)]
        if full_log is not None:
            parts.append(render_to_string("table/_log.html", {
                "entries": log_entries(snapshot, full_log), "oob": True}))
        elif events and snapshot["game"] is not None:
            parts.append(TableDraw.of(snapshot, events, key).log())
        return "".join(parts)


def _log_update(snapshot: dict, events: list[dict]) -> str:
    entries = log_entries(snapshot, events)
    if not entries:
        return ""
    return render_to_string("table/_log_append.html", {"entries": entries}) + render_to_string(
        "table/_announce.html", {"entries": entries[-4:]})


def render_error(message: str, language: str) -> str:
    with override(language):
        return render_to_string("table/_toast.html", {"message": message})
