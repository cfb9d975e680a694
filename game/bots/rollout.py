"""Sampled futures of one seat's row: where a row still in round is likely to end.

Used where the answer depends on several cards to come (Freeze, Triple Draw, the round that may
end the game). Cards are sampled from the public draw pool with a fixed seed, so a decision never
depends on the hidden deck order, the same position always gets the same answer, and options
compared with each other meet the same cards. Other seats and action cards are left out: each
future is one seat drawing alone, taking any forced cards first and then drawing while its bust
chance stays below `KEEP_DRAWING_BELOW`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .odds import NUMBER_CODES, SECOND_CHANCE, busting_share
from .rows import BALLAST_CODES, SEVN_DISTINCT, distinct, score

SAMPLES = 80
KEEP_DRAWING_BELOW = 0.25
MAX_CARDS = 12
_PLAIN = frozenset({"x2", "+2", "+4", "+6", "+8", "+10", "featherweight", "heavyweight", "ladder"})


def finals(
    row: list[str], pool: dict[str, int], samples: int = SAMPLES, *, forced: int = 0,
    keep_drawing: bool = True, seed: int = 0,
) -> list[float]:
    """Sampled final round scores of a row in round: `forced` cards first, then drawing on.

    The same `seed` deals the same card sequences, so options compared meet the same luck.
    """
    cards = sorted(card for card, copies in pool.items() for _ in range(copies))
    if not cards:
        return [float(score(row))] * samples
    rng = random.Random(seed)
    take = min(len(cards), forced + (MAX_CARDS if keep_drawing else 0))
    return [_one_future(row, pool, _dealt(cards, take, rng), forced, keep_drawing) for _ in range(samples)]


def expected_final(row: list[str], pool: dict[str, int], forced: int = 0) -> float:
    """Mean final round score of a row in round (see `finals`)."""
    futures = finals(row, pool, forced=forced)
    return sum(futures) / len(futures)


def _dealt(cards: list[str], take: int, rng: random.Random) -> Iterator[str]:
    """Cards in a random order, dealt lazily (a future rarely needs more than a few)."""
    deck = list(cards)
    last = len(deck) - 1
    for i in range(take):
        j = rng.randint(i, last)
        deck[i], deck[j] = deck[j], deck[i]
        yield deck[i]


def _one_future(row: list[str], pool: dict[str, int], drawn: Iterator[str], forced: int, keep_drawing: bool) -> float:
    row = list(row)
    left = dict(pool)
    for i, card in enumerate(drawn):
        if i >= forced and (not keep_drawing or busting_share(row, left) >= KEEP_DRAWING_BELOW):
            break
        left[card] -= 1
        if card in NUMBER_CODES:
            if card in row:
                if SECOND_CHANCE not in row:
                    return 0.0
                row.remove(SECOND_CHANCE)
                continue
            row.append(card)
        elif card in BALLAST_CODES:
            if distinct(row) == SEVN_DISTINCT - 1:
                row.append(card)
        elif card in _PLAIN or (card == SECOND_CHANCE and card not in row):
            row.append(card)
        if distinct(row) == SEVN_DISTINCT:
            return float(score(row, sevn=True))
    return float(score(row))
