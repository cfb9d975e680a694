"""Sockets closing, told to the database together.

A closing socket of a seated person removes its presence row and, if it was their last socket
at the table, tells every screen the seat is not connected any more. Done one socket at a time,
a crowd closing at once (a network blip, a full server's turned-away people, a process stopping)
queued hundreds of such calls on the one thread that runs the process's database work: every
move waited behind them, and the last of them gave up after a few seconds with a traceback each.
Here the sockets that close while a batch waits for that thread go in the next batch: a few
statements for all of them (services.presence.left_all) and one message per table (which that
service announces).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from game.services import presence

logger = logging.getLogger(__name__)

BATCH_MOST = 200  # sockets a batch takes at most: one hold of the database thread stays short

Call = Callable[..., Awaitable[object]]  # game.live.watch.call: a service, and what it announced sent


class Leaving:
    """This process's closing sockets, gathered while the database thread is busy."""

    def __init__(self) -> None:
        self._waiting: list[tuple[str, asyncio.Future]] = []
        self._runner: asyncio.Task | None = None

    async def left(self, channel: str, call: Call, within: float) -> None:
        """The socket's presence row gone and its table told, within `within` seconds or not by
        this socket (its batch goes on without it; a row left behind goes stale: services.presence)."""
        loop = asyncio.get_running_loop()
        if self._runner is not None and self._runner.get_loop() is not loop:
            self._waiting, self._runner = [], None  # a loop gone (tests run one per test)
        done = loop.create_future()
        self._waiting.append((channel, done))
        if self._runner is None or self._runner.done():
            self._runner = loop.create_task(self._run(call))
        try:
            await asyncio.wait_for(asyncio.shield(done), within)
        except TimeoutError:
            logger.warning("a closing socket's presence was not cleared within %s s; it goes stale", within)

    async def _run(self, call: Call) -> None:
        """Batch after batch until no socket waits: each takes what gathered while the one
        before ran."""
        while self._waiting:
            batch, self._waiting = self._waiting[:BATCH_MOST], self._waiting[BATCH_MOST:]
            try:
                await call(presence.left_all, channels=[c for c, _done in batch])
            except Exception:  # the database away: the rows go stale and are removed
                logger.warning("presence of %d closing sockets not cleared", len(batch), exc_info=True)
            finally:
                for _channel, done in batch:
                    if not done.done():
                        done.set_result(None)


leaving = Leaving()
