"""Reading the others' choices: deals weighed by how well they explain the plays made.

A deal that fits the counts and the passes (worlds.py) may still make the others' plays look
odd: a seat seldom opens a row for everyone when it held a card that led to its own. Each play
a seat chose is checked against what medium's rule (rollout.keen_pick) would have played with
that deal's hand, wound back to the moment; every play it would not have made multiplies the
deal's weight by `UNLIKE`. A short Markov chain of card swaps between hands then visits deals
in proportion to that weight.
"""

from __future__ import annotations

import random

from .bits import ALL
from .rollout import keen_pick
from .sight import Sight
from .worlds import Dealer

UNLIKE = 0.3
BURN_IN = 60
THIN = 4

Evidence = list[tuple[int, int, int, int]]   # (card played, fitting then, table then, cards played since)


def evidence_by_seat(sight: Sight) -> list[Evidence]:
    """Each seat's chosen plays, with the cards it has played since (that one too), so a
    deal's hand can be wound back to the moment of each."""
    since = [0] * len(sight.counts)
    evidence: list[Evidence] = [[] for _ in sight.counts]
    for seat, card, fitting, table in reversed(sight.plays):
        since[seat] |= card
        evidence[seat].append((card, fitting, table, since[seat]))
    return evidence


def odd_plays(hand: int, evidence: Evidence) -> int:
    """How many of a seat's plays medium's rule would not have made, had it held `hand`."""
    odd = 0
    for card, fitting, table, since in evidence:
        then = hand | since
        options = then & fitting
        if options & (options - 1) and keen_pick(then, ALL & ~table & ~then, options) != card:
            odd += 1
    return odd


def likely_deals(sight: Sight, dealer: Dealer, count: int, rng: random.Random) -> list[list[int]]:
    """`count` deals from the chain, started from one of the dealer's."""
    hands = dealer.deal(rng)
    others = [seat for seat in range(len(hands)) if seat != sight.seat]
    evidence = evidence_by_seat(sight)
    held = [_bits(hand) for hand in hands]
    odd = [odd_plays(hand, evidence[seat]) for seat, hand in enumerate(hands)]
    lacks = sight.lacks
    deals = []
    for step in range(BURN_IN + count * THIN):
        if step >= BURN_IN and (step - BURN_IN) % THIN == 0:
            deals.append(list(hands))
        a, b = rng.sample(others, 2)
        if not held[a] or not held[b]:
            continue
        i, j = rng.randrange(len(held[a])), rng.randrange(len(held[b]))
        x, y = held[a][i], held[b][j]
        if lacks[b] & x or lacks[a] & y:
            continue
        new_a, new_b = hands[a] ^ x | y, hands[b] ^ y | x
        odd_a, odd_b = odd_plays(new_a, evidence[a]), odd_plays(new_b, evidence[b])
        change = odd_a + odd_b - odd[a] - odd[b]
        if change <= 0 or rng.random() < UNLIKE ** change:
            hands[a], hands[b] = new_a, new_b
            held[a][i], held[b][j] = y, x
            odd[a], odd[b] = odd_a, odd_b
    return deals


def _bits(hand: int) -> list[int]:
    found = []
    while hand:
        low = hand & -hand
        found.append(low)
        hand ^= low
    return found
