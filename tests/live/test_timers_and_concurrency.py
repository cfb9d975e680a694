"""Deadlines fire with nobody connected, exactly once; simultaneous moves apply once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection

from game import services
from game.core.errors import ServiceError
from game.live import timers
from game.models import Event
from tests.factories import deciding, game_of, open_table, state_of
from tests.waiting import until_async


def run_together(*calls) -> list:
    """Start every call at the same moment in its own thread (own database connection)."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        try:
            results[i] = call()
        except ServiceError as error:
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_moves_exactly_one_applies():
    table, players = open_table(deck=["5", "9", "4", "1", "2", "3"])
    player = deciding(table, players)
    results = run_together(
        lambda: services.game_act(code=table.code, player=player, action={"kind": "draw"}, version=1),
        lambda: services.game_act(code=table.code, player=player, action={"kind": "pass"}, version=1),
    )
    applied = [r for r in results if isinstance(r, dict)]
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(applied) == 1 and len(refused) == 1 and refused[0].code == "stale"
    assert game_of(table).version == 2
    assert Event.objects.filter(kind="action").count() == 1


@pytest.mark.django_db
def test_turn_timer_fires_with_nobody_connected():
    table, players = open_table(turn_seconds=15, deck=["5", "9", "4", "1"])
    game = game_of(table)
    assert game.deadline is not None
    seat = state_of(table)["pending"]["seat"]
    assert timers.fire_due(now=game.deadline - timedelta(seconds=1)) == []
    messages = timers.fire_due(now=game.deadline + timedelta(milliseconds=10))
    assert len(messages) == 1
    assert messages[0]["events"][0]["type"] == "timeout"
    assert state_of(table)["seats"][seat]["status"] == "passed"


@pytest.mark.django_db
def test_a_deadline_fires_once_even_when_checked_again():
    table, _ = open_table(turn_seconds=15)
    due = game_of(table).deadline + timedelta(milliseconds=10)
    assert len(timers.fire_due(now=due)) == 1
    assert timers.fire_due(now=due) == []
    assert Event.objects.filter(kind="timeout").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_deadline_fires_exactly_once_across_processes():
    """Several server processes poll the same database; the table lock lets only one apply."""
    table, _ = open_table(turn_seconds=15)
    game = game_of(table)
    due = game.deadline + timedelta(milliseconds=10)
    results = run_together(*[lambda: services.game_expire(game_id=game.id, now=due)] * 4)
    assert sum(1 for r in results if r) == 1
    assert Event.objects.filter(kind="timeout").count() == 1
    assert game_of(table).version == 2


@pytest.mark.django_db
def test_no_timer_when_the_table_has_none():
    table, _ = open_table(turn_seconds=0)
    assert game_of(table).deadline is None


@pytest.mark.django_db
def test_three_timeouts_in_a_row_hand_the_seat_to_a_bot_until_the_player_acts():
    table, players = open_table(names=("Ana", "Ben"), turn_seconds=15)
    away_seat = None
    for _ in range(12):
        game = game_of(table)
        if game.over or game.deadline is None:
            break
        messages = timers.fire_due(now=game.deadline + timedelta(milliseconds=1), check_absent=False)
        if any(e["type"] == "away" for m in messages for e in m["events"]):
            away_seat = next(e["seat"] for m in messages for e in m["events"] if e["type"] == "away")
            break
    assert away_seat is not None
    seat = table.seats.get(index=away_seat)
    assert seat.away and seat.timeouts_in_row == 3


async def test_who_left_is_checked_by_the_clock_however_slow_each_poll_is(monkeypatch):
    """A busy process's polls take far longer than POLL_SECONDS; the absence check must still come
    every ABSENCE_CHECK_SECONDS of real time (counting polls made "away after a minute" late)."""
    import asyncio

    clock = {"now": 1000.0}
    checks: list[float] = []

    def slow_poll(now, check_absent):
        clock["now"] += 1.5  # each poll takes 1.5 s of the clock
        if check_absent:
            checks.append(clock["now"])
        if clock["now"] > 1030:
            raise asyncio.CancelledError
        return []

    monkeypatch.setattr(timers.time, "monotonic", lambda: clock["now"])
    monkeypatch.setattr(timers, "fire_due", slow_poll)
    monkeypatch.setattr(timers.watch, "call", _in_the_loop)
    monkeypatch.setattr(timers, "POLL_SECONDS", 0)
    monkeypatch.setattr(timers, "IDLE_SECONDS", 0)

    async def alone() -> bool:  # the only process: every sweep is its own (see test_absence_sweep)
        return True

    monkeypatch.setattr(timers, "sweep_is_mine", alone)
    with pytest.raises(asyncio.CancelledError):
        await timers.run_forever()
    gaps = [later - earlier for earlier, later in zip(checks, checks[1:], strict=False)]
    assert len(checks) >= 9 and max(gaps) <= timers.ABSENCE_CHECK_SECONDS + 1.5, checks


