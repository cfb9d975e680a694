"""The SEVN rules engine: pure Python, plain-data state, deterministic from a seed.

The public surface (see shared/spec/engine-contract.md) is exactly what this module exports.
The modules import each other in one direction only:
    errors, cards -> scoring -> state -> table -> resolve -> actions, rounds -> flow -> decisions
with view beside them. resolve pushes frames; flow alone calls into rounds and actions.
"""

from __future__ import annotations

from . import flow, rounds
from .cards import DECK, TARGET
from .decisions import apply, legal_actions, timeout
from .errors import IllegalAction
from .scoring import score_steps
from .state import Event, State, blank_state, from_json, to_json
from .view import public_view

__all__ = [
    "DECK",
    "IllegalAction",
    "State",
    "apply",
    "from_json",
    "legal_actions",
    "new_game",
    "public_view",
    "score_steps",
    "timeout",
    "to_json",
]


def new_game(
    seats: int,
    seed: int,
    target: int = TARGET,
    deck: list[str] | None = None,
    events: list[Event] | None = None,
) -> State:
    """A new game, first round dealt, waiting for its first decision.

    `deck`, for tests, is the full draw pile top first (a subset of the real cards); without
    it the 120 cards are shuffled from `seed`. Seat 0 deals the first round. Pass a list as
    `events` to receive the events of that first deal (the game log starts with them).
    """
    state = blank_state(seats, seed, target, deck)
    opening: list[Event] = [] if events is None else events
    rounds.start_round(state, opening)
    flow.run(state, opening)
    return state
