"""CPU time by stage of a move, for the load bench (bench/service_load.py prints the split).

Off unless the process runs with SEVN_STAGES=1: then each `timed(name)` section adds the CPU
time its thread spent in it (time.thread_time: the event loop's and the database thread's
separately, never another thread's) to its stage, and SIGUSR2 writes every stage's total and
the process's own CPU to SEVN_STAGES_FILE.<pid> (a bench reads it before and after a run; the
difference per move is the split). Whatever no stage names (Daphne, Twisted, autobahn and
Channels around the handlers, the database thread's hops) is the process's CPU less the stages.

A section must not await: another task's work would be counted in it.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections import Counter

ENABLED = os.environ.get("SEVN_STAGES", "") not in ("", "0")

_seconds: Counter[str] = Counter()
_calls: Counter[str] = Counter()


class _Timed:
    __slots__ = ("name", "started")

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        self.started = time.thread_time()

    def __exit__(self, *_exc) -> None:
        _seconds[self.name] += time.thread_time() - self.started
        _calls[self.name] += 1


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
