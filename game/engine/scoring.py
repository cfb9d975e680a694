"""The scoring order of a finished row (rules section 7), as steps the UI can animate."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from .cards import BONUSES, DECK, MODIFIERS, NUMBERS, PLUS, SEVN_POINTS, VALUE

FEATHERWEIGHT_POINTS = 15
FEATHERWEIGHT_MIN_CARDS = 4
FEATHERWEIGHT_MAX_VALUE = 6
HEAVYWEIGHT_POINTS = 12
HEAVYWEIGHT_MIN_CARDS = 3
HEAVYWEIGHT_MIN_VALUE = 10
LADDER_MIN_RUN = 3
LADDER_POINTS_PER_CARD = 4


class Step(TypedDict):
    step: str
    points: int
    total: int


def longest_run(numbers: int) -> int:
    """Length of the longest run of consecutive values in a set of values held as bits.

    Each pass drops the lowest value of every run, so the passes needed are the longest run.
    """
    length = 0
    while numbers:
        numbers &= numbers >> 1
        length += 1
    return length


# What each card adds to the sum (numbers and Ballast their value) and to the plus step (plus
# cards theirs); every other card 0.
_FACE = {code: VALUE.get(code, 0) for code in DECK}
_PLUS_FACE = {code: PLUS.get(code, 0) for code in DECK}
# The cards that add a step after the sum: the modifiers and the bonus cards.
_STEP_CARDS = frozenset(MODIFIERS + BONUSES)
_BONUS_CARDS = frozenset(BONUSES)
# What the bonuses look at: scoring cards too heavy for Featherweight, numbers heavy enough
# for Heavyweight, and each number as the bit of its value (Ballast never forms a run).
_ABOVE_FEATHERWEIGHT = frozenset(code for code, value in VALUE.items() if value > FEATHERWEIGHT_MAX_VALUE)
_HEAVY_NUMBERS = frozenset(code for code in NUMBERS if VALUE[code] >= HEAVYWEIGHT_MIN_VALUE)
_NUMBER_BIT = {code: 1 << VALUE[code] if code in NUMBERS else 0 for code in DECK}


def _featherweight(row: Sequence[str]) -> bool:
    """At least FEATHERWEIGHT_MIN_CARDS scoring cards, none above FEATHERWEIGHT_MAX_VALUE."""
    if not _ABOVE_FEATHERWEIGHT.isdisjoint(row):
        return False
    scoring = 0
    for code in row:
        if code in VALUE:
            scoring += 1
    return scoring >= FEATHERWEIGHT_MIN_CARDS


def _bonus_points(row: Sequence[str]) -> list[tuple[str, int]]:
    """Each bonus card held with what it earns (0 when its condition is not met).

    Plain loops over the row: cheaper than comprehensions for rows of a few cards.
    """
    bonuses = []
    if "featherweight" in row:
        bonuses.append(("featherweight", FEATHERWEIGHT_POINTS if _featherweight(row) else 0))
    if "heavyweight" in row:
        heavy = 0
        for code in row:
            if code in _HEAVY_NUMBERS:
                heavy += 1
        bonuses.append(("heavyweight", HEAVYWEIGHT_POINTS if heavy >= HEAVYWEIGHT_MIN_CARDS else 0))
    if "ladder" in row:
        numbers = 0
        for code in row:
            numbers |= _NUMBER_BIT[code]
        run = longest_run(numbers)
        bonuses.append(("ladder", run * LADDER_POINTS_PER_CARD if run >= LADDER_MIN_RUN else 0))
    return bonuses


def _later_points(row: Sequence[str], scoring_sum: int, sevn: bool) -> list[tuple[str, int]]:
    """The steps after the sum, as (name, points): x2, plus, bonuses, SEVN."""
    later = [("double", scoring_sum)] if "x2" in row else []
    plus = 0
    for code in row:
        plus += _PLUS_FACE[code]
    if plus:
        later.append(("plus", plus))
    if not _BONUS_CARDS.isdisjoint(row):
        later += _bonus_points(row)
    if sevn:
        later.append(("sevn", SEVN_POINTS))
    return later


def score_steps(row: Sequence[str], sevn: bool = False) -> list[Step]:
    """The scoring order for one row that is not bust; the last step's total is the round score.

    Steps appear only when they apply: "double" with a x2 card, "plus" with plus cards, a bonus
    step for each bonus card held (0 points when its condition is not met), "sevn" for SEVN, and
    "floor" when the total would be negative. A second copy of a bonus card adds nothing.
    """
    total = 0
    for code in row:
        total += _FACE[code]
    steps: list[Step] = [{"step": "sum", "points": total, "total": total}]
    if sevn or not _STEP_CARDS.isdisjoint(row):  # most rows hold scoring cards only: the sum is all
        for name, points in _later_points(row, total, sevn):
            total += points
            steps.append({"step": name, "points": points, "total": total})
    if total < 0:
        steps.append({"step": "floor", "points": -total, "total": 0})
    return steps


def row_score(row: Sequence[str], sevn: bool = False) -> int:
    """The round score of a row that is not bust: score_steps' last total, without the steps."""
    total = 0
    for code in row:
        total += _FACE[code]
    if sevn or not _STEP_CARDS.isdisjoint(row):
        for _name, points in _later_points(row, total, sevn):
            total += points
    return total if total > 0 else 0
