"""Words both games put together alike: a list of names joined as each language joins them
("A, B and C", "A, B und C", "A, B i C") and a table's seat count with its plural."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import ngettext, pgettext


def names_list(names: Iterable[str]) -> str:
    """The names as one phrase: commas between them, the language's "and" before the last."""
    names = [str(name) for name in names]
    if len(names) < 2:
        return "".join(names)
    between = pgettext("list of names: between two names but the last two", ", ")
    last = pgettext("list of names: between the last two names", " and ")
    return between.join(names[:-1]) + last + names[-1]


def seat_count(n: int) -> str:
    """'4 seats', with the plural form the language gives that number."""
    return ngettext("%(n)s seat", "%(n)s seats", n) % {"n": n}
