"""Invariants over random seeds, 2-8 seats and random legal play (hypothesis), and 2,000
complete random games."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.games.sevn.engine import DECK, apply, from_json, legal_actions, new_game, timeout, to_json
from game.games.sevn.engine.decisions import default_action
from tests.games.sevn.engine.helpers import all_cards

MAX_ACTIONS_PER_ROUND = 1000
MAX_ACTIONS_PER_GAME = 20000


def random_step(state: dict, rng: random.Random) -> tuple[dict | None, list[dict]]:
    """One random legal action, or now and then a timeout, as a player might let happen."""
    if rng.random() < 0.05:
        return None, timeout(state)
    action = rng.choice(legal_actions(state))
    return action, apply(state, action)


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**63),
    seats=st.integers(2, 8),
    play=st.randoms(use_true_random=False),
    target=st.sampled_from([60, 150, 250]),
)
def test_invariants_hold_through_random_play(seed, seats, play, target):
    events: list[dict] = []
    state = new_game(seats, seed, target=target, events=events)
    log: list[dict | None] = []
    busted: set[int] = set()
    actions_this_round = 0
    while True:
        for event in events:
            if event["type"] == "bust":
                busted.add(event["seat"])
            elif event["type"] == "round_scored":
                for seat, (score, steps) in enumerate(zip(event["scores"], event["steps"], strict=True)):
                    assert score >= 0
                    if seat in busted:
                        assert score == 0 and steps is None
                    else:
                        assert score == steps[-1]["total"]
                busted.clear()
                actions_this_round = 0
        if state["over"]:
            break
        assert Counter(all_cards(state)) == Counter(DECK)
        assert from_json(to_json(state)) == state and to_json(from_json(to_json(state))) == to_json(state)
        assert default_action(state) in legal_actions(state)  # timeout applies it without asking refusal
        action, events = random_step(state, play)
        log.append(action)
        actions_this_round += 1
        assert actions_this_round < MAX_ACTIONS_PER_ROUND, "a round did not end"
    assert Counter(all_cards(state)) == Counter(DECK)
    assert sum(state["history"][-1]) >= 0 and state["winner"] is not None

    replay = new_game(seats, seed, target=target)
    for action in log:
        if action is None:
            timeout(replay)
        else:
            apply(replay, action)
    assert to_json(replay) == to_json(state)


def test_two_thousand_random_games_always_end():
    rng = random.Random(2026)
    for game in range(2000):
        state = new_game(rng.randint(2, 8), seed=game)
        for _ in range(MAX_ACTIONS_PER_GAME):
            if state["over"]:
                break
            apply(state, rng.choice(legal_actions(state)))
        assert state["over"], f"game {game} did not end"
        assert max(seat["total"] for seat in state["seats"]) >= 250
        assert state["seats"][state["winner"]]["total"] == max(seat["total"] for seat in state["seats"])
