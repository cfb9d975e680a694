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
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's bench, before a child's tree

from bench.set_up import child_figures, enter_tree, medians, tree_arguments, trees_in_turns  # noqa: E402


def child_main(args) -> None:
    # move_cpu.py's key: the seats' tags in its recorded updates are its
    enter_tree(args.tree, {"DATABASE_URL": "sqlite:///:memory:", "SECRET_KEY": "move-cpu-bench-" + "k" * 40})
    import gc

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
    tree_arguments(parser)
    parser.add_argument("--rounds", type=int, default=3, help="replays per run (the first one warms up)")
    parser.add_argument("--limit", type=int, default=0, help="replay only the first this many updates")
    args = parser.parse_args()
    if args.child:
        child_main(args)
        return

    def run(tree: str) -> dict:
        command = [sys.executable, __file__, args.updates, "--child", "--tree", tree, "--rounds", str(args.rounds)]
        return child_figures(command + ["--limit", str(args.limit)], tree)  # (the child was never told it before)

    runs = trees_in_turns(
        args, run, lambda figures: f"{figures['ms']} ms a move's render ({figures['updates']} updates)"
    )
    summary = medians(runs, "ms", 4)
    for tree, line in summary.items():
        print(f"{tree}: ms a move's render {line['ms']}, median {line['median']}")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
