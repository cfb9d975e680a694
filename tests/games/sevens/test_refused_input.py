"""Anything malformed, out of turn or not legal raises IllegalAction and changes nothing."""

from __future__ import annotations

import pytest

from game.games.sevens.engine import IllegalAction, apply, new_game, to_json, view
from tests.games.sevens.helpers import play, stacked_deck

HANDS = {1: ["7D"], 2: ["8D", "6D", "5C"], 3: ["9D"]}


@pytest.fixture
def state():
    """Seat 2 to act, holding 8♦ and 6♦ (both fit) and 5♣ (does not)."""
    return new_game(4, seed=7, deck=stacked_deck(4, HANDS))


@pytest.mark.parametrize(
    ("action", "actor", "code", "message"),
    [
        (play("8D"), 0, "not_your_turn", "It is not your turn."),
        (play("8D"), 3, "not_your_turn", "It is not your turn."),
        (play("8D"), True, "not_your_turn", "It is not your turn."),
        (play("8D"), 2.0, "not_your_turn", "It is not your turn."),
        (play("8D"), "2", "not_your_turn", "It is not your turn."),
        (play("9D"), None, "not_in_hand", "The 9♦ is not in your hand."),
        (play("5C"), 2, "does_not_fit", "The 5♣ does not fit: the clubs have not started; a row starts with its 7."),
        (play("7D"), None, "not_in_hand", "The 7♦ is not in your hand."),
        (play("1D"), None, "not_a_card", "That is not a card"),
        (play("8d"), None, "not_a_card", "That is not a card"),
        (play(""), None, "not_a_card", "That is not a card"),
        ({"kind": "play", "card": None}, None, "not_a_card", "That is not a card"),
        ({"kind": "play", "card": True}, None, "not_a_card", "That is not a card"),
        ({"kind": "play", "card": 8.0}, None, "not_a_card", "That is not a card"),
        ({"kind": "play", "card": ["8D"]}, None, "not_a_card", "That is not a card"),
        ({"kind": "play", "card": {"8D": 1}}, None, "not_a_card", "That is not a card"),
        ({"kind": "play"}, None, "malformed", "A play names exactly one card."),
        ({"kind": "play", "card": "8D", "seat": 2}, None, "malformed", "A play names exactly one card."),
        ({"kind": "draw"}, None, "malformed", "An action is an object"),
        ({"kind": None, "card": "8D"}, None, "malformed", "An action is an object"),
        ({"kind": True, "card": "8D"}, None, "malformed", "An action is an object"),
        ({"kind": ["play"], "card": "8D"}, None, "malformed", "An action is an object"),
        ({"card": "8D"}, None, "malformed", "An action is an object"),
        ({}, None, "malformed", "An action is an object"),
        (None, None, "malformed", "An action is an object"),
        ("8D", None, "malformed", "An action is an object"),
        (["play", "8D"], None, "malformed", "An action is an object"),
        (1.5, None, "malformed", "An action is an object"),
        (True, None, "malformed", "An action is an object"),
        ({"kind": "pass"}, None, "must_play", "you must play one"),
        ({"kind": "pass"}, 2, "must_play", "you must play one"),
    ],
)
def test_refused_with_a_sentence_and_nothing_changed(state, action, actor, code, message):
    before = to_json(state)
    with pytest.raises(IllegalAction, match=message.replace(".", r"\.")) as refused:
        apply(state, action, actor)
    assert refused.value.code == code
    assert str(refused.value)[0].isupper() and str(refused.value).endswith(".")
    assert to_json(state) == before


def test_the_right_seat_and_a_card_that_fits_is_accepted(state):
    assert apply(state, play("8D"), 2)[0] == {"type": "played", "seat": 2, "card": "8D"}


@pytest.mark.parametrize("viewer", [4, -1, True, 1.0, "1"])
def test_a_view_for_no_such_seat_is_refused(state, viewer):
    with pytest.raises(IllegalAction, match="There is no such seat."):
        view(state, viewer)


@pytest.mark.parametrize("seed", [None, 1.0, True, "1"])
def test_the_seed_must_be_a_whole_number(seed):
    with pytest.raises(IllegalAction, match="The seed must be a whole number."):
        new_game(4, seed)
