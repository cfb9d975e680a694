"""What each piece of a Sevens table shows, as plain data from a viewer's view (no language in
it), and the context its partial is drawn with (in the viewer's language): the layout, the
seats, the bar, the last round, the standings and the viewer's hand."""

from __future__ import annotations

from typing import NamedTuple

from django.utils.text import capfirst
from django.utils.translation import gettext

from game.drawkit.common import Record, winners_title
from game.games.sevens.engine.cards import RANK_INDEX, RANKS, SEVEN, SUITS, SYMBOL, rank_of, suit_of
from game.games.sevens.faces import face, rank_label, short_name, suit_name


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
        elif ends[0] == ends[1]:  # the 7 alone: "7♣ to 7♣" read as a row of one
            state = gettext("%(suit)s: only %(card)s") % {
                "suit": capfirst(suit_name(suit)),
                "card": short_name(ends[0] + suit),
            }
        else:
            state = gettext("%(suit)s: %(low)s to %(high)s") % {
                "suit": capfirst(suit_name(suit)),
                "low": short_name(ends[0] + suit),
                "high": short_name(ends[1] + suit),
            }
        rows.append({"suit": suit, "symbol": SYMBOL[suit], "name": suit_name(suit), "cells": cells, "label": state})
    return rows


def layout_context(data: tuple[tuple[tuple[str, str] | None, ...], tuple[str, ...]]) -> dict:
    """The layout's rows, and the cards marked as played lately (since the viewer last played)."""
    layout, marked = data
    rows = layout_rows(dict(zip(SUITS, layout, strict=True)))
    for row in rows:
        for cell in row["cells"]:
            cell["recent"] = cell["face"] is not None and cell["code"] in marked
    return {"layout": rows}


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
    record: Record | None = None  # its account's finished games, beside the name (None: nothing shown)


def seat_context(seat: SeatFacts) -> dict:
    return {"seat": seat}


class Bar(NamedTuple):
    code: str
    round: int
    rounds: int
    summary: bool = False  # a round is over: its result can be opened again


def bar_context(bar: Bar) -> dict:
    return {"bar": bar}


class LastRound(NamedTuple):
    """The round just finished: who went out, everyone's penalty, the cards they were left with
    (public once the round is over) and the new totals."""

    round: int
    over: bool  # the game too: the result stays open
    names: tuple[str, ...]
    penalties: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    totals: tuple[int, ...]


def last_round_data(view: dict, names: tuple[str, ...]) -> LastRound:
    last = view["last_round"]
    number = view["round"] - (0 if view["over"] else 1)
    hands = tuple(tuple(hand) for hand in last["hands"])
    totals = tuple(seat["total"] for seat in view["seats"])
    return LastRound(number, view["over"], names, tuple(last["penalties"]), hands, totals)


def last_round_context(last: LastRound) -> dict:
    seats = [
        {
            "name": last.names[i],
            "penalty": penalty,
            "out": not last.hands[i],
            "cards": [face(code) for code in last.hands[i]],
            "total": last.totals[i],
        }
        for i, penalty in enumerate(last.penalties)
    ]
    out = next((seat["name"] for seat in seats if seat["out"]), None)
    return {"last_round": {"round": last.round, "seats": seats, "out_name": out}, "over": last.over}


class Standing(NamedTuple):
    place: int
    name: str
    total: int
    winner: bool
    rating: object = None  # a rated game's common.RatingMove for this seat's person, or None


def standings_data(view: dict, names: tuple[str, ...], ratings: tuple = ()) -> tuple[Standing, ...]:
    """Final totals, lowest first (the lowest total wins; ties share the win and the place)."""
    order = sorted(range(len(view["seats"])), key=lambda i: (view["seats"][i]["total"], i))
    standings, place, last_total = [], 0, None
    for rank, i in enumerate(order, start=1):
        total = view["seats"][i]["total"]
        if total != last_total:
            place, last_total = rank, total
        standings.append(
            Standing(place, names[i], total, i in view["winners"], ratings[i] if i < len(ratings) else None)
        )
    return tuple(standings)


def standings_context(standings: tuple[Standing, ...]) -> dict:
    return {"standings": standings, "title": winners_title([row.name for row in standings if row.winner])}


class Hand(NamedTuple):
    """A seated player's hand (playable cards marked on their turn), or what a spectator waits for."""

    me: int | None
    yours: bool
    current_name: str | None
    cards: tuple[tuple[str, bool, bool], ...]  # (card, playable now, fits the layout)
    layout: tuple  # the layout as the hand's reasons read it: (low, high) or None per suit, in SUITS order


def hand_context(hand: Hand) -> dict:
    layout = dict(zip(SUITS, hand.layout, strict=True))
    stop = next((code for code, playable, _ in hand.cards if playable), None)
    return {
        "over": False,
        "me": hand.me,
        "yours": hand.yours,
        "current_name": hand.current_name,
        # The hand is one Tab stop as drawn, before any script runs: the first playable card
        # (keyboard.js then keeps whichever playable card the player last stood on).
        "hand": [
            {
                "face": face(code),
                "playable": playable,
                "stop": playable and code == stop,
                "why": reason(code, layout, fits),
            }
            for code, playable, fits in hand.cards
        ],
        "hand_count": len(hand.cards),
    }


def _card(rank_index: int, suit: str) -> str:
    return RANKS[rank_index] + suit


def reason(card: str, layout: dict, fits: bool) -> str:
    """Why `card` fits `layout` or not, as one sentence naming the cards it joins or waits for."""
    suit, index = suit_of(card), RANK_INDEX[rank_of(card)]
    row = layout[suit]
    names = {"card": short_name(card)}
    if fits:
        if row is None:
            return gettext("%(card)s fits: any 7 starts the row of its suit.") % names
        low, high = RANK_INDEX[row[0]], RANK_INDEX[row[1]]
        if index < low:
            names["end"] = short_name(_card(low, suit))
            if index == 0:
                return (
                    gettext(
                        "%(card)s fits: it goes under %(end)s. The Ace is low: it goes under the 2, "
                        "never over the King."
                    )
                    % names
                )
            return gettext("%(card)s fits: it extends its row down from %(end)s.") % names
        names["end"] = short_name(_card(high, suit))
        return gettext("%(card)s fits: it extends its row up from %(end)s.") % names
    if row is None:
        names["seven"] = short_name(_card(SEVEN, suit))
        if abs(index - SEVEN) == 1:
            return gettext("%(card)s does not fit: it waits for %(seven)s, which starts its row.") % names
        names["next"] = short_name(_card(index + (1 if index < SEVEN else -1), suit))
        return (
            gettext(
                "%(card)s does not fit: its row has not started. It waits for %(seven)s and every card "
                "from there to %(next)s."
            )
            % names
        )
    low, high = RANK_INDEX[row[0]], RANK_INDEX[row[1]]
    if index > high:
        names["next"] = short_name(_card(high + 1, suit))
        return gettext("%(card)s does not fit: the next card up in its row is %(next)s.") % names
    names["next"] = short_name(_card(low - 1, suit))
    return gettext("%(card)s does not fit: the next card down in its row is %(next)s.") % names


def open_hands_context(hands: tuple[tuple[str, tuple[str, ...], bool], ...]) -> dict:
    """Every seat's hand in a replay: (name, cards, whether it decides now) per seat."""
    return {
        "hands": [
            {"name": name, "cards": [face(code) for code in cards], "current": current}
            for name, cards, current in hands
        ]
    }
