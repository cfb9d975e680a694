"""A game's rulebook as the rules app serves it: its pages (each a template in the game's own
templates folder and a function that gives it its pictures and texts), its prose in every
language (JSON files in the game's folder, loaded into the rules app's rows, which staff may
edit in admin), and what the start page says of it. A Kind names its own (`Kind.rulebook`); the
rules app serves every registered game's pages, at addresses made from the game's name."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, Protocol


class Prose(Protocol):
    """The rulebook's rows in the active language, as the rules app gives them to a page."""

    def sections(self, page: str) -> dict[str, Any]:
        """A page's sections by their key's second part ("tutorial.goal" -> "goal"): each has a
        heading, title, body and caption."""

    def section(self, key: str) -> Any | None:
        """One section by its whole key, or None."""

    def blurbs(self, prefix: str) -> dict[str, str]:
        """The short texts whose keys start with `prefix`, by the rest of their key."""

    def demo_captions(self) -> dict[int, str]:
        """The self-playing round's captions, by step."""

    def edge_cases(self) -> Any:
        """The edge cases, each a question and an answer, in order."""

    def glossary(self) -> Any:
        """The glossary's entries, each a term and its definition, in order."""


class Page(NamedTuple):
    # Its sections' page (the first part of their keys in the prose files) and its address's
    # last part: a game's first page is at /rules/<game>/, the others at /rules/<game>/<key>/
    # (the site's first game's also at /rules/ and /rules/<key>/).
    key: str
    title: Any  # its name in the rulebook's menu (translated lazily)
    template: str  # the page's template, in the game's templates folder
    context: Callable[[Prose], dict]  # its pictures and texts
    complete: bool = False  # the game's complete rules (the site's "Rules" link goes to the first game's)


class Rulebook(NamedTuple):
    pages: tuple[Page, ...]
    prose: Path  # a folder of <language>.json files: sections, blurbs (and demo steps, edge cases, glossary)
    # The prose files' version: raise it when they change, and the site loads the game's rows from
    # them again (replacing staff's edits of them, as a data migration did).
    version: int = 1
    home: str = ""  # the start page's lines about this rulebook: a partial in the game's templates
    # What tapping a card at its table shows: each card's face and rule, from the prose and a
    # function that puts the engine's numbers into a text (rules.numbers.fill).
    card_rules: Callable[[Prose, Callable[[str], str]], list[tuple[dict, str]]] | None = None

    def read(self, language: str) -> dict:
        """The prose in one language, as its file has it."""
        return json.loads((self.prose / f"{language}.json").read_text(encoding="utf-8"))
