"""Reading the others' choices: deals weighed by how well they explain the plays made.

A deal that fits the counts and the passes (worlds.py) may still make the others' plays look
odd: a seat seldom opens a row for everyone when it held a card that led to its own. Each play
a seat chose is checked against two common ways of choosing, with that deal's hand wound back
to the moment: opening the way to one's own cards while holding back what only frees others'
(rollout.keen_pick, medium's rule), and playing the card farthest from its 7 in one's longest
suit (`far_pick`). Under each way, every play it would not have made multiplies the seat's
weight by `UNLIKE`; the seat's weight is the average of the two, as we do not know which way
it chooses (nor that it follows either: `UNLIKE` leaves room for other reasons). A short
Markov chain of card swaps between hands then visits deals in proportion to that weight.
"""

from __future__ import annotations

import random

from game.sevens.engine.cards import SEVEN

from .bits import ALL, BEYOND, SUIT_MASKS
from .sight import Sight
from .worlds import Dealer

UNLIKE = 0.3
BURN_IN = 60
THIN = 4
CHAINS = 1

SUIT_OF = [SUIT_MASKS[index // 13] for index in range(52)]  # by card index: the cards of its suit
REACH = [abs(index % 13 - SEVEN) for index in range(52)]  # by card index: how far it lies from its 7

Evidence = list[tuple[int, int, int, int]]  # (card played, fitting then, table then, cards played since)


def evidence_by_seat(sight: Sight) -> list[Evidence]:
    """Each seat's chosen plays, with the cards it has played since (that one too), so a
    deal's hand can be wound back to the moment of each."""
    since = [0] * len(sight.counts)
    evidence: list[Evidence] = [[] for _ in sight.counts]
    for seat, card, fitting, table in reversed(sight.plays):
        since[seat] |= card
        evidence[seat].append((card, fitting, table, since[seat]))
    return evidence


def far_pick(hand: int, options: int) -> int:
    """The card (a bit of `options`) farthest from its 7 in the suit where `hand` holds the most
    cards; ties go to the first in DECK order."""
    best = card = -1
    while options:
        low = options & -options
        options ^= low
        index = low.bit_length() - 1
        keen = ((hand & SUIT_OF[index]).bit_count() << 4) + REACH[index]
        if keen > best:
            best, card = keen, low
    return card


def odd_plays(hand: int, evidence: Evidence) -> int:
    """How many of a seat's plays medium's rule would not have made, had it held `hand`."""
    return odd_counts(hand, evidence)[0]


def odd_counts(hand: int, evidence: Evidence) -> tuple[int, int]:
    """How many of a seat's plays each way of choosing (keen_pick, far_pick) would not have
    made, had it held `hand`.

    The sampler's hot loop, so both picks are written out in it (one pass over the options).
    """
    keen = far = 0
    beyond, suits, reach = BEYOND, SUIT_OF, REACH
    for card, fitting, table, since in evidence:
        then = hand | since
        options = then & fitting
        if options & (options - 1):
            rest = ALL & ~table & ~then
            best_keen = best_far = -1 << 30
            while options:
                low = options & -options
                options ^= low
                index = low.bit_length() - 1
                behind = beyond[index]
                own = (then & behind).bit_count()
                score = ((64 + own) << 6) - (rest & behind).bit_count() if own else -(rest & behind).bit_count()
                if score > best_keen:
                    best_keen, keen_card = score, low
                score = ((then & suits[index]).bit_count() << 4) + reach[index]
                if score > best_far:
                    best_far, far_card = score, low
            keen += keen_card != card
            far += far_card != card
    return keen, far


def weight(odd: tuple[int, int]) -> float:
    """A seat's weight from its odd plays under each way of choosing."""
    return UNLIKE ** odd[0] + UNLIKE ** odd[1]


def likely_deals(sight: Sight, dealer: Dealer, count: int, rng: random.Random) -> list[list[int]]:
    """`count` deals from `CHAINS` chains, each started from one of the dealer's deals (a
    sharp weight makes one chain slow to leave the corner it starts in)."""
    evidence = evidence_by_seat(sight)
    deals: list[list[int]] = []
    for chain in range(CHAINS):
        deals += _chain(sight, dealer.deal(rng), evidence, (count * (chain + 1)) // CHAINS - len(deals), rng)
    return deals


def _chain(sight: Sight, hands: list[int], evidence: list[Evidence], count: int, rng: random.Random) -> list[list[int]]:
    """`count` deals from a chain of swaps started from `hands`."""
    others = [seat for seat in range(len(hands)) if seat != sight.seat]
    pairs = [(a, b) for a in others for b in others if a != b]
    held = [_bits(hand) for hand in hands]
    weights = [weight(odd_counts(hand, evidence[seat])) for seat, hand in enumerate(hands)]
    lacks = sight.lacks
    draw = rng.random  # indices drawn as int(draw() * n): the loop's cost is in the draws
    deals = []
    for step in range(BURN_IN + count * THIN):
        if step >= BURN_IN and (step - BURN_IN) % THIN == 0:
            deals.append(list(hands))
        a, b = pairs[int(draw() * len(pairs))]
        if not held[a] or not held[b]:
            continue
        i, j = int(draw() * len(held[a])), int(draw() * len(held[b]))
        x, y = held[a][i], held[b][j]
        if lacks[b] & x or lacks[a] & y:
            continue
        new_a, new_b = hands[a] ^ x | y, hands[b] ^ y | x
        weight_a, weight_b = weight(odd_counts(new_a, evidence[a])), weight(odd_counts(new_b, evidence[b]))
        ratio = weight_a * weight_b / (weights[a] * weights[b])
        if ratio >= 1 or draw() < ratio:
            hands[a], hands[b] = new_a, new_b
            held[a][i], held[b][j] = y, x
            weights[a], weights[b] = weight_a, weight_b
    return deals


def _bits(hand: int) -> list[int]:
    found = []
    while hand:
        low = hand & -hand
        found.append(low)
        hand ^= low
    return found
