"""A person's rating over time as a small SVG line drawn on the server (no script, no library):
the points of a polyline in a fixed view box, the highest and lowest rating beside it, and a
sentence that says the same for screen readers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple

from django.utils.formats import date_format
from django.utils.translation import ngettext

WIDTH, HEIGHT = 320, 96  # the view box; the chart scales to its column
LEFT, RIGHT, TOP, BOTTOM = 4, 40, 8, 8  # room for the labels of the highest and lowest rating


class Chart(NamedTuple):
    width: int
    height: int
    line: str  # the polyline's points, "x,y x,y ..."
    area: str  # the same closed along the bottom (the shade under the line)
    # Coordinates are strings with a decimal point whatever the language (a template would print a
    # float with the language's decimal comma, which SVG does not read).
    last: tuple[str, str]  # the latest rating's dot
    high: int
    low: int
    high_y: str
    low_y: str
    label_x: int
    start: str  # the first and last dates, in the active language
    end: str
    summary: str  # the chart in words


def rating_chart(history: list[tuple[datetime, int]], say: Callable[[list[int]], str] | None = None) -> Chart | None:
    """The chart of (when, rating) oldest first; None with fewer than two points. `say`: the
    sentence for screen readers from the values, for a chart of something else than a rating."""
    if len(history) < 2:
        return None
    values = [value for _when, value in history]
    high, low = max(values), min(values)
    span = max(high - low, 1)
    step = (WIDTH - LEFT - RIGHT) / (len(values) - 1)

    def y(value: int) -> float:
        return round(TOP + (high - value) / span * (HEIGHT - TOP - BOTTOM), 1)

    points = [(round(LEFT + i * step, 1), y(value)) for i, value in enumerate(values)]
    line = " ".join(f"{x},{y_}" for x, y_ in points)
    bottom = HEIGHT - BOTTOM
    area = f"{points[0][0]},{bottom} {line} {points[-1][0]},{bottom}"
    games = len(values) - 1
    summary = ngettext(
        "Rating over %(games)s rated game: from %(first)s to %(now)s (highest %(high)s, lowest %(low)s).",
        "Rating over %(games)s rated games: from %(first)s to %(now)s (highest %(high)s, lowest %(low)s).",
        games,
    )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        line=line,
        area=area,
        last=(str(points[-1][0]), str(points[-1][1])),
        high=high,
        low=low,
        high_y=str(y(high)),
        low_y=str(y(low)),
        label_x=WIDTH - RIGHT + 6,
        start=date_format(history[0][0], "SHORT_DATE_FORMAT"),
        end=date_format(history[-1][0], "SHORT_DATE_FORMAT"),
        summary=say(values)
        if say
        else summary % {"games": games, "first": values[0], "now": values[-1], "high": high, "low": low},
    )
