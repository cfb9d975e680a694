"""A finished game's analysis (each game's `analysis` module) worked out in a process of its own,
apart from the server: `python -m game.registry.analysing` reads {"game", "record", "seed",
"budget_s"} as JSON on its standard input and writes the analysis as JSON on its standard output.

The server's background loop (game.live.analysing) starts it at the lowest CPU priority (a
session of its own at nice 19, SCHED_IDLE, and where it can, a cgroup of its own with cpu.idle
set: `lowly`) with a hard limit of CPU seconds, so that a game's analysis never holds the
server's interpreter (its GIL) nor takes a core from live tables while they want one. Plain
Python: no Django, as the analyses and the record players are; the games are reached through the
registry's list.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from game.registry import GAMES
from game.runtime.cgroup import analysis_cgroup

NICE = 19
SPARE_S = 5  # CPU seconds beyond the analysis' own budget before the kernel stops the process
ROOT = Path(__file__).resolve().parents[2]  # the project: the worker imports this very code


def analyses() -> dict[str, ModuleType]:
    """Each game's analysis module by the game's name (a game without one is left out)."""
    return {game.replay.NAME: game.analysis for game in GAMES if getattr(game, "analysis", None) is not None}


def analyse(game: str, record: dict, seed: int = 0, budget_s: float | None = None) -> dict:
    """The analysis of one record, in this process."""
    module = analyses()[game]
    return module.analyse(record, seed=seed, budget_s=module.BUDGET_S if budget_s is None else budget_s)


def worker_cgroup() -> Path | None:
    """The workers' cgroup beside the server's (game.runtime.cgroup), arranged once per process:
    by the analysis loop as it starts, so that the server settles into its own leaf before it
    has any other child; None where there is none, or at ordinary priority (NICE 0)."""
    return analysis_cgroup() if NICE > 0 else None


def lowly(budget_s: float, cgroup: Path | None = None) -> dict:
    """How the worker is started (subprocess keywords): below every other process on the
    machine, its CPU time capped.

    A nice value alone is not enough: Linux shares the CPU first between groups of processes
    (each session an "autogroup", or the service's cgroup) and only then by nice within a group.
    A niced worker in the server's own group still spends the group's share, so on a machine
    busy with other work, a move that wakes the server finds its group's share spent and waits
    behind the others. So the worker starts a session of its own (an autogroup of its own, whose
    nice it sets to 19) and runs as SCHED_IDLE: it gets a core only when nothing else wants it,
    and the server's group is not charged for it. Where the cpu controller shares the CPU between
    cgroups (a systemd service under cgroup v2), autogroups do not count and the service's
    cgroup holds the worker: there it joins a cgroup of its own beside the server's, with
    cpu.idle set (`cgroup`; by default game.runtime.cgroup's, when the service's cgroup is the
    server's to arrange, as deploy/systemd/sevn@.service delegates it)."""
    leaf = cgroup if cgroup is not None else worker_cgroup()
    procs = None if leaf is None or NICE <= 0 else leaf / "cgroup.procs"

    def limit() -> None:
        cpu = int(budget_s) + SPARE_S
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        if procs is not None:
            try:
                with open(procs, "w") as joined:
                    joined.write(str(os.getpid()))
            except OSError:
                pass  # the server's cgroup, then (nothing may be logged here, between fork and exec)
        if NICE <= 0:  # ordinary priority asked for (the browser tests' server: it must finish)
            return
        try:
            with open("/proc/self/autogroup", "w") as autogroup:  # this new session's own group
                autogroup.write(str(NICE))
        except OSError:
            pass  # no autogroups (a kernel without them, or another system)
        os.nice(NICE)
        if hasattr(os, "SCHED_IDLE"):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

    return {"start_new_session": True, "preexec_fn": limit}


def analyse_apart(game: str, record: dict, seed: int = 0, budget_s: float | None = None) -> dict:
    """The analysis of one record in a process of its own at the lowest priority, its CPU time
    capped; raises RuntimeError when it fails (or runs out of time)."""
    budget = analyses()[game].BUDGET_S if budget_s is None else budget_s
    asked = json.dumps({"game": game, "record": record, "seed": seed, "budget_s": budget})
    done = subprocess.run(
        [sys.executable, "-m", "game.registry.analysing"],
        input=asked,
        capture_output=True,
        text=True,
        **lowly(budget),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=20 * budget + 60,  # wall time: a loaded machine gives a niced process little
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"analysis failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main() -> None:
    asked = json.load(sys.stdin)
    json.dump(analyse(asked["game"], asked["record"], asked.get("seed", 0), asked.get("budget_s")), sys.stdout)


if __name__ == "__main__":
    main()
