"""Helpers the rulebook wording tests share."""

from __future__ import annotations

from game.games.sevens.rulebook import RULEBOOK as SEVENS
from game.games.sevn.rulebook import RULEBOOK as SEVN


def read(language: str) -> dict:
    """SEVN's rulebook prose in one language, as its file in game/games/sevn/prose has it."""
    return SEVN.read(language)


def read_sevens(language: str) -> dict:
    """The Sevens page's prose in one language, as its file in game/games/sevens/prose has it."""
    return SEVENS.read(language)


def all_text(content: object) -> str:
    """Every string of a content file (dicts and lists walked), joined by spaces."""
    if isinstance(content, dict):
        return " ".join(all_text(value) for value in content.values())
    if isinstance(content, list):
        return " ".join(all_text(value) for value in content)
    return str(content)
