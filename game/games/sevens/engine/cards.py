"""The one deck definition: card codes (rank + suit letter), their order, and their names.

Aces are low: a suit's row runs A 2 ... K, and its 7 is where the row starts.
"""

from __future__ import annotations

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SEVEN = RANKS.index("7")

DECK: list[str] = [rank + suit for suit in SUITS for rank in RANKS]
OPENER = "7D"

# Position of each card in DECK: sorting by it gives DECK order (suit by suit, A up to K).
ORDER: dict[str, int] = {code: index for index, code in enumerate(DECK)}
# Each card's place in its row, 0 (Ace) to 12 (King).
RANK_INDEX: dict[str, int] = {rank: index for index, rank in enumerate(RANKS)}

SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


def suit_of(code: str) -> str:
    return code[-1]


def rank_of(code: str) -> str:
    return code[:-1]


def card_name(code: str) -> str:
    """How a message names a card: "9♥", "10♣"."""
    return rank_of(code) + SYMBOL[suit_of(code)]


def in_deck_order(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)
