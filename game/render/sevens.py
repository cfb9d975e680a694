"""A Sevens table for one viewer, as pieces drawn from that viewer's view alone.

The snapshot of a Sevens game carries a spectator's view and each seat's own
(`kinds.Sevens.views`, the engine's `view(state, viewer)`); `viewer_view` picks the one this
viewer may see, and every piece's data comes from it and nothing else of the game. So another
seat's hand cannot be drawn by mistake: it is in no piece.

The shape is SEVN's (render.sevn): the pieces every viewer shares are worked out once per
update (`shared_pieces`: the bar, the layout, the seats, the last round, the standings), each
viewer adds their own (the turn, their hand or what they wait for, their seat marked "you").
"""

from __future__ import annotations

from typing import NamedTuple

from django.utils.text import capfirst
from django.utils.translation import gettext

from ..identity import tag
from ..sevens.engine.cards import RANKS, SEVEN, SUITS, SYMBOL
from ..sevens.faces import face, rank_label, short_name, suit_name
from . import common
from .common import TableView
from .drawing import Piece
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


def layout_context(layout: tuple[tuple[str, str] | None, ...]) -> dict:
    return {"layout": layout_rows(dict(zip(SUITS, layout, strict=True)))}


class Frame(NamedTuple):
    """The arrangement around a Sevens table's pieces: when it changes, the whole table is sent."""

    status: str
    game_id: int
    me: int | None
    seats: int
    over: bool
    last_round: bool


class Shared(NamedTuple):
    names: tuple[str, ...]
    pieces: dict[str, Piece]
    seats: dict[int, SeatFacts]


class SeatFacts(NamedTuple):
    """A seat as everyone sees it: name, cards in hand, passes this round, penalty total."""

    index: int
    name: str
    count: int
    passes: int
    total: int
    dealer: bool
    bot_level: str
    away: bool
    winner: bool
    is_you: bool = False


def seat_context(seat: SeatFacts) -> dict:
    return {"seat": seat}


def shared_pieces(snapshot: dict, events: list[dict]) -> Shared:
    """The pieces every viewer of this update shares, from the spectator's view (which holds
    no hand)."""
    table, game = snapshot["table"], snapshot["game"]
    view = game["view"]
    names = tuple(seat_names(snapshot))
    turn = view["current"] if view["current"] is not None and not view["over"] else None
    deadline_ms = int(game["deadline"] * 1000) if game["deadline"] else None
    meta = common.Meta(game["number"], game["version"], turn, deadline_ms, table["turn_seconds"], False)
    by_index = {seat["index"]: seat for seat in snapshot["seats"]}
    winners = set(view["winners"])
    seats = {}
    for index, public in enumerate(view["seats"]):
        seat = by_index.get(index, {"bot_level": "", "away": False})
        seats[index] = SeatFacts(
            index,
            names[index],
            public["count"],
            public["passes"],
            public["total"],
            index == view["dealer"],
            seat["bot_level"],
            seat["away"],
            game["over"] and index in winners,
        )
    layout = tuple(None if view["layout"][suit] is None else tuple(view["layout"][suit]) for suit in SUITS)
    pieces = {
        "table-meta": common.meta_piece(meta),
        "table-bar": Piece("sevens/_bar.html", Bar(table["code"], view["round"], view["rounds"]), bar_context),
    }
    if view["over"]:
        pieces["standings"] = Piece("sevens/_standings.html", _standings(view, names), standings_context)
    if view["last_round"]:
        pieces["last-round"] = Piece("sevens/_last_round.html", _last_round(view, names), last_round_context)
    pieces.update({f"seat-{index}": Piece("sevens/_seat.html", seat, seat_context) for index, seat in seats.items()})
    pieces["sevens-layout"] = Piece("sevens/_layout.html", layout, layout_context)
    return Shared(names, pieces, seats)


class Bar(NamedTuple):
    code: str
    round: int
    rounds: int


def bar_context(bar: Bar) -> dict:
    return {"bar": bar}


class LastRound(NamedTuple):
    """The round just finished: everyone's penalty and the cards they were left with (public
    once the round is over)."""

    round: int
    over: bool  # the game too: the list stays open
    names: tuple[str, ...]
    penalties: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]


