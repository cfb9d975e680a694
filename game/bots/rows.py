"""Scoring hypothetical rows, fast: the engine's `score_steps`, memoised on the row's contents.

The hard bot scores a few dozen "what if I took this card" rows per decision; rows repeat a
lot within a game and across games, so a cache keyed on the sorted row makes that cheap while
the engine stays the one place that knows the scoring order. The cache is a plain dict of
strings to ints: the garbage collector never has to walk it, so it adds no pauses.
"""

from __future__ import annotations

from game.engine import DECK, score_steps

from .odds import NUMBER_CODES

BALLAST_CODES = frozenset(code for code in DECK if code.startswith("-"))
SCORING_CODES = NUMBER_CODES | BALLAST_CODES
# Modifiers and bonus cards: they simply join the row and count only when it is scored.
PLAIN_CODES = frozenset(code for code in DECK if code[0] in "x+") | {"featherweight", "heavyweight", "ladder"}
SEVN_DISTINCT = 7

CACHE_LIMIT = 200_000
_scores: dict[str, int] = {}


def score(row: list[str] | tuple[str, ...], sevn: bool = False) -> int:
    """The round score of a row that is not bust (SEVN's +17 included when `sevn`)."""
    key = " ".join(sorted(row)) + ("|sevn" if sevn else "")
    cached = _scores.get(key)
    if cached is None:
        if len(_scores) >= CACHE_LIMIT:
            _scores.clear()
        cached = _scores[key] = score_steps(list(row), sevn)[-1]["total"]
    return cached


def distinct(row: list[str] | tuple[str, ...]) -> int:
    """Distinct scoring values in the row (numbers and kept Ballast): 7 is SEVN."""
    return sum(1 for card in row if card in SCORING_CODES)
