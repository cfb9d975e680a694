"""Who sits where: seat order and who is still in round."""

from __future__ import annotations

from .state import IN, State


def clockwise_from(state: State, first: int) -> list[int]:
    """Every seat once, clockwise, starting with `first`."""
    n = len(state["seats"])
    return [(first + i) % n for i in range(n)]


def in_round(state: State) -> list[int]:
    return [seat for seat, s in enumerate(state["seats"]) if s["status"] == IN]


def is_in(state: State, seat: int) -> bool:
    return state["seats"][seat]["status"] == IN


def next_in_round(state: State, after: int) -> int | None:
    """The first seat in round clockwise after `after` (not `after` itself), or None."""
    for seat in clockwise_from(state, after + 1)[:-1]:
        if is_in(state, seat):
            return seat
    return None
