"""The numbers the rulebook's prose refers to, each read from its game (a Kind's
`rulebook_numbers`, from its engine), and the filter that puts them into the text.

A placeholder is `{name}`, or `{name|form|form…}` when a word must agree with the number: the
forms are listed in the order of the language's own plural forms (its django.po's Plural-Forms,
as for msgstr[0], msgstr[1]…), and the number is written followed by the form it takes. So the
Polish prose writes `{sevens_rounds|runda|rundy|rund}`: "1 runda", "3 rundy", "5 rund"."""

from __future__ import annotations

import gettext
import re
from functools import cache

from django.conf import settings
from django.utils.translation import get_language

from game import registry

PLACEHOLDER = re.compile(r"\{([a-z0-9_]+)((?:\|[^{}|]+)*)\}")


def numbers() -> dict[str, int]:
    values: dict[str, int] = {}
    for kind in registry.KINDS.values():
        values.update(kind.rulebook_numbers())
    return values


@cache
def _plural(language: str):
    """The plural rule of the site's catalogue for this language (n → index of its form)."""
    catalogue = gettext.translation(
        "django", localedir=str(settings.LOCALE_PATHS[0]), languages=[language], fallback=True
    )
    return getattr(catalogue, "plural", lambda n: int(n != 1))


def _written(value: int, forms: str) -> str:
    if not forms:
        return str(value)
    choices = forms[1:].split("|")
    index = _plural((get_language() or settings.LANGUAGE_CODE).split("-")[0])(value)
    return f"{value}\N{NO-BREAK SPACE}{choices[min(index, len(choices) - 1)]}"


def fill(text: str, values: dict[str, int] | None = None) -> str:
    """Replace {placeholders} with the engines' numbers (or these values); unknown ones stay as
    written."""
    known = numbers() if values is None else values
    return PLACEHOLDER.sub(
        lambda m: _written(known[m.group(1)], m.group(2)) if m.group(1) in known else m.group(0), text or ""
    )
