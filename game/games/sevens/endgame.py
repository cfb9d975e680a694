"""A round's end solved exactly, for the judgement after a game (analysis.py).

When few cards are left in the others' hands, the judgement of a play does not sample the hidden
hands, nor play them out by a rule: it takes every deal of the unseen cards that fits what the
seat saw (each other seat holds exactly its count and never a card it is known to lack), and in
each deal it solves the rest of the round exactly.

- **Which deals, and how much each counts.** All of them, each weighed as the sampler weighs it
  (bots/inference.py: `UNLIKE` to the number of plays a seat made that medium's rule would not
  have made with that hand): the same belief the sampled judgement draws its deals from, summed
  exactly instead of sampled. A deal is built from the seat's sight alone, so the judgement is the
  same whichever of them is the real one.
- **Solved how.** In each deal, with every hand known (double dummy, as bridge analyses a hand),
  every seat plays the card that is best for itself, seeing the rest of the round through to its
  end the same way (max^n): each seat's worth of an end is the hard bot's (the share of the win
  the totals then promise, less the small tie-break for the round's relative penalty:
  bots/hard.py). Of equal cards a seat plays the first in DECK order. A seat with nothing that
  fits passes. The positions reached are remembered (by the hands and the seat to act), so a
  position reached by several orders of play is solved once.

It takes over from the sampled judgement when the others hold at most `EXACT_CARDS` cards between
them and at most `EXACT_DEALS` deals fit (counted exactly, `count_deals`). Both limits were chosen
by measurement (bench/endgame_exact.py, figures in bench/README.md): within them the exact
judgements of a game's decisions cost about what the sampled ones did (15 games: 73 decisions,
729 ms of CPU exactly against 641 ms sampled; p95 34 ms a decision, at most 65 ms), while past
10,000 deals a decision's p95 passes 150 ms, and from 13 cards on each deal's search grows longer.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator
from functools import cache
from itertools import chain, combinations, product

from .bots import native
from .bots.bits import BIT, OPENS, singles
from .bots.hard import TIE_BREAK
from .bots.inference import POWERS, evidence_by_seat, odd_plays
from .bots.sight import Sight
from .bots.standing import win_share

EXACT_CARDS = 12  # at most this many cards in the others' hands together
EXACT_DEALS = 10_000  # and at most this many deals of them that fit what the seat saw


def applies(sight: Sight) -> bool:
    """Whether this decision is judged by the exact solve."""
    return _unseen_count(sight) <= EXACT_CARDS and count_deals(sight) <= EXACT_DEALS


def _unseen_count(sight: Sight) -> int:
    return sum(count for seat, count in enumerate(sight.counts) if seat != sight.seat)


def count_deals(sight: Sight) -> int:
    """How many deals of the unseen cards fit the counts and the passes: the cards grouped by
    which seats may hold them, and each group's cards shared out among those seats, every way."""
    others = [seat for seat in range(len(sight.counts)) if seat != sight.seat]
    groups: dict[tuple[int, ...], int] = {}
    for card in singles(sight.unseen):
        holders = tuple(i for i, seat in enumerate(others) if not sight.lacks[seat] & card)
        groups[holders] = groups.get(holders, 0) + 1
    sizes = list(groups.items())

    @cache
    def ways(index: int, room: tuple[int, ...]) -> int:
        if index == len(sizes):
            return 1 if not any(room) else 0
        holders, size = sizes[index]
        total = 0
        for parts in _shares(size, [room[i] for i in holders]):
            left = list(room)
            for i, part in zip(holders, parts, strict=True):
                left[i] -= part
            coefficient = math.factorial(size)
            for part in parts:
                coefficient //= math.factorial(part)
            total += coefficient * ways(index + 1, tuple(left))
        return total

    return ways(0, tuple(sight.counts[seat] for seat in others))


