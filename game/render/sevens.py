"""A Sevens table for one viewer, drawn from that viewer's view alone.

The snapshot of a Sevens game carries a spectator's view and each seat's own
(`kinds.Sevens.views`, the engine's `view(state, viewer)`); `viewer_view` picks the one this
viewer may see, and nothing else of the game reaches the templates. So another seat's hand
cannot be drawn by mistake: it is not in the context.

A Sevens table is small (at most 52 cards), so a screen draws it whole on every update
rather than piece by piece.
"""

from __future__ import annotations

import time

from django.template.loader import render_to_string
from django.utils.text import capfirst
from django.utils.translation import gettext

from ..identity import tag
from ..sevens.engine.cards import RANKS, SEVEN, SUITS, SYMBOL
from ..sevens.faces import face, rank_label, short_name, suit_name
from .panels import seat_names, viewer_seat


def viewer_view(game: dict, me: int | None) -> dict:
    """What this viewer may see: their seat's view, or a spectator's."""
    seat_views = game.get("seat_views")
    if me is not None and seat_views is not None and me < len(seat_views):
        return seat_views[me]
    return game["view"]


def layout_rows(layout: dict) -> list[dict]:
    """The four suit rows, A to K with the 7 in the middle: cards on the table, and the open
    ends where a card may go next (a row without its 7 is open at the 7 only). The table and the
    rulebook's Sevens example both draw them (sevens/_layout.html)."""
    rows = []
    for suit in SUITS:
        ends = layout[suit]
        low, high = (None, None) if ends is None else (RANKS.index(ends[0]), RANKS.index(ends[1]))
        cells = []
        for index, rank in enumerate(RANKS):
            on_table = low is not None and low <= index <= high
            open_end = (index == SEVEN) if low is None else index in (low - 1, high + 1)
            cells.append(
                {
                    "rank": rank_label(rank),
                    "code": rank + suit,
                    "open": open_end,
                    "seven": index == SEVEN,
                    "face": face(rank + suit) if on_table else None,
                }
            )
        if ends is None:
            state = gettext("%(suit)s: no 7 yet") % {"suit": capfirst(suit_name(suit))}
        else:
            state = gettext("%(suit)s: %(low)s to %(high)s") % {
                "suit": capfirst(suit_name(suit)),
                "low": short_name(ends[0] + suit),
                "high": short_name(ends[1] + suit),
            }
        rows.append({"suit": suit, "symbol": SYMBOL[suit], "name": suit_name(suit), "cells": cells, "label": state})
    return rows


def _seats(snapshot: dict, view: dict, names: list[str], me: int | None) -> list[dict]:
    game = snapshot["game"]
    by_index = {seat["index"]: seat for seat in snapshot["seats"]}
    winners = set(view["winners"])
    seats = []
    for index, public in enumerate(view["seats"]):
        seat = by_index.get(index, {"bot_level": "", "away": False, "nickname": names[index]})
        seats.append(
            {
                "index": index,
                "name": names[index],
                "count": public["count"],
                "passes": public["passes"],
                "total": public["total"],
                "is_you": index == me,
                "current": index == view["current"] and not view["over"],
                "dealer": index == view["dealer"],
                "bot_level": seat["bot_level"],
                "away": seat["away"],
                "winner": game["over"] and index in winners,
            }
        )
    return seats


def _last_round(view: dict, names: list[str]) -> dict | None:
    """The round just finished: everyone's penalty and the cards they were left with."""
    last = view["last_round"]
    if not last:
        return None
    return {
        "round": view["round"] - (0 if view["over"] else 1),
        "seats": [
            {"name": names[i], "penalty": penalty, "cards": [face(code) for code in last["hands"][i]]}
            for i, penalty in enumerate(last["penalties"])
        ],
    }


def _standings(view: dict, names: list[str]) -> list[dict]:
    """Final totals, lowest first (the lowest total wins; ties share the win)."""
    order = sorted(range(len(view["seats"])), key=lambda i: (view["seats"][i]["total"], i))
    standings, place, last_total = [], 0, None
    for rank, i in enumerate(order, start=1):
        total = view["seats"][i]["total"]
        if total != last_total:
            place, last_total = rank, total
        standings.append({"place": place, "name": names[i], "total": total, "winner": i in view["winners"]})
    return standings


def sevens_context(
    snapshot: dict, viewer_key: str | None, asked: frozenset = frozenset(), online: tuple[int, ...] | None = None
) -> dict:
    """Everything templates/sevens/_table.html needs for one viewer."""
    room, game = snapshot["room"], snapshot["game"]
    mine = viewer_seat(snapshot, viewer_key)
    names = seat_names(snapshot)
    me = mine["index"] if mine is not None and mine["index"] < len(names) else None
    view = viewer_view(game, me)
    yours = me is not None and view["current"] == me and not view["over"]
    playable = set(view["playable"]) if yours else set()
    hand = [{"face": face(code), "playable": code in playable} for code in (view["hand"] or [])]
    deadline_ms = int(game["deadline"] * 1000) if game["deadline"] else None
    current = view["current"]
    host_seat = next((s["index"] for s in snapshot["seats"] if s["who"] == room["host"]), None)
    return {
        "room": room,
        "game": game,
        "view": view,
        "me": me,
        "yours": yours,
        "hand": hand,
        "hand_count": len(hand),
        "layout": layout_rows(view["layout"]),
        "seats": _seats(snapshot, view, names, me),
        "current_name": names[current] if current is not None else "",
        "deadline_ms": deadline_ms,
        "now_ms": int(time.time() * 1000),
        "clock": bool(deadline_ms),
        "online": " ".join(str(int(seat)) for seat in online or ()),
        "online_known": online is not None,
        "last_round": _last_round(view, names),
        "standings": _standings(view, names) if view["over"] else [],
        "is_host": bool(viewer_key) and tag(viewer_key) == room["host"],
        "host_name": room["host_name"],
        "asked_names": [names[i] for i in sorted(asked) if i < len(names) and i != host_seat],
        "you_asked": me is not None and me in asked,
    }


def render_sevens_table(
    snapshot: dict,
    viewer_key: str | None,
    oob: bool = False,
    asked: frozenset = frozenset(),
    online: tuple[int, ...] | None = None,
) -> str:
    context = sevens_context(snapshot, viewer_key, asked, online)
    context["oob"] = oob
    return render_to_string("sevens/_table.html", context)
