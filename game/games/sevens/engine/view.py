"""What one viewer may see: their own hand, everyone's counts, never another seat's cards
while a round runs, never the coming deal or the RNG."""

from __future__ import annotations

from typing import TypedDict

from .errors import IllegalAction
from .layout import playable
from .state import State


class SeatView(TypedDict):
    count: int  # cards in hand
    total: int  # penalty total
    passes: int  # passes this round


class LastRound(TypedDict):
    penalties: list[int]
    hands: list[list[str]]  # every hand as the round ended, face up


class View(TypedDict):
    round: int
    rounds: int
    dealer: int
    current: int | None
    layout: dict[str, list[str] | None]
    seats: list[SeatView]
    hand: list[str] | None
    playable: list[str]
    over: bool
    winners: list[int]
    last_round: LastRound | None


def view(state: State, viewer: int | None) -> View:
    """What `viewer` (a seat number, or None for a spectator) may see."""
    seats = state["seats"]
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < len(seats)):
        raise IllegalAction("There is no such seat.", "bad_seat")
    hand = None if viewer is None else list(seats[viewer]["hand"])
    last = state["last_round"]
    return {
        "round": state["round"],
        "rounds": state["rounds"],
        "dealer": state["dealer"],
        "current": state["current"],
        "layout": {suit: None if row is None else list(row) for suit, row in state["layout"].items()},
        "seats": [{"count": len(seat["hand"]), "total": seat["total"], "passes": seat["passes"]} for seat in seats],
        "hand": hand,
        "playable": playable(hand, state["layout"]) if hand is not None and viewer == state["current"] else [],
        "over": state["over"],
        "winners": list(state["winners"]),
        "last_round": None
        if last is None
        else {"penalties": list(last["penalties"]), "hands": [list(h) for h in last["hands"]]},
    }
