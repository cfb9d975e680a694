"""The clock arithmetic of turn-based tables (game.core.pace): the playing window, across
midnight and across a change of daylight saving time, in the host's time zone."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from game.core import pace

BERLIN = ZoneInfo("Europe/Berlin")
DAYTIME = pace.Window(time(9), time(21), "Europe/Berlin")
NIGHT = pace.Window(time(21), time(9), "Europe/Berlin")  # crosses midnight


def berlin(*args) -> datetime:
    return datetime(*args, tzinfo=BERLIN)


def test_no_window_counts_every_second():
    start = datetime(2026, 3, 1, 12, tzinfo=UTC)
    assert pace.clock_deadline(None, start, 3600) == start + timedelta(hours=1)
    assert pace.clock_seconds(None, start, start + timedelta(days=2)) == 2 * 86400


def test_a_day_window_stops_the_clock_overnight():
    start = berlin(2026, 1, 12, 20)  # one hour of the window left today
    # three hours of clock: one tonight, two tomorrow from nine
    assert pace.clock_deadline(DAYTIME, start, 3 * 3600) == berlin(2026, 1, 13, 11)
    assert pace.clock_seconds(DAYTIME, start, berlin(2026, 1, 13, 11)) == 3 * 3600
    # outside the window nothing runs
    assert pace.clock_seconds(DAYTIME, berlin(2026, 1, 12, 22), berlin(2026, 1, 13, 8, 59)) == 0
    assert not pace.is_open(DAYTIME, berlin(2026, 1, 12, 22))
    assert pace.is_open(DAYTIME, berlin(2026, 1, 13, 9))
    assert pace.next_change(DAYTIME, berlin(2026, 1, 12, 22)) == berlin(2026, 1, 13, 9)
    assert pace.next_change(DAYTIME, berlin(2026, 1, 13, 10)) == berlin(2026, 1, 13, 21)


def test_a_window_across_midnight():
    start = berlin(2026, 1, 12, 23)  # inside 21:00-09:00, ten hours of it left tonight
    assert pace.is_open(NIGHT, start)
    assert pace.is_open(NIGHT, berlin(2026, 1, 13, 8, 30))
    assert not pace.is_open(NIGHT, berlin(2026, 1, 13, 12))
    assert pace.clock_deadline(NIGHT, start, 10 * 3600) == berlin(2026, 1, 13, 9)
    # eleven hours: ten tonight, then the clock waits until 21:00 and runs one more
    assert pace.clock_deadline(NIGHT, start, 11 * 3600) == berlin(2026, 1, 13, 22)
    # a whole 24-hour move takes two whole nights of twelve hours
    assert pace.clock_deadline(NIGHT, berlin(2026, 1, 12, 21), 24 * 3600) == berlin(2026, 1, 14, 9)


def test_spring_forward_night_is_an_hour_shorter():
    # Europe/Berlin goes from 02:00 to 03:00 on 29 March 2026: the night window 21:00-09:00
    # that starts on the 28th is 11 hours long, not 12
    night = pace.clock_seconds(NIGHT, berlin(2026, 3, 28, 12), berlin(2026, 3, 29, 12))
    assert night == 11 * 3600
    assert pace.clock_deadline(NIGHT, berlin(2026, 3, 28, 21), 11 * 3600) == berlin(2026, 3, 29, 9)
    # and the day window after it is the usual twelve hours
    assert pace.clock_seconds(DAYTIME, berlin(2026, 3, 29, 0), berlin(2026, 3, 30, 0)) == 12 * 3600


def test_fall_back_night_is_an_hour_longer():
    # 25 October 2026: 03:00 goes back to 02:00, the night 21:00-09:00 holds 13 hours
    assert pace.clock_seconds(NIGHT, berlin(2026, 10, 24, 12), berlin(2026, 10, 25, 12)) == 13 * 3600
    # with no window, a 24-hour move across the change ends 24 real hours later (23:00 local)
    start = berlin(2026, 10, 24, 23)
    assert pace.clock_deadline(None, start, 86400) == start.astimezone(UTC) + timedelta(hours=24)
    assert pace.clock_deadline(None, start, 86400).astimezone(BERLIN).hour == 22


def test_the_window_follows_the_host_zone_not_utc():
    tokyo = pace.Window(time(9), time(21), "Asia/Tokyo")
    # 09:00 in Tokyo is 00:00 UTC
    assert pace.is_open(tokyo, datetime(2026, 6, 1, 0, 30, tzinfo=UTC))
    assert not pace.is_open(tokyo, datetime(2026, 6, 1, 12, 30, tzinfo=UTC))


def test_bank_arithmetic():
    three_days, half_day, five_days = 3 * 86400, 12 * 3600, 5 * 86400
    assert pace.bank_after_move(three_days, 3600, half_day, five_days) == three_days - 3600 + half_day
    assert pace.bank_after_move(five_days, 60, half_day, five_days) == five_days  # never more than the most
    assert pace.bank_after_miss(half_day, five_days) == half_day
    assert pace.parts(2 * 86400 + 3 * 3600 + 1) == (2, 3, 1)  # a started minute counts
    assert pace.preset_key("bank", three_days, half_day, five_days) == "bank-3d"
