"""Deals that tests rely on for an event: the event is certain on that deal whatever the seats
choose, so a test that expects it never depends on how the cards fell."""

from __future__ import annotations

import copy

import pytest

from game.games.sevens.engine import apply, legal_actions, new_game
from tests.games.sevens.tables import PASS_CERTAIN_SEED, sevens_table, state_of

pytestmark = pytest.mark.django_db


def a_pass_within(state: dict, decisions: int) -> bool:
    """Every line of play from `state` brings a "passed" event within this many decisions."""
    if decisions == 0 or state["over"]:
        return False
    for action in legal_actions(state):
        after = copy.deepcopy(state)
        events = apply(after, action, actor=after["current"])
        if not any(event["type"] == "passed" for event in events) and not a_pass_within(after, decisions - 1):
            return False
    return True


def test_the_pass_certain_seed_brings_a_pass_whatever_anyone_plays():
    assert a_pass_within(new_game(3, PASS_CERTAIN_SEED, rounds=1), 3)


def test_the_search_is_not_true_of_every_deal():
    """The search can say no: most seeds leave some line of play without a pass that early."""
    assert not all(a_pass_within(new_game(3, seed, rounds=1), 3) for seed in range(1, 11))


def test_a_table_started_with_the_seed_deals_that_game():
    table, _people = sevens_table(
        names=("Ana", "Ben"), bots=("easy",), turn_seconds=0, rounds=1, seed=PASS_CERTAIN_SEED
    )
    dealt = new_game(3, PASS_CERTAIN_SEED, rounds=1)
    assert [seat["hand"] for seat in state_of(table)["seats"]] == [seat["hand"] for seat in dealt["seats"]]
