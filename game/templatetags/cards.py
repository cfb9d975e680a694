"""`{% card face size="md" new=... busting=... %}`: one card, drawn by cards/_card.html.

The table, the tutorial and the rules draw every card with this one partial. A card's look (its
face in one language, its size and its flags) recurs all game, so it is drawn through the
one memo of drawn HTML (game.drawkit.pieces): a row of seven cards costs seven lookups, not seven renders.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe

from game.drawkit.pieces import drawn

register = template.Library()


def _card_context(look: tuple) -> dict:
    face, size, new, busting, last = look
    return {"card": dict(face), "size": size, "new": new, "busting": busting, "last": last}


@register.simple_tag
def card(face: dict, size: str = "md", new: bool = False, busting: bool = False, last: bool = False) -> str:
    """`last`: the card played or drawn last at the table (marked until the next)."""
    look = (tuple(face.items()), size, bool(new), bool(busting), bool(last))
    return drawn("cards/_card.html", look, _card_context)


@register.simple_tag
def card_row(cards: list[dict], size: str = "md") -> str:
    """A row of cards, each {"face", "new", "busting"}: one tag for the whole row, as a row is
    redrawn every time a card joins it. Small named cards (bonus, action) are drawn as chips
    with their name: a symbol alone does not say which card it is."""
    return mark_safe(  # each card drawn (and escaped) by its partial
        "".join(
            card(c["face"], _sized(c["face"], size), c.get("new", False), c.get("busting", False), c.get("last", False))
            for c in cards
        )
    )


def _sized(face: dict, size: str) -> str:
    return "chip" if size == "sm" and not face["short"] else size
