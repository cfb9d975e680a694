"""Helpers the rulebook wording tests share."""

from __future__ import annotations


def all_text(content: object) -> str:
    """Every string of a content file (dicts and lists walked), joined by spaces."""
    if isinstance(content, dict):
        return " ".join(all_text(value) for value in content.values())
    if isinstance(content, list):
        return " ".join(all_text(value) for value in content)
    return str(content)
