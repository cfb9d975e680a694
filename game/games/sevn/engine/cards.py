"""The one deck definition: every card code, what kind of card it is, and how many copies exist.

Everything else (engine, bots, rules pages, tests) reads counts and values from here.
"""

from __future__ import annotations

# Number cards: value v has v copies, except 0 which has one.
_NUMBER_COPIES = {str(value): max(value, 1) for value in range(14)}

DECK: dict[str, int] = {
    **_NUMBER_COPIES,
    # Ballast: negative scoring cards, one each.
    "-6": 1,
    "-4": 1,
    "-2": 1,
    # Modifiers: one doubler and five plus cards.
    "x2": 1,
    "+2": 1,
    "+4": 1,
    "+6": 1,
    "+8": 1,
    "+10": 1,
    # Bonus cards, evaluated at round end.
    "featherweight": 2,
    "heavyweight": 2,
    "ladder": 2,
    # Action cards.
    "freeze": 3,
    "second_chance": 3,
    "triple_draw": 3,
    "crossroads": 2,
    "storm": 2,
}

NUMBER = "number"
BALLAST = "ballast"
MODIFIER = "modifier"
BONUS = "bonus"
ACTION = "action"

NUMBERS = tuple(code for code in DECK if code.isdigit())
BALLASTS = tuple(code for code in DECK if code.startswith("-"))
MODIFIERS = ("x2", "+2", "+4", "+6", "+8", "+10")
BONUSES = ("featherweight", "heavyweight", "ladder")
ACTIONS = ("freeze", "second_chance", "triple_draw", "crossroads", "storm")

KIND: dict[str, str] = {
    **{code: NUMBER for code in NUMBERS},
    **{code: BALLAST for code in BALLASTS},
    **{code: MODIFIER for code in MODIFIERS},
    **{code: BONUS for code in BONUSES},
    **{code: ACTION for code in ACTIONS},
}

# Scoring cards (numbers and kept Ballast) and their values: the "distinct values" of a row.
VALUE: dict[str, int] = {code: int(code) for code in NUMBERS + BALLASTS}


def would_duplicate(row: list[str], card: str) -> bool:
    """Whether taking this card repeats a value already in the row (the one way to bust)."""
    return card in VALUE and card in row


PLUS: dict[str, int] = {code: int(code[1:]) for code in MODIFIERS if code.startswith("+")}

SEVN_DISTINCT = 7
SEVN_POINTS = 17
TARGET = 250  # the score that ends the game unless a table sets another
TRIPLE_DRAW_CARDS = 3  # the chosen player takes up to this many cards
CROSSROADS_CARDS = 2  # cards revealed to choose from
