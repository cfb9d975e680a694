"""The hard bot: determinized search. It deals the unseen cards many ways that fit all it has
seen (worlds.py), plays each of its options out to the end of the round in every deal
(rollout.py), and picks the option with the fewest cards left on average.

Every option meets the same deals, so they are compared on the same luck; the number of deals
shrinks as options grow, keeping a decision to a fixed budget of rollouts.
"""

from __future__ import annotations

import random

from .basic import play
from .bits import BIT, OPENS, index_of
from .rollout import finish_round
from .sight import Sight
from .worlds import sample_hands

ROLLOUTS = 160     # per decision, shared among the options
MIN_DEALS = 12


def choose(sight: Sight, rng: random.Random) -> dict:
    options = sight.playable
    if len(options) == 1:
        return play(options[0])
    deals = [sample_hands(sight, rng) for _ in range(max(MIN_DEALS, ROLLOUTS // len(options)))]
    seats = len(sight.counts)
    after = (sight.seat + 1) % seats

    def cards_left(card: str) -> int:
        bit = BIT[card]
        fitting = (sight.fitting ^ bit) | OPENS[index_of(card)]
        total = 0
        for hands in deals:
            hands = list(hands)
            hands[sight.seat] ^= bit
            if not hands[sight.seat]:
                return 0
            total += finish_round(hands, fitting, after)[sight.seat]
        return total

    return play(min(options, key=cards_left))
