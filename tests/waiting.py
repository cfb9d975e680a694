"""Waiting for what a test expects, not for a length of time: a condition asked again and again
until it holds or a deadline passes (then the test fails and says what it waited for). For what
Playwright's `expect` or a socket's own messages cannot say: rows in the database, a file the
server wrote, a list an event handler fills. The pause between two askings is not a wait for
anything: it only keeps the asking from taking a core."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

# How often a page asks a `wait_for_function` condition again, in ms. Playwright's default asks it
# on every animation frame, which keeps Chromium drawing sixty frames a second for as long as the
# wait lasts: about 70 ms of CPU a second of waiting, against 7 ms when asked every 100 ms.
POLL_MS = 100


def until(check: Callable[[], T], what: str, seconds: float = 15.0, every: float = 0.02, page=None) -> T:
    """`check()` once it is true (its value), asked every `every` s for up to `seconds`. With a
    Playwright `page`, the pause is the page's: what its event handlers fill in (a route, a
    socket's frames) arrives only while Playwright runs, never during a plain sleep."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        if page is not None:
            page.wait_for_timeout(every * 1000)
        else:
            time.sleep(every)


async def until_async(
    check: Callable[[], T | Awaitable[T]], what: str, seconds: float = 15.0, every: float = 0.01
) -> T:
    """The same in an event loop: `check` may be a coroutine function; the loop runs meanwhile."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if asyncio.iscoroutine(found):
            found = await found
        if found:
            return found
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        await asyncio.sleep(every)
