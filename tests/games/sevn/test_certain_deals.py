"""SEVN deals that tests rely on for an event: the event is certain on that deal whatever the
seats choose, so a test that expects it never depends on how the cards fell."""

from __future__ import annotations

import pytest

from game.games.sevn.engine import apply, from_json, new_game
from tests.services.turn_based_tables import TURN_HANDED_ON_SEED, game_of, turn_table

pytestmark = pytest.mark.django_db


def a_pass_hands_the_first_turn_on(state: dict) -> bool:
    """The first decision is a plain turn, and passing it hands the turn to another seat."""
    pending = state["pending"]
    if pending is None or pending["kind"] != "turn":
        return False
    apply(state, {"kind": "pass"}, actor=pending["seat"])
    return state["pending"] is not None and state["pending"]["seat"] != pending["seat"]


def test_the_turn_handed_on_seed_opens_with_a_turn_that_a_pass_ends():
    assert a_pass_hands_the_first_turn_on(new_game(2, TURN_HANDED_ON_SEED))


def test_the_check_is_not_true_of_every_deal():
    """The check can say no: some deals open with a dealt action card's answer."""
    assert not all(a_pass_hands_the_first_turn_on(new_game(2, seed)) for seed in range(40))


def test_a_turn_based_table_started_with_the_seed_deals_that_game():
    table, _people = turn_table("bank-3d", seed=TURN_HANDED_ON_SEED)
    game = game_of(table)
    assert game.seed == TURN_HANDED_ON_SEED
    assert from_json(game.state)["seats"] == new_game(2, TURN_HANDED_ON_SEED)["seats"]
