"""Replays are exact across engine versions: the same seeds and actions give the same events,
views and states as the engine of commit a71c237, and a game it saved mid-action plays on."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from game.games.sevn.engine import apply, from_json, legal_actions, new_game, public_view, timeout, to_json

GAMES = 200
# sha256 of every event, view and final state of the games below, recorded with a71c237's engine.
RECORDED_GAMES = "2f456e10e93060dfe9dd07bbcbb057cae5da87a6192a22120be98bcf6effabb0"
# The same for the saved game below, played on to its end.
RECORDED_SAVED = "b4916d36abc2c6e739941ea74d346db61bbd76d2f81739daa7cdaec3c929ef78"
SAVED = Path(__file__).with_name("saved_a71c237.json")


def play_on(state: dict, rng: random.Random, digest: hashlib._Hash) -> None:
    """Play to the end with a fixed random policy (now and then a timeout), hashing as we go."""
    while not state["over"]:
        digest.update(json.dumps(public_view(state), sort_keys=True).encode())
        legal = legal_actions(state)
        if rng.random() < 0.05:
            events = timeout(state)
        elif legal[0]["kind"] == "draw" and rng.random() < 0.7:
            events = apply(state, legal[0])
        else:
            events = apply(state, rng.choice(legal))
        digest.update(json.dumps(events, sort_keys=True).encode())
    digest.update(to_json(state).encode())


def games_digest() -> str:
    digest = hashlib.sha256()
    for seed in range(GAMES):
        events: list[dict] = []
        state = new_game(2 + seed % 7, seed, target=(100, 250)[seed % 2], events=events)
        digest.update(json.dumps(events, sort_keys=True).encode())
        play_on(state, random.Random(seed), digest)
    return digest.hexdigest()


def saved_digest() -> str:
    digest = hashlib.sha256()
    play_on(from_json(SAVED.read_text()), random.Random(1), digest)
    return digest.hexdigest()


def test_seeded_games_replay_exactly_as_recorded():
    assert games_digest() == RECORDED_GAMES


def test_a_game_saved_mid_action_by_a71c237_loads_and_plays_on_as_recorded():
    assert saved_digest() == RECORDED_SAVED
