"""How likely the deciding seat is to win the game, from the scoreboard: "play the score".

Points are not the goal, winning is: a point matters more when it decides the game, and a
gamble pays when only luck can catch the leader. The model: after this round each seat's total
is known (opponents still in round either bust or end near their typical final row); then, if
nobody has reached the target, every seat gains a normal amount per round until the leader
gets there, and the seat with the highest total wins.
"""

from __future__ import annotations

import math
from itertools import product

ROUND_MEAN = 23.0   # a seat's average round score (measured in bot games)
ROUND_SD = 23.0     # and its spread
EXTRA_ROUNDS = 0.3  # smoothing: the game's end is never quite known
MAX_UNCERTAIN = 3   # opponents in round modelled as a gamble; the rest at their mean

# A normal distribution as 9 weighted points (for E[f(Z)], Z standard normal): the trapezoid
# rule is very accurate here because the integrand is smooth and the weights fall off fast.
_Z = [float(i) for i in range(-4, 5)]
_W = [math.exp(-z * z / 2) for z in _Z]
NODES = [(z / math.sqrt(2), w / sum(_W)) for z, w in zip(_Z, _W)]
_ROOT2 = math.sqrt(2)


def phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def leader_chance(mine: float, others: list[float], target: int) -> float:
    """Chance to win from these totals at a round's end."""
    top = max(others)
    if max(mine, top) >= target:
        if mine > top:
            return 1.0
        if mine < top:
            return 0.0
        return 1.0 / (1 + sum(1 for other in others if other == top))
    spread = ROUND_SD * _ROOT2 * math.sqrt((target - max(mine, top)) / ROUND_MEAN + EXTRA_ROUNDS)
    gaps = [(mine - other) / spread for other in others]
    erf = math.erf
    chance = 0.0
    for z, weight in NODES:  # z and the gaps are pre-scaled by 1/sqrt(2) for erf
        p = weight
        for gap in gaps:
            p *= 0.5 + 0.5 * erf(gap + z)
        chance += p
    return chance


def typical_finish(row_score: int) -> tuple[float, float]:
    """(bust chance, final row score if not bust) of a seat still in round, from bot games."""
    bust = min(0.37, max(0.07, 0.37 - (row_score - 15) * 0.0125))
    return bust, max(40.0, row_score + 8.0)


class WinModel:
    """The deciding seat's chance to win as a function of its own round score."""

    def __init__(self, view: dict, seat: int) -> None:
        seats = view["seats"]
        self.target: int = view["target"]
        self.total: int = seats[seat]["total"]
        fixed: list[float] = []
        open_: list[tuple[int, int]] = []
        for other, s in enumerate(seats):
            if other == seat:
                continue
            if s["status"] == "in":
                open_.append((s["total"], s["round_score"]))
            else:
                fixed.append(float(s["total"] + s["round_score"]))
        open_.sort(reverse=True)
        for total, row in open_[MAX_UNCERTAIN:]:
            bust, finish = typical_finish(row)
            fixed.append(total + (1 - bust) * finish)
        branches = []
        for total, row in open_[:MAX_UNCERTAIN]:
            bust, finish = typical_finish(row)
            branches.append([(bust, float(total)), (1 - bust, total + finish)])
        self.scenarios = []
        for combo in product(*branches):
            p = math.prod(prob for prob, _ in combo)
            self.scenarios.append((p, fixed + [value for _, value in combo]))
        self._cache: dict[float, float] = {}

    def chance(self, round_score: float) -> float:
        """Chance to win if this seat ends the round with `round_score`."""
        key = round(round_score, 1)
        if key not in self._cache:
            mine = self.total + key
            self._cache[key] = sum(p * leader_chance(mine, totals, self.target) for p, totals in self.scenarios)
        return self._cache[key]
