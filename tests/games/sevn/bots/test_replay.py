"""The bots play exactly as they did on a71c237's engine: same seeds, same games, every level."""

from __future__ import annotations

import hashlib

from game.games.sevn.bots import POLICIES
from game.games.sevn.bots.arena import play_game
from game.games.sevn.engine import to_json

# sha256 of the final states below, recorded with a71c237's engine and bots.
RECORDED = "31a799f598b00a1eabd11a359387bd8714c18701ab6861c1f2567fb49464486a"


def games_digest() -> str:
    digest = hashlib.sha256()
    for seed in range(10):
        for level in ("hard", "medium", "easy", "threshold25"):
            policies = [POLICIES["medium"]] * 4
            policies[seed % 4] = POLICIES[level]
            digest.update(to_json(play_game(policies, seed, target=100)).encode())
    return digest.hexdigest()


def test_bot_games_replay_as_recorded():
    assert games_digest() == RECORDED
