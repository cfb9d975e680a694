"""What a round's result is worth for the game: the share of the win a seat can expect from
the totals after this round, with `rounds_after` rounds still to come.

The lowest total wins and ties share the win, so the last round is judged exactly. Before it,
each seat's penalties in the rounds to come are taken as independent draws from the spread of
one round's penalty seen in self-play of the medium rule (3 to 7 seats, 400 rounds each; the
seat that goes out scores 0): a rough prior that only says how much a lead of a few points is
worth with rounds to go. The share depends only on the others' totals less ours, so it is
cached on those differences.
"""

from __future__ import annotations

from functools import lru_cache

ROUND_PENALTY = {  # seats: P(penalty = 0, 1, 2, ...) for one seat in one round
    3: (0.333, 0.129, 0.128, 0.127, 0.102, 0.099, 0.046, 0.022, 0.01, 0.003, 0.001),
    4: (0.25, 0.193, 0.187, 0.161, 0.113, 0.062, 0.021, 0.009, 0.003, 0.001, 0.001),
    5: (0.2, 0.231, 0.221, 0.172, 0.109, 0.052, 0.011, 0.003, 0.001),
    6: (0.167, 0.279, 0.25, 0.18, 0.077, 0.037, 0.008, 0.002),
    7: (0.143, 0.263, 0.276, 0.183, 0.097, 0.03, 0.009),
}


def _convolve(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return tuple(out)


@lru_cache(maxsize=64)
def _future(seats: int, rounds: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The spread of one seat's penalty summed over `rounds` rounds, and its tail P(sum >= i)."""
    one = ROUND_PENALTY[min(max(seats, 3), 7)]
    total = sum(one)
    one = tuple(p / total for p in one)
    spread: tuple[float, ...] = (1.0,)
    for _ in range(rounds):
        spread = _convolve(spread, one)
    tail = [0.0] * (len(spread) + 1)
    for i in range(len(spread) - 1, -1, -1):
        tail[i] = tail[i + 1] + spread[i]
    return spread, tuple(tail)


def win_share(totals: list[int], seat: int, rounds_after: int) -> float:
    """The share of the win `seat` can expect, `totals` being everyone's totals after this
    round."""
    mine = totals[seat]
    ahead = tuple(sorted(total - mine for number, total in enumerate(totals) if number != seat))
    return _share(ahead, rounds_after)


@lru_cache(maxsize=1 << 16)
def _share(ahead: tuple[int, ...], rounds_after: int) -> float:
    """`ahead`: each other seat's total less ours (sorted, as the share does not care who)."""
    if not rounds_after:
        if min(ahead) < 0:
            return 0.0
        return 1 / (1 + ahead.count(0))
    spread, tail = _future(len(ahead) + 1, rounds_after)
    size = len(spread)
    share = 0.0
    for mine, chance in enumerate(spread):
        # ways[j]: the chance that no other seat ends lower and exactly j tie with us
        ways = [1.0]
        for lead in ahead:
            need = mine - lead  # the other's future penalty that ties ours
            higher = tail[min(max(need + 1, 0), size)]
            tie = spread[need] if 0 <= need < size else 0.0
            ways = [a * higher + b * tie for a, b in zip([*ways, 0.0], [0.0, *ways], strict=True)]
        share += chance * sum(way / (tied + 1) for tied, way in enumerate(ways))
    return share
