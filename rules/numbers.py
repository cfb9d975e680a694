"""The numbers the rulebook's prose refers to, all read from the engine, and the filter that
puts them into the text."""

from __future__ import annotations

import inspect
import re

from game.engine import DECK, scoring
from game.engine.cards import CROSSROADS_CARDS, PLUS, SEVN_DISTINCT, SEVN_POINTS, TARGET, TRIPLE_DRAW_CARDS, VALUE
from game.kinds import KINDS
from game.sevens import engine as sevens
from game.sevens.engine.cards import SUITS as SEVENS_SUITS
from game.sevens.engine.state import MAX_ROUNDS, MAX_SEATS, MIN_ROUNDS, MIN_SEATS

PLACEHOLDER = re.compile(r"\{([a-z0-9_]+)\}")


def _code_key(code: str) -> str:
    return code.replace("+", "plus").replace("-", "minus")


def numbers() -> dict[str, int]:
    values = {
        "target": TARGET,
        "deck_size": sum(DECK.values()),
        "distinct_values": len(VALUE),
        "sevn_points": SEVN_POINTS,
        "sevn_distinct": SEVN_DISTINCT,
        "triple_draw_cards": TRIPLE_DRAW_CARDS,
        "crossroads_cards": CROSSROADS_CARDS,
        "plus_cards": len(PLUS),
        "featherweight_points": scoring.FEATHERWEIGHT_POINTS,
        "featherweight_min_cards": scoring.FEATHERWEIGHT_MIN_CARDS,
        "featherweight_max_value": scoring.FEATHERWEIGHT_MAX_VALUE,
        "heavyweight_points": scoring.HEAVYWEIGHT_POINTS,
        "heavyweight_min_cards": scoring.HEAVYWEIGHT_MIN_CARDS,
        "heavyweight_min_value": scoring.HEAVYWEIGHT_MIN_VALUE,
        "ladder_min_run": scoring.LADDER_MIN_RUN,
        "ladder_points": scoring.LADDER_POINTS_PER_CARD,
    }
    values.update({f"copies_{_code_key(code)}": copies for code, copies in DECK.items()})
    values.update(_sevens())
    return values


def _sevens() -> dict[str, int]:
    deck = len(sevens.DECK)
    even = [seats for seats in range(MIN_SEATS, MAX_SEATS + 1) if deck % seats == 0]
    return {
        "sevens_deck_size": deck,
        "sevens_min_seats": MIN_SEATS,
        "sevens_max_seats": MAX_SEATS,
        "sevens_rounds": inspect.signature(sevens.new_game).parameters["rounds"].default,
        "sevens_min_rounds": MIN_ROUNDS,
        "sevens_max_rounds": MAX_ROUNDS,
        "sevens_max_bots": KINDS["sevens"].max_bots,
        "sevens_min_people": MAX_SEATS - KINDS["sevens"].max_bots,
        "sevens_max_fitting": 2 * len(SEVENS_SUITS),  # two open ends per row
        "sevens_even_seats": even[0],
        "sevens_even_hand": deck // even[0],
    }


def fill(text: str) -> str:
    """Replace {placeholders} with the engine's numbers; unknown ones stay as written."""
    known = numbers()
    return PLACEHOLDER.sub(lambda m: str(known[m.group(1)]) if m.group(1) in known else m.group(0), text or "")
