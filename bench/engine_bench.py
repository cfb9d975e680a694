"""Engine speed: complete 4-seat games with a simple policy, on one core.

The policy draws while its row scores under 25 and otherwise passes; every other decision
takes the engine's own timeout default. Prints cards resolved, rounds and games per second
(median of 5 runs); the last line is one JSON object of those figures. Seconds are this
process's CPU time, so that other work on a shared machine does not count against the engine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    from game.games.sevn.engine import apply, new_game, score_steps, timeout
except ImportError:  # an older tree (bench/engine_ab.py): before game/games, or before the games' folders
    try:
        from game.games.sevn.engine import apply, new_game, score_steps, timeout  # type: ignore[no-redef]
    except ImportError:
        from game.engine import apply, new_game, score_steps, timeout  # type: ignore[no-redef]

RESOLVED = ("dealt", "drawn", "crossroads_picked")  # each resolves exactly one card


def play_game(seed: int, seats: int = 4) -> tuple[int, int]:
    """One complete game; returns (cards resolved, rounds played)."""
    state = new_game(seats, seed)
    cards = 0
    while not state["over"]:
        pending = state["pending"]
        if pending["kind"] == "turn":
            row = state["seats"][pending["seat"]]["row"]
            action = {"kind": "draw"} if score_steps(row)[-1]["total"] < 25 else {"kind": "pass"}
            events = apply(state, action)
        else:
            events = timeout(state)
        cards += sum(1 for event in events if event["type"] in RESOLVED)
    return cards, state["round"]


def run(games: int, first_seed: int) -> dict:
    cards = rounds = 0
    started = time.process_time()
    for seed in range(first_seed, first_seed + games):
        c, r = play_game(seed)
        cards += c
        rounds += r
    elapsed = time.process_time() - started
    return {"cards_per_s": cards / elapsed, "rounds_per_s": rounds / elapsed, "games_per_s": games / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="games per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = []
    for i in range(args.runs):
        result = run(args.games, first_seed=i * args.games)
        results.append(result)
        print(f"run {i + 1}: " + ", ".join(f"{k} {v:,.0f}" for k, v in result.items()))
    median = {key: round(statistics.median(r[key] for r in results), 1) for key in results[0]}
    print("median: " + ", ".join(f"{k} {v:,.0f}" for k, v in median.items()))
    print(json.dumps(median))


if __name__ == "__main__":
    main()
