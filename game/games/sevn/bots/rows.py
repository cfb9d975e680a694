"""Scoring hypothetical rows: the engine's own scoring order, so bots and rules never differ.

The hard bot scores a few dozen "what if I took this card" rows per decision; the engine's
scoring is quick enough for that as it is, without a cache of its own.
"""

from __future__ import annotations

from game.games.sevn.engine import DECK
from game.games.sevn.engine.scoring import row_score

from .odds import NUMBER_CODES

BALLAST_CODES = frozenset(code for code in DECK if code.startswith("-"))
SCORING_CODES = NUMBER_CODES | BALLAST_CODES
# Modifiers and bonus cards: they simply join the row and count only when it is scored.
PLAIN_CODES = frozenset(code for code in DECK if code[0] in "x+") | {"featherweight", "heavyweight", "ladder"}
SEVN_DISTINCT = 7


def score(row: list[str] | tuple[str, ...], sevn: bool = False) -> int:
    """The round score of a row that is not bust (SEVN's +17 included when `sevn`)."""
    return row_score(row, sevn)


def distinct(row: list[str] | tuple[str, ...]) -> int:
    """Distinct scoring values in the row (numbers and kept Ballast): 7 is SEVN."""
    return sum(1 for card in row if card in SCORING_CODES)
