"""A turn-based table's clocks say the deciding seat's time left as the page's own count says it
between updates (static/sevn/js/clock_words.js): a started minute counts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from game.core import pace
from game.drawkit.clocks import clocks, clocks_context

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def _said(seconds_left: float) -> list[str]:
    """Each seat's words, the deciding seat (0) first, with `seconds_left` on its clock."""
    snapshot = {
        "table": {
            "code": "ABC123",
            "status": "playing",
            "pace": {"pace": pace.PER_MOVE, "move_seconds": 12 * 3600, "increment": 0, "most": 0, "window": None},
        },
        "game": {"deadline": (NOW + timedelta(seconds=seconds_left)).timestamp(), "acting": 0, "over": False},
        "seats": [
            {"index": index, "nickname": name, "bot_level": None, "bank": None, "away": False}
            for index, name in enumerate(("Ana", "Ben"))
        ],
    }
    piece = clocks(snapshot, 0, ["Ana", "Ben"], now=NOW)
    with translation.override("en"):
        return [str(row["said"]) for row in clocks_context(piece.data)["rows"]]


@pytest.mark.parametrize(
    ("left", "said"),
    [
        (12 * 3600 - 5, "12 hours left"),  # just started: as the page says it five seconds later
        (12 * 3600 - 60, "11 hours 59 minutes left"),
        (11 * 3600 + 1, "11 hours 1 minute left"),
        (59, "1 minute left"),  # not "Time is up" with most of a minute to go
        (1, "1 minute left"),
        (0, "Time is up"),
    ],
)
def test_the_deciding_seat_is_told_every_started_minute(left, said):
    deciding, waiting = _said(left)
    assert deciding == said
    assert waiting == "12 hours left"  # the other seat: its whole next move
