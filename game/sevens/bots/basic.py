"""The simple players: easy (any card that fits), medium (runs and blocks), and the
"farthest card of the longest suit" baseline the tournament measures the hard bot against."""

from __future__ import annotations

import random

from game.sevens.engine.cards import RANK_INDEX, SEVEN, rank_of, suit_of

from .bits import BEYOND, SUIT_MASKS, index_of
from .sight import Sight

SUIT_NUMBER = {"S": 0, "H": 1, "D": 2, "C": 3}


def play(card: str) -> dict:
    return {"kind": "play", "card": card}


def easy(sight: Sight, rng: random.Random) -> dict:
    return play(rng.choice(sight.playable))


def medium_rank(hand: int, unseen: int, index: int) -> int:
    """How keen medium is to play card `index` (higher first).

    A card with own cards behind it opens the way to them: the more, the better, and of two
    such plays the one that frees fewer rival cards. A card with none of ours behind it only
    helps others (a 6 or 8 held back blocks a whole side of its row), so it comes last, and of
    those the one that frees the fewest rival cards.
    """
    behind = BEYOND[index]
    own = (hand & behind).bit_count()
    rivals = (unseen & behind).bit_count()
    return (64 + own) * 64 - rivals if own else -rivals


def medium(sight: Sight, rng: random.Random) -> dict:
    return play(max(sight.playable, key=lambda card: medium_rank(sight.hand, sight.unseen, index_of(card))))


def long_suit_far(sight: Sight, rng: random.Random) -> dict:
    """Play the card farthest from its 7 in the suit where you hold the most cards; ties go to
    the first in DECK order."""
    def keen(card: str) -> tuple[int, int]:
        held = (sight.hand & SUIT_MASKS[SUIT_NUMBER[suit_of(card)]]).bit_count()
        return held, abs(RANK_INDEX[rank_of(card)] - SEVEN)
    return play(max(sight.playable, key=keen))
