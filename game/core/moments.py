"""A date and a time of day in running text, in the reader's language: Django's DATETIME_FORMAT
runs the two together ("5. Dezember 2026 15:57"), where each language joins them its own way
("5. Dezember 2026, 15:57 Uhr", "5 décembre 2026 à 15:57")."""

from __future__ import annotations

from datetime import datetime

from django.utils import formats, timezone
from django.utils.translation import pgettext


def date_and_time(moment: datetime) -> str:
    """`moment` in the site's time zone, as a sentence says it."""
    local = timezone.localtime(moment)
    return pgettext("a date, then a time of day, in a sentence", "%(date)s, %(time)s") % {
        "date": formats.date_format(local, "DATE_FORMAT"),
        "time": formats.time_format(local, "TIME_FORMAT"),
    }
