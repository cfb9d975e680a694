"""The hard bot: determinized search. It imagines the hidden hands many ways that fit all it
has seen, the passes as hard facts and the others' chosen plays as evidence (inference.py),
plays each of its options out to the end of the round in every imagined deal (rollout.py),
and picks the option with the best expected outcome for the game: the share of the win the
totals after the round promise (standing.py), with the round's relative penalty (its own
cards left, less the average left to the others) as a small tie-break, so that a round whose
result cannot change the standing is still played well. Every option meets the same deals,
so they are compared on the same luck; ties go to the first in DECK order.
"""

from __future__ import annotations

import random

from .basic import play
from .bits import BIT, OPENS, index_of
from .inference import likely_deals
from .rollout import finish_round
from .sight import Sight
from .standing import win_share
from .worlds import Dealer

DEALS = 120  # imagined deals per decision
TIE_BREAK = 0.005  # weight of a point of relative penalty against the win share


def choose(sight: Sight, rng: random.Random) -> dict:
    options = sight.playable
    if len(options) == 1:
        return play(options[0])
    deals = likely_deals(sight, Dealer(sight), DEALS, rng)
    losses: dict[tuple[int, ...], float] = {}
    return play(min(options, key=lambda card: _loss(sight, card, deals, losses)))


def _loss(sight: Sight, card: str, deals: list[list[int]], losses: dict[tuple[int, ...], float]) -> float:
    """The summed loss of playing `card` over the deals (see the module's note); `losses`
    caches the loss of each result (the cards left in each hand)."""
    me = sight.seat
    after = (me + 1) % len(sight.counts)
    bit = BIT[card]
    fitting = (sight.fitting ^ bit) | OPENS[index_of(card)]
    total = 0.0
    for hands in deals:
        hands = list(hands)
        hands[me] ^= bit
        left = tuple(finish_round(hands, fitting, after) if hands[me] else [hand.bit_count() for hand in hands])
        loss = losses.get(left)
        if loss is None:
            loss = losses[left] = result_loss(sight, list(left))
        total += loss
    return total


def result_loss(sight: Sight, left: list[int]) -> float:
    """How bad it is for us that the round ends with `left` cards in each hand."""
    me = sight.seat
    relative = left[me] - (sum(left) - left[me]) / (len(left) - 1)
    if not sight.totals:  # a sight without the standing: the round's result alone
        return relative
    totals = [total + cards for total, cards in zip(sight.totals, left, strict=True)]
    return TIE_BREAK * relative - win_share(totals, me, sight.rounds_after)
