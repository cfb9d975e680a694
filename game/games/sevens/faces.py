"""How each Sevens card looks: its rank, suit symbol, colour and name in the viewer's language.

The same face dict as SEVN's cards (game.games.sevn.faces.face), so one card partial (cards/_card.html)
draws both games' cards, on the table and in the rulebook. Four suit colours (black spades, red
hearts, blue diamonds, green clubs) tell the suits apart at a glance, also without colour
vision: the symbol is on every face.
"""

from __future__ import annotations

from django.utils.translation import gettext, pgettext_lazy

from game.games.sevens.engine.cards import SYMBOL, rank_of, suit_of

RANK_NAMES = {
    "A": pgettext_lazy("sevens rank", "Ace"),
    "J": pgettext_lazy("sevens rank", "Jack"),
    "Q": pgettext_lazy("sevens rank", "Queen"),
    "K": pgettext_lazy("sevens rank", "King"),
}
# The rank as printed in a card's corner: the viewer's own letters for the court cards.
RANK_LETTERS = {
    "A": pgettext_lazy("sevens rank letter: Ace", "A"),
    "J": pgettext_lazy("sevens rank letter: Jack", "J"),
    "Q": pgettext_lazy("sevens rank letter: Queen", "Q"),
    "K": pgettext_lazy("sevens rank letter: King", "K"),
}
SUIT_NAMES = {
    "S": pgettext_lazy("sevens suit", "Spades"),
    "H": pgettext_lazy("sevens suit", "Hearts"),
    "D": pgettext_lazy("sevens suit", "Diamonds"),
    "C": pgettext_lazy("sevens suit", "Clubs"),
}
TONES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def suit_name(suit: str) -> str:
    return str(SUIT_NAMES[suit])


def rank_label(rank: str) -> str:
    return str(RANK_LETTERS[rank]) if rank in RANK_LETTERS else rank


def card_name(code: str) -> str:
    """A card's full name for screen readers and the rule texts: "7 of Diamonds", "Karo 7"."""
    rank, suit = rank_of(code), suit_of(code)
    return gettext("%(rank)s of %(suit)s") % {"rank": str(RANK_NAMES.get(rank, rank)), "suit": suit_name(suit)}


def short_name(code: str) -> str:
    """A card as the log writes it: "8♠", "D♥" (the rank in the viewer's letters)."""
    return rank_label(rank_of(code)) + SYMBOL[suit_of(code)]


def face(code: str) -> dict:
    """The look of one Sevens card in the active language."""
    suit = suit_of(code)
    return {
        "code": code,
        "kind": "suit",
        "tone": TONES[suit],
        "label": rank_label(rank_of(code)),
        "name": card_name(code),
        "glyph": SYMBOL[suit],
        "short": True,
    }
