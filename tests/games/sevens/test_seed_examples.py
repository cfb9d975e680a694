"""The seed's worked example ("what fits this layout") and its table of cases, line by line."""

from __future__ import annotations

import pytest

from game.games.sevens.engine import IllegalAction, apply, legal_actions, new_game, playable, to_json, view
from tests.games.sevens.helpers import play, position, stacked_deck

EMPTY = {"S": None, "H": None, "D": None, "C": None}
EXAMPLE_LAYOUT = {"S": ["7", "7"], "H": None, "D": ["6", "8"], "C": None}
EXAMPLE_HAND = ["5D", "9D", "8S", "6C", "KH"]


def test_three_of_the_five_fit_the_worked_example():
    assert playable(EXAMPLE_HAND, EXAMPLE_LAYOUT) == ["8S", "5D", "9D"]


@pytest.mark.parametrize(
    ("card", "layout", "fits"),
    [
        ("7C", EMPTY | {"D": ["7", "7"]}, True),  # no clubs yet: any 7 starts its row
        ("6D", EMPTY | {"D": ["7", "7"]}, True),  # only 7♦: one below the 7
        ("AS", EMPTY | {"S": ["2", "9"]}, True),  # the Ace goes under the 2
        ("9H", EMPTY | {"H": ["6", "7"]}, False),  # the next heart up is 8♥
    ],
)
def test_the_seeds_table_of_cases(card, layout, fits):
    assert playable([card], layout) == ([card] if fits else [])


def example_game():
    """A real deal that reaches the example: 7♦ (seat 1), 8♦ (2), 7♠ (3), 6♦ (0), then seat 1."""
    hands = {
        1: ["7D", "5D", "9D", "8S", "6C", "KH", "2H", "3H", "4H", "5H", "6H", "8H", "9H"],
        2: ["8D", "6S"],
        3: ["7S", "7H"],
        0: ["6D", "7C"],
    }
    state = new_game(4, seed=5, deck=stacked_deck(4, hands))
    for card in ("8D", "7S", "6D"):
        apply(state, play(card))
    return state


def test_the_worked_example_in_a_real_deal():
    state = example_game()
    seen = view(state, 1)
    assert seen["current"] == 1 and seen["layout"] == EXAMPLE_LAYOUT
    assert seen["playable"] == ["8S", "5D", "9D"]
    assert legal_actions(state) == [play("8S"), play("5D"), play("9D")]


@pytest.mark.parametrize(
    ("card", "message"),
    [
        ("6C", "The 6♣ does not fit: the clubs have not started; a row starts with its 7."),
        ("KH", "The K♥ does not fit: the hearts have not started; a row starts with its 7."),
        ("4H", "The 4♥ does not fit: the hearts have not started; a row starts with its 7."),
    ],
)
def test_the_cards_that_wait_are_refused_with_the_reason(card, message):
    state = example_game()
    before = to_json(state)
    with pytest.raises(IllegalAction, match=message) as refused:
        apply(state, play(card))
    assert refused.value.code == "does_not_fit" and to_json(state) == before


def test_a_card_beyond_the_open_end_is_refused_with_the_card_it_waits_for():
    state = position([["9H", "5H", "KC"], [], []], {"H": ["6", "7"], "D": ["7", "7"]}, current=0, rest_to=1)
    before = to_json(state)
    with pytest.raises(IllegalAction, match="The 9♥ does not fit: the next heart up is the 8♥."):
        apply(state, play("9H"))
    with pytest.raises(IllegalAction, match="The 4♦ is not in your hand."):
        apply(state, play("4D"))
    assert to_json(state) == before
    assert legal_actions(state) == [play("5H")]


def test_you_must_play_one_of_the_three_not_pass():
    state = example_game()
    before = to_json(state)
    with pytest.raises(IllegalAction, match="you must play one") as refused:
        apply(state, {"kind": "pass"})
    assert refused.value.code == "must_play" and to_json(state) == before
    events = apply(state, play("9D"))
    assert events[0] == {"type": "played", "seat": 1, "card": "9D"}
