"""The round that may end the game: what matters is beating the best final total, not points.

Opponents out of round have a known final total; each opponent still in round gets sampled
futures (rollout.py: drawing on while its bust chance stays low). The chance to win with a
given round score of our own is the share of those joint futures we win, with the standings
model (standings.py) for futures where nobody reaches the target.
"""

from __future__ import annotations

import random

from .rollout import sample_finals
from .standings import leader_chance

FUTURES = 48
REACH = 45  # a seat this close to the target (counting its row) may end the game this round


def decisive(view: dict) -> bool:
    """Whether this round may well be the last: some seat is within reach of the target."""
    best = max(seat["total"] + seat["round_score"] for seat in view["seats"])
    return best + REACH >= view["target"]


class FinalRound:
    """The deciding seat's chance to win as a function of its own round score."""

    def __init__(self, view: dict, seat: int, pool: dict[str, int]) -> None:
        self.target: int = view["target"]
        self.total: int = view["seats"][seat]["total"]
        rng = random.Random(0)
        columns = []
        for other, s in enumerate(view["seats"]):
            if other == seat:
                continue
            if s["status"] == "in":
                finals = sample_finals(s["row"], pool, FUTURES, rng)
            else:
                finals = [s["round_score"]] * FUTURES
            columns.append([s["total"] + final for final in finals])
        self.futures = list(zip(*columns))
        self._cache: dict[float, float] = {}

    def chance(self, round_score: float) -> float:
        key = round(round_score)
        if key not in self._cache:
            mine = self.total + key
            self._cache[key] = sum(
                leader_chance(mine, list(others), self.target) for others in self.futures
            ) / len(self.futures)
        return self._cache[key]
