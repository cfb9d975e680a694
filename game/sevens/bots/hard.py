"""The hard bot: determinized search. It imagines the hidden hands many ways that fit all it
has seen, the passes as hard facts and the others' chosen plays as evidence (inference.py),
plays each of its options out to the end of the round in every imagined deal (rollout.py),
and picks the option with the lowest expected penalty: its own cards left, less the average
left to the others (a point that others avoid counts against us as surely as one we take,
since the lowest total wins). Every option meets the same deals, so they are compared on the
same luck; ties go to the first in DECK order.
"""

from __future__ import annotations

import random

from .basic import play
from .bits import BIT, OPENS, index_of
from .inference import likely_deals
from .rollout import finish_round
from .sight import Sight
from .worlds import Dealer

DEALS = 120           # imagined deals per decision
OTHERS_WEIGHT = 1.0   # how much a card left to the others counts against one left to us


def choose(sight: Sight, rng: random.Random) -> dict:
    options = sight.playable
    if len(options) == 1:
        return play(options[0])
    deals = likely_deals(sight, Dealer(sight), DEALS, rng)
    return play(min(options, key=lambda card: _penalty(sight, card, deals)))


def _penalty(sight: Sight, card: str, deals: list[list[int]]) -> float:
    """The summed penalty of playing `card` over the deals (see the module's note)."""
    me = sight.seat
    after = (me + 1) % len(sight.counts)
    others = len(sight.counts) - 1
    bit = BIT[card]
    fitting = (sight.fitting ^ bit) | OPENS[index_of(card)]
    total = 0.0
    for hands in deals:
        hands = list(hands)
        hands[me] ^= bit
        left = finish_round(hands, fitting, after) if hands[me] else [hand.bit_count() for hand in hands]
        total += left[me] - OTHERS_WEIGHT * (sum(left) - left[me]) / others
    return total