def _last_round(view: dict, names: tuple[str, ...]) -> LastRound:
    last = view["last_round"]
    number = view["round"] - (0 if view["over"] else 1)
    hands = tuple(tuple(hand) for hand in last["hands"])
    return LastRound(number, view["over"], names, tuple(last["penalties"]), hands)


def last_round_context(last: LastRound) -> dict:
    seats = [
        {"name": last.names[i], "penalty": penalty, "cards": [face(code) for code in last.hands[i]]}
        for i, penalty in enumerate(last.penalties)
    ]
    return {"last_round": {"round": last.round, "seats": seats}, "over": last.over}


class Standing(NamedTuple):
    place: int
    name: str
    total: int
    winner: bool


def _standings(view: dict, names: tuple[str, ...]) -> tuple[Standing, ...]:
    """Final totals, lowest first (the lowest total wins; ties share the win and the place)."""
    order = sorted(range(len(view["seats"])), key=lambda i: (view["seats"][i]["total"], i))
    standings, place, last_total = [], 0, None
    for rank, i in enumerate(order, start=1):
        total = view["seats"][i]["total"]
        if total != last_total:
            place, last_total = rank, total
        standings.append(Standing(place, names[i], total, i in view["winners"]))
    return tuple(standings)


def standings_context(standings: tuple[Standing, ...]) -> dict:
    return {"standings": standings}


class Hand(NamedTuple):
    """A seated player's hand (playable cards marked on their turn), or what a spectator waits for."""

    me: int | None
    yours: bool
    current_name: str | None
    cards: tuple[tuple[str, bool], ...]  # (card, playable)


def hand_context(hand: Hand) -> dict:
    return {
        "over": False,
        "me": hand.me,
        "yours": hand.yours,
        "current_name": hand.current_name,
        "hand": [{"face": face(code), "playable": playable} for code, playable in hand.cards],
        "hand_count": len(hand.cards),
    }


def viewer_table(
    snapshot: dict,
    shared: Shared,
    viewer_key: str | None,
    asked: frozenset = frozenset(),
    online: tuple[int, ...] | None = None,
) -> TableView:
    """One viewer's Sevens table: the shared pieces, their own seat marked, the turn as they
    see it and their hand (from their own view: nobody else's)."""
    table, game = snapshot["table"], snapshot["game"]
    names = shared.names
    mine = viewer_seat(snapshot, viewer_key)
    me = mine["index"] if mine is not None and mine["index"] < len(names) else None
    view = viewer_view(game, me)
    yours = me is not None and view["current"] == me and not view["over"]
    current_name = names[view["current"]] if view["current"] is not None and not view["over"] else None
    everyone = shared.pieces
    pieces = {
        "table-meta": everyone["table-meta"],
        "table-presence": common.presence(online),
        "table-bar": everyone["table-bar"],
        "table-turn": Piece(
            "sevens/_turn.html", common.Turn(current_name, yours, bool(game["deadline"])), common.turn_context
        ),
    }
    pieces.update({name: everyone[name] for name in ("standings", "last-round") if name in everyone})
    pieces.update({f"seat-{index}": everyone[f"seat-{index}"] for index in range(len(names))})
    if me is not None:
        pieces[f"seat-{me}"] = Piece("sevens/_seat.html", shared.seats[me]._replace(is_you=True), seat_context)
    pieces["sevens-layout"] = everyone["sevens-layout"]
    if view["over"]:
        is_host = bool(viewer_key) and tag(viewer_key) == table["host"]
        rematch = common.rematch(snapshot, names, me, is_host, asked)
        pieces["controls"] = Piece("sevens/_hand.html", rematch, common.rematch_context)
    else:
        playable = set(view["playable"]) if yours else set()
        cards = tuple((code, code in playable) for code in view["hand"] or ())
        pieces["controls"] = Piece("sevens/_hand.html", Hand(me, yours, current_name, cards), hand_context)
    frame = Frame(table["status"], game["id"], me, len(names), view["over"], "last-round" in everyone)
    return TableView(frame, pieces)
