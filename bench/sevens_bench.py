"""Sevens engine speed: complete 4-seat, 3-round games with random legal play, on one core.

Each game's plays come from `random.Random(seed)` choosing among `legal_actions`; passes and
the 7♦ are played by the engine itself and counted as plays too (every move of the round).
Prints plays and games per second (median of 5 runs); the last line is one JSON object
{"plays_per_s": …, "games_per_s": …}.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.games.sevens.engine import apply, legal_actions, new_game  # noqa: E402

MOVES = ("played", "passed")


def play_game(seed: int, seats: int = 4, rounds: int = 3) -> int:
    """One complete game; returns the moves made (plays and passes)."""
    rng = random.Random(seed)
    events: list[dict] = []
    state = new_game(seats, seed, rounds=rounds, events=events)
    moves = sum(1 for event in events if event["type"] in MOVES)
    while not state["over"]:
        events = apply(state, rng.choice(legal_actions(state)))
        moves += sum(1 for event in events if event["type"] in MOVES)
    return moves


def run(games: int, first_seed: int) -> dict:
    moves = 0
    started = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        moves += play_game(seed)
    elapsed = time.perf_counter() - started
    return {"plays_per_s": moves / elapsed, "games_per_s": games / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = []
    for i in range(args.runs):
        result = run(args.games, first_seed=i * args.games)
        results.append(result)
        print(f"run {i + 1}: " + ", ".join(f"{k} {v:,.0f}" for k, v in result.items()), flush=True)
    median = {key: round(statistics.median(r[key] for r in results), 1) for key in results[0]}
    print("median: " + ", ".join(f"{k} {v:,.0f}" for k, v in median.items()))
    print(json.dumps(median))


if __name__ == "__main__":
    main()
