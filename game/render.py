"""Per-viewer HTML of a table, drawn from a snapshot (selectors.snapshot) and the new events.

The same snapshot is drawn differently for each viewer: your own seat at the bottom, controls
only for the seat that must decide, none for spectators. Player keys are used to find "you"
and never reach the HTML.
"""

from __future__ import annotations

import time

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import override

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


def _cards(row: list[str], fresh: set[str], busting: str | None) -> tuple[list[dict], list[dict]]:
    """A row split into scoring values and the rest, each in the order the cards joined."""
    values, extras = [], []
    last_position = {code: position for position, code in enumerate(row)}
    for position, code in enumerate(row):
        card = {
            "face": face(code),
            "new": code in fresh and last_position[code] == position,
            "busting": busting is not None and position == len(row) - 1,
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


def _seat_panels(snapshot: dict, me: int | None, events: list[dict]) -> list[dict]:
    game = snapshot["game"]
    view = game["view"]
    by_index = {seat["index"]: seat for seat in snapshot["seats"]}
    fresh = _fresh_cards(events, view["round"])
    busted_now = {e["seat"] for e in events if e["type"] == "bust"}
    panels = []
    for index, seat_view in enumerate(view["seats"]):
        seat = by_index.get(index, {"nickname": game["players"][index], "bot_level": "", "away": False})
        status = seat_view["status"]
        values, extras = _cards(seat_view["row"], fresh.get(index, set()), status if status == "bust" else None)
        panels.append({
            "index": index, "nickname": seat["nickname"], "bot_level": seat["bot_level"], "away": seat["away"],
            "is_you": index == me, "is_dealer": index == view["dealer"], "is_current": index == view["current"],
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
            "sevn": last["sevn"] == index, "cards": [face(code) for code in last["rows"][index]],
            "steps": [{"label": step_label(s["step"]), **s} for s in steps] if steps else None,
            "total": sum(round_scores[index] for round_scores in view["history"]),
        })
    return {"round": last["round"], "seats": seats}


def table_context(snapshot: dict, viewer_key: str | None, events: list[dict] = ()) -> dict:
    room = snapshot["room"]
    seats = snapshot["seats"]
    mine = next((s for s in seats if viewer_key and s["player_key"] == viewer_key), None)
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
    game = snapshot["game"]
    view = game["view"]
    names = list(game["players"])
    for seat in seats:
        if seat["index"] < len(names):
            names[seat["index"]] = seat["nickname"]
    me = mine["index"] if mine is not None and mine["index"] < len(view["seats"]) else None
    panels = _seat_panels(snapshot, me, list(events))
    # your seat last (drawn at the bottom), the others clockwise after you
    n = len(panels)
    start = 0 if me is None else me + 1
    ordered = [panels[(start + i) % n] for i in range(n)]
    context.update({
        "game": game, "view": view, "names": names, "me": me,
        "others": [p for p in ordered if not p["is_you"]], "you": panels[me] if me is not None else None,
        "controls": _controls(snapshot, me, names),
        "current_name": names[view["current"]] if view["current"] is not None else None,
        "pending_kind": view["pending"]["kind"] if view["pending"] else None,
        "revealed": [face(code) for code in view["revealed"]],
        "held": face(view["pending"]["card"]) if view["pending"] and "card" in view["pending"] else None,
        "active": face(view["active"]) if view["active"] else None,
        "queue": [{"face": face(code), "owner": names[owner]} for code, owner in zip(
            view["queue"], view["queue_seats"], strict=True)],
        "summary": _summary(view, names),
        "show_summary": any(e["type"] == "round_scored" for e in events),
        "standings": sorted(
            ({"name": names[i], "total": s["total"], "winner": i == view["winner"]}
             for i, s in enumerate(view["seats"])), key=lambda row: -row["total"]) if game["over"] else None,
        "sevn_goal": SEVN_DISTINCT,
        "paused": not game["over"] and room["status"] == "playing" and all(
            s["bot_level"] or s["away"] for s in seats),
        "deadline_ms": int(game["deadline"] * 1000) if game["deadline"] else None,
        "timer_seconds": room["turn_seconds"],
    })
    return context


def render_table(snapshot: dict, viewer_key: str | None, events: list[dict] = (), oob: bool = False,
                 csrf_token: str = "") -> str:
    context = table_context(snapshot, viewer_key, events)
    context.update(oob=oob, csrf_token=csrf_token)
    return render_to_string("table/_table.html", context)


def log_entries(snapshot: dict, events: list[dict]) -> list[dict]:
    game = snapshot["game"]
    if game is None:
        return []
    names = list(game["players"])
    for seat in snapshot["seats"]:
        if seat["index"] < len(names):
            names[seat["index"]] = seat["nickname"]
    return log.lines(events, names)


def render_update(snapshot: dict, viewer_key: str | None, language: str, events: list[dict],
                  full_log: list[dict] | None = None, csrf_token: str = "") -> str:
    """The HTML pushed to one socket: the table, the log (all of it, or the new lines) and
    the spoken announcement of the new lines. Everything is swapped in by element id."""
    with override(language):
        parts = [render_table(snapshot, viewer_key, events, oob=True, csrf_token=csrf_token)]
        if full_log is not None:
            parts.append(render_to_string("table/_log.html", {
                "entries": log_entries(snapshot, full_log), "oob": True}))
        else:
            entries = log_entries(snapshot, events)
            if entries:
                parts.append(render_to_string("table/_log_append.html", {"entries": entries}))
                parts.append(render_to_string("table/_announce.html", {"entries": entries[-4:]}))
        return "".join(parts)


def render_error(message: str, language: str) -> str:
    with override(language):
        return render_to_string("table/_toast.html", {"message": message})