async def _in_the_loop(function, *args):
    """watch.call without the database thread (the poll above touches no database)."""
    return function(*args)


def test_the_loops_start_once_per_reactor_even_when_the_app_was_imported_before_it(monkeypatch):
    """A test server forked from a process that imported the app before any reactor existed has
    its own reactor: the loops must start on it (they never did, and nobody was marked away)."""
    import sys

    class Reactor:
        def __init__(self):
            self.calls = []

        def callWhenRunning(self, function):  # noqa: N802 (Twisted's name)
            self.calls.append(function)

    monkeypatch.setattr(timers, "_started_on", [])
    monkeypatch.delitem(sys.modules, "twisted.internet.reactor", raising=False)
    timers.start_with_server()  # no reactor yet: nothing to start with
    first, second = Reactor(), Reactor()
    monkeypatch.setitem(sys.modules, "twisted.internet.reactor", first)
    timers.start_with_server()
    timers.start_with_server()
    monkeypatch.setitem(sys.modules, "twisted.internet.reactor", second)
    timers.start_with_server()
    assert (len(first.calls), len(second.calls)) == (1, 1)


@pytest.mark.django_db(transaction=True)  # announcements go out at the commit
def test_a_committed_table_update_tells_its_deadline_to_the_listeners(monkeypatch):
    """The deadline loop learns of a deadline set in its own process from the update the service
    announced (game.delivery.announce), whichever thread committed it."""
    from game.delivery import announce

    heard: list[float] = []
    monkeypatch.setattr(announce, "_deadline_listeners", [heard.append])
    table, _ = open_table(turn_seconds=15)
    assert heard and heard[-1] == game_of(table).deadline.timestamp()
    heard.clear()
    open_table(turn_seconds=0)  # no clock: nothing to tell
    assert heard == []


async def test_the_loop_looks_when_a_deadline_said_here_is_due_and_otherwise_once_a_while(monkeypatch):
    """Time is under test: with nothing said, the loop looks at the deadlines once every
    IDLE_SECONDS (it asked the database five times a second, idle or not); a deadline said from
    another thread (a page, the database thread) is looked at when it is due, not before and
    not at the next idle look."""
    import asyncio
    import threading
    import time

    looks: list[float] = []

    def look(now, check_absent):
        looks.append(time.time())
        return []

    monkeypatch.setattr(timers, "fire_due", look)
    monkeypatch.setattr(timers.watch, "call", _in_the_loop)
    monkeypatch.setattr(timers, "IDLE_SECONDS", 0.6)
    monkeypatch.setattr(timers, "ABSENCE_CHECK_SECONDS", 3600)
    loop = asyncio.ensure_future(timers.run_forever())
    try:
        await until_async(lambda: len(looks) >= 3, "three idle looks")
        idle = [later - earlier for earlier, later in zip(looks, looks[1:], strict=False)]
        assert min(idle) >= 0.6 * 0.95, idle
        long_idle = 30  # from here on an idle look would come too late to pass for the deadline's
        monkeypatch.setattr(timers, "IDLE_SECONDS", long_idle)
        after = len(looks)
        await until_async(lambda: len(looks) > after, "a look with the long idle pause ahead")
        before = len(looks)
        due = time.time() + 0.4
        said = threading.Thread(target=timers._deadline_said, args=(due,))
        said.start()
        said.join()
        await until_async(lambda: len(looks) > before, "the look at the deadline said", seconds=long_idle / 2)
        assert looks[before] >= due, "not before the deadline"
        # one far ahead (a turn-based table's) is left to the idle looks, not kept until it passes
        timers._deadline_said(time.time() + timers.KEPT_AHEAD_SECONDS + 60)
        timers._deadline_said(time.time() + 50)
        await until_async(lambda: len(timers._alarm.ahead) == 1, "the near deadline kept")
        assert timers._alarm.ahead[0] < time.time() + 60
    finally:
        loop.cancel()
        with pytest.raises(asyncio.CancelledError):
            await loop
    assert timers._alarm is None, "a stopped loop hears nothing more"
