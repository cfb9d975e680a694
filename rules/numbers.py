"""The numbers the rulebook's prose refers to, each read from its game (a Kind's
`rulebook_numbers`, from its engine), and the filter that puts them into the text."""

from __future__ import annotations

import re

from game import registry

PLACEHOLDER = re.compile(r"\{([a-z0-9_]+)\}")


def numbers() -> dict[str, int]:
    values: dict[str, int] = {}
    for kind in registry.KINDS.values():
        values.update(kind.rulebook_numbers())
    return values


def fill(text: str) -> str:
    """Replace {placeholders} with the engines' numbers; unknown ones stay as written."""
    known = numbers()
    return PLACEHOLDER.sub(lambda m: str(known[m.group(1)]) if m.group(1) in known else m.group(0), text or "")
