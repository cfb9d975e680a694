"""Engine speed A/B: this checkout's engine against the one of a git revision, in one run.

Both sides run the same benchmark (this checkout's `bench/engine_bench.py`: the same games and
policy, timed in CPU seconds), each in its own long-lived worker process, the two started with
the same PYTHONHASHSEED (a few in turn, a fresh pair of workers for each). They take turns on
the same seeds, batch by batch, old first then new first, so that a busy shared machine
weighs on both alike. Prints one row per batch pair and the medians; the last line is one JSON
object: {"old_cards_per_s", "new_cards_per_s", "speedup"}, speedup being the median of the
per-pair ratios.
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

# A worker loads the benchmark from its tree (the script puts that tree first on sys.path), then
# plays one batch per request line "first_seed games", answering with engine_bench.run's figures.
WORKER = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("engine_bench", sys.argv[1])
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
for line in sys.stdin:
    first, games = map(int, line.split())
    print(json.dumps(bench.run(games, first)), flush=True)
"""


def engine_paths(revision: str) -> list[str]:
    """Where SEVN's engine is in `revision`: game/games/sevn/engine (with the package files above it
    and the replay module its package names), game/games/sevn/engine before the games were gathered in
    game/games, or game/engine before the games had folders of their own."""
    layouts = (
        ["game/games/__init__.py", "game/games/sevn/__init__.py", "game/games/sevn/record_play.py"]
        + ["game/games/sevn/engine"],
        ["game/games/sevn/__init__.py", "game/games/sevn/engine"],
    )
    for paths in layouts:
        found = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", f"{revision}:{paths[-1]}"], check=False, capture_output=True
        )
        if found.returncode == 0:
            return paths
    return ["game/engine"]


def export(revision: str, into: Path) -> Path:
    """The engine package of `revision`, with this checkout's benchmark beside it."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "game/__init__.py", *engine_paths(revision)],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "bench").mkdir()
    shutil.copy(BENCH, into / "bench" / BENCH.name)
    return into / "bench" / BENCH.name


class Worker:
    def __init__(self, bench: Path, hash_seed: int) -> None:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        env["PYTHONHASHSEED"] = str(hash_seed)  # string hashing alone moves a side by 2-3%
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(bench)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def cards_per_s(self, first_seed: int, games: int) -> float:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{first_seed} {games}\n")
        self.process.stdin.flush()
        return float(json.loads(self.process.stdout.readline())["cards_per_s"])

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("revision", nargs="?", default="a71c237", help="the old engine's git revision")
    parser.add_argument("--pairs", type=int, default=20, help="batch pairs")
    parser.add_argument("--games", type=int, default=100, help="games per batch")
    parser.add_argument("--hash-seeds", type=int, default=4, help="PYTHONHASHSEED values taken in turn by both sides")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_bench = export(args.revision, Path(tmp))
        rows = []
        print(f"{'pair':>4}  {'old cards/s':>12}  {'new cards/s':>12}  {'speedup':>7}  hash seed")
        # Both sides get the same string-hash seeds, a few in turn: one seed per worker would
        # give each side a layout of its own, a luck of the draw as large as a few percent.
        for hash_seed in range(args.hash_seeds):
            old, new = Worker(old_bench, hash_seed), Worker(BENCH, hash_seed)
            for worker in (old, new):
                worker.cards_per_s(10**6, 10)  # warm up: imports, first allocations
            for turn, i in enumerate(range(hash_seed, args.pairs, args.hash_seeds)):
                first = i * args.games
                if turn % 2 == 0:  # old first, then new first, under every hash seed
                    old_rate = old.cards_per_s(first, args.games)
                    new_rate = new.cards_per_s(first, args.games)
                else:
                    new_rate = new.cards_per_s(first, args.games)
                    old_rate = old.cards_per_s(first, args.games)
                rows.append((old_rate, new_rate))
                print(f"{i + 1:>4}  {old_rate:>12,.0f}  {new_rate:>12,.0f}  {new_rate / old_rate:>6.2f}x  {hash_seed}")
            old.close()
            new.close()
    old_median = statistics.median(o for o, _ in rows)
    new_median = statistics.median(n for _, n in rows)
    speedup = statistics.median(n / o for o, n in rows)
    print(f" med  {old_median:>12,.0f}  {new_median:>12,.0f}  {speedup:>6.2f}x  (median of the per-pair speedups)")
    print(
        json.dumps(
            {
                "old_cards_per_s": round(old_median, 1),
                "new_cards_per_s": round(new_median, 1),
                "speedup": round(speedup, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
