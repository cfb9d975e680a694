"""Guessing the hidden hands: deals of the unseen cards that fit everything a seat has seen.

Each other seat gets exactly its count, and never a card it is known to lack (it passed while
that card fitted). The cards some seats may not hold are dealt first, fewest possible holders
first, each to a holder drawn in proportion to the room left in its hand; when that paints
itself into a corner, a chain of moves between hands makes room (the real deal proves that some
deal always fits). The cards anyone may hold then fill the room left, shuffled.
"""

from __future__ import annotations

import random

from .sight import Sight


class Dealer:
    """Deals for one sight: the work that does not change between deals is done once."""

    def __init__(self, sight: Sight) -> None:
        self.seat, self.hand = sight.seat, sight.hand
        self.others = [seat for seat in range(len(sight.counts)) if seat != sight.seat]
        self.counts = sight.counts
        self.free: list[int] = []
        self.holders: dict[int, list[int]] = {}
        bits = sight.unseen
        while bits:
            card = bits & -bits
            bits ^= card
            holders = [seat for seat in self.others if not sight.lacks[seat] & card]
            if len(holders) == len(self.others):
                self.free.append(card)
            else:
                self.holders[card] = holders

    def deal(self, rng: random.Random) -> list[int]:
        """One deal: a hand mask per seat (the dealer's own hand as it is)."""
        room = {seat: self.counts[seat] for seat in self.others}
        owner: dict[int, int] = {}
        order = list(self.holders)
        rng.shuffle(order)
        order.sort(key=lambda card: len(self.holders[card]))
        for card in order:
            open_seats = [seat for seat in self.holders[card] if room[seat]]
            if open_seats:
                seat = rng.choices(open_seats, weights=[room[s] for s in open_seats])[0]
            else:
                seat = _make_room(card, self.holders, owner, room, set())
            owner[card] = seat
            room[seat] -= 1
        hands = [0] * len(self.counts)
        hands[self.seat] = self.hand
        for card, seat in owner.items():
            hands[seat] |= card
        free = list(self.free)
        rng.shuffle(free)
        start = 0
        for seat in self.others:
            for card in free[start : start + room[seat]]:
                hands[seat] |= card
            start += room[seat]
        return hands


def _make_room(
    card: int, holders: dict[int, list[int]], owner: dict[int, int], room: dict[int, int], tried: set[int]
) -> int:
    """A seat that may hold `card`, emptied of one constrained card moved on to a seat with
    room (or along a chain of such moves); returns that seat, with one more room."""
    for seat in holders[card]:
        if seat in tried:
            continue
        tried.add(seat)
        held_here = [held for held, at in owner.items() if at == seat]
        for held in held_here:
            for other in holders[held]:
                if other != seat and room[other]:
                    owner[held] = other
                    room[other] -= 1
                    room[seat] += 1
                    return seat
        for held in held_here:
            try:
                freed = _make_room(held, holders, owner, room, tried)
            except LookupError:
                continue
            owner[held] = freed
            room[freed] -= 1
            room[seat] += 1
            return seat
    raise LookupError("no deal fits what was seen")
