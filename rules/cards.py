"""What tapping a card on a table shows: each card's rule, in the rulebook's own words (the
table's game's, if its rulebook says them: its `card_rules`)."""

from __future__ import annotations

from game import registry
from rules.numbers import fill
from rules.prose import Prose


def card_rules(game: str) -> list[tuple[dict, str]]:
    """Each kind of card of this game with its rule in the active language."""
    kind = registry.KINDS.get(game)
    rulebook = kind.rulebook if kind is not None else None
    if rulebook is None or rulebook.card_rules is None:
        return []
    return rulebook.card_rules(Prose(), fill)
