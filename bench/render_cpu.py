"""The render of a move alone, replayed: every table update of a `move_cpu.py` run (`--record`),
drawn again by four screens a table (each seat's viewer, as the consumer's Screen draws them), with
nothing else in the process. The same updates in every run and every tree, so a change to the
render shows in a few per cent where the whole move's CPU moves more than that with the machine.

    .venv/bin/python bench/move_cpu.py --record /tmp/updates.json          # play, keep the updates
    .venv/bin/python bench/render_cpu.py /tmp/updates.json --trees /tmp/base,. --turns 5

CPU is the process's over the replay (time.process_time), per update drawn by all its screens
(a move's render); the last line is one JSON object: per tree, the runs in order.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's bench, before a child's tree

from bench.set_up import in_turns  # noqa: E402


def child_main(args) -> None:
    tree = Path(args.tree).resolve()
    os.chdir(tree)
    sys.path.insert(0, str(tree))
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "sevn_site.settings",
            "DATABASE_URL": "sqlite:///:memory:",
            "SECRET_KEY": "move-cpu-bench-" + "k" * 40,  # move_cpu.py's: the seats' tags are its
        }
    )
    import gc

    import django

    django.setup()
    from game.delivery.broadcast import Passed
    from game.drawkit.pieces import drawings
    from game.screen.table import Screen

    with open(args.updates) as source:
        recorded = json.load(source)
    gc.collect()
    gc.freeze()
    gc.set_threshold(5000, 20, 100)  # as sevn_site.asgi sets it for a server
    spent = []
    for _round in range(args.rounds):
        drawings._drawn.clear()  # every replay draws what it draws: nothing left from the one before
        screens = {
            table: [Screen(viewer, "en") for viewer in viewers] for table, viewers in recorded["viewers"].items()
        }
        updates = [(table, json.loads(body)) for table, body in recorded["updates"][: args.limit or None]]
        started = time.process_time()
        for table, body in updates:
            passed = Passed(body)
            for screen in screens[table]:
                screen.update(body["snapshot"], body["events"], passed)
        spent.append(time.process_time() - started)
    drawn = len(recorded["updates"][: args.limit or None])
    per_update = [seconds / drawn * 1000 for seconds in spent[1:] or spent]
    print(json.dumps({"updates": drawn, "ms": round(statistics.median(per_update), 4)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("updates", help="a file move_cpu.py --record wrote")
    parser.add_argument("--trees", default=".", help="comma-separated trees to run, in turns")
    parser.add_argument("--turns", type=int, default=1, help="runs of each tree, taking turns")
    parser.add_argument("--rounds", type=int, default=3, help="replays per run (the first one warms up)")
    parser.add_argument("--limit", type=int, default=0, help="replay only the first this many updates")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_main(args)
        return
    trees = [str(Path(tree).resolve()) for tree in args.trees.split(",")]
    runs: dict[str, list[float]] = {tree: [] for tree in trees}
    for turn, tree in in_turns(args.turns, trees):
        command = [sys.executable, __file__, args.updates, "--child", "--tree", tree, "--rounds", str(args.rounds)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode:
            raise SystemExit(f"{tree} failed:\n{done.stderr[-4000:]}")
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        runs[tree].append(figures["ms"])
        line = f"turn {turn + 1} {tree}: {figures['ms']} ms a move's render ({figures['updates']} updates)"
        print(line, flush=True)
    summary = {tree: {"ms": kept, "median": round(statistics.median(kept), 4)} for tree, kept in runs.items()}
    for tree, line in summary.items():
        print(f"{tree}: ms a move's render {line['ms']}, median {line['median']}")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
