"""The chance to win, from sampled ends of this round: what matters is the best final total.

Seats out of round have a known final total; each seat still in round gets sampled futures
(rollout.py). The chance to win is the share of joint futures won, with the standings model
(standings.py) for futures where nobody reaches the target. Near the end of a game this is
what makes the bot chase a leader or sit on a winning total; early on it still prefers a
little spread, since one seat of four wins only by beating all three others.
"""

from __future__ import annotations

from collections import Counter

from .rollout import finals
from .standings import leader_chance

FUTURES = 48


class Futures:
    """Sampled final totals of every seat, made once per decision and shared by its options."""

    def __init__(self, view: dict, pool: dict[str, int]) -> None:
        self.seats: list[dict] = view["seats"]
        self.target: int = view["target"]
        self.pool = pool
        self._columns: dict[int, list[float]] = {}
        self._by_score: dict[int, dict[int, float]] = {}
        self._others: dict[int, list[tuple[list[float], float]]] = {}

    def column(self, seat: int, *, row: list[str] | None = None, frozen: bool = False, forced: int = 0) -> list[float]:
        """The seat's sampled final totals; or after a change: another row, frozen now, or
        first taking `forced` cards."""
        usual = row is None and not frozen and not forced
        if usual and seat in self._columns:
            return self._columns[seat]
        s = self.seats[seat]
        if s["status"] == "in" and not frozen:
            futures = finals(s["row"] if row is None else row, self.pool, FUTURES, forced=forced, seed=seat)
            column = [s["total"] + final for final in futures]
        else:
            column = [float(s["total"] + s["round_score"])] * FUTURES
        if usual:
            self._columns[seat] = column
        return column

    def win_chance(self, seat: int, changed: int | None = None, **change) -> float:
        """The seat's chance to win, with seat `changed` (if any) changed as `column` allows."""
        columns = [
            self.column(other, **change) if other == changed else self.column(other) for other in range(len(self.seats))
        ]
        mine = columns.pop(seat)
        joint = Counter(zip(mine, *columns, strict=True))  # many futures repeat: rows out of round never change
        return sum(copies * leader_chance(f[0], list(f[1:]), self.target) for f, copies in joint.items()) / FUTURES

    def chance_with_score(self, seat: int, round_score: float) -> float:
        """The seat's chance to win if it ends this round with `round_score`."""
        key = round(round_score)
        cache = self._by_score.setdefault(seat, {})
        if key not in cache:
            if seat not in self._others:
                columns = [self.column(other) for other in range(len(self.seats)) if other != seat]
                self._others[seat] = [
                    (list(others), copies / FUTURES) for others, copies in Counter(zip(*columns, strict=True)).items()
                ]
            mine = self.seats[seat]["total"] + key
            cache[key] = sum(share * leader_chance(mine, others, self.target) for others, share in self._others[seat])
        return cache[key]
