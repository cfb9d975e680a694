"""The load bench's split of a move's CPU by stage (game.runtime.stages): sections add their own
thread's CPU, the collector's passes are a stage of their own and leave the section they
interrupted, and SIGUSR2 writes the totals for the bench to read."""

from __future__ import annotations

import gc
import json
import os
import signal
import time

import pytest

from game.runtime import stages


@pytest.fixture
def counting(monkeypatch, tmp_path):
    monkeypatch.setattr(stages, "ENABLED", True)
    monkeypatch.setattr(stages, "_seconds", stages.Counter())
    monkeypatch.setattr(stages, "_calls", stages.Counter())
    monkeypatch.setattr(stages, "_collected", stages.Counter())
    monkeypatch.setenv("SEVN_STAGES_FILE", str(tmp_path / "stages"))
    before = signal.getsignal(signal.SIGUSR2)
    stages.install()
    yield tmp_path / f"stages.{os.getpid()}"
    signal.signal(signal.SIGUSR2, before)
    gc.callbacks.remove(stages._collector)


def _busy(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_section_counts_its_threads_cpu_and_its_calls(counting):
    gc.disable()  # a collector's pass inside a section leaves it (the next test's matter)
    for counter in (stages._seconds, stages._calls, stages._collected):
        counter.clear()  # a pass between the counting's start and the line above is no section's
    try:
        for _ in range(3):
            with stages.timed("render"):
                _busy(0.01)
        with stages.timed("parse"):
            time.sleep(0.05)  # time under test: waiting, which is not CPU
    finally:
        gc.enable()
    totals = stages.totals()
    assert totals["calls"] == {"render": 3, "parse": 1}
    assert 0.03 <= totals["seconds"]["render"] < 0.2
    assert totals["seconds"]["parse"] < 0.01


def test_the_collectors_passes_are_their_own_stage_and_leave_the_section(counting):
    garbage = []
    for _ in range(20_000):  # cycles for the collector to find
        node: dict = {}
        node["self"] = node
        garbage.append(node)
    del garbage, node
    before = stages.totals()["seconds"].get("garbage collector", 0.0)
    with stages.timed("move: engine"):
        started = time.thread_time()
        gc.collect()
        inside = time.thread_time() - started
    totals = stages.totals()
    collector = totals["seconds"]["garbage collector"] - before
    assert totals["calls"]["garbage collector"] >= 1
    assert collector > 0.5 * inside  # the pass was most of the section
    assert totals["seconds"]["move: engine"] < 0.5 * inside  # and is not counted as the engine's


def test_sigusr2_writes_the_totals_for_the_bench(counting):
    with stages.timed("frames out"):
        _busy(0.005)
    os.kill(os.getpid(), signal.SIGUSR2)
    written = json.loads(counting.read_text())
    assert written["calls"]["frames out"] == 1
    assert written["process"] > 0
    assert written["seconds"]["frames out"] > 0


def test_off_it_counts_nothing(monkeypatch):
    monkeypatch.setattr(stages, "ENABLED", False)
    monkeypatch.setattr(stages, "_calls", stages.Counter())
    with stages.timed("render"):
        pass
    assert stages.totals()["calls"] == {}
