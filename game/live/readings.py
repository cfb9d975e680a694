"""Readings of a table from the database, shared by its sockets that ask at the same moment.

A crowd arriving at a table (or every screen of a process after a restart) would each read the
same table and log, one after another on the process's one database thread; sockets that ask
while a reading is under way share one. But a socket may only take a reading that started after
it asked: it joined its table's messages just before (game.live.consumers), and what a reading
begun earlier missed may have been broadcast before that joining. So a socket that asks while
an older reading is under way waits for the next one, which starts as soon as that one is done,
and which every socket that asks meanwhile shares.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

_under_way: dict[str, asyncio.Future] = {}  # table code -> the reading under way
_next: dict[str, asyncio.Future] = {}  # table code -> the reading that starts once that one is done


def fresh(code: str, read: Callable[[], Awaitable[Any]]) -> Awaitable[Any]:
    """A reading of the table that starts after this call (`read` makes one), shared."""
    current = _under_way.get(code)
    if current is None:
        return asyncio.shield(_start(code, read))
    following = _next.get(code)
    if following is None:
        following = _next[code] = asyncio.ensure_future(_after(code, current, read))
    return asyncio.shield(following)


def _start(code: str, read: Callable[[], Awaitable[Any]]) -> asyncio.Future:
    reading = _under_way[code] = asyncio.ensure_future(read())
    reading.add_done_callback(lambda done: _forget(code, done))
    return reading


def _forget(code: str, done: asyncio.Future) -> None:
    if _under_way.get(code) is done:
        del _under_way[code]


async def _after(code: str, previous: asyncio.Future, read: Callable[[], Awaitable[Any]]) -> Any:
    await asyncio.wait([previous])  # done, whatever it gave
    del _next[code]  # (and the next reading under way at once: no await in between)
    return await _start(code, read)
