"""Scoring hypothetical rows, fast: the engine's `score_steps`, memoised on the row's contents.

The hard bot scores a few dozen "what if I took this card" rows per decision; rows repeat a
lot within a game and across games, so a cache keyed on the sorted row makes that cheap while
the engine stays the one place that knows the scoring order.
"""

from __future__ import annotations

from functools import lru_cache

from game.engine import score_steps

from .odds import NUMBER_CODES

BALLAST_CODES = frozenset({"-6", "-4", "-2"})
SCORING_CODES = NUMBER_CODES | BALLAST_CODES
SEVN_DISTINCT = 7


@lru_cache(maxsize=200_000)
def _score(key: tuple[str, ...], sevn: bool) -> int:
    return score_steps(list(key), sevn)[-1]["total"]


def score(row: list[str] | tuple[str, ...], sevn: bool = False) -> int:
    """The round score of a row that is not bust (SEVN's +17 included when `sevn`)."""
    return _score(tuple(sorted(row)), sevn)


def distinct(row: list[str] | tuple[str, ...]) -> int:
    """Distinct scoring values in the row (numbers and kept Ballast): 7 is SEVN."""
    return sum(1 for card in row if card in SCORING_CODES)
