"""Who sits where: seat order and who is still in round."""

from __future__ import annotations

from .state import IN, MAX_SEATS, MIN_SEATS, GameState, Seat

# Every seat once, clockwise: CLOCKWISE[seats][first] starts with `first`.
CLOCKWISE = {
    seats: [tuple((first + i) % seats for i in range(seats)) for first in range(seats)]
    for seats in range(MIN_SEATS, MAX_SEATS + 1)
}


def clockwise(seats: int, first: int) -> tuple[int, ...]:
    """Every seat of a table of `seats` once, clockwise, starting with `first` (taken modulo)."""
    return CLOCKWISE[seats][first % seats]


def in_round(state: GameState) -> list[int]:
    return [seat for seat, s in enumerate(state["seats"]) if s["status"] == IN]


def first_in_round(seats: list[Seat], first: int) -> int | None:
    """The first seat still in round clockwise from `first` (itself included); None when nobody is."""
    for seat in CLOCKWISE[len(seats)][first]:
        if seats[seat]["status"] == IN:
            return seat
    return None
