"""Words both games put together alike: a list of names joined as each language joins them
("A, B and C", "A, B und C", "A, B i C") and a table's seat count with its plural."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext, pgettext

from game.core import pace


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


def duration(seconds: float) -> str:
    """A clock's time in words, the two largest units that matter: "2 days 3 hours", "5 hours
    20 minutes", "12 minutes" (a started minute counts: "1 minute" until it is all gone)."""
    days, hours, minutes = pace.parts(seconds)
    day_words = ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
    hour_words = ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    minute_words = ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    if days:
        return f"{day_words} {hour_words}" if hours else day_words
    if hours:
        return f"{hour_words} {minute_words}" if minutes else hour_words
    return minute_words


def time_left(seconds: float | None) -> str:
    """What a turn-based clock has left, in words: "2 days 3 hours left"; "No time limit"."""
    if seconds is None:
        return gettext("No time limit")
    if seconds <= 0:
        return gettext("Time is up")
    return gettext("%(time)s left") % {"time": duration(seconds)}


def ordinal(place: int) -> str:
    """A finishing place as the language writes it: "1st", "1.", "1er", "1e" (the seats go up to 8)."""
    words = {
        1: pgettext("finishing place", "1st"),
        2: pgettext("finishing place", "2nd"),
        3: pgettext("finishing place", "3rd"),
        4: pgettext("finishing place", "4th"),
        5: pgettext("finishing place", "5th"),
        6: pgettext("finishing place", "6th"),
        7: pgettext("finishing place", "7th"),
        8: pgettext("finishing place", "8th"),
    }
    return words.get(place) or pgettext("finishing place past the 8th", "%(n)sth") % {"n": place}


def place_of(place: int, count: int) -> str:
    """Where someone finished among how many: "2nd of 4"."""
    return pgettext("finishing place among the players", "%(place)s of %(count)s") % {
        "place": ordinal(place),
        "count": count,
    }
