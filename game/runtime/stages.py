"""CPU time by stage of a move, for the load bench (bench/service_load.py prints the split).

Off unless the process runs with SEVN_STAGES=1: then each `timed(name)` section adds the CPU
time its thread spent in it (time.thread_time: the event loop's and the database thread's
separately, never another thread's) to its stage, and SIGUSR2 writes every stage's total and
the process's own CPU to SEVN_STAGES_FILE.<pid> (a bench reads it before and after a run; the
difference per move is the split). Whatever no stage names (Daphne, Twisted, autobahn and
Channels around the handlers, the database thread's hops) is the process's CPU less the stages.

A section must not await: another task's work would be counted in it. The collector's passes
are a stage of their own ("garbage collector"), taken out of whichever section they interrupted.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import threading
import time
from collections import Counter

ENABLED = os.environ.get("SEVN_STAGES", "") not in ("", "0")

_seconds: Counter[str] = Counter()
_calls: Counter[str] = Counter()
_collected: Counter[int] = Counter()  # each thread's CPU seconds in the collector so far
_collecting: dict[int, float] = {}  # a thread's pass in progress: when it started


class _Timed:
    __slots__ = ("name", "started", "collected")

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        self.collected = _collected[threading.get_ident()]
        self.started = time.thread_time()

    def __exit__(self, *_exc) -> None:
        spent = time.thread_time() - self.started
        _seconds[self.name] += spent - (_collected[threading.get_ident()] - self.collected)
        _calls[self.name] += 1


def _collector(phase: str, _info: dict) -> None:
    """The collector's passes as a stage (gc.callbacks): each thread's, by its own CPU clock."""
    thread = threading.get_ident()
    if phase == "start":
        _collecting[thread] = time.thread_time()
    elif thread in _collecting:
        spent = time.thread_time() - _collecting.pop(thread)
        _collected[thread] += spent
        _seconds["garbage collector"] += spent
        _calls["garbage collector"] += 1


class _Untimed:
    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *_exc) -> None:
        return None


_UNTIMED = _Untimed()


def timed(name: str):
    """A section whose thread CPU counts to stage `name` (nothing at all when stages are off)."""
    return _Timed(name) if ENABLED else _UNTIMED


def totals() -> dict:
    """Every stage's CPU seconds and sections so far, and the whole process's CPU seconds."""
    return {
        "process": time.process_time(),
        "seconds": dict(_seconds),
        "calls": dict(_calls),
    }


def _write(_signum=None, _frame=None) -> None:
    path = f"{os.environ.get('SEVN_STAGES_FILE', '/tmp/sevn-stages')}.{os.getpid()}"
    with open(f"{path}.new", "w") as out:
        json.dump(totals(), out)
    os.replace(f"{path}.new", path)


def install() -> None:
    """Write the totals on SIGUSR2 (only when stages are on)."""
    if ENABLED:
        signal.signal(signal.SIGUSR2, _write)
        gc.callbacks.append(_collector)
