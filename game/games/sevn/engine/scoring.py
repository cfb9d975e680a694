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
_PLUS_CARDS = frozenset(PLUS)
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


def _heavyweight(row: Sequence[str]) -> bool:
    """At least HEAVYWEIGHT_MIN_CARDS numbers of HEAVYWEIGHT_MIN_VALUE or more."""
    heavy = 0
    for code in row:
        if code in _HEAVY_NUMBERS:
            heavy += 1
    return heavy >= HEAVYWEIGHT_MIN_CARDS


def _ladder(row: Sequence[str]) -> int:
    """What Ladder earns: LADDER_POINTS_PER_CARD per card of the longest run, if long enough."""
    numbers = 0
    for code in row:
        numbers |= _NUMBER_BIT[code]
    run = longest_run(numbers)
    return run * LADDER_POINTS_PER_CARD if run >= LADDER_MIN_RUN else 0


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
        total = _add_later_steps(steps, row, total, sevn)
    if total < 0:
        steps.append({"step": "floor", "points": -total, "total": 0})
    return steps


def _add_later_steps(steps: list[Step], row: Sequence[str], total: int, sevn: bool) -> int:
    """Append the steps after the sum, in their order, and return the total they reach.

    The step cards held are found in one pass over the row; each step then asks that set.
    """
    held = _STEP_CARDS.intersection(row)
    if "x2" in held:
        steps.append({"step": "double", "points": total, "total": total + total})
        total += total
    if not held.isdisjoint(_PLUS_CARDS):
        plus = 0
        for code in row:
            plus += _PLUS_FACE[code]
        total += plus
        steps.append({"step": "plus", "points": plus, "total": total})
    if "featherweight" in held:
        points = FEATHERWEIGHT_POINTS if _featherweight(row) else 0
        total += points
        steps.append({"step": "featherweight", "points": points, "total": total})
    if "heavyweight" in held:
        points = HEAVYWEIGHT_POINTS if _heavyweight(row) else 0
        total += points
        steps.append({"step": "heavyweight", "points": points, "total": total})
    if "ladder" in held:
        points = _ladder(row)
        total += points
        steps.append({"step": "ladder", "points": points, "total": total})
    if sevn:
        total += SEVN_POINTS
        steps.append({"step": "sevn", "points": SEVN_POINTS, "total": total})
    return total


def row_score(row: Sequence[str], sevn: bool = False) -> int:
    """The round score of a row that is not bust: score_steps' last total.

    Without step cards (most rows) that is the sum, floored at 0, and no steps are built.
    """
    if sevn or not _STEP_CARDS.isdisjoint(row):
        return score_steps(row, sevn)[-1]["total"]
    total = 0
    for code in row:
        total += _FACE[code]
    return total if total > 0 else 0
