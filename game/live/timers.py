"""Deadlines that must fire with nobody connected and no request arriving: turn timeouts,
bots' moves after their pause, taking over for people who left, and the alerts' outbox (pushes
and e-mails to people off the site, and the daily e-mails: game.services.outbox). The same
processes work out finished games' analyses in the background (game.live.analysing).

Every server process runs `run_forever` in its event loop; all of them may find the same
deadline due, and the service layer lets exactly one apply it (table lock + re-read deadline).
A process looks when a deadline it set itself is due (every table update committed here says
its deadline: game.delivery.announce), and otherwise once every IDLE_SECONDS, for deadlines set
elsewhere whose process has gone (that process fires its own while it lives). Before, every
process asked the database five times a second, busy or idle.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import os
import sys
import time

from channels.db import database_sync_to_async
from django.core.cache import cache

from game import services
from game.delivery import announce
from game.live import analysing, watch
from game.runtime import capacity, outage, stages
from game.services import outbox, presence, table_reads

logger = logging.getLogger(__name__)

POLL_SECONDS = 0.2  # the shortest pause between two looks at the deadlines
# The longest: a deadline set in another process that stopped (a server killed or restarted)
# is applied within this, and a process that sets none looks no more often than this. An idle
# server asked the database 5 times a second for deadlines (two thirds of its CPU at idle).
IDLE_SECONDS = 1.0
# Deadlines said further ahead than this (a turn-based table's hours, an abandoned game's five
# minutes) are left to the once-a-second looks, up to a second late, rather than each kept until
# it passes: at a hundred moves a second, a day's turn-based deadlines would be millions. The
# live turn timers (up to 60 s) and the bots' pauses are kept, and looked at when due.
KEPT_AHEAD_SECONDS = 120
# Who left is checked by the clock, not by counting polls: a busy process's polls take longer
# than POLL_SECONDS, and "away after a minute" must not become a minute and a half.
ABSENCE_CHECK_SECONDS = 2
SWEEP_KEY = "sevn:absence-sweep"
CLAIM_WAIT = 0.5  # seconds
OUTBOX_SECONDS = 1.0  # how often the outbox is looked at (at once again while a batch was full)
FORGET_SECONDS = 3600  # how often notices long done are deleted


def fire_due(now=None, check_absent: bool = True) -> list[dict]:
    """Apply everything due now; returns the updates the services announced (sync, for tests too)."""
    with stages.timed("clocks and presence"):
        return _fire_due(now, check_absent)


def _fire_due(now, check_absent: bool) -> list[dict]:
    messages = []
    for game_id in table_reads.due_games(now):
        try:
            message = services.game_expire(game_id=game_id, now=now)
        except Exception:  # one broken game must not stop every other table's clock
            logger.exception("deadline of game %s failed", game_id)
            continue
        if message:
            messages.append(message)
    if check_absent:
        messages += presence.mark_absent(now)
    return messages


def _claim_sweep() -> bool:
    try:
        claimed = bool(cache.add(SWEEP_KEY, os.getpid(), timeout=ABSENCE_CHECK_SECONDS))
    except outage.CACHE_DOWN as error:
        outage.down("the absence sweep's claim", error)
        return True
    outage.up("the absence sweep's claim")
    return claimed


async def sweep_is_mine() -> bool:
    """Whether this process looks for the absent this time: one process does, whichever claims
    the sweep first in the shared cache (Redis on the scale-out stack) for ABSENCE_CHECK_SECONDS.
    A sweep reads the quiet seats of every table, so done by every process it grew with
    processes x tables. The claim is asked off the database thread (every move waits on that
    one), for CLAIM_WAIT at most; a cache that does not answer in time leaves the sweep to this
    process: two sweeps at once are harmless (each change locks its table and looks again)."""
    if outage.skipping():
        return True
    try:
        return await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(None, _claim_sweep), CLAIM_WAIT)
    except Exception:
        return True


class _Alarm:
    """The deadlines this process announced that are still ahead, soonest first, for the loop
    of the event loop it runs in: a deadline said in any thread (a page, the database thread)
    wakes the loop, which looks when that deadline is due."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.ahead: list[float] = []
        self.rung = asyncio.Event()

    def said(self, deadline: float) -> None:
        """From any thread: a deadline committed in this process (announce's listener)."""
        if deadline - time.time() > KEPT_AHEAD_SECONDS:
            return
        try:
            self.loop.call_soon_threadsafe(self._ring, deadline)
        except RuntimeError:  # the loop is closed: nobody is waiting
            pass

    def _ring(self, deadline: float) -> None:
        heapq.heappush(self.ahead, deadline)
        self.rung.set()

    async def pause(self, looked: float, latest: float) -> None:
        """Until the next look after the one that began at `looked` (epoch seconds), which
        applied every deadline up to then: the soonest deadline said since, if it comes before
        `latest` (at most IDLE_SECONDS after that look), but never sooner than POLL_SECONDS
        after that look."""
        while self.ahead and self.ahead[0] <= looked:
            heapq.heappop(self.ahead)
        while True:
            self.rung.clear()
            wake = min(latest, looked + IDLE_SECONDS)
            if self.ahead:
                wake = min(wake, max(self.ahead[0], looked + POLL_SECONDS))
            wait = wake - time.time()
            if wait <= 0:
                return
            try:
                await asyncio.wait_for(self.rung.wait(), wait)
            except TimeoutError:
                return


