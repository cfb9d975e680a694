"""SEVN's rulebook as the engine computes it: the numbers its prose refers to, the self-playing
round, the scoring example, and the card rows the pages show (the prose is the rules app's)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import ngettext

from game.games.sevn.engine import DECK, apply, new_game, public_view, score_steps, scoring
from game.games.sevn.engine.cards import (
    ACTIONS,
    BALLAST,
    BALLASTS,
    BONUS,
    BONUSES,
    CROSSROADS_CARDS,
    KIND,
    MODIFIER,
    MODIFIERS,
    NUMBER,
    NUMBERS,
    PLUS,
    SEVN_DISTINCT,
    SEVN_POINTS,
    TARGET,
    TRIPLE_DRAW_CARDS,
    VALUE,
)
from game.games.sevn.faces import face
from game.games.sevn.panels import step_label

__all__ = ["face", "step_label"]  # the rules pages draw cards and scoring steps as the table does

# The round that plays itself: Dan deals; Ana draws a new value, Ben busts, Cleo passes,
# Dan draws, then Ana and Dan pass and the round is scored.
DEMO_NAMES = ("Dan", "Ana", "Ben", "Cleo")
DEMO_DECK = ["7", "3", "9", "5", "11", "3", "6", "1", "2", "4", "8"]
DEMO_STEPS: list[list[dict]] = [
    [],
    [{"kind": "draw"}],
    [{"kind": "draw"}],
    [{"kind": "pass"}],
    [{"kind": "draw"}],
    [{"kind": "pass"}, {"kind": "pass"}],
]

SCORING_ROW = ["3", "4", "5", "9", "12", "x2", "+4", "ladder", "heavyweight"]
DUPLICATE_ROW = ["3", "6", "9", "11"]
DUPLICATE_CARD = "9"
HIGH_CARDS = ["13", "12", "7", "3", "1"]
SEVN_ROW = ["0", "2", "4", "5", "8", "10", "13"]
SAMPLE_ROW = ["4", "8"]
SAMPLE_DRAW = "11"


def _frame(view: dict, step: int, moved: set[int]) -> dict:
    last = view["last_round"]
    scored = last is not None
    seats = []
    for index, name in enumerate(DEMO_NAMES):
        if scored:
            row, status, score = last["rows"][index], last["statuses"][index], last["scores"][index]
        else:
            seat = view["seats"][index]
            row, status, score = seat["row"], seat["status"], seat["round_score"]
        seats.append(
            {
                "name": name,
                "row": row,
                "status": status,
                "score": score,
                "dealer": index == 0,
                "turn": not scored and index == view["current"] and step > 1,
                "moved": index in moved,
                "distinct": sum(1 for code in row if code in VALUE),
            }
        )
    return {"number": step, "seats": seats, "scored": scored}


def demo_frames() -> list[dict]:
    """Six pictures of one real round, each after the moves of its step."""
    state = new_game(len(DEMO_NAMES), seed=0, deck=DEMO_DECK)
    frames = [_frame(public_view(state), 1, set(range(len(DEMO_NAMES))))]
    for number, actions in enumerate(DEMO_STEPS[1:], start=2):
        moved = set()
        for action in actions:
            moved.add(state["pending"]["seat"])
            apply(state, action)
        frames.append(_frame(public_view(state), number, moved))
    return frames


def scoring_example() -> dict:
    return {"row": SCORING_ROW, "steps": score_steps(SCORING_ROW)}


def deck_groups() -> list[dict]:
    """The deck's composition by group, counted from DECK."""
    groups = [
        ("numbers", NUMBERS),
        ("ballast", BALLASTS),
        ("modifiers", MODIFIERS),
        ("bonus", BONUSES),
        ("actions", ACTIONS),
    ]
    return [
        {"key": key, "cards": [(code, DECK[code]) for code in codes], "count": sum(DECK[code] for code in codes)}
        for key, codes in groups
    ]


def _code_key(code: str) -> str:
    return code.replace("+", "plus").replace("-", "minus")


def numbers() -> dict[str, int]:
    """The numbers SEVN's rulebook prose refers to by {placeholder}, all read from the engine."""
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
    return values


def card_rules(blurbs: dict[str, str], sections: dict[str, str], fill: Callable[[str], str]) -> list[tuple[dict, str]]:
    """Each kind of card with its rule, in the active language, from the rulebook's texts (the
    full rules' blurbs and its Ballast and modifier sections, by key) with `fill` putting the
    numbers in (the rules app reads the texts: rules.cards)."""
    rules = []
    for code, copies in DECK.items():
        kind = KIND[code]
        if kind == NUMBER:
            text = ngettext(
                "%(n)s copy in the deck. Drawing a value you already hold busts you.",
                "%(n)s copies in the deck. Drawing a value you already hold busts you.",
                copies,
            ) % {"n": copies}
        elif kind == BALLAST:
            text = sections.get("full.ballast", "")
        elif kind == MODIFIER:
            text = sections.get("full.modifiers", "")
        else:
            text = blurbs.get(f"full.{'bonus' if kind == BONUS else 'actions'}.{code}", "")
        rules.append((face(code), fill(text)))
    return rules
