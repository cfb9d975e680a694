"""Sevens bot strength: complete 4-seat, 3-round games, one subject policy against three copies
of another.

Each match-up plays `--games` games on seeds 0, 1, 2, ...; the subject sits at seat
`seed % 4`, so it plays every position equally. A game's win is shared among the seats tied
for the lowest total, so a seat's win share per game is 1, 1/2, 1/3 ... or 0, and a fair share
is 1/4. Prints each match-up's mean share for the subject with a 95% interval (normal
approximation on the per-game shares) and the subject's decision times (CPU time on one
core); the last line is one JSON object:
{"hard_vs_medium": …, "medium_vs_easy": …, "hard_vs_heuristic": …, "hard_decision_p99_ms": …, ...}.
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

from game.games.sevens.bots import POLICIES  # noqa: E402
from game.games.sevens.bots.arena import play_game  # noqa: E402

SEATS = 4
ROUNDS = 3
MATCH_UPS = {  # name in the summary: (subject, opponent)
    "medium_vs_easy": ("medium", "easy"),
    "hard_vs_medium": ("hard", "medium"),
    "hard_vs_heuristic": ("hard", "long_suit_far"),
}


def play(job: tuple[str, str, int]) -> tuple[float, list[float]]:
    """One game: the subject's share of the win, and its decision times in seconds."""
    subject, opponent, seed = job
    seat = seed % SEATS
    policies = [POLICIES[opponent]] * SEATS
    policies[seat] = POLICIES[subject]
    timings: list[list[float]] = [[] for _ in range(SEATS)]
    state = play_game(policies, seed, rounds=ROUNDS, timings=timings)
    winners = state["winners"]
    return (1 / len(winners) if seat in winners else 0.0), timings[seat]


def interval(shares: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean share and its 95% interval."""
    n = len(shares)
    mean = sum(shares) / n
    spread = math.sqrt(sum((s - mean) ** 2 for s in shares) / (n - 1)) if n > 1 else 0.0
    half = z * spread / math.sqrt(n)
    return mean, mean - half, mean + half


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per match-up")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    summary: dict[str, float] = {}
    hard_times: list[float] = []
    with Pool(args.workers) as pool:
        for name, (subject, opponent) in MATCH_UPS.items():
            started = time.perf_counter()
            results = pool.map(play, [(subject, opponent, seed) for seed in range(args.games)], chunksize=10)
            shares = [share for share, _ in results]
            times = sorted(t for _, game_times in results for t in game_times)
            if subject == "hard":
                hard_times += times
            mean, low, high = interval(shares)
            summary[name] = round(mean, 4)
            summary[f"{name}_ci95"] = [round(low, 4), round(high, 4)]
            print(
                f"{subject:>6} vs 3x {opponent:<13} share {mean:.3f}  95% [{low:.3f}, {high:.3f}]  "
                f"({args.games} games)  decisions {len(times)}: "
                f"mean {1000 * sum(times) / len(times):.2f} ms, p50 {1000 * percentile(times, 0.5):.2f} ms, "
                f"p99 {1000 * percentile(times, 0.99):.2f} ms, max {1000 * times[-1]:.2f} ms  "
                f"[{time.perf_counter() - started:.0f} s]",
                flush=True,
            )
    hard_times.sort()
    summary["hard_decision_p99_ms"] = round(1000 * percentile(hard_times, 0.99), 2)
    summary["games"] = args.games
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
