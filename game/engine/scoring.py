"""The scoring order of a finished row (rules section 7), as steps the UI can animate."""

from __future__ import annotations

from functools import lru_cache

from .cards import PLUS, SEVN_POINTS, VALUE

FEATHERWEIGHT_POINTS = 15
FEATHERWEIGHT_MIN_CARDS = 4
FEATHERWEIGHT_MAX_VALUE = 6
HEAVYWEIGHT_POINTS = 12
HEAVYWEIGHT_MIN_CARDS = 3
HEAVYWEIGHT_MIN_VALUE = 10
LADDER_MIN_RUN = 3
LADDER_POINTS_PER_CARD = 4


def longest_run(values: list[int]) -> int:
    """Length of the longest run of consecutive values (0 for none)."""
    present = set(values)
    best = 0
    for value in present:
        if value - 1 not in present:
            length = 1
            while value + length in present:
                length += 1
            best = max(best, length)
    return best


def _bonus_points(row: list[str], scoring: list[int]) -> list[tuple[str, int]]:
    """Each held bonus card with what it earns (0 when its condition is not met)."""
    bonuses = []
    if "featherweight" in row:
        light = len(scoring) >= FEATHERWEIGHT_MIN_CARDS and max(scoring) <= FEATHERWEIGHT_MAX_VALUE
        bonuses.append(("featherweight", FEATHERWEIGHT_POINTS if light else 0))
    numbers = [VALUE[code] for code in row if code.isdigit()]
    if "heavyweight" in row:
        heavy = sum(1 for value in numbers if value >= HEAVYWEIGHT_MIN_VALUE)
        bonuses.append(("heavyweight", HEAVYWEIGHT_POINTS if heavy >= HEAVYWEIGHT_MIN_CARDS else 0))
    if "ladder" in row:
        run = longest_run(numbers)
        bonuses.append(("ladder", run * LADDER_POINTS_PER_CARD if run >= LADDER_MIN_RUN else 0))
    return bonuses


def score_steps(row: list[str], sevn: bool = False) -> list[dict]:
    """The scoring order for one row that is not bust; the last step's total is the round score.

    Steps appear only when they apply: "double" with a x2 card, "plus" with plus cards, a bonus
    step for each bonus card held (0 points when its condition is not met), "sevn" for SEVN, and
    "floor" when the total would be negative. A second copy of a bonus card adds nothing.
    """
    scoring = [VALUE[code] for code in row if code in VALUE]
    total = sum(scoring)
    steps = [{"step": "sum", "points": total, "total": total}]

    def add(name: str, points: int) -> None:
        nonlocal total
        total += points
        steps.append({"step": name, "points": points, "total": total})

    if "x2" in row:
        add("double", total)
    plus = [PLUS[code] for code in row if code in PLUS]
    if plus:
        add("plus", sum(plus))
    for name, points in _bonus_points(row, scoring):
        add(name, points)
    if sevn:
        add("sevn", SEVN_POINTS)
    if total < 0:
        add("floor", -total)
    return steps


def row_score(row: list[str], sevn: bool = False) -> int:
    """The round score of a row that is not bust."""
    return _row_score(tuple(row), sevn)


@lru_cache(maxsize=4096)  # every view of a table scores each row again; most rows did not change
def _row_score(row: tuple[str, ...], sevn: bool) -> int:
    return score_steps(list(row), sevn)[-1]["total"]
