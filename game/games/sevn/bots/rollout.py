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

from .odds import NUMBER_CODES, SECOND_CHANCE
from .rows import BALLAST_CODES, PLAIN_CODES, SEVN_DISTINCT, distinct, score

KEEP_DRAWING_BELOW = 0.25
MAX_CARDS = 12


def finals(row: list[str], pool: dict[str, int], samples: int, *, forced: int = 0, seed: int = 0) -> list[float]:
    """Sampled final round scores of a row in round: `forced` cards first, then drawing on.

    The same `seed` deals the same card sequences, so options compared meet the same luck.
    """
    cards = sorted(card for card, copies in pool.items() for _ in range(copies))
    if not cards:
        return [float(score(row))] * samples
    rng = random.Random(seed)
    take = min(len(cards), forced + MAX_CARDS)
    return [_one_future(row, pool, _dealt(cards, take, rng), forced) for _ in range(samples)]


def _dealt(cards: list[str], take: int, rng: random.Random) -> Iterator[str]:
    """Cards in a random order, dealt lazily (a future rarely needs more than a few)."""
    deck = list(cards)
    size = len(deck)
    for i in range(take):
        j = i + int(rng.random() * (size - i))
        deck[i], deck[j] = deck[j], deck[i]
        yield deck[i]


def _one_future(row: list[str], pool: dict[str, int], drawn: Iterator[str], forced: int) -> float:
    """One sampled end of a row; `danger` counts the pool's cards that would bust it."""
    row = list(row)
    left = dict(pool)
    size = sum(left.values())
    held = {card for card in row if card in NUMBER_CODES}
    danger = sum(left.get(card, 0) for card in held)
    protected = SECOND_CHANCE in row
    for i, card in enumerate(drawn):
        if i >= forced and not protected and danger >= KEEP_DRAWING_BELOW * size:
            break
        left[card] -= 1
        size -= 1
        if card in held:
            if not protected:
                return 0.0
            danger -= 1
            row.remove(SECOND_CHANCE)
            protected = False
            continue
        if card in NUMBER_CODES:
            row.append(card)
            held.add(card)
            danger += left[card]
        elif card in BALLAST_CODES:
            if distinct(row) == SEVN_DISTINCT - 1:
                row.append(card)
        elif card in PLAIN_CODES:
            row.append(card)
        elif card == SECOND_CHANCE and not protected:
            row.append(card)
            protected = True
        if distinct(row) == SEVN_DISTINCT:
            return float(score(row, sevn=True))
    return float(score(row))
