"""The hard bot: determinized search. It imagines the hidden hands many ways that fit all it
has seen, the passes as hard facts and the others' chosen plays as evidence (inference.py),
plays each of its options out to the end of the round in every imagined deal (rollout.py;
both loops run in C when `make setup` has built them, native.py),
and picks the option with the best expected outcome for the game: the share of the win the
totals after the round promise (standing.py), with the round's relative penalty (its own
cards left, less the average left to the others) as a small tie-break, so that a round whose
result cannot change the standing is still played well. Every option meets the same deals,
so they are compared on the same luck; ties go to the first in DECK order.

The deals are met in `ROUNDS_OF_DEALS` equal parts; after each part but the last, an option
that trails the best so far by more than `DROP` standard errors of their difference (deal by
deal) is dropped, so the time goes to the options still in question; the deals are imagined
part by part, and once one option is left, no more are.
"""

from __future__ import annotations

import math
import random
from array import array
from itertools import chain, islice

from .basic import play
from .bits import BIT
from .inference import likely_deals
from .native import deal_ends
from .rollout import counts_of
from .sight import Sight
from .standing import win_share
from .worlds import Dealer

DEALS = 2400  # imagined deals per decision (a fixed count: the choice does not depend on the load)
TIE_BREAK = 0.005  # weight of a point of relative penalty against the win share
ROUNDS_OF_DEALS = 4
DROP = 3.0


def choose(sight: Sight, rng: random.Random) -> dict:
    options = sight.playable
    if len(options) == 1:
        return play(options[0])
    deals = likely_deals(sight, Dealer(sight), rng)
    cache: dict[int, float] = {}
    losses: dict[str, list[float]] = {card: [] for card in options}
    for part in range(ROUNDS_OF_DEALS):
        count = (part + 1) * DEALS // ROUNDS_OF_DEALS - part * DEALS // ROUNDS_OF_DEALS
        some = array("Q", chain.from_iterable(islice(deals, count)))  # the part's hands, deal after deal
        for card, seen in losses.items():
            seen += _losses(sight, card, some, cache)
        if part < ROUNDS_OF_DEALS - 1:
            losses = _still_in_question(losses)
            if len(losses) == 1:
                break
    return play(min(losses, key=lambda card: sum(losses[card])))


def _still_in_question(losses: dict[str, list[float]]) -> dict[str, list[float]]:
    """The options whose loss, deal by deal, is not clearly above the best one's."""
    best = min(losses.values(), key=sum)
    kept = {}
    for card, seen in losses.items():
        gaps = [mine - theirs for mine, theirs in zip(seen, best, strict=True)]
        mean = sum(gaps) / len(gaps)
        spread = math.sqrt(sum((gap - mean) ** 2 for gap in gaps) / max(len(gaps) - 1, 1))
        if mean <= DROP * spread / math.sqrt(len(gaps)):
            kept[card] = seen
    return kept


def _losses(sight: Sight, card: str, deals: array, cache: dict[int, float]) -> list[float]:
    """The loss of playing `card` in each deal (`deals`: their hands one after another; see
    the module's note); `cache` holds the loss of each end of the round (rollout.end_key)."""
    keys = deal_ends(deals, len(sight.counts), sight.fitting, sight.seat, BIT[card])
    for key in set(keys).difference(cache):
        cache[key] = result_loss(sight, counts_of(key, len(sight.counts)))
    return list(map(cache.__getitem__, keys))


def result_loss(sight: Sight, left: list[int]) -> float:
    """How bad it is for us that the round ends with `left` cards in each hand."""
    me = sight.seat
    relative = left[me] - (sum(left) - left[me]) / (len(left) - 1)
    if not sight.totals:  # a sight without the standing: the round's result alone
        return relative
    totals = [total + cards for total, cards in zip(sight.totals, left, strict=True)]
    return TIE_BREAK * relative - win_share(totals, me, sight.rounds_after)
