"""SEVN's rulebook: its two pages (SEVN in one minute, the full rules), each drawn by its
template in templates/sevn/ from its prose (the JSON files in prose/, which the rules app loads
into its rows) and what the engine computes: the numbers the prose refers to, the self-playing
round, the scoring example, and the card rows the pages show."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from game.core.rulebook import Page, Prose, Rulebook
from game.games.sevn import analysis
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
    values.update({f"sevn_{grade}": round(loss) for grade, loss in analysis.GRADES})  # what a mistake is
    return values


def card_rules(prose: Prose, fill: Callable[[str], str]) -> list[tuple[dict, str]]:
    """Each kind of card with its rule, in the active language, from the rulebook's texts (the
    full rules' blurbs and its Ballast and modifier sections) with `fill` putting the numbers in:
    what tapping a card on a SEVN table shows."""
    blurbs = prose.blurbs("full.")
    rules = []
    for code, copies in DECK.items():
        kind = KIND[code]
        if kind == NUMBER:
            text = ngettext(
                "%(n)s copy in the deck. Drawing a value you already hold busts you.",
                "%(n)s copies in the deck. Drawing a value you already hold busts you.",
                copies,
            ) % {"n": copies}
        elif kind in (BALLAST, MODIFIER):
            section = prose.section("full.ballast" if kind == BALLAST else "full.modifiers")
            text = section.body if section is not None else ""
        else:
            text = blurbs.get(f"{'bonus' if kind == BONUS else 'actions'}.{code}", "")
        rules.append((face(code), fill(text)))
    return rules


def _card_rules(prose: Prose, prefix: str, codes) -> list[tuple[dict, str]]:
    """Each card with its one-line rule (the blurb `<prefix><code>`)."""
    texts = prose.blurbs(prefix)
    return [(face(code), texts.get(code, "")) for code in codes]


def _cards(codes: list[str]) -> list[dict]:
    return [face(code) for code in codes]


def tutorial(prose: Prose) -> dict:
    """SEVN in one minute: the round that plays itself, and the cards to know first."""
    frames = demo_frames()
    captions = prose.demo_captions()
    for frame in frames:
        frame["caption"] = captions.get(frame["number"], "")
        for seat in frame["seats"]:
            seat["cards"] = [
                {"face": face(code), "busting": seat["status"] == "bust" and i == len(seat["row"]) - 1}
                for i, code in enumerate(seat["row"])
            ]
    glossary = prose.section("full.glossary")
    return {
        "s": prose.sections("tutorial"),
        "blurbs": prose.blurbs("tutorial."),
        "frames": frames,
        "sample_row": _cards(SAMPLE_ROW),
        "sample_draw": face(SAMPLE_DRAW),
        "duplicate_row": _cards(DUPLICATE_ROW),
        "duplicate_card": face(DUPLICATE_CARD),
        "high_cards": [{"face": face(code), "copies": DECK[code]} for code in HIGH_CARDS],
        "sevn_row": _cards(SEVN_ROW),
        "specials": _card_rules(prose, "tutorial.special.", ("second_chance", "triple_draw", "freeze")),
        "other_cards": _cards(["-4", "x2", "+6", "crossroads", "storm", "featherweight", "heavyweight", "ladder"]),
        "glossary": prose.glossary(),
        "glossary_heading": getattr(glossary, "heading", ""),
    }


def full(prose: Prose) -> dict:
    """The full rules: the deck by group, every card's rule, scoring worked through, edge cases."""
    example = scoring_example()
    steps = [{"label": step_label(step["step"]), **step} for step in example["steps"]]
    groups = deck_groups()
    return {
        "s": prose.sections("full"),
        "blurbs": prose.blurbs("full."),
        "numbers": [{"face": face(code), "copies": copies} for code, copies in groups[0]["cards"]],
        "groups": groups,
        "deck_total": sum(DECK.values()),
        "ballast": _cards([code for code, _ in groups[1]["cards"]]),
        "modifiers": _cards([code for code, _ in groups[2]["cards"]]),
        "bonus": _card_rules(prose, "full.bonus.", [code for code, _ in groups[3]["cards"]]),
        "actions": _card_rules(
            prose, "full.actions.", ("freeze", "second_chance", "triple_draw", "crossroads", "storm")
        ),
        "example_row": _cards(example["row"]),
        "example_steps": steps,
        "edge_cases": prose.edge_cases(),
        "glossary": prose.glossary(),
    }


RULEBOOK = Rulebook(
    pages=(
        Page("tutorial", _("SEVN in one minute"), "sevn/rules_tutorial.html", tutorial),
        Page("full", _("The full rules"), "sevn/rules_full.html", full, complete=True),
    ),
    prose=Path(__file__).resolve().parent / "prose",
    home="sevn/_rules_home.html",
    card_rules=card_rules,
    # 2: the native readers' corrections of 2026-12-05 (the German glossary's "round" too);
    # 3: the German reader's second pass; 4: the Dutch reader's second pass;
    # 5: the Polish reader's (its words agree with the numbers)
    # 6: the hard bot's analysis after a game, and what its grades mean (full.analysis)
    # 7: the Dutch reader's second pass; 8: the Polish reader's second pass (the analysis)
    # 9: the French reader's second round (the analysis prose)
    version=15,
)
