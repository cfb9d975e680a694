"""The Sevens rulebook: its one page (how to play Sevens), drawn by templates/sevens/rules.html
from its prose (the JSON files in prose/, which the rules app loads into its rows) and its
worked example, judged by the engine: "what fits this layout".

Whether a card fits is the engine's `playable`; the reason is read off the same layout (which end
of its row it joins, or which card it waits for), so every verdict on the page is the rule the
table plays by, in the viewer's language.
"""

from __future__ import annotations

import inspect
from pathlib import Path

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from game.core.rulebook import Page, Prose, Rulebook
from game.games.sevens import analysis, engine
from game.games.sevens.engine import playable
from game.games.sevens.engine.cards import SUITS
from game.games.sevens.engine.state import MAX_ROUNDS, MAX_SEATS, MIN_ROUNDS, MIN_SEATS
from game.games.sevens.faces import face
from game.games.sevens.panels import layout_rows, reason

Layout = dict[str, "list[str] | None"]

# The seed's layout: diamonds run 6♦–8♦ and 7♠ lies alone; the hand, in the seed's order.
EXAMPLE_LAYOUT: Layout = {"S": ["7", "7"], "H": None, "D": ["6", "8"], "C": None}
EXAMPLE_HAND = ["5D", "9D", "8S", "6C", "KH"]

# The seed's table of cases: a card and the layout it meets (the 7♦ is always out).
CASES: list[tuple[str, Layout]] = [
    ("7C", {"S": None, "H": None, "D": ["7", "7"], "C": None}),
    ("6D", {"S": None, "H": None, "D": ["7", "7"], "C": None}),
    ("AS", {"S": ["2", "9"], "H": None, "D": ["5", "9"], "C": None}),
    ("9H", {"S": None, "H": ["6", "7"], "D": ["7", "8"], "C": None}),
]
# The last case: a hand with nothing that fits, so its owner passes.
PASS_HAND = ["2C", "KH", "JS"]
PASS_LAYOUT: Layout = {"S": ["7", "9"], "H": ["6", "8"], "D": ["5", "10"], "C": None}


def verdicts(hand: list[str], layout: Layout) -> list[dict]:
    """Each card of `hand` with the engine's verdict on `layout` and the reason for it."""
    fitting = set(playable(hand, layout))
    return [
        {"face": face(card), "code": card, "fits": card in fitting, "reason": reason(card, layout, card in fitting)}
        for card in hand
    ]


def example() -> dict:
    judged = verdicts(EXAMPLE_HAND, EXAMPLE_LAYOUT)
    return {
        "layout": layout_rows(EXAMPLE_LAYOUT),
        "hand": judged,
        "summary": _summary(sum(verdict["fits"] for verdict in judged), len(judged)),
    }


def _summary(count: int, total: int) -> str:
    """What the verdicts add up to: play one of the cards that fit, or pass."""
    if not count:
        return gettext("None of your cards fits: you pass.")
    return ngettext(
        "%(count)s of your %(total)s cards fits: you must play it; you may not pass.",
        "%(count)s of your %(total)s cards fit: you must play one of them (you choose which); you may not pass.",
        count,
    ) % {"count": count, "total": total}


def cases() -> list[dict]:
    """The table of cases below the example, each judged by the engine."""
    judged = [{"key": card, **verdicts([card], layout)[0]} for card, layout in CASES]
    nothing = not playable(PASS_HAND, PASS_LAYOUT)
    judged.append(
        {
            "key": "none",
            "face": None,
            "code": None,
            "fits": not nothing,
            "reason": gettext("You pass. With a card that fits you must play.") if nothing else "",
        }
    )
    return judged


def numbers(max_bots: int) -> dict[str, int]:
    """The numbers the Sevens page's prose refers to by {placeholder}, read from the engine and
    the table's rule of at most `max_bots` bots."""
    deck = len(engine.DECK)
    even = [seats for seats in range(MIN_SEATS, MAX_SEATS + 1) if deck % seats == 0]
    return {
        "sevens_deck_size": deck,
        "sevens_min_seats": MIN_SEATS,
        "sevens_max_seats": MAX_SEATS,
        "sevens_rounds": inspect.signature(engine.new_game).parameters["rounds"].default,
        "sevens_min_rounds": MIN_ROUNDS,
        "sevens_max_rounds": MAX_ROUNDS,
        "sevens_max_bots": max_bots,
        "sevens_min_people": MAX_SEATS - max_bots,
        "sevens_max_fitting": 2 * len(SUITS),  # two open ends per row
        **{f"sevens_{grade}": round(loss) for grade, loss in analysis.GRADES},  # what a mistake is
        "sevens_even_seats": even[0],
        "sevens_even_hand": deck // even[0],
    }


def page(prose: Prose) -> dict:
    """The Sevens page: its prose, and the worked example and cases judged by the engine."""
    sections = prose.sections("sevens")
    blurbs = prose.blurbs("sevens.")
    return {
        "s": sections,
        "blurbs": blurbs,
        "example": example(),
        "cases": [{**case, "text": blurbs.get(f"case.{case['key']}", "")} for case in cases()],
        "guide": [
            sections[key] for key in ("guide_table", "guide_rows", "guide_passing", "guide_scoring") if key in sections
        ],
        "faq": [section for key, section in sections.items() if key.startswith("faq.")],
    }


RULEBOOK = Rulebook(
    pages=(Page("sevens", _("How to play Sevens"), "sevens/rules.html", page, complete=True),),
    prose=Path(__file__).resolve().parent / "prose",
    home="sevens/_rules_home.html",
    # 2: the native readers' corrections of 2026-12-05 (the German glossary's "round" too);
    # 3: the German reader's second pass; 4: the Dutch reader's second pass;
    # 5: the Polish reader's (its words agree with the numbers)
    # 6: the hard bot's analysis after a game, and what its grades mean (sevens.analysis)
    # 7: the Dutch reader's second pass; 8: the Polish reader's second pass (the analysis)
    # 9: the French reader's second round (the analysis prose)
    # 10: the exact endgame (sevens.analysis), as the four readers corrected it
    version=16,
)
