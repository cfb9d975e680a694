"""What analysing a finished game costs, and how its grades behave (game/games/*/analysis.py).

Plays `--games` complete games of computer players per game (SEVN: 4 seats to 250; Sevens: 5
seats, 3 rounds), each seat a different policy in turn, and analyses each with every seat judged
as a person's would be (the most work a game can ask). Prints:

- the CPU seconds of one game's analysis (process time, one core): median and p95 per game;
- the spread of the losses per policy (percentage points of the chance to win), and how many
  reach each grade: what the thresholds were calibrated on;
- the hard bot's own decisions graded (the tests want no blunder);
- the agreement of the grades between two analysis seeds (all decisions, and those either seed
  marked).

The last line is one JSON object: {"sevn_analysis_cpu_p50_s": …, "sevn_analysis_cpu_p95_s": …,
"sevens_analysis_cpu_p50_s": …, "sevens_analysis_cpu_p95_s": …, …}.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.games.sevens import analysis as sevens_analysis  # noqa: E402
from game.games.sevens.bots import POLICIES as SEVENS_POLICIES  # noqa: E402
from game.games.sevn import analysis as sevn_analysis  # noqa: E402
from game.games.sevn.bots import POLICIES as SEVN_POLICIES  # noqa: E402

SETUPS = {
    "sevn": (sevn_analysis, SEVN_POLICIES, ("hard", "medium", "easy", "threshold25"), {"target": 250}),
    "sevens": (sevens_analysis, SEVENS_POLICIES, ("hard", "medium", "easy", "long_suit_far", "medium"), {"rounds": 3}),
}


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(name: str, games: int, first_seed: int) -> dict:
    module, policies, names, options = SETUPS[name]
    cpu: list[float] = []
    losses: dict[str, list[tuple[float, str]]] = defaultdict(list)
    same = total = marked = marked_same = 0
    for game in range(games):
        seed = first_seed + game
        order = names[game % len(names) :] + names[: game % len(names)]
        record = module.bot_record([policies[policy] for policy in order], seed, **options)
        started = time.process_time()
        result = module.analyse(record, seed=1)
        cpu.append(time.process_time() - started)
        other = module.analyse(record, seed=2)
        for step, decision in result["decisions"].items():
            losses[order[decision["seat"]]].append((decision["loss"], decision["grade"]))
            again = other["decisions"][step]["grade"]
            total += 1
            same += again == decision["grade"]
            if again or decision["grade"]:
                marked += 1
                marked_same += again == decision["grade"]
        print(f"{name} game {game + 1}/{games}: {len(record['moves'])} moves, {cpu[-1]:.2f} s CPU", flush=True)
    print(f"\n{name}: CPU per game p50 {statistics.median(cpu):.2f} s, p95 {quantile(cpu, 0.95):.2f} s")
    for policy, seen in sorted(losses.items()):
        values = [loss for loss, _grade in seen]
        grades = Counter(grade for _loss, grade in seen if grade)
        print(
            f"  {policy:14} {len(values):5} decisions  loss p90 {quantile(values, 0.9):5.2f}  p99 "
            f"{quantile(values, 0.99):5.2f}  max {max(values):5.2f}  graded {dict(grades)}"
        )
    agreement = same / total if total else 1.0
    marked_agreement = marked_same / marked if marked else 1.0
    print(f"  grades equal under two seeds: {agreement:.1%} of decisions, {marked_agreement:.1%} of those marked")
    hard = Counter(grade for _loss, grade in losses.get("hard", []) if grade)
    return {
        f"{name}_analysis_cpu_p50_s": round(statistics.median(cpu), 3),
        f"{name}_analysis_cpu_p95_s": round(quantile(cpu, 0.95), 3),
        f"{name}_grade_agreement": round(agreement, 4),
        f"{name}_marked_grade_agreement": round(marked_agreement, 4),
        f"{name}_hard_bot_blunders": hard.get("blunder", 0),
        f"{name}_hard_bot_mistakes": hard.get("mistake", 0),
        f"{name}_games": games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game kind")
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed")
    parser.add_argument("--only", choices=sorted(SETUPS), help="one game kind only")
    args = parser.parse_args()
    summary = {}
    for name in [args.only] if args.only else SETUPS:
        summary.update(run(name, args.games, args.seed))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
