"""The Sevens rules engine: pure Python, plain-data state, deterministic from a seed.

The public surface (see shared/spec/sevens-contract.md) is exactly what this module exports.
"""

from __future__ import annotations

from .cards import DECK
from .errors import IllegalAction
from .layout import playable
from .moves import apply, legal_actions, timeout
from .rounds import deal_round
from .state import State, blank_state, check_stacked_deck, from_json, shuffled_deck, to_json
from .view import View, view

__all__ = [
    "DECK",
    "IllegalAction",
    "State",
    "View",
    "apply",
    "from_json",
    "legal_actions",
    "new_game",
    "playable",
    "timeout",
    "to_json",
    "view",
]


def new_game(
    seats: int,
    seed: int,
    rounds: int = 3,
    deck: list[str] | None = None,
    events: list | None = None,
) -> State:
    """A new game, first round dealt and the 7♦ played, waiting for the first seat with a choice.

    `deck`, for tests, is round 1's deal order (`deck[0]` goes to the dealer's left); later
    rounds are shuffled from `seed`. Seat 0 deals round 1. Pass a list as `events` to receive
    the events of that first deal (the game log starts with them).
    """
    state = blank_state(seats, seed, rounds)
    order = shuffled_deck(state) if deck is None else check_stacked_deck(deck)
    deal_round(state, order, [] if events is None else events)
    return state
