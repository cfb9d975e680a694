"""Engine speed A/B: this checkout's engine against the one of a git revision, in one run.

Both sides run the same benchmark file (this checkout's `bench/engine_bench.py`, so the same
games and policy), each run in a fresh process, taking turns old/new then new/old so that a
drifting machine weighs on both alike. Prints one row per run pair and the medians; the last
line is one JSON object: {"old_cards_per_s", "new_cards_per_s", "speedup"}.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "engine_bench.py"


def export(revision: str, into: Path) -> Path:
    """The engine package of `revision`, with this checkout's benchmark beside it."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "game/__init__.py", "game/engine"],
        check=True, capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "bench").mkdir()
    shutil.copy(BENCH, into / "bench" / BENCH.name)
    return into / "bench" / BENCH.name


def cards_per_s(bench: Path, games: int) -> float:
    """One benchmark run in a fresh interpreter; the script puts its own tree first on the path."""
    result = subprocess.run(
        [sys.executable, str(bench), "--games", str(games), "--runs", "1"],
        check=True, capture_output=True, text=True,
        env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
    )
    return json.loads(result.stdout.strip().splitlines()[-1])["cards_per_s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("revision", nargs="?", default="a71c237", help="the old engine's git revision")
    parser.add_argument("--pairs", type=int, default=8, help="old/new run pairs")
    parser.add_argument("--games", type=int, default=400, help="games per run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_bench = export(args.revision, Path(tmp))
        rows = []
        print(f"{'run':>3}  {'old cards/s':>12}  {'new cards/s':>12}  {'speedup':>7}")
        for i in range(args.pairs):
            if i % 2 == 0:
                old, new = cards_per_s(old_bench, args.games), cards_per_s(BENCH, args.games)
            else:
                new, old = cards_per_s(BENCH, args.games), cards_per_s(old_bench, args.games)
            rows.append((old, new))
            print(f"{i + 1:>3}  {old:>12,.0f}  {new:>12,.0f}  {new / old:>6.2f}x")
    old_median = statistics.median(old for old, _ in rows)
    new_median = statistics.median(new for _, new in rows)
    speedup = statistics.median(new / old for old, new in rows)
    print(f"med  {old_median:>12,.0f}  {new_median:>12,.0f}  {speedup:>6.2f}x  (median of the per-pair speedups)")
    print(json.dumps({"old_cards_per_s": round(old_median, 1), "new_cards_per_s": round(new_median, 1),
                      "speedup": round(speedup, 3)}))


if __name__ == "__main__":
    main()
