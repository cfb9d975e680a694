"""What each part of a table shows, as plain data drawn from a snapshot: seats, the decider's
choices, the round summary, the standings, the log in words, in the viewer's language."""

from __future__ import annotations

from typing import NamedTuple

from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from game.engine.cards import TRIPLE_DRAW_CARDS, VALUE

from .. import log
from ..bots.odds import bust_chance, crossroads_busts
from ..cards_ui import card_name, face
from ..identity import tag

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


def fresh_cards(events: list[dict], round_number: int) -> dict[int, set[str]]:
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


def seat_facts(snapshot: dict, index: int) -> SeatFacts:
    game = snapshot["game"]
    view = game["view"]
    seat_view = view["seats"][index]
    seat = next(
        (s for s in snapshot["seats"] if s["index"] == index),
        {"nickname": game["players"][index], "bot_level": "", "away": False},
    )
    row, status, round_score = seat_view["row"], seat_view["status"], seat_view["round_score"]
    if game["over"] and view["last_round"]:  # the game ended: show its last round as it ended
        final = view["last_round"]
        row, status, round_score = final["rows"][index], final["statuses"][index], final["scores"][index]
    return SeatFacts(
        game["over"],
        index,
        seat["nickname"],
        seat["bot_level"],
        seat["away"],
        index == view["dealer"],
        status,
        seat_view["total"],
        round_score,
        tuple(row),
        game["over"] and index == view["winner"],
    )


def points(n: int) -> str:
    """A number of points, in the plural form the language uses for it."""
    return ngettext("%(n)s point", "%(n)s points", n) % {"n": n}


def seat_label(nickname: str, status_label: str, total: int) -> str:
    """What a screen reader hears for a seat: one sentence, so each language orders it (and
    spaces its colon) as it must."""
    return _("%(name)s: %(status)s, %(points)s") % {"name": nickname, "status": status_label, "points": points(total)}


def dealer_mark() -> str:
    return pgettext("one-letter dealer chip", "D")


def seat_panel(facts: SeatFacts, fresh: set[str], shake: bool) -> dict:
    """The seat template's context: cards drawn, labels in the viewer's language."""
    values, extras = _cards(list(facts.row), fresh, facts.status == "bust")
    status_label = STATUS_LABELS[facts.status]()
    return {
        "index": facts.index,
        "nickname": facts.nickname,
        "bot_level": facts.bot_level,
        "away": facts.away,
        "is_dealer": facts.is_dealer,
        "dealer_mark": dealer_mark(),
        "status": facts.status,
        "status_label": status_label,
        "label": seat_label(facts.nickname, status_label, facts.total),
        "total": facts.total,
        "round_score": facts.round_score,
        "values": values,
        "extras": extras,
        "distinct": sum(1 for code in facts.row if code in VALUE) if facts.status != "bust" else None,
        "shake": shake,
        "winner": facts.winner,
    }


def access_keys(labels: list[str]) -> list[str]:
    """A key per button, from its label in the viewer's language: its first letter, or the
    first of its letters no button before it took (Pakken, Passen: p, a)."""
    taken: list[str] = []
    for label in labels:
        letters = [ch for ch in label.lower() if ch.isalpha()]
        taken.append(next((ch for ch in letters if ch not in taken), ""))
    return taken


# The decider's controls differ from one update to the next by the table version in their
# forms only: they are drawn once per choice with this in its place (pieces._decision).
VERSION_MARK = mark_safe("\x00version\x00")


def choices(snapshot: dict, me: int | None, names: list[str]) -> dict | None:
    """What the deciding viewer may choose, with the odds the room shows."""
    game = snapshot["game"]
    view = game["view"]
    if me is None or game["over"] or view["current"] != me or snapshot["room"]["status"] != "playing":
        return None
    pending = view["pending"]
    kind = pending["kind"]
    controls = {"kind": kind, "version": VERSION_MARK}
    if kind == "turn":
        controls["can_draw"] = view["deck_count"] + view["discard_count"] > 0
        controls["draw_label"], controls["pass_label"] = _("Draw"), _("Pass")
        controls["draw_key"], controls["pass_key"] = access_keys([controls["draw_label"], controls["pass_label"]])
        if snapshot["room"]["show_odds"]:
            controls["bust_chance"] = round(100 * bust_chance(view, me))
    elif kind in ("freeze", "triple_draw", "gift"):
        controls["options"] = [
            {
                "seat": seat,
                "name": names[seat],
                "round_score": view["seats"][seat]["round_score"],
                "is_you": seat == me,
                "row": ngettext("row: %(n)s point", "row: %(n)s points", view["seats"][seat]["round_score"])
                % {"n": view["seats"][seat]["round_score"]},
            }
            for seat in pending["options"]
        ]
        if kind == "triple_draw":
            controls["prompt"] = ngettext(
                "Triple Draw: choose who takes up to %(n)s card.",
                "Triple Draw: choose who takes up to %(n)s cards.",
                TRIPLE_DRAW_CARDS,
            ) % {"n": TRIPLE_DRAW_CARDS}
    elif kind == "ballast":
        controls["card"] = face(pending["card"])
    elif kind == "crossroads":
        busts = crossroads_busts(view, me)
        controls["picks"] = [
            {"pick": i, "face": face(code), "busts": busts[i]} for i, code in enumerate(pending["cards"])
        ]
    return controls


