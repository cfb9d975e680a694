"""The round that may end the game: what matters is beating the best final total, not points.

Seats out of round have a known final total; each seat still in round gets sampled futures
(rollout.py). The chance to win is the share of joint futures won, with the standings model
(standings.py) for futures where nobody reaches the target. `FinalRound` leaves the deciding
seat's own round score open (for draw or pass); `win_chance` samples every seat, optionally
after a change a decision would make (a seat frozen, forced to draw, given a card).
"""

from __future__ import annotations

from .rollout import finals
from .standings import leader_chance

FUTURES = 48
REACH = 45  # a seat this close to the target (counting its row) may end the game this round


def decisive(view: dict) -> bool:
    """Whether this round may well be the last: some seat is within reach of the target."""
    best = max(seat["total"] + seat["round_score"] for seat in view["seats"])
    return best + REACH >= view["target"]


def _column(index: int, seat: dict, pool: dict[str, int], *, row: list[str] | None = None, frozen: bool = False,
            forced: int = 0) -> list[float]:
    """Sampled final totals of one seat."""
    row = seat["row"] if row is None else row
    if seat["status"] == "in" and not frozen:
        return [seat["total"] + final for final in finals(row, pool, FUTURES, forced=forced, seed=index)]
    return [float(seat["total"] + seat["round_score"])] * FUTURES


class FinalRound:
    """The deciding seat's chance to win as a function of its own round score."""

    def __init__(self, view: dict, seat: int, pool: dict[str, int]) -> None:
        self.target: int = view["target"]
        self.total: int = view["seats"][seat]["total"]
        columns = [_column(other, s, pool) for other, s in enumerate(view["seats"]) if other != seat]
        self.futures = [list(others) for others in zip(*columns)]
        self._cache: dict[int, float] = {}

    def chance(self, round_score: float) -> float:
        key = round(round_score)
        if key not in self._cache:
            mine = self.total + key
            self._cache[key] = sum(leader_chance(mine, others, self.target) for others in self.futures) / FUTURES
        return self._cache[key]


def win_chance(view: dict, seat: int, pool: dict[str, int], changed: int | None = None, *,
               row: list[str] | None = None, frozen: bool = False, forced: int = 0) -> float:
    """The seat's chance to win, every row in round sampled to its end; seat `changed` (if any)
    plays on with `row`, or stops now (`frozen`), or first takes `forced` cards."""
    columns = []
    for other, s in enumerate(view["seats"]):
        if other == changed:
            columns.append(_column(other, s, pool, row=row, frozen=frozen, forced=forced))
        else:
            columns.append(_column(other, s, pool))
    mine = columns.pop(seat)
    futures = zip(mine, *columns)
    return sum(leader_chance(f[0], list(f[1:]), view["target"]) for f in futures) / FUTURES
