"""How likely a seat is to win the game from the totals at a round's end: "play the score".

Points are not the goal, winning is: a point matters more when it decides the game, and a
gamble pays when only luck can catch the leader. The model: if someone has reached the target,
the highest total wins (a tie at the top plays on, shared evenly here); otherwise every seat
gains a normally spread amount per round until the leader gets there, and the highest wins.
"""

from __future__ import annotations

import math

ROUND_MEAN = 23.0  # a seat's average round score (measured in bot games)
ROUND_SD = 23.0  # and its spread
EXTRA_ROUNDS = 0.3  # smoothing: the game's end is never quite known

# A normal distribution as 7 weighted points (for E[f(Z)], Z standard normal): the trapezoid
# rule is very accurate here because the integrand is smooth and the weights fall off fast.
_Z = [float(i) for i in range(-3, 4)]
_W = [math.exp(-z * z / 2) for z in _Z]
NODES = [(z / math.sqrt(2), w / sum(_W)) for z, w in zip(_Z, _W, strict=True)]
_ROOT2 = math.sqrt(2)


def leader_chance(mine: float, others: list[float], target: int) -> float:
    """Chance that the seat with total `mine` wins, the others having `others`, after a round."""
    top = max(others)
    if max(mine, top) >= target:
        if mine > top:
            return 1.0
        if mine < top:
            return 0.0
        return 1.0 / (1 + sum(1 for other in others if other == top))
    spread = ROUND_SD * _ROOT2 * math.sqrt((target - max(mine, top)) / ROUND_MEAN + EXTRA_ROUNDS)
    # z and the gaps are pre-scaled by 1/sqrt(2) for erf. One, two and three others (every table
    # of two to four) are written out: the hard bot asks this tens of thousands of times a game,
    # and the inner loop's own cost was a third of it. Same products in the same order as the
    # general loop below, so the same bits.
    erf = math.erf
    chance = 0.0
    if len(others) == 1:
        a = (mine - others[0]) / spread
        for z, weight in NODES:
            chance += weight * (0.5 + 0.5 * erf(a + z))
    elif len(others) == 2:
        a, b = (mine - others[0]) / spread, (mine - others[1]) / spread
        for z, weight in NODES:
            chance += weight * (0.5 + 0.5 * erf(a + z)) * (0.5 + 0.5 * erf(b + z))
    elif len(others) == 3:
        a, b, c = (mine - others[0]) / spread, (mine - others[1]) / spread, (mine - others[2]) / spread
        for z, weight in NODES:
            chance += weight * (0.5 + 0.5 * erf(a + z)) * (0.5 + 0.5 * erf(b + z)) * (0.5 + 0.5 * erf(c + z))
    else:
        gaps = [(mine - other) / spread for other in others]
        for z, weight in NODES:
            p = weight
            for gap in gaps:
                p *= 0.5 + 0.5 * erf(gap + z)
            chance += p
    return chance
