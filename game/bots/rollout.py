"""Sampled futures of one seat's row: what leaving a seat in round, or making it take three
cards, is worth.

Used for the rare targeted decisions (Freeze, Triple Draw), where the answer depends on several
cards to come. Cards are sampled from the public draw pool with a fixed seed, so a decision
never depends on the hidden deck order and the same position always gets the same answer.
Other seats and action cards are left out: each future is one seat drawing alone, taking the
forced cards first and then drawing while its bust chance stays below `KEEP_DRAWING_BELOW`.
"""

from __future__ import annotations

import random

from .odds import NUMBER_CODES, SECOND_CHANCE
from .rows import BALLAST_CODES, SEVN_DISTINCT, distinct, score

SAMPLES = 80
KEEP_DRAWING_BELOW = 0.25
MAX_CARDS = 12
_PLAIN = frozenset({"x2", "+2", "+4", "+6", "+8", "+10", "featherweight", "heavyweight", "ladder"})


def expected_final(row: list[str], pool: dict[str, int], forced: int = 0, *, keep_drawing: bool = True) -> float:
    """Mean final round score of `row` after `forced` cards, then (optionally) drawing on."""
    cards = sorted(card for card, copies in pool.items() for _ in range(copies))
    if not cards:
        return float(score(row))
    rng = random.Random(0)
    take = min(len(cards), forced + (MAX_CARDS if keep_drawing else 0))
    total = 0.0
    for _ in range(SAMPLES):
        total += _one_future(row, pool, _dealt(cards, take, rng), forced, keep_drawing)
    return total / SAMPLES


def sample_finals(row: list[str], pool: dict[str, int], samples: int, rng: random.Random) -> list[float]:
    """Sampled final round scores of a seat in round that draws on while it is fairly safe."""
    cards = sorted(card for card, copies in pool.items() for _ in range(copies))
    if not cards:
        return [float(score(row))] * samples
    take = min(len(cards), MAX_CARDS)
    return [_one_future(row, pool, _dealt(cards, take, rng), 0, True) for _ in range(samples)]


def _dealt(cards: list[str], take: int, rng: random.Random):
    """Cards in a random order, dealt lazily (a future rarely needs more than a few)."""
    deck = list(cards)
    last = len(deck) - 1
    for i in range(take):
        j = rng.randint(i, last)
        deck[i], deck[j] = deck[j], deck[i]
        yield deck[i]


def _one_future(row: list[str], pool: dict[str, int], drawn, forced: int, keep_drawing: bool) -> float:
    row = list(row)
    left = dict(pool)
    size = sum(pool.values())
    for i, card in enumerate(drawn):
        if i >= forced:
            if not keep_drawing or _bust_share(row, left, size) >= KEEP_DRAWING_BELOW:
                break
        left[card] -= 1
        size -= 1
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


def _bust_share(row: list[str], left: dict[str, int], size: int) -> float:
    if size <= 0 or SECOND_CHANCE in row:
        return 0.0
    return sum(left.get(card, 0) for card in row if card in NUMBER_CODES) / size
