"""Table latency A/B: this checkout's live table against a git revision's, in one run.

The old revision's tree is exported beside this one (with this checkout's compiled translations),
and the two take turns, old first then new first: each run is that tree's own
`bench/table_latency.py` (its own server, fresh database and players), so a machine whose speed
drifts weighs on both alike. Prints every run's figures and the medians of each side; the last
line is one JSON object: {"old": {...}, "new": {...}} with the medians of table_latency's keys.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def export(revision: str, into: Path) -> Path:
    """The whole tree of `revision`, with this checkout's compiled translations (git keeps none)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    for compiled in (ROOT / "locale").rglob("*.mo"):
        target = into / compiled.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(compiled, target)
    return into


def run(tree: Path, extra: list[str]) -> dict | None:
    """One table_latency run of `tree` (its code, its bench); the figures of its last line."""
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / "table_latency.py"), *extra],
        cwd=tree,
        check=False,
        capture_output=True,
        text=True,
    )
    if done.returncode:  # on a loaded machine a run can fail (sockets not opened in time): said, and skipped
        print(f"table_latency.py of {tree} failed:\n{done.stderr[-1500:]}", file=sys.stderr, flush=True)
        return None
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures = {key.replace("rooms_", "tables_"): value for key, value in figures.items()}  # before the rename
    for scenario in figures.values():  # a scenario that answered nothing (a loaded machine) has no figures
        if isinstance(scenario, dict) and not scenario.get("actions_per_s"):
            scenario.update({key: float("nan") for key in scenario if key != "errors"})
    figures["ratio_1_table_to_echo"] = round(figures["tables_1"]["p50_ms"] / figures["echo_p50_ms"], 3)
    return figures


def flat(figures: dict, prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    for key, value in figures.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}."))
        elif isinstance(value, int | float):
            out[f"{prefix}{key}"] = value
    return out


def medians(runs: list[dict]) -> dict[str, float | None]:
    """Each key's median over the runs that have a number for it (a scenario that answered
    nothing on a loaded machine has none: its run is printed, and left out here)."""
    keys = flat(runs[0]).keys()
    out: dict[str, float | None] = {}
    for key in keys:
        values = [flat(r)[key] for r in runs if key in flat(r) and flat(r)[key] == flat(r)[key]]  # NaN != NaN
        out[key] = round(statistics.median(values), 3) if values else None
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("revision", help="the old revision (e.g. the commit before a change)")
    parser.add_argument("--pairs", type=int, default=3, help="runs of each side")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument(
        "--at-least",
        type=int,
        default=0,
        help="table_latency's: each scenario plays on until this many moves are answered (a loaded machine)",
    )
    args = parser.parse_args()
    extra = ["--seconds", str(args.seconds)] + (["--at-least", str(args.at_least)] if args.at_least else [])
    old_runs, new_runs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = export(args.revision, Path(tmp))
        for pair in range(args.pairs):
            order = [("old", old_tree, old_runs), ("new", ROOT, new_runs)]
            for name, tree, runs in order if pair % 2 == 0 else order[::-1]:
                figures = run(tree, extra)
                if figures is not None:
                    runs.append(figures)
                print(f"pair {pair + 1} {name}: {json.dumps(figures)}", flush=True)
    if not old_runs or not new_runs:
        sys.exit("no run of one side finished")
    old, new = medians(old_runs), medians(new_runs)
    width = max(map(len, old))
    print(f"{'median':<{width}}  {'old':>9}  {'new':>9}")
    for key in old:
        print(f"{key:<{width}}  {old[key]!s:>9}  {new[key]!s:>9}")
    print(json.dumps({"old": old, "new": new}))


if __name__ == "__main__":
    main()
