"""Who sits where: seat order and who is still in round."""

from __future__ import annotations

from .state import IN, GameState


def clockwise_from(state: GameState, first: int) -> list[int]:
    """Every seat once, clockwise, starting with `first`."""
    n = len(state["seats"])
    return [(first + i) % n for i in range(n)]


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
