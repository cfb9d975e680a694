"""Words both games put together alike: a list of names joined as each language joins them
("A, B and C", "A, B und C", "A, B i C") and a table's seat count with its plural."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext, pgettext


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


def percent(share: float | None) -> str:
    """A share as a whole percentage in the language's way ("12%", "12 %"), or a dash for none."""
    if share is None:
        return "–"
    return gettext("%(n)s%%") % {"n": number_format(round(share * 100), 0)}


def decimal(value: float | None, places: int = 1) -> str:
    """A number with the language's decimal mark ("2.5", "2,5"), or a dash for none."""
    return "–" if value is None else number_format(round(value, places), places)
