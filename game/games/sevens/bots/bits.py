"""Cards as bits, for bots that play many rounds in their head: bit i is DECK[i].

Rows grow outward from their 7, so what a play opens is fixed per card: a 7 opens its 6 and 8,
a 6 its 5, an 8 its 9, and so on out to the Ace and the King. The cards that fit are then kept
as one mask: `fitting = (fitting & ~bit) | OPENS[i]`.
"""

from __future__ import annotations

from game.games.sevens.engine import DECK
from game.games.sevens.engine.cards import SEVEN

ALL = (1 << len(DECK)) - 1
BIT: dict[str, int] = {code: 1 << index for index, code in enumerate(DECK)}
SEVENS = sum(1 << (suit * 13 + SEVEN) for suit in range(4))


def _opens(index: int) -> int:
    rank = index % 13
    if rank == SEVEN:
        return (1 << (index - 1)) | (1 << (index + 1))
    if 0 < rank < SEVEN:
        return 1 << (index - 1)
    if SEVEN < rank < 12:
        return 1 << (index + 1)
    return 0


def _beyond(index: int) -> int:
    """The cards that can only come after this one: further from the 7 on the same side
    (for a 7, the whole rest of its suit)."""
    suit, rank = divmod(index, 13)
    if rank == SEVEN:
        ranks = [r for r in range(13) if r != SEVEN]
    elif rank < SEVEN:
        ranks = list(range(rank))
    else:
        ranks = list(range(rank + 1, 13))
    return sum(1 << (suit * 13 + r) for r in ranks)


OPENS = [_opens(index) for index in range(len(DECK))]
BEYOND = [_beyond(index) for index in range(len(DECK))]
SUIT_MASKS = [((1 << 13) - 1) << (13 * suit) for suit in range(4)]


def mask(cards: list[str]) -> int:
    total = 0
    for card in cards:
        total |= BIT[card]
    return total


def cards(bits: int) -> list[str]:
    """The codes of a mask, in DECK order."""
    found = []
    while bits:
        low = bits & -bits
        found.append(DECK[low.bit_length() - 1])
        bits ^= low
    return found


def singles(bits: int) -> list[int]:
    """Each set bit of `bits` on its own, lowest first (a hand's cards as masks)."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low)
        bits ^= low
    return found


def index_of(card: str) -> int:
    return BIT[card].bit_length() - 1
