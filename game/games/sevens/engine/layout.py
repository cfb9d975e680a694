"""The layout: per suit, None before its 7 is played, else [lowest, highest] rank on the table.

A row grows one card at a time from its 7, up to the King and down to the Ace; it never wraps.
So at most two cards fit each started row and one (its 7) each row not yet started.
"""

from __future__ import annotations

from .cards import RANK_INDEX, RANKS, SEVEN, SUIT_NAME, SUITS, card_name, in_deck_order, rank_of, suit_of

Layout = dict[str, "list[str] | None"]


def empty_layout() -> Layout:
    return {suit: None for suit in SUITS}


def fitting_cards(layout: Layout) -> set[str]:
    """Every card that would fit now, wherever it is: at most 8 (two ends per row)."""
    cards = set()
    for suit, row in layout.items():
        if row is None:
            cards.add(RANKS[SEVEN] + suit)
            continue
        low, high = RANK_INDEX[row[0]], RANK_INDEX[row[1]]
        if low > 0:
            cards.add(RANKS[low - 1] + suit)
        if high < len(RANKS) - 1:
            cards.add(RANKS[high + 1] + suit)
    return cards


def playable(hand: list[str], layout: Layout) -> list[str]:
    """The cards of `hand` that fit `layout`, in DECK order."""
    fitting = fitting_cards(layout)
    return in_deck_order([card for card in hand if card in fitting])


def place(layout: Layout, card: str) -> None:
    """Put a card that fits on its row (the caller has checked that it fits)."""
    suit, rank = suit_of(card), rank_of(card)
    row = layout[suit]
    if row is None:
        layout[suit] = [rank, rank]
    elif RANK_INDEX[rank] < RANK_INDEX[row[0]]:
        row[0] = rank
    else:
        row[1] = rank


def why_it_does_not_fit(card: str, layout: Layout) -> str:
    """The sentence that tells a player why a card in their hand cannot be played now."""
    suit = suit_of(card)
    row = layout[suit]
    name = card_name(card)
    if row is None:
        return f"The {name} does not fit: the {SUIT_NAME[suit]}s have not started; a row starts with its 7."
    if RANK_INDEX[rank_of(card)] > RANK_INDEX[row[1]]:
        wanted, direction = RANKS[RANK_INDEX[row[1]] + 1], "up"
    else:
        wanted, direction = RANKS[RANK_INDEX[row[0]] - 1], "down"
    return f"The {name} does not fit: the next {SUIT_NAME[suit]} {direction} is the {card_name(wanted + suit)}."
