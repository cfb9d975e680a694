"""High card's rulebook: one page, its prose in prose/<language>.json, drawn by
templates/high/rules.html with the number of hands a table plays unless it chooses otherwise."""

from __future__ import annotations

from pathlib import Path

from game.core.rulebook import Page, Prose, Rulebook


def page(prose: Prose) -> dict:
    return {"s": prose.sections("high"), "blurbs": prose.blurbs("high.")}


RULEBOOK = Rulebook(
    pages=(Page("high", "How to play high card", "high/rules.html", page, complete=True),),
    prose=Path(__file__).resolve().parent / "prose",
    home="high/_rules_home.html",
)
