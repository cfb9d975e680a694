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


def clockwise_from(state: GameState, first: int) -> list[int]:
    """Every seat once, clockwise, starting with `first`."""
    return list(clockwise(len(state["seats"]), first))


def in_round(state: GameState) -> list[int]:
    return [seat for seat, s in enumerate(state["seats"]) if s["status"] == IN]


def is_in(state: GameState, seat: int) -> bool:
    return state["seats"][seat]["status"] == IN


def next_in_round(state: GameState, after: int) -> int | None:
    """The first seat in round clockwise after `after` (not `after` itself), or None."""
    for seat in clockwise_from(state, after + 1)[:-1]:
        if is_in(state, seat):
            return seat
    return None
