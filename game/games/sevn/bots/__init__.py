"""Bots for SEVN at three levels, plus the `threshold25` baseline; pure Python, no Django.

A policy sees only what a player sees: `public_view(state)` and `legal_actions(state)`.
"""

from __future__ import annotations

import random

from game.games.sevn.engine import legal_actions, public_view

from . import basic, hard
from .arena import Policy
from .odds import bust_chance, crossroads_busts, unseen_counts

LEVELS = ("easy", "medium", "hard")

POLICIES: dict[str, Policy] = {
    "threshold25": basic.threshold25,
    "easy": basic.easy,
    "medium": basic.medium,
    "hard": hard.choose,
}


def decide(level: str, state: dict, rng: random.Random) -> dict:
    """The action the bot of this level takes for the seat that must decide now."""
    return POLICIES[level](public_view(state), legal_actions(state), rng)


__all__ = ["LEVELS", "POLICIES", "Policy", "bust_chance", "crossroads_busts", "decide", "unseen_counts"]
