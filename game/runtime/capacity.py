"""Whether this process has room for another table socket.

A process that takes every socket offered serves every table worse with each one it takes: a
new socket costs a database read and a whole table drawn, and the moves of the tables already
seated wait behind that work. So a full process turns NEW table sockets away, cheaply (no
database, no drawing: game.live.admission closes them as busy), and the sockets it
already has keep being served. The turned-away come back after a growing pause (the page's
script, deploy/players.py) and get in once there is room.

A process is full on any of three signals (each off at 0):

- sockets: this process has SEVN_MAX_SOCKETS table sockets open;
- delay: the work of its tables waits. Every database call of a process runs on one thread
  (asgiref's thread for thread-sensitive calls, which channels' database_sync_to_async uses):
  a move, a table read for a new screen, the heartbeat. Every PROBE_SECONDS a probe hands that
  thread an errand and notes how long it waited before the thread took it up, smoothed over the
  last few. Past SEVN_BUSY_DELAY_MS every move waits that long before its own work begins: the
  process is full. (Not the event loop's lag: turning a crowd away costs the loop too, and a
  process that counted that would stay full for as long as people kept knocking, with a few
  sockets open and nobody let in.)
- connecting: SEVN_MAX_CONNECTING new sockets are being let in at once (each a table read and
  drawn whole, its arrival noted): a crowd arriving together (every browser after a restart, a
  load test's warm-up) would otherwise all be let in within the same moment, before any delay
  shows, and each would wait behind all the others. Unlike the other two, this passes within
  moments (the few let in have their tables): the turned-away are told so (a close code of
  its own, admission.CLOSE_ARRIVING) and come back within a few seconds, not after the
  doubling pauses of a full process that may stay full for minutes (static/sevn/js/
  connection.js, deploy/players.py).
"""

from __future__ import annotations

import asyncio
import logging
import time

from asgiref.sync import sync_to_async
from django.conf import settings

logger = logging.getLogger(__name__)

PROBE_SECONDS = 0.5
SMOOTHING = 0.5  # the newest sample's weight: a lasting delay shows within a few probes, one pause fades

_delay = 0.0  # seconds, smoothed
_open = 0  # table sockets open in this process
_connecting = 0  # new table sockets being let in (admitted, their table not yet sent)
_turned_away = 0  # new table sockets refused as busy since the process started
_full_said = False  # the log said "full" and not yet "room again"


def delay_ms() -> float:
    return round(_delay * 1000, 1)


def open_sockets() -> int:
    return _open


def connecting_now() -> int:
    return _connecting


def turned_away() -> int:
    return _turned_away


def socket_opened() -> None:
    global _open
    _open += 1


def socket_closed() -> None:
    global _open
    _open = max(0, _open - 1)


class LettingIn:
    """One new socket being let in, from admission until `done()` (its table on its way, or it
    was refused); `done()` again changes nothing."""

    def __init__(self) -> None:
        global _connecting
        _connecting += 1
        self.letting_in = True

    def done(self) -> None:
        global _connecting
        if self.letting_in:
            self.letting_in = False
            _connecting -= 1


def record_delay(seconds: float) -> None:
    """One probe's sample: how late it got back, in seconds."""
    global _delay
    _delay += SMOOTHING * (max(0.0, seconds) - _delay)


def reason_full() -> str | None:
    """Why this process takes no new table socket now ("sockets", "delay", "connecting"), or None
    if it has room. A lasting reason is named before the passing one (connecting): the turned-away
    are told which, and wait for it accordingly."""
    limit = settings.SEVN_MAX_SOCKETS
    if limit and _open >= limit:
        return "sockets"
    threshold = settings.SEVN_BUSY_DELAY_MS
    if threshold and _delay * 1000 >= threshold:
        return "delay"
    limit = settings.SEVN_MAX_CONNECTING
    if limit and _connecting >= limit:
        return "connecting"
    return None


def refusal() -> str | None:
    """Why a new table socket is turned away now (reason_full's word; counted, and said once in
    the log while it lasts), or None if it may come in."""
    global _turned_away, _full_said
    reason = reason_full()
    if reason is None:
        if _full_said:
            _full_said = False
            logger.warning("room again for new table sockets (%d open, delay %.0f ms)", _open, _delay * 1000)
        return None
    _turned_away += 1
    if not _full_said:
        _full_said = True
        logger.warning(
            "full (%s): new table sockets are turned away (%d open, delay %.0f ms)", reason, _open, _delay * 1000
        )
    return reason


async def probe_forever(clock=time.monotonic) -> None:
    """Measure this process's delay every PROBE_SECONDS until the server stops."""
    taken_up = sync_to_async(clock)  # thread-sensitive: the database calls' own thread
    while True:
        await asyncio.sleep(PROBE_SECONDS)
        asked = clock()
        record_delay(await taken_up() - asked)
