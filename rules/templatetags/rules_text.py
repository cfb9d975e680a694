from __future__ import annotations

from django import template
from django.urls import reverse

from rules.cards import card_rules as rules_of_cards
from rules.numbers import fill as fill_numbers
from rules.views import complete_url

register = template.Library()


@register.filter
def fill(text: str) -> str:
    """Put the engine's numbers into rulebook prose ({deck_size} → 120)."""
    return fill_numbers(text)


@register.filter
def get_item(mapping: dict, key: str) -> str:
    """mapping[key] for keys with dots in them (blurb keys such as "choice.draw")."""
    return mapping.get(key, "")


@register.filter
def lines(text: str) -> list[str]:
    """A list's items, one per line of a text (the rule lists of the Sevens page)."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


@register.inclusion_tag("cards/_rules.html")
def card_rules(game: str) -> dict:
    """Every card's name and rule in the active language, from the rulebook's own texts: what
    tapping a card on a table of this game shows."""
    return {"rules": rules_of_cards(game)}


@register.simple_tag
def rules_url(which: str = "") -> str:
    """The rulebook's front (the site's first game's first page), or with "complete" that game's
    complete rules (where the fair-deal section is)."""
    return complete_url() if which == "complete" else reverse("rules:index")
