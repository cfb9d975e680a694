"""Sevens' judgement after a game (game/games/sevens/analysis.py) checked: a position whose right
card depends on the hidden hands is judged the same for every deal that fits what the player saw
(never from the real hands), the hard bot's own games show no blunder, two analysis seeds give
the same grades."""

from __future__ import annotations

import copy
import random

from game.games.sevens import analysis
from game.games.sevens.bots import POLICIES
from game.games.sevens.bots.bits import BIT, cards
from game.games.sevens.bots.hard import result_loss
from game.games.sevens.bots.rollout import counts_of, end_after
from game.games.sevens.bots.sight import read_sight
from game.games.sevens.bots.worlds import Dealer
from game.games.sevens.engine import apply, new_game, view

DEALS = 1200  # enough for the tests' positions, a quarter of the real analysis' time


def with_hands(state: dict, hands: list[int]) -> dict:
    """The same position with these hands (masks) in the other seats: what the seat to act sees
    is unchanged if they fit its sight."""
    other = copy.deepcopy(state)
    for seat, hand in enumerate(hands):
        other["seats"][seat]["hand"] = cards(hand)
    return other


def right_card(state: dict, sight) -> str:
    """The best card knowing every hand (as nobody at the table could): the least loss when the
    round is played out from this very deal."""
    hands = [sum(BIT[card] for card in seat["hand"]) for seat in state["seats"]]
    seats = len(hands)

    def loss(card: str) -> float:
        return result_loss(sight, counts_of(end_after(hands, sight.fitting, sight.seat, BIT[card]), seats))

    return min(sight.playable, key=loss)


def positions(seed: int):
    """Decisions with a choice, mid-round, in a game of medium players (seats' passes known)."""
    state = new_game(4, seed, rounds=1)
    rng = random.Random(seed)
    while not state["over"]:
        seat = state["current"]
        sight = read_sight(view(state, seat), state["moves"])
        if len(sight.playable) > 1 and len(state["moves"]) > 8:
            yield state, sight
        apply(state, POLICIES["medium"](sight, rng), actor=seat)


def test_a_judgement_that_hidden_hands_would_change_is_the_same_for_every_deal_that_fits():
    for seed in range(40):
        for state, sight in positions(seed):
            deals = [Dealer(sight).deal(random.Random(n)) for n in range(6)]
            alternatives = [with_hands(state, hands) for hands in deals]
            for other in alternatives:  # each fits what the seat saw: its own view is unchanged
                assert view(other, sight.seat) == view(state, sight.seat)
            if len({right_card(other, sight) for other in [state, *alternatives]}) < 2:
                continue  # the hidden hands would not change the right card here: look further
            chosen = {"kind": "play", "card": right_card(state, sight)}  # right only for the real hands
            first = analysis.judge_at(state, chosen, seed=3, deals=DEALS)
            for other in alternatives:
                assert analysis.judge_at(other, chosen, seed=3, deals=DEALS) == first
            return
    raise AssertionError("no position whose right card depends on the hidden hands was found")


def test_the_hard_bot_s_own_games_show_no_blunder():
    graded = []
    for seed in range(2):
        policies = [POLICIES[name] for name in ("hard", "medium", "easy", "hard", "long_suit_far")]
        record = analysis.bot_record(policies, 900 + seed)
        result = analysis.analyse(record, seats={0, 3})
        assert result["decisions"]
        graded += [d["grade"] for d in result["decisions"].values() if d["grade"]]
    assert "blunder" not in graded, graded


def test_two_analysis_seeds_give_the_same_grades_and_noise_marks_nothing():
    same = total = 0
    for seed in range(2):
        policies = [POLICIES[name] for name in ("easy", "medium", "long_suit_far", "easy", "medium")]
        record = analysis.bot_record(policies, 300 + seed)
        first, second = analysis.analyse(record, seed=1), analysis.analyse(record, seed=2)
        assert first["decisions"].keys() == second["decisions"].keys()
        for step, decision in first["decisions"].items():
            total += 1
            same += decision["grade"] == second["decisions"][step]["grade"]
            if decision["grade"]:  # a marked loss is well above its own noise
                assert decision["loss"] > analysis.SURE * decision["error"]
    assert same / total >= 0.95, f"{same}/{total}"


def test_only_people_s_own_choices_are_judged():
    policies = [POLICIES[name] for name in ("easy", "medium", "easy")]
    record = analysis.bot_record(policies, 11, rounds=1)
    record["seats"][2]["player"] = "bot"
    result = analysis.analyse(record, deals=600)
    assert {d["seat"] for d in result["decisions"].values()} <= {0, 1}
    for step, decision in result["decisions"].items():
        move = record["moves"][int(step) - 1]
        assert move["seat"] == decision["seat"] and len(decision["options"]) > 1
        assert decision["options"][decision["chosen"]]["action"] == move["action"]
    assert sum(result["chart"][-1][1]) == 1.0