def round_summary(view: dict, names: list[str]) -> dict | None:
    last = view.get("last_round")
    if not last:
        return None
    seats = []
    for index, steps in enumerate(last["steps"]):
        seats.append(
            {
                "name": names[index],
                "score": last["scores"][index],
                "status": last["statuses"][index],
                "sevn": last["sevn"] == index,
                "cards": [
                    {"face": face(code), "busting": last["statuses"][index] == "bust" and i == len(row) - 1}
                    for row in [last["rows"][index]]
                    for i, code in enumerate(row)
                ],
                "steps": [{"label": step_label(s["step"]), **s} for s in steps] if steps else None,
                "total": view["seats"][index]["total"],
            }
        )
    return {"round": last["round"], "seats": seats}


def viewer_seat(snapshot: dict, viewer_key: str | None) -> dict | None:
    who = tag(viewer_key)
    return next((s for s in snapshot["seats"] if who and s["who"] == who), None)


def seat_names(snapshot: dict) -> list[str]:
    names = list(snapshot["game"]["players"])
    for seat in snapshot["seats"]:
        if seat["index"] < len(names):
            names[seat["index"]] = seat["nickname"]
    return names


def standings_rows(view: dict, names: list[str]) -> list[dict]:
    top = max(seat["total"] for seat in view["seats"])
    rows = [
        {
            "name": names[i],
            "total": s["total"],
            "points": points(s["total"]),
            "winner": i == view["winner"] or (view["winner"] is None and s["total"] == top),
        }
        for i, s in enumerate(view["seats"])
    ]
    rows.sort(key=lambda row: -row["total"])
    place = 0
    for position, row in enumerate(rows):  # equal totals share a place
        if position == 0 or row["total"] != rows[position - 1]["total"]:
            place = position + 1
        row["place"] = place
    return rows


# Line colours of the score chart, one per seat (8 at most), each paired with its name in the
# table's head (never colour alone; sevn.css .swatch-N has the same); all readable on white.
CHART_COLOURS = ("#d6402b", "#1d4ed8", "#13795b", "#8a6206", "#6b2fa0", "#0e7490", "#b45309", "#334155")
CHART_W, CHART_H, CHART_PAD = 320, 150, 26


def scoreboard(view: dict, names: list[str]) -> dict:
    """Every round's score and the running totals per seat, and a line chart of the totals."""
    history = view["history"]
    running = [0] * len(names)
    rounds = []
    for number, scores in enumerate(history, start=1):
        running = [total + score for total, score in zip(running, scores, strict=True)]
        rounds.append(
            {
                "number": number,
                "cells": [{"score": score, "total": total} for score, total in zip(scores, running, strict=True)],
            }
        )
    return {
        "names": names,
        "rounds": rounds,
        "totals": [seat["total"] for seat in view["seats"]],
        "chart": score_chart(history, names, view["target"]),
    }


def score_chart(history: list[list[int]], names: list[str], target: int) -> str:
    """The running totals as an SVG line chart, drawn on the server (no script needed)."""
    totals = [[0] * len(names)]
    for scores in history:
        totals.append([total + score for total, score in zip(totals[-1], scores, strict=True)])
    top = max([target] + [max(row) for row in totals])
    width, height = CHART_W - 2 * CHART_PAD, CHART_H - 2 * CHART_PAD
    steps = max(1, len(totals) - 1)

    def point(i: int, value: int) -> str:
        return f"{CHART_PAD + width * i / steps:.1f},{CHART_PAD + height * (1 - value / top):.1f}"

    target_y = CHART_PAD + height * (1 - target / top)
    lines = format_html_join(
        "",
        '<polyline fill="none" stroke="{}" stroke-width="2.5" points="{}"><title>{}</title></polyline>',
        (
            (
                CHART_COLOURS[seat % len(CHART_COLOURS)],
                " ".join(point(i, row[seat]) for i, row in enumerate(totals)),
                f"{name}: {points(totals[-1][seat])}",
            )
            for seat, name in enumerate(names)
        ),
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">'
        '<line class="chart__axis" x1="{p}" y1="{bottom}" x2="{right}" y2="{bottom}"/>'
        '<line class="chart__target" x1="{p}" y1="{ty}" x2="{right}" y2="{ty}"/>'
        '<text class="chart__text" x="{p}" y="{ty_text}">{target_label}</text>'
        '<text class="chart__text" x="{p}" y="{h_text}">0</text>{lines}</svg>',
        w=CHART_W,
        h=CHART_H,
        p=CHART_PAD,
        bottom=CHART_PAD + height,
        right=CHART_PAD + width,
        ty=f"{target_y:.1f}",
        ty_text=f"{target_y - 4:.1f}",
        h_text=CHART_H - 8,
        lines=lines,
        label=_("Running totals after each round"),
        target_label=_("Target: %(target)s") % {"target": target},
    )


def log_entries(snapshot: dict, events: list[dict]) -> list[dict]:
    if snapshot["game"] is None:
        return []
    return log.lines(events, seat_names(snapshot), snapshot["room"].get("kind", "sevn"))
