"""A table's pace (live, or turn-based: a time per move, a time bank, no limit) and its playing
window: the clock arithmetic, pure Python (no database, no Django models).

A turn-based clock runs only inside the table's daily playing window (e.g. 09:00-21:00 in the
host's time zone; a window may cross midnight, 21:00-09:00), and stops outside it. Every
question the services ask is one of two: how much clock time passed between two moments
(`clock_seconds`), and at which moment a given amount of clock time will have passed
(`clock_deadline`). Both walk the window's openings day by day in the zone itself, so a day
of 23 or 25 hours (a change of daylight saving time) counts its real length.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

LIVE = "live"
PER_MOVE = "move"
BANK = "bank"
UNLIMITED = "none"
PACES = (LIVE, PER_MOVE, BANK, UNLIMITED)

HOUR = 3600
DAY = 24 * HOUR


class Preset(NamedTuple):
    """One pace the start page offers: its kind and its clock, in seconds."""

    pace: str
    seconds: int = 0  # a move's time (PER_MOVE), or the bank to start with (BANK)
    increment: int = 0  # BANK: added after each move
    most: int = 0  # BANK: the bank never holds more


# The presets the form offers, by the key it posts.
PRESETS = {
    "live": Preset(LIVE),
    "move-12h": Preset(PER_MOVE, 12 * HOUR),
    "move-24h": Preset(PER_MOVE, DAY),
    "move-3d": Preset(PER_MOVE, 3 * DAY),
    "bank-3d": Preset(BANK, 3 * DAY, 12 * HOUR, 5 * DAY),
    "none": Preset(UNLIMITED),
}


def preset_key(pace: str, seconds: int, increment: int, most: int) -> str | None:
    """The key of the preset a table's columns match (None if none does)."""
    found = Preset(pace, seconds if pace in (PER_MOVE, BANK) else 0, increment, most)
    return next((key for key, preset in PRESETS.items() if preset == found), None)


class Window(NamedTuple):
    """The daily hours the clocks run, in a time zone. start == end never happens (checked)."""

    start: time
    end: time
    zone: str

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    @property
    def crosses_midnight(self) -> bool:
        return self.end <= self.start


def valid_zone(name: str) -> bool:
    if not name or name not in _zones():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


_ZONES: list[frozenset] = []


def _zones() -> frozenset:
    if not _ZONES:
        _ZONES.append(frozenset(available_timezones()))
    return _ZONES[0]


def zone_names() -> list[str]:
    return sorted(_zones())


def _local(day: date, at: time, tz: ZoneInfo) -> datetime:
    """A wall-clock time on a day in the zone, as UTC. A time a spring change skips (02:30 on
    the night clocks go from 02:00 to 03:00) is read with the offset before the change (03:30 of
    the new time); a time an autumn change repeats is its first occurrence."""
    return datetime.combine(day, at, tzinfo=tz).astimezone(UTC)


def _utc(moment: datetime) -> datetime:
    """Every moment in UTC before any arithmetic: Python adds and compares two times of one zone
    by their wall clocks, which a change of daylight saving time makes wrong by an hour."""
    return moment.astimezone(UTC)


def openings(window: Window, since: datetime):
    """The window's openings (UTC start, UTC end), in order, from the one that holds or follows
    `since` on (an endless generator)."""
    since = _utc(since)
    tz = window.tz
    day = since.astimezone(tz).date() - timedelta(days=1)  # yesterday's may still be open (past midnight)
    while True:
        opens = _local(day, window.start, tz)
        closes = _local(day + timedelta(days=1) if window.crosses_midnight else day, window.end, tz)
        if closes > since and closes > opens:
            yield max(opens, since), closes
        day += timedelta(days=1)


def is_open(window: Window | None, at: datetime) -> bool:
    if window is None:
        return True
    opens, _closes = next(openings(window, at))
    return opens <= _utc(at)


def next_change(window: Window | None, at: datetime) -> datetime | None:
    """When the clock next starts (if stopped at `at`) or stops (if running); None: never."""
    if window is None:
        return None
    opens, closes = next(openings(window, at))
    return closes if opens <= _utc(at) else opens


def clock_seconds(window: Window | None, start: datetime, end: datetime) -> float:
    """Clock time between two moments: all of it without a window, else the part inside it."""
    start, end = _utc(start), _utc(end)
    if end <= start:
        return 0.0
    if window is None:
        return (end - start).total_seconds()
    total = 0.0
    for opens, closes in openings(window, start):
        if opens >= end:
            break
        total += (min(closes, end) - opens).total_seconds()
    return total


def clock_deadline(window: Window | None, start: datetime, seconds: float) -> datetime:
    """The moment `seconds` of clock time after `start` (the clock stopped outside the window)."""
    start = _utc(start)
    if window is None:
        return start + timedelta(seconds=seconds)
    left = max(0.0, seconds)
    for opens, closes in openings(window, start):
        span = (closes - opens).total_seconds()
        if left <= span:
            return opens + timedelta(seconds=left)
        left -= span
    raise AssertionError("unreachable: openings never end")


def bank_after_move(bank: float, used: float, increment: int, most: int) -> int:
    """A time bank after a move that took `used` seconds of clock time: what was left, plus the
    increment, never more than `most`."""
    return int(min(most, max(0.0, bank - used) + increment))


def bank_after_miss(increment: int, most: int) -> int:
    """A bank that ran out (the bot played that turn): the next turn starts with one increment."""
    return int(min(most, increment))


def parts(seconds: float) -> tuple[int, int, int]:
    """Whole days, hours and minutes of a duration (rounded up to the minute: "1 minute left"
    until it is all gone)."""
    minutes = int(-(-max(0.0, seconds) // 60))
    return minutes // (24 * 60), minutes // 60 % 24, minutes % 60
