"""10,000 rated games between bots of three levels (#26 item 5): the ratings the site computes
(game.services.ratings.rate_places, openskill's Plackett-Luce) put the levels in their order,
and the average skill does not drift.

The fast path: playing 10,000 games with the hard bot takes about a minute, so the test plays
1,200 real games of SEVN once, through the engine and the bots directly (no Django, no
database): 400 heads-up games for each pair of levels, each level in each seat half the time.
Each of the 10,000 rated games then seats one player of each of two levels, drawn from a
population of five players per level, and takes its finishing places from a real game of that
pair drawn at random.
"""

from __future__ import annotations

import random
import statistics

from game.core.kind import places_by
from game.games.sevn.bots import LEVELS, POLICIES
from game.games.sevn.bots.arena import play_game
from game.services.ratings import MODEL, rate_places, shown, standings

REAL_GAMES_PER_PAIR = 400
RATED_GAMES = 10_000
PLAYERS_PER_LEVEL = 5
TARGET = 50  # short games: the levels' order shows as at the full target, sooner


def real_results() -> dict[tuple[str, str], list[list[int]]]:
    """Finishing places of real games, by the levels in seat order."""
    pool: dict[tuple[str, str], list[list[int]]] = {}
    seed = 0
    for i, first in enumerate(LEVELS):
        for second in LEVELS[i + 1 :]:
            for n in range(REAL_GAMES_PER_PAIR):
                seed += 1
                order = (first, second) if n % 2 == 0 else (second, first)
                state = play_game([POLICIES[level] for level in order], seed, target=TARGET)
                places = places_by([seat["total"] for seat in state["seats"]], higher_wins=True)
                pool.setdefault(order, []).append(places)
    return pool


def test_ten_thousand_rated_bot_games_order_the_levels_and_the_average_does_not_drift():
    pool = real_results()
    # the real games themselves: the stronger level of each pair wins most of them
    for (first, second), games in pool.items():
        won = sum(places[LEVELS.index(first) < LEVELS.index(second)] == 1 for places in games)
        assert won > len(games) / 2, (first, second, won)
    players = [(level, n) for level in LEVELS for n in range(PLAYERS_PER_LEVEL)]
    rating = {player: (MODEL.mu, MODEL.sigma) for player in players}
    rng = random.Random(26)
    means = []
    for game in range(RATED_GAMES):
        order = rng.choice(list(pool))
        seated = [(level, rng.randrange(PLAYERS_PER_LEVEL)) for level in order]
        places = standings(rng.choice(pool[order]), [False, False])
        for player, new in zip(seated, rate_places([rating[p] for p in seated], places), strict=True):
            rating[player] = new
        if game % 1000 == 999:
            means.append(statistics.fmean(mu for mu, _sigma in rating.values()))

    by_level = {level: [rating[(level, n)] for n in range(PLAYERS_PER_LEVEL)] for level in LEVELS}
    mean_mu = {level: statistics.fmean(mu for mu, _ in rows) for level, rows in by_level.items()}
    mean_shown = {level: statistics.fmean(shown(mu, sigma) for mu, sigma in rows) for level, rows in by_level.items()}
    print("mean mu per level", mean_mu, "shown", mean_shown, "average mu every 1,000 games", means)
    assert mean_mu["easy"] < mean_mu["medium"] < mean_mu["hard"]
    assert mean_shown["easy"] < mean_shown["medium"] < mean_shown["hard"]
    # every hard player ends above every easy one
    assert max(mu for mu, _ in by_level["easy"]) < min(mu for mu, _ in by_level["hard"])
    # the average skill does not drift: it settles within the first 1,000 games (openskill's
    # updates are weighted by each player's uncertainty, so while those differ a game is not
    # exactly zero-sum: 25 -> 24.7) and then stays put for the other 9,000
    assert all(abs(mean - MODEL.mu) < 0.5 for mean in means), means
    assert max(means) - min(means) < 0.05, means
