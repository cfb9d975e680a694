"""Live tables' latency with finished games being analysed beside them, A/B in turns.

Each run is `bench/table_latency.py` (its own server, fresh database and players: one table at
machine speed, then 50 tables with think time). "With analyses" runs it while analyses are worked
out on the same machine exactly as a server's background loop works them out
(game.registry.analysing.analyse_apart: a process of its own at nice 19, one game at a time,
back to back: SEVN games to 250 of 4 seats and 3-round Sevens games of 5, played by the bots);
"without" runs it alone, its server's own loop off (SEVN_ANALYSIS=off; "with", the server also
analyses the games that end during the run, as it would). The two take turns, without first then
with, then the other way round, so a machine whose speed drifts weighs on both alike. Prints every
run and the medians of each side; the last line is one JSON object: {"without": {...}, "with": {...}, "analyses": n}.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.games.sevens import analysis as sevens_analysis  # noqa: E402
from game.games.sevens.bots import POLICIES as SEVENS_POLICIES  # noqa: E402
from game.games.sevn import analysis as sevn_analysis  # noqa: E402
from game.games.sevn.bots import POLICIES as SEVN_POLICIES  # noqa: E402
from game.registry.analysing import analyse_apart  # noqa: E402

KEYS = ("p50_ms", "p95_ms", "p99_ms")


def records() -> list[tuple[str, dict]]:
    sevn = [SEVN_POLICIES[name] for name in ("hard", "medium", "easy", "threshold25")]
    sevens = [SEVENS_POLICIES[name] for name in ("hard", "medium", "easy", "long_suit_far", "medium")]
    return [
        ("sevn", sevn_analysis.bot_record(sevn, 11)),
        ("sevens", sevens_analysis.bot_record(sevens, 12)),
    ]


class Analysing:
    """Analyses back to back in niced processes, as a server's loop runs them, until stopped."""

    def __init__(self, work: list[tuple[str, dict]]) -> None:
        self.work, self.done, self.stop = work, 0, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            name, record = self.work[self.done % len(self.work)]
            analyse_apart(name, record)
            self.done += 1

    def __enter__(self) -> Analysing:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()


def latency(seconds: float, analysing: bool, tries: int = 2) -> dict:
    """One table_latency run; its server analyses the games that end in it only `analysing`. A
    run that fails (on a machine loaded by others, 200 sockets may not all open) is run again,
    once, and said so."""
    for attempt in range(1, tries + 1):
        try:
            return _latency(seconds, analysing)
        except RuntimeError as failed:
            if attempt == tries:
                raise
            print(f"run failed, once more: {str(failed).splitlines()[-1]}", flush=True)
    raise AssertionError("unreachable")


def _latency(seconds: float, analysing: bool) -> dict:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "table_latency.py"), "--seconds", str(seconds), "--at-least", "100"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={**os.environ, "SEVN_ANALYSIS": "on" if analysing else "off"},
    )
    if done.returncode:
        raise RuntimeError(f"table_latency failed ({done.returncode}): {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _median(values: list) -> float | None:
    """The median of the runs that measured something (a run on an overloaded machine may have
    no answered move at 50 tables: no figure, counted in its errors instead)."""
    measured = [value for value in values if value is not None and value == value]
    return round(statistics.median(measured), 2) if measured else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="runs of each side")
    parser.add_argument("--seconds", type=float, default=15, help="play time per table_latency scenario")
    args = parser.parse_args()
    work = records()
    runs: dict[str, list[dict]] = {"without": [], "with": []}
    analyses = 0
    for pair in range(args.pairs):
        for side in ("without", "with") if pair % 2 == 0 else ("with", "without"):
            if side == "with":
                with Analysing(work) as background:
                    result = latency(args.seconds, True)
                analyses += background.done
            else:
                result = latency(args.seconds, False)
            runs[side].append(result)
            one, fifty = result["tables_1"], result["tables_50"]
            print(
                f"{side:8} 1 table p50 {one['p50_ms']} ms p95 {one['p95_ms']} ms; "
                f"50 tables p50 {fifty['p50_ms']} ms p95 {fifty['p95_ms']} ms errors {fifty['errors']}",
                flush=True,
            )
    summary = {
        side: {f"tables_{n}_{key}": _median([run[f"tables_{n}"][key] for run in seen]) for n in (1, 50) for key in KEYS}
        | {"tables_50_errors": sum(run["tables_50"]["errors"] for run in seen)}
        for side, seen in runs.items()
    }
    print(f"analyses finished during the 'with' runs: {analyses}")
    print(json.dumps({**summary, "analyses": analyses}))


if __name__ == "__main__":
    main()
