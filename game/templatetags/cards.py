"""`{% card face size="md" new=... busting=... %}`: cards/_card.html, drawn once per look.

A table update redraws rows of cards whose faces never change; each look of a card (its face in
one language, its size and its flags) is rendered from the one card partial the first time and
reused after that, on the table, in the tutorial and in the rules.
"""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

register = template.Library()

_drawn: dict[tuple, str] = {}
KEPT = 4096  # looks: about 60 codes x 3 sizes x 3 flag pairs x 5 languages fit many times over


@register.simple_tag
def card(face: dict, size: str = "md", new: bool = False, busting: bool = False) -> str:
    key = (face["code"], face["name"], face["label"], size, bool(new), bool(busting))
    html = _drawn.get(key)
    if html is None:
        if len(_drawn) >= KEPT:
            _drawn.clear()
        html = _drawn[key] = render_to_string(
            "cards/_card.html", {"card": face, "size": size, "new": new, "busting": busting}
        )
    return mark_safe(html)


@register.simple_tag
def card_row(cards: list[dict], size: str = "md") -> str:
    """A row of cards, each {"face", "new", "busting"}: one tag for the whole row, as a row is
    redrawn every time a card joins it. Small named cards (bonus, action) are drawn as chips
    with their name: a symbol alone does not say which card it is."""
    return mark_safe(
        "".join(card(c["face"], _sized(c["face"], size), c.get("new", False), c.get("busting", False)) for c in cards)
    )


def _sized(face: dict, size: str) -> str:
    return "chip" if size == "sm" and not face["short"] else size


@register.inclusion_tag("cards/_rules.html")
def card_rules() -> dict:
    """Every card's name and rule in the active language, from the rulebook's own texts: what
    tapping a card on the table shows."""
    from game.cards_ui import card_rules as rules

    return {"rules": rules()}
