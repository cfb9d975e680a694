"""Bot strength: complete 4-seat games, one subject policy against three copies of another.

Each match-up plays `--games` games on seeds 0, 1, 2, ...; the subject sits at seat
`seed % 4`, so it plays every position equally. Prints each match-up's win rate for the subject
(a game's winner is `state["winner"]`) with a 95% interval and the subject's decision times;
the last line is one JSON object:
{"hard_vs_medium": …, "medium_vs_easy": …, "hard_vs_threshold25": …, "hard_decision_p99_ms": …}.
Games are spread over worker processes, but every game depends only on its seed, so the
results are the same whatever the number of workers.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.games.sevn.bots import POLICIES  # noqa: E402
from game.games.sevn.bots.arena import play_game  # noqa: E402

SEATS = 4
MATCH_UPS = (("hard", "medium"), ("medium", "easy"), ("hard", "threshold25"))


def play(job: tuple[str, str, int]) -> tuple[bool, list[float]]:
    """One game: whether the subject won, and its decision times in seconds."""
    subject, opponent, seed = job
    seat = seed % SEATS
    policies = [POLICIES[opponent]] * SEATS
    policies[seat] = POLICIES[subject]
    timings: list[list[float]] = [[] for _ in range(SEATS)]
    state = play_game(policies, seed, timings=timings)
    return state["winner"] == seat, timings[seat]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4000, help="games per match-up")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    summary: dict[str, float] = {}
    hard_times: list[float] = []
    with Pool(args.workers) as pool:
        for subject, opponent in MATCH_UPS:
            started = time.perf_counter()
            jobs = [(subject, opponent, seed) for seed in range(args.games)]
            results = pool.map(play, jobs, chunksize=25)
            wins = sum(won for won, _ in results)
            times = sorted(t for _, game_times in results for t in game_times)
            if subject == "hard":
                hard_times += times
            low, high = wilson(wins, args.games)
            rate = wins / args.games
            summary[f"{subject}_vs_{opponent}"] = round(rate, 4)
            print(
                f"{subject:>6} vs 3x {opponent:<11} win {rate:.3f}  95% [{low:.3f}, {high:.3f}]  "
                f"({wins}/{args.games})  decisions {len(times)}: "
                f"mean {1000 * sum(times) / len(times):.2f} ms, p50 {1000 * percentile(times, 0.5):.2f} ms, "
                f"p99 {1000 * percentile(times, 0.99):.2f} ms, max {1000 * times[-1]:.2f} ms  "
                f"[{time.perf_counter() - started:.0f} s]",
                flush=True,
            )
    hard_times.sort()
    summary["hard_decision_p99_ms"] = round(1000 * percentile(hard_times, 0.99), 2)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
