"""Where the exact solve of a Sevens round's end (game/games/sevens/endgame.py) can take over from
the sampled judgement (analysis.options): what each costs per decision, by the number of deals that
fit what the seat saw.

Plays `--games` 3-round games of 5 bots (the analysis bench's seats) and, at every decision with a
choice where the others hold at most `--cards` cards, counts the deals that fit and, up to
`--deals` of them, judges the decision both ways: exactly (every deal, each round solved; in C
when built) and sampled (4,800 imagined deals played out by medium's rule). Prints, by bands of
the deal count, how many decisions fall there, the CPU milliseconds of each way (median, p95 and
max; process time, one core) and how often the two pick the same best card and grade the chosen
one alike. endgame.EXACT_DEALS and EXACT_CARDS were chosen from these figures (bench/README.md).
The last line is one JSON object of the bands.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.games.sevens import analysis, endgame, record_play  # noqa: E402
from game.games.sevens.bots import POLICIES  # noqa: E402
from game.games.sevens.bots.sight import read_sight  # noqa: E402
from game.games.sevens.engine import view  # noqa: E402

NAMES = ("hard", "medium", "easy", "long_suit_far", "medium")
BANDS = (100, 300, 1000, 3000, 10000, 30000, 100000)


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def decisions(games: int, first_seed: int, cards: int):
    """(sight, chosen card) at every decision with a choice where the others hold at most `cards`."""
    for game in range(games):
        order = NAMES[game % len(NAMES) :] + NAMES[: game % len(NAMES)]
        record = analysis.bot_record([POLICIES[name] for name in order], first_seed + game)
        state = record_play.new(len(order), record["fair"]["engine_seed"], dict(record["options"]), [])
        for move in record["moves"]:
            sight = read_sight(view(state, state["current"]), state["moves"])
            unseen = sum(count for seat, count in enumerate(sight.counts) if seat != sight.seat)
            if len(sight.playable) > 1 and unseen <= cards:
                yield sight, move["action"]["card"]
            record_play.apply(state, move["action"], move["seat"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed")
    parser.add_argument("--cards", type=int, default=16, help="the most cards in the others' hands looked at")
    parser.add_argument("--deals", type=int, default=100000, help="the most fitting deals solved exactly")
    args = parser.parse_args()
    rows = []
    for sight, chosen in decisions(args.games, args.seed, args.cards):
        started = time.process_time()
        count = endgame.count_deals(sight)
        counted = time.process_time() - started
        if count > args.deals:
            continue
        started = time.process_time()
        rated, values, _chances, _n = endgame.options(sight)
        exact = time.process_time() - started
        started = time.process_time()
        sampled_rated, sampled_values, _ends = analysis.options(sight, seed=1)
        sampled = time.process_time() - started
        best = max(values, key=values.__getitem__)
        sampled_means = {card: sum(seen) / len(seen) for card, seen in sampled_values.items()}
        sampled_best = max(sampled_means, key=sampled_means.__getitem__)
        exact_grade = analysis.grade(100 * (values[best] - values[chosen]))
        sampled_grade = analysis.grade(100 * (sampled_means[sampled_best] - sampled_means[chosen]))
        unseen = sum(c for seat, c in enumerate(sight.counts) if seat != sight.seat)
        rows.append((count, unseen, counted, exact, sampled, best == sampled_best, exact_grade == sampled_grade))
        print(
            f"{unseen:2} cards {count:6} deals: count {counted * 1000:6.1f} ms, exact {exact * 1000:7.1f} ms, "
            f"sampled {sampled * 1000:6.1f} ms, same best {best == sampled_best}",
            flush=True,
        )
    bands, low = [], 0
    print("\n deals        n  exact ms p50/p95/max      sampled ms p50/p95   same best  same grade")
    for high in BANDS:
        seen = [row for row in rows if low < row[0] <= high]
        low = high
        if not seen:
            continue
        exact = [row[3] * 1000 for row in seen]
        sampled = [row[4] * 1000 for row in seen]
        band = {
            "deals_at_most": high,
            "decisions": len(seen),
            "exact_ms_p50": round(statistics.median(exact), 1),
            "exact_ms_p95": round(quantile(exact, 0.95), 1),
            "exact_ms_max": round(max(exact), 1),
            "sampled_ms_p50": round(statistics.median(sampled), 1),
            "sampled_ms_p95": round(quantile(sampled, 0.95), 1),
            "same_best": round(sum(row[5] for row in seen) / len(seen), 3),
            "same_grade": round(sum(row[6] for row in seen) / len(seen), 3),
        }
        bands.append(band)
        print(
            f"{high:6} {len(seen):8}  {band['exact_ms_p50']:7} {band['exact_ms_p95']:7} {band['exact_ms_max']:7}"
            f"  {band['sampled_ms_p50']:9} {band['sampled_ms_p95']:7}"
            f"  {band['same_best']:9.1%} {band['same_grade']:10.1%}"
        )
    print(f"count_deals: max {max(row[2] for row in rows) * 1000:.1f} ms")
    print(json.dumps({"bands": bands, "decisions": len(rows)}))


if __name__ == "__main__":
    main()
