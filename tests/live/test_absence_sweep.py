"""Looking for people who left is one process's work at a time: each sweep reads the quiet seats
of every table, so done by every process it would grow with processes x tables. The processes
claim it in the shared cache; a cache that is down or slow leaves each to sweep for itself (two
sweeps are harmless), and nothing waits on it on the database thread."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.core.cache import cache

from game.live import timers
from game.runtime import outage
from tests.waiting import until_async


@pytest.fixture(autouse=True)
def no_claim():
    cache.delete(timers.SWEEP_KEY)
    outage.reset()
    yield
    cache.delete(timers.SWEEP_KEY)
    outage.reset()


async def test_one_process_sweeps_until_its_claim_runs_out(monkeypatch):
    monkeypatch.setattr(timers, "ABSENCE_CHECK_SECONDS", 1)
    assert await timers.sweep_is_mine()  # the first to ask
    assert not await timers.sweep_is_mine()  # another process, within the claim
    assert not await timers.sweep_is_mine()
    # time under test: the claim's own length (the cache keeps it for whole seconds)
    await asyncio.sleep(1.1)
    assert await timers.sweep_is_mine()  # the claim ran out: whoever asks next sweeps


class Cache:
    """The shared cache as a process sees it (the real one is per thread: a fake for all)."""

    def __init__(self, add) -> None:
        self.add = add


async def test_a_cache_that_fails_leaves_the_sweep_to_each_process(monkeypatch):
    def broken(*_args, **_kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(timers, "cache", Cache(broken))
    assert await timers.sweep_is_mine()
    assert await timers.sweep_is_mine()


async def test_a_slow_cache_is_not_waited_for(monkeypatch):
    paused = threading.Event()

    def stuck(*_args, **_kwargs):
        paused.wait(10)  # Redis paused: the call waits (for its socket's timeout) until the test is done
        return False

    monkeypatch.setattr(timers, "cache", Cache(stuck))
    monkeypatch.setattr(timers, "CLAIM_WAIT", 0.2)
    started = time.monotonic()
    try:
        assert await timers.sweep_is_mine()
        assert time.monotonic() - started < 1
    finally:
        paused.set()


async def test_while_redis_is_known_down_the_cache_is_not_asked(monkeypatch):
    asked = []
    monkeypatch.setattr(timers, "cache", Cache(lambda *args, **kwargs: asked.append(args) or False))
    outage.down("a test", ConnectionError("down"))
    assert await timers.sweep_is_mine()
    assert asked == []


@pytest.mark.django_db(transaction=True)
async def test_the_loop_sweeps_only_when_the_claim_is_its_own(monkeypatch):
    swept, asked = [], []
    monkeypatch.setattr(timers, "ABSENCE_CHECK_SECONDS", 0)
    monkeypatch.setattr(timers, "POLL_SECONDS", 0.01)
    monkeypatch.setattr(timers.presence, "mark_absent", lambda now=None: swept.append(now) or [])
    sweep_is_mine = timers.sweep_is_mine

    async def noted():
        mine = await sweep_is_mine()
        asked.append(mine)
        return mine

    monkeypatch.setattr(timers, "sweep_is_mine", noted)
    cache.add(timers.SWEEP_KEY, "another process", timeout=60)
    loop = asyncio.ensure_future(timers.run_forever())
    try:
        await until_async(lambda: len(asked) >= 5, "five rounds of the loop")
        assert swept == [] and not any(asked)  # another process holds the sweep
        cache.delete(timers.SWEEP_KEY)
        await until_async(lambda: swept, "the sweep, free again, taken by this one")
    finally:
        loop.cancel()
