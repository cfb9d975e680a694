"""What clients may see (rules section 10), JSON round trips, cloning, determinism."""

from __future__ import annotations

import json
import random

from game.games.sevn.engine import apply, from_json, legal_actions, new_game, public_view, to_json
from game.games.sevn.engine.state import shuffle
from tests.games.sevn.engine.helpers import act, start


def test_public_view_matches_the_contract_shape():
    state, _ = start(["7", "x2", "5", "9", "storm"], seats=2)
    view = public_view(state)
    assert view["round"] == 1 and view["dealer"] == 0 and view["target"] == 250
    assert view["current"] == 1 and view["pending"] == {"kind": "turn"}
    assert view["deck_count"] == 3 and view["discard_count"] == 0 and view["discard"] == {}
    assert view["seats"][1] == {"row": ["7"], "status": "in", "total": 0, "round_score": 7}
    assert view["over"] is False and view["winner"] is None and view["history"] == []
    json.dumps(view)


def test_public_view_never_holds_the_deck_order_or_the_seed():
    state = new_game(4, seed=987654321)
    text = json.dumps(public_view(state))
    assert "987654321" not in text and "rng" not in text and "seed" not in text
    assert "deck" not in [key for key in public_view(state) if key != "deck_count"]
    # the hidden deck order does not change the view
    other = state.clone()
    random.Random(1).shuffle(other["deck"])
    assert public_view(other) == public_view(state)


def test_public_view_shows_the_pending_choice_the_queue_and_the_discard_counts():
    state, _ = start(["1", "2", "3", "triple_draw", "freeze", "5", "6", "9"], seats=3)
    act(state, "draw", {"kind": "triple_draw", "seat": 2})
    view = public_view(state)
    assert view["pending"] == {"kind": "freeze", "options": [0, 1, 2]}
    assert view["current"] == 2 and view["active"] == "freeze" and view["queue"] == []
    assert view["discard"] == {"triple_draw": 1}


def test_round_score_preview_and_bust_row():
    state, _ = start(["5", "9", "5", "1"])
    act(state, "draw")
    assert public_view(state)["seats"][1]["round_score"] == 0
    assert public_view(state)["seats"][1]["status"] == "bust"


def test_json_round_trip_continues_identically():
    a = new_game(5, seed=42)
    rng = random.Random(3)
    for _ in range(60):
        if a["over"]:
            break
        b = from_json(to_json(a))
        action = rng.choice(legal_actions(a))
        assert apply(b, action) == apply(a, action)
        assert to_json(a) == to_json(b)


def test_clone_is_independent():
    state = new_game(3, seed=5)
    copy = state.clone()
    apply(copy, legal_actions(copy)[0])
    assert to_json(copy) != to_json(state)
    assert type(copy) is type(state)


def test_same_seed_and_actions_give_the_same_game():
    def play(seed: int) -> str:
        state, rng = new_game(4, seed), random.Random(seed)
        while not state["over"]:
            apply(state, rng.choice(legal_actions(state)))
        return to_json(state)

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_different_seeds_shuffle_differently():
    assert new_game(2, seed=1)["deck"] != new_game(2, seed=2)["deck"]


def test_the_seeded_shuffle_orders_cards_as_random_shuffle_does():
    for seed in range(300):
        state = new_game(2, seed)
        cards = [str(i) for i in range(seed % 121)]
        expected = list(cards)
        random.Random(f"{seed}/{state['rng']['shuffles']}").shuffle(expected)
        shuffle(state, cards)
        assert cards == expected
