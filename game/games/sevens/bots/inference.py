"""Reading the others' choices: deals weighed by how well they explain the plays made.

A deal that fits the counts and the passes (worlds.py) may still make the others' plays look
odd: a seat seldom opens a row for everyone when it held a card that led to its own. Each play
a seat chose is checked against medium's rule (rollout.keen_pick: open the way to one's own
cards, hold back what only frees others'), the rule the rollouts play everyone by, with that
deal's hand wound back to the moment; every play the rule would not have made multiplies the
seat's weight by `UNLIKE`, which leaves room for other reasons to choose. A Markov chain of
card swaps between hands then visits deals in proportion to that weight.

(A mixture with a second rule, the far card of the longest suit, was weighed too and dropped:
with 2400 deals it won nothing, not even against players of that rule.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from . import native
from .bits import BEYOND, singles
from .sight import Evidence, Sight
from .worlds import Dealer

UNLIKE = 0.3
BURN_IN = 400
THIN = 12
MASK_64 = (1 << 64) - 1
UNIT = 1.0 / (1 << 53)  # a 53-bit random integer times this is uniform in [0, 1)


def evidence_by_seat(sight: Sight) -> list[Evidence]:
    """Each seat's chosen plays that tell something: those where it may have had a choice.

    A deal's hand is wound back to the moment of a play by adding the cards the seat has
    played since (that one too). Only the cards that fitted then and that the seat may have
    held are candidates: those it holds by some deal now (unseen and not known lacking) or
    played since. Each candidate comes with the cards beyond it that were not on the table
    then (own cards there open the way, others' are freed) and their count, so that
    `odd_plays` only counts bits.
    """
    since = [0] * len(sight.counts)
    evidence: list[Evidence] = [[] for _ in sight.counts]
    for seat, card, fitting, table in reversed(sight.plays):
        since[seat] |= card
        held = sight.hand if seat == sight.seat else sight.unseen & ~sight.lacks[seat]
        candidates = []
        maybe = fitting & (held | since[seat])
        while maybe:
            low = maybe & -maybe
            maybe ^= low
            free = BEYOND[low.bit_length() - 1] & ~table
            candidates.append((low, free, free.bit_count()))
        if len(candidates) > 1:
            evidence[seat].append((card, since[seat], tuple(candidates)))
    return evidence


def odd_plays(hand: int, evidence: Evidence) -> int:
    """How many of a seat's plays medium's rule would not have made, had it held `hand` (a hand
    the seat may hold: no card it is known to lack).

    The sampler's hot loop, so keen_pick is written out in it, over the candidates: the cards
    beyond an option are never on the table with the hand, so the seat's own cards there are
    `then & free` and the others' the rest of `free`.
    """
    odd = 0
    for card, since, candidates in evidence:
        then = hand | since
        best = -1 << 30
        choices = 0
        for bit, free, free_count in candidates:
            if then & bit:
                choices += 1
                own = (then & free).bit_count()
                score = ((64 + own) << 6) - (free_count - own) if own else -free_count
                if score > best:
                    best, keen_card = score, bit
        if choices > 1:
            odd += keen_card != card
    return odd


POWERS = [UNLIKE**odd for odd in range(65)]  # a seat's weight by its odd plays (fewer than 64)


def likely_deals(sight: Sight, dealer: Dealer, rng: random.Random) -> Iterator[list[int]]:
    """Deals in proportion to their weight, as many as are taken: a chain of swaps between the
    others' hands, started from one of the dealer's deals, every `THIN`th step after `BURN_IN`.
    A caller that stops taking stops the chain. Its random numbers come from a splitmix64
    stream seeded by `rng`, so that the C chain (native.py), when built, gives the same deals."""
    evidence = evidence_by_seat(sight)
    hands = dealer.deal(rng)
    seed = rng.getrandbits(64)
    if native.C is not None:
        return native.chain_deals(hands, sight.lacks, sight.seat, evidence, POWERS, seed, BURN_IN, THIN)
    return _python_chain(hands, sight.lacks, sight.seat, evidence, seed, BURN_IN, THIN)


def _python_chain(
    hands: list[int], lacks: list[int], me: int, evidence: list[Evidence], seed: int, burn_in: int, thin: int
) -> Iterator[list[int]]:
    """The chain of `likely_deals` in Python: the reference for native.c's."""
    others = [seat for seat in range(len(hands)) if seat != me]
    pairs = [(a, b) for a in others for b in others if a != b]
    held = [singles(hand) for hand in hands]
    weights = [POWERS[odd_plays(hand, evidence[seat])] for seat, hand in enumerate(hands)]
    random_state = seed

    def next_random() -> int:  # splitmix64, as in native.c
        nonlocal random_state
        random_state = (random_state + 0x9E3779B97F4A7C15) & MASK_64
        z = random_state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK_64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK_64
        return z ^ (z >> 31)

    step = 0
    while True:
        if step >= burn_in and (step - burn_in) % thin == 0:
            yield list(hands)
        step += 1
        a, b = pairs[(next_random() >> 11) * len(pairs) >> 53]
        if not held[a] or not held[b]:
            continue
        i = (next_random() >> 11) * len(held[a]) >> 53
        j = (next_random() >> 11) * len(held[b]) >> 53
        x, y = held[a][i], held[b][j]
        if lacks[b] & x or lacks[a] & y:
            continue
        new_a, new_b = hands[a] ^ x | y, hands[b] ^ y | x
        weight_a, weight_b = POWERS[odd_plays(new_a, evidence[a])], POWERS[odd_plays(new_b, evidence[b])]
        ratio = weight_a * weight_b / (weights[a] * weights[b])
        if ratio >= 1 or (next_random() >> 11) * UNIT < ratio:
            hands[a], hands[b] = new_a, new_b
            held[a][i], held[b][j] = y, x
            weights[a], weights[b] = weight_a, weight_b
