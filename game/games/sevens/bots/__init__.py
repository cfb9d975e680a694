"""Computer players for Sevens at three levels, plus the `long_suit_far` baseline; pure Python
(the hard one's two hot loops also in C when built: native.py).

A policy sees only what its seat may know: `view(state, seat)` and the round's public moves
(who played what, who passed: the state's `moves`, or `round_moves(log events)`), read into a
`Sight`; never another seat's hand.
"""

from __future__ import annotations

import random

from game.games.sevens.engine import State, view

from . import basic, hard
from .arena import Policy
from .sight import Sight, read_sight, round_moves

LEVELS = ("easy", "medium", "hard")

POLICIES: dict[str, Policy] = {
    "long_suit_far": basic.long_suit_far,
    "easy": basic.easy,
    "medium": basic.medium,
    "hard": hard.choose,
}


def decide(level: str, state: State, rng: random.Random) -> dict:
    """The play the bot of this level makes for the seat that must act now."""
    return POLICIES[level](read_sight(view(state, state["current"]), state["moves"]), rng)


__all__ = ["LEVELS", "POLICIES", "Policy", "Sight", "decide", "read_sight", "round_moves"]
