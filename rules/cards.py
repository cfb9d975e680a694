"""What tapping a card on a SEVN table shows: each card's rule, in the rulebook's own words."""

from __future__ import annotations

from game import registry
from rules.models import Blurb, Section
from rules.numbers import fill


def card_rules() -> list[tuple[dict, str]]:
    """Each kind of SEVN card with its rule in the active language (the full rules' texts)."""
    blurbs = {blurb.key: blurb.text for blurb in Blurb.objects.filter(key__startswith="full.")}
    sections = {
        section.key: section.body for section in Section.objects.filter(key__in=("full.ballast", "full.modifiers"))
    }
    return registry.KINDS["sevn"].rulebook.card_rules(blurbs, sections, fill)
