"""The simple players: easy (any card that fits), medium (runs and blocks), and the
"farthest card of the longest suit" baseline the tournament measures the hard bot against."""

from __future__ import annotations

import random

from game.games.sevens.engine.cards import RANK_INDEX, SEVEN, rank_of, suit_of

from .bits import SUIT_MASKS, cards, mask
from .rollout import keen_pick
from .sight import Sight

SUIT_NUMBER = {"S": 0, "H": 1, "D": 2, "C": 3}


def play(card: str) -> dict:
    return {"kind": "play", "card": card}


def easy(sight: Sight, rng: random.Random) -> dict:
    return play(rng.choice(sight.playable))


def medium(sight: Sight, rng: random.Random) -> dict:
    """Open the way to its own cards, hold back the cards that would only free others'
    (rollout.keen_pick)."""
    return play(cards(keen_pick(sight.hand, sight.unseen, mask(sight.playable)))[0])


def long_suit_far(sight: Sight, rng: random.Random) -> dict:
    """Play the card farthest from its 7 in the suit where you hold the most cards; ties go to
    the first in DECK order."""

    def keen(card: str) -> tuple[int, int]:
        held = (sight.hand & SUIT_MASKS[SUIT_NUMBER[suit_of(card)]]).bit_count()
        return held, abs(RANK_INDEX[rank_of(card)] - SEVEN)

    return play(max(sight.playable, key=keen))
