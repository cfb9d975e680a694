"""What each viewer may see (their own hand, everyone's counts), and exact JSON round trips."""

from __future__ import annotations

import json

from game.games.sevens.engine import apply, from_json, new_game, to_json, view
from tests.games.sevens.helpers import play, position, stacked_deck


def test_a_seated_viewer_sees_the_contract_shape_with_their_own_hand():
    state = new_game(4, seed=11, deck=stacked_deck(4, {1: ["7D", "AS"], 2: ["8D", "KC"]}))
    seen = view(state, 2)
    assert set(seen) == {
        "round",
        "rounds",
        "dealer",
        "current",
        "layout",
        "seats",
        "hand",
        "playable",
        "over",
        "winners",
        "last_round",
    }
    assert (seen["round"], seen["rounds"], seen["dealer"], seen["current"]) == (1, 3, 0, 2)
    assert seen["layout"] == {"S": None, "H": None, "D": ["7", "7"], "C": None}
    assert seen["seats"][1] == {"count": 12, "total": 0, "passes": 0}
    assert seen["hand"] == state["seats"][2]["hand"] and "8D" in seen["playable"]
    assert (seen["over"], seen["winners"], seen["last_round"]) == (False, [], None)
    json.dumps(seen)


def test_playable_is_shown_only_to_the_seat_to_act():
    state = new_game(4, seed=11)
    assert all(view(state, seat)["playable"] == [] for seat in range(4) if seat != state["current"])
    assert view(state, state["current"])["playable"]


def test_a_spectator_sees_counts_and_no_hand():
    state = new_game(5, seed=12)
    seen = view(state, None)
    assert seen["hand"] is None and seen["playable"] == []
    assert [seat["count"] for seat in seen["seats"]] == [len(seat["hand"]) for seat in state["seats"]]


def test_no_viewer_sees_another_seats_cards_the_coming_deal_or_the_rng():
    state = new_game(4, seed=987654321)
    for viewer in (None, 0, 1, 2, 3):
        text = json.dumps(view(state, viewer))
        assert "987654321" not in text and "rng" not in text and "seed" not in text
        for seat, held in enumerate(state["seats"]):
            if seat != viewer:
                assert not any(f'"{card}"' in text for card in held["hand"]), (viewer, seat)


def test_the_view_does_not_change_when_other_hands_are_swapped():
    state = new_game(4, seed=3)
    other = state.clone()
    other["seats"][1]["hand"], other["seats"][3]["hand"] = state["seats"][3]["hand"], state["seats"][1]["hand"]
    assert view(other, 0) == view(state, 0) and view(other, None) == view(state, None)


def test_every_hand_is_shown_face_up_when_the_round_ends():
    layout = {"S": ["A", "K"], "H": ["4", "K"], "D": ["A", "K"], "C": ["2", "K"]}
    state = position([["3H"], ["2H", "AC"], ["AH"]], layout, current=0, rounds=2)
    apply(state, play("3H"))
    for viewer in (None, 0, 1, 2):
        assert view(state, viewer)["last_round"] == {"penalties": [0, 2, 1], "hands": [[], ["2H", "AC"], ["AH"]]}


def test_the_view_is_a_copy_the_caller_may_change():
    state = new_game(4, seed=4)
    before = to_json(state)
    seen = view(state, state["current"])
    seen["layout"]["D"][0] = "A"
    seen["hand"].clear()
    assert to_json(state) == before


def test_json_round_trip_and_clone_are_exact():
    state = new_game(6, seed=21)
    text = to_json(state)
    assert from_json(text) == state and to_json(from_json(text)) == text
    copy = state.clone()
    apply(copy, play(view(copy, copy["current"])["playable"][0]))
    assert to_json(state) == text


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    assert to_json(new_game(4, seed=9)) == to_json(new_game(4, seed=9))
    assert new_game(4, seed=9)["seats"] != new_game(4, seed=10)["seats"]
