"""Who sits where: seat order and who is still in round."""

from __future__ import annotations

from .state import IN, MAX_SEATS, MIN_SEATS, GameState

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
