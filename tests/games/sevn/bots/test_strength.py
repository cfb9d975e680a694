"""Hard beats medium: a small seeded tournament (the full one is bench/bot_tournament.py)."""

from __future__ import annotations

from game.games.sevn.bots import POLICIES
from game.games.sevn.bots.arena import play_game

GAMES = 240  # hard wins about 38% against three mediums; 0.25 is four standard errors below


def test_hard_wins_more_than_its_fair_share_against_three_mediums():
    wins = 0
    for seed in range(GAMES):
        seat = seed % 4
        policies = [POLICIES["medium"]] * 4
        policies[seat] = POLICIES["hard"]
        wins += play_game(policies, seed)["winner"] == seat
    assert wins / GAMES > 0.25, wins
