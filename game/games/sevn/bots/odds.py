"""Card odds from what a player can see: the public view, never the deck order.

These are the numbers the bots decide with and the ones the table shows a human player
("bust chance"), so both always agree. Every card of `DECK` is either visible (in a row,
the discard pile, the Crossroads pair, the action queue, the action being resolved, or a
pending Ballast / Second Chance) or in the draw pile; the unseen cards are therefore exactly
the draw pile's composition, in unknown order.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.games.sevn.engine import DECK

SECOND_CHANCE = "second_chance"
NUMBER_CODES = frozenset(code for code in DECK if code.isdigit())


def visible_cards(view: dict) -> list[str]:
    """Every card the view shows, wherever it lies (the discard pile expanded from its counts)."""
    cards = [card for seat in view["seats"] for card in seat["row"]]
    cards += [card for card, copies in view.get("discard", {}).items() for _ in range(copies)]
    cards += list(view.get("queue", []))
    if view.get("active"):
        cards.append(view["active"])
    pending = view.get("pending") or {}
    revealed = view.get("revealed") or (pending.get("cards", []) if pending.get("kind") == "crossroads" else [])
    cards += list(revealed)
    if pending.get("card"):
        cards.append(pending["card"])
    return cards


def unseen_counts(view: dict) -> dict[str, int]:
    """The cards nobody can see, as counts: the draw pile's composition (codes with 0 left out)."""
    counts = dict(DECK)
    for card in visible_cards(view):
        counts[card] -= 1
    return {card: copies for card, copies in counts.items() if copies > 0}


def draw_pool(view: dict) -> dict[str, int]:
    """Where the next card comes from: the unseen cards, or the discard pile once the deck is empty.

    An empty deck is renewed by shuffling the discard pile, whose composition is public.
    """
    if view.get("deck_count", 1) == 0:
        return {card: copies for card, copies in view.get("discard", {}).items() if copies > 0}
    return unseen_counts(view)


def row_numbers(row: Iterable[str]) -> set[str]:
    """The number values in a row: the only cards a drawn card can duplicate (Ballast is unique)."""
    return {card for card in row if card in NUMBER_CODES}


def busting_share(row: list[str], pool: dict[str, int]) -> float:
    """Chance that one card from `pool` busts `row` (0 with a Second Chance held)."""
    total = sum(pool.values())
    if total == 0 or SECOND_CHANCE in row:
        return 0.0
    return sum(pool.get(card, 0) for card in row_numbers(row)) / total


def bust_chance(view: dict, seat: int) -> float:
    """Chance that the next card this seat takes busts it, from the visible cards only."""
    return busting_share(view["seats"][seat]["row"], draw_pool(view))


def crossroads_busts(view: dict, seat: int) -> list[bool]:
    """For an open Crossroads pick: whether each of the two revealed cards would bust the seat
    (a duplicate value, unless the seat holds a Second Chance to catch it)."""
    pending = view.get("pending") or {}
    cards = view.get("revealed") or pending.get("cards", [])
    row = view["seats"][seat]["row"]
    if SECOND_CHANCE in row:
        return [False for _ in cards]
    return [card in NUMBER_CODES and card in row for card in cards]