_alarm: _Alarm | None = None


def _deadline_said(deadline: float) -> None:
    alarm = _alarm
    if alarm is not None:
        alarm.said(deadline)


announce.listen_for_deadlines(_deadline_said)


async def run_forever() -> None:
    global _alarm
    alarm = _alarm = _Alarm(asyncio.get_running_loop())
    checked = time.monotonic()
    try:
        while True:
            check_absent = time.monotonic() - checked >= ABSENCE_CHECK_SECONDS
            if check_absent:
                checked = time.monotonic()
            looked = time.time()
            try:
                if check_absent:
                    check_absent = await sweep_is_mine()
                await watch.call(fire_due, None, check_absent)  # what changed, to every screen as it was said
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("timer loop failed; retrying")
            absence_due = time.time() + ABSENCE_CHECK_SECONDS - (time.monotonic() - checked)
            await alarm.pause(looked, latest=absence_due)
    finally:
        if _alarm is alarm:
            _alarm = None


def send_alerts(now=None) -> dict[str, int]:
    """Send every notice due at `now` in this thread (sync: the tests step the clock with it)."""
    return outbox.run_once(now)


async def alerts_once() -> int:
    """One batch of the outbox: claimed and prepared in the database thread, sent from the
    outbox's own threads (a slow push service never holds a move up), settled in the database
    thread. Returns how many notices it claimed."""
    taken = await database_sync_to_async(outbox.take)()
    if taken.jobs:
        sent = await asyncio.get_running_loop().run_in_executor(None, outbox.deliver, taken.jobs)
        await database_sync_to_async(outbox.settle)(taken.token, sent)
    return taken.claimed


async def alerts_forever() -> None:
    """The outbox, in every process that runs the deadline loop: each notice is claimed by one
    of them (game.services.outbox), so several processes send each once between them."""
    forgotten = time.monotonic()
    while True:
        claimed = 0
        try:
            claimed = await alerts_once()
            if time.monotonic() - forgotten >= FORGET_SECONDS:
                forgotten = time.monotonic()
                await database_sync_to_async(outbox.forget_old)()
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("alerts loop failed; retrying")
        if claimed < outbox.BATCH:
            await asyncio.sleep(OUTBOX_SECONDS)


_running: set[asyncio.Task] = set()
_started_on: list[object] = []  # the reactor the loops were last registered with


def start_with_server(deadlines: bool = True) -> None:
    """Run the deadline loop (unless this process leaves it to others), the screens' check and
    the capacity probe inside Daphne's event loop once the server runs (Daphne has no lifespan
    events; its Twisted reactor is already installed when the app is imported). Once per
    reactor: a process that imported the app before its reactor existed (a test server forked
    from a test process) calls this again when it has one."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None or (_started_on and _started_on[0] is reactor):
        return
    _started_on[:] = [reactor]

    def start() -> None:
        loops = [run_forever(), alerts_forever(), watch.run_forever()] if deadlines else [watch.run_forever()]
        if deadlines and analysing.ON:
            loops.append(analysing.run_forever())  # finished games' analyses, at the lowest priority
        loops.append(capacity.probe_forever())  # how late work starts here: a full process sheds new sockets
        for loop in loops:
            task = asyncio.ensure_future(loop)
            _running.add(task)  # a reference, or the collector may take a running task

    reactor.callWhenRunning(start)