def _shares(size: int, rooms: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to split `size` cards among seats with this much room each."""
    if not rooms:
        if not size:
            yield ()
        return
    for first in range(min(size, rooms[0]) + 1):
        for rest in _shares(size - first, rooms[1:]):
            yield (first, *rest)


def deals(sight: Sight) -> Iterator[tuple[list[int], float]]:
    """Every deal that fits what the seat saw (a hand mask per seat, its own as it is) with its
    weight: the product of each other seat's `POWERS[odd plays]`."""
    seats = len(sight.counts)
    others = [seat for seat in range(seats) if seat != sight.seat]
    evidence = evidence_by_seat(sight)
    hands = [0] * seats
    hands[sight.seat] = sight.hand
    weights: list[dict[int, float]] = [{} for _ in range(seats)]  # a hand's weight, once per seat and hand

    def weight_of(seat: int, hand: int) -> float:
        known = weights[seat].get(hand)
        if known is None:
            known = weights[seat][hand] = POWERS[odd_plays(hand, evidence[seat])] if evidence[seat] else 1.0
        return known

    def share(index: int, left: int, weight: float) -> Iterator[tuple[list[int], float]]:
        seat = others[index]
        allowed = left & ~sight.lacks[seat]
        if index == len(others) - 1:
            if left == allowed and left.bit_count() == sight.counts[seat]:
                hands[seat] = left
                yield list(hands), weight * weight_of(seat, left)
            return
        for chosen in combinations(singles(allowed), sight.counts[seat]):
            hand = sum(chosen)
            hands[seat] = hand
            yield from share(index + 1, left ^ hand, weight * weight_of(seat, hand))

    yield from share(0, sight.unseen, 1.0)


class Solver:
    """The rest of a round with every hand known, each seat playing its best (max^n), for the
    totals and rounds to come of one sight. Remembers every position it solved."""

    def __init__(self, sight: Sight) -> None:
        self.seats = len(sight.counts)
        self.totals = sight.totals or [0] * self.seats
        self.rounds_after = sight.rounds_after
        self.ends: dict[tuple[int, ...], tuple[int, ...]] = {}  # (seat, *hands) -> cards left at the end
        self.worths: dict[tuple[int, ...], tuple[float, ...]] = {}

    def shares(self, left: tuple[int, ...]) -> list[float]:
        """Each seat's share of the win after the round ends with `left` cards in each hand."""
        totals = [total + cards for total, cards in zip(self.totals, left, strict=True)]
        return [win_share(totals, seat, self.rounds_after) for seat in range(self.seats)]

    def table(self, counts: list[int]) -> tuple[array, array]:
        """Every end's worth for the C solver: a round that starts from `counts` ends with one
        hand empty and each other holding between one card and its count; `worth[(sum of
        left * stride) * seats + seat]` (the rest, never reached, left at zero)."""
        stride, size = [], 1
        for count in counts:
            stride.append(size)
            size *= count + 1
        worth = array("d", bytes(8 * size * self.seats))
        for out in range(self.seats):
            ranges = [range(0, 1) if seat == out else range(1, count + 1) for seat, count in enumerate(counts)]
            for left in product(*ranges):
                at = sum(cards * step for cards, step in zip(left, stride, strict=True)) * self.seats
                worth[at : at + self.seats] = array("d", self.worth(left))
        return array("i", stride), worth

    def worth(self, left: tuple[int, ...]) -> tuple[float, ...]:
        """Each seat's worth of the round ending with `left` cards in each hand (bots/hard.py's
        value: the share of the win less the tie-break)."""
        known = self.worths.get(left)
        if known is None:
            everyone = sum(left)
            totals = [total + cards for total, cards in zip(self.totals, left, strict=True)]
            known = tuple(
                win_share(totals, seat, self.rounds_after)
                - TIE_BREAK * (left[seat] - (everyone - left[seat]) / (self.seats - 1))
                for seat in range(self.seats)
            )
            self.worths[left] = known
        return known

    def after(self, hands: list[int], fitting: int, seat: int, card: int) -> tuple[int, ...]:
        """The end (cards left in each hand) when `seat` plays `card` (a bit of its hand that
        fits) and everyone then plays their best."""
        hands = list(hands)
        hands[seat] ^= card
        if not hands[seat]:
            return tuple(hand.bit_count() for hand in hands)
        return self.end(tuple(hands), (fitting ^ card) | OPENS[card.bit_length() - 1], (seat + 1) % self.seats)

    def end(self, hands: tuple[int, ...], fitting: int, seat: int) -> tuple[int, ...]:
        """The end of the round from `seat`'s turn (it passes if nothing fits; someone always
        has a card that fits). `fitting` follows from the hands: every card is dealt."""
        key = (seat, *hands)
        known = self.ends.get(key)
        if known is not None:
            return known
        while not hands[seat] & fitting:
            seat = (seat + 1) % self.seats
        options = hands[seat] & fitting
        best = -math.inf
        best_end: tuple[int, ...] = ()  # someone always has a card that fits: set below
        while options:
            card = options & -options
            options ^= card
            end = self.after(list(hands), fitting, seat, card)
            value = self.worth(end)[seat]
            if value > best:
                best, best_end = value, end
        self.ends[key] = best_end
        return best_end


Rated = tuple[list[dict], dict[str, float], dict[str, list[float]], int]


def options(sight: Sight, native_solve: bool = True) -> Rated:
    """Each card the seat may play with its exact value over every deal that fits: as
    analysis.options rates them (`chance`, `cards`, `value`), each option's value, everyone's
    share of the win after each option (the chart's point), and the number of deals. The rounds
    are solved in C when the library is built (`native_solve`), else by `Solver`: the same ends."""
    solver = Solver(sight)
    seats, me = solver.seats, sight.seat
    dealt = list(deals(sight))
    weights = [weight for _hands, weight in dealt]
    hands_only = [hands for hands, _w in dealt]
    table = solver.table(sight.counts) if native_solve and native.C is not None else None
    ends = {card: _ends(solver, sight, hands_only, card, table) for card in sight.playable}
    weight_sum = sum(weights)
    rated, values, chances = [], {}, {}
    for card, keys in ends.items():
        value = share = left = 0.0
        everyone = [0.0] * seats
        weighed: dict[int, float] = {}
        for key, weight in zip(keys, weights, strict=True):
            weighed[key] = weighed.get(key, 0.0) + weight
        for key, weight in weighed.items():
            counts = tuple(key >> 4 * seat & 15 for seat in range(seats))
            shares = solver.shares(counts)
            value += weight * solver.worth(counts)[me]
            share += weight * shares[me]
            left += weight * counts[me]
            for seat in range(seats):
                everyone[seat] += weight * shares[seat]
        values[card] = value / weight_sum
        chances[card] = [part / weight_sum for part in everyone]
        rated.append(
            {
                "action": {"kind": "play", "card": card},
                "chance": share / weight_sum,
                "cards": left / weight_sum,
                "value": values[card],
            }
        )
    return rated, values, chances, len(dealt)


def _ends(
    solver: Solver, sight: Sight, dealt: list[list[int]], card: str, table: tuple[array, array] | None
) -> list[int]:
    """The end (rollout.end_key) of each deal's round when the seat plays `card`: in C with the
    ends' worth `table` (Solver.table), else in Python."""
    seats, bit = solver.seats, BIT[card]
    if table is not None:
        stride, worth = table
        return native.solve_ends(
            array("Q", chain.from_iterable(dealt)), seats, sight.fitting, sight.seat, bit, stride, worth
        )
    return [_key(solver.after(hands, sight.fitting, sight.seat, bit)) for hands in dealt]


def _key(left: tuple[int, ...]) -> int:
    """Cards left in each hand as rollout.end_key writes them: four bits a seat, seat 0 lowest."""
    return sum(cards << 4 * seat for seat, cards in enumerate(left))
