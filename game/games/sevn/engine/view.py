"""What every client may see of a game (rules section 10): never the deck order or the seed."""

from __future__ import annotations

from collections import Counter
from typing import NotRequired, TypedDict

from .scoring import row_score
from .state import BUST, GameState, LastRound, Pending


class PendingView(TypedDict):
    kind: str
    card: NotRequired[str]
    cards: NotRequired[list[str]]
    options: NotRequired[list[int]]


class SeatView(TypedDict):
    row: list[str]
    status: str
    total: int
    round_score: int  # what the row scores now (0 when bust)


class View(TypedDict):
    round: int
    dealer: int
    target: int
    current: int | None  # the seat that must decide now; None when the game is over
    pending: PendingView | None
    deck_count: int
    discard_count: int
    discard: dict[str, int]  # the discard pile's cards, as counts
    queue: list[str]  # queued action cards, oldest first
    queue_seats: list[int]  # and who took each
    active: str | None
    revealed: list[str]
    seats: list[SeatView]
    over: bool
    winner: int | None
    history: list[list[int]]
    last_round: LastRound | None


def public_view(state: GameState) -> View:
    pending = state["pending"]
    return {
        "round": state["round"],
        "dealer": state["dealer"],
        "target": state["target"],
        "current": None if pending is None else pending["seat"],
        "pending": None if pending is None else _public_pending(pending),
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "discard": dict(Counter(state["discard"])),
        "queue": [card for card, _owner in state["queue"]],
        "queue_seats": [owner for _card, owner in state["queue"]],
        "active": state["active"],
        "revealed": list(state["revealed"]),
        "seats": [
            {
                "row": list(seat["row"]),
                "status": seat["status"],
                "total": seat["total"],
                "round_score": 0 if seat["status"] == BUST else row_score(seat["row"]),
            }
            for seat in state["seats"]
        ],
        "over": state["over"],
        "winner": state["winner"],
        "history": [list(scores) for scores in state["history"]],
        "last_round": state["last_round"],
    }


def _public_pending(pending: Pending) -> PendingView:
    """The pending decision without its seat (that is `current`); lists copied."""
    shown: PendingView = {"kind": pending["kind"]}
    if "card" in pending:
        shown["card"] = pending["card"]
    if "cards" in pending:
        shown["cards"] = list(pending["cards"])
    if "options" in pending:
        shown["options"] = list(pending["options"])
    return shown
