"""The hard bot: determinized search. It deals the unseen cards many ways that fit all it has
seen (worlds.py), plays each of its options out to the end of the round in every deal
(rollout.py), and picks the option with the lowest expected penalty: its own cards left, less
the average left to the others (a point that others avoid counts against us as surely as one
we take, since the lowest total wins).

Every option meets the same deals, so they are compared on the same luck. The number of deals
follows a fixed budget of simulated plays, so a decision costs about the same early in a round
(long rollouts, few deals) as late (short rollouts, many deals).
"""

from __future__ import annotations

import random

from .basic import play
from .bits import BIT, OPENS, index_of
from .rollout import finish_round
from .sight import Sight
from .worlds import Dealer

PLAY_BUDGET = 12000   # simulated plays per decision, shared among the options
MIN_DEALS, MAX_DEALS = 24, 300
OTHERS_WEIGHT = 1.0   # how much a card left to the others counts against one left to us


def choose(sight: Sight, rng: random.Random) -> dict:
    options = sight.playable
    if len(options) == 1:
        return play(options[0])
    in_hands = sight.unseen.bit_count() + sight.hand.bit_count()
    count = min(MAX_DEALS, max(MIN_DEALS, PLAY_BUDGET // (len(options) * in_hands)))
    dealer = Dealer(sight)
    deals = [dealer.deal(rng) for _ in range(count)]
    me = sight.seat
    after = (me + 1) % len(sight.counts)
    others = len(sight.counts) - 1

    def penalty(card: str) -> float:
        bit = BIT[card]
        fitting = (sight.fitting ^ bit) | OPENS[index_of(card)]
        total = 0.0
        for hands in deals:
            hands = list(hands)
            hands[me] ^= bit
            left = finish_round(hands, fitting, after) if hands[me] else [hand.bit_count() for hand in hands]
            total += left[me] - OTHERS_WEIGHT * (sum(left) - left[me]) / others
        return total

    return play(min(options, key=penalty))
