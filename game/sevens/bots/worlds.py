"""Guessing the hidden hands: deals of the unseen cards that fit everything a seat has seen.

Each other seat gets exactly its count, and never a card it is known to lack (it passed while
that card fitted). The cards with the fewest possible holders are dealt first, each to a holder
drawn in proportion to the room left in its hand; when that paints itself into a corner, a
chain of moves between hands makes room (the real deal proves that some deal always fits).
"""

from __future__ import annotations

import random

from .sight import Sight


def sample_hands(sight: Sight, rng: random.Random) -> list[int]:
    """One deal consistent with `sight`: a hand mask per seat (its own hand as it is)."""
    seats = len(sight.counts)
    others = [seat for seat in range(seats) if seat != sight.seat]
    room = {seat: sight.counts[seat] for seat in others}
    holders: dict[int, list[int]] = {}
    bits = sight.unseen
    while bits:
        low = bits & -bits
        holders[low] = [seat for seat in others if not sight.lacks[seat] & low]
        bits ^= low
    order = list(holders)
    rng.shuffle(order)
    order.sort(key=lambda card: len(holders[card]))
    hands = [0] * seats
    hands[sight.seat] = sight.hand
    owner: dict[int, int] = {}
    for card in order:
        open_seats = [seat for seat in holders[card] if room[seat]]
        if open_seats:
            seat = rng.choices(open_seats, weights=[room[s] for s in open_seats])[0]
        else:
            seat = _make_room(card, holders, owner, room, set())
        owner[card] = seat
        room[seat] -= 1
    for card, seat in owner.items():
        hands[seat] |= card
    return hands


def _make_room(card: int, holders: dict[int, list[int]], owner: dict[int, int], room: dict[int, int],
               tried: set[int]) -> int:
    """A seat that may hold `card`, emptied of one card moved on to a seat with room (or
    along a chain of such moves); returns that seat, its room unchanged."""
    for seat in holders[card]:
        if seat in tried:
            continue
        tried.add(seat)
        for held, at in owner.items():
            if at != seat:
                continue
            for other in holders[held]:
                if other == seat:
                    continue
                if room[other]:
                    owner[held] = other
                    room[other] -= 1
                    room[seat] += 1
                    return seat
        for held, at in list(owner.items()):
            if at != seat:
                continue
            try:
                freed = _make_room(held, holders, owner, room, tried)
            except LookupError:
                continue
            owner[held] = freed
            room[freed] -= 1
            room[seat] += 1
            return seat
    raise LookupError("no deal fits what was seen")
