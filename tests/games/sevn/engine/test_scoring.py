"""The scoring order (rules section 7), every bonus boundary, and the spec's example."""

from __future__ import annotations

import hashlib
import json
import random

from game.games.sevn.engine import DECK, score_steps
from game.games.sevn.engine.scoring import row_score


def names(steps: list[dict]) -> list[str]:
    return [step["step"] for step in steps]


def total(row: list[str], sevn: bool = False) -> int:
    return score_steps(row, sevn)[-1]["total"]


def test_spec_example_scores_82():
    steps = score_steps(["3", "4", "5", "9", "12", "x2", "+4", "ladder", "heavyweight"])
    assert steps == [
        {"step": "sum", "points": 33, "total": 33},
        {"step": "double", "points": 33, "total": 66},
        {"step": "plus", "points": 4, "total": 70},
        {"step": "heavyweight", "points": 0, "total": 70},
        {"step": "ladder", "points": 12, "total": 82},
    ]


def test_sum_step_always_present_even_for_an_empty_row():
    assert score_steps([]) == [{"step": "sum", "points": 0, "total": 0}]


def test_steps_follow_the_scoring_order():
    row = ["-2", "1", "2", "3", "4", "x2", "+2", "+10", "featherweight", "heavyweight", "ladder"]
    assert names(score_steps(row, sevn=True)) == [
        "sum",
        "double",
        "plus",
        "featherweight",
        "heavyweight",
        "ladder",
        "sevn",
    ]


def test_double_applies_to_numbers_and_ballast_only():
    # 5 + 6 - 4 = 7, doubled 14, plus 8 = 22, SEVN 17 = 39: plus and SEVN are not doubled
    assert total(["5", "6", "-4", "x2", "+8"], sevn=True) == 7 * 2 + 8 + 17


def test_double_never_doubles_bonuses():
    row = ["1", "2", "3", "4", "x2", "featherweight"]
    assert total(row) == (1 + 2 + 3 + 4) * 2 + 15


def test_plus_cards_add_up():
    assert total(["1", "+2", "+4", "+6", "+8", "+10"]) == 1 + 30


def test_featherweight_with_exactly_four_cards():
    assert total(["0", "2", "5", "6", "featherweight"]) == 13 + 15


def test_featherweight_needs_four_scoring_cards():
    steps = score_steps(["2", "5", "6", "featherweight"])
    assert steps[-1] == {"step": "featherweight", "points": 0, "total": 13}


def test_featherweight_fails_with_a_seven_in_the_row():
    assert total(["1", "2", "3", "7", "featherweight"]) == 13


def test_featherweight_counts_ballast_as_a_scoring_card():
    assert total(["1", "2", "3", "-6", "featherweight"]) == 0 + 15


def test_featherweight_ignores_modifiers_and_actions_in_the_count():
    assert total(["1", "2", "3", "x2", "+2", "second_chance", "featherweight"]) == 12 + 2


def test_heavyweight_with_two_high_cards_adds_nothing():
    assert total(["10", "13", "2", "heavyweight"]) == 25


def test_heavyweight_with_three_high_cards():
    assert total(["10", "11", "13", "heavyweight"]) == 34 + 12


def test_heavyweight_ballast_never_counts():
    assert total(["10", "11", "-6", "heavyweight"]) == 15


def test_ladder_run_of_two_adds_nothing():
    assert total(["4", "5", "9", "ladder"]) == 18


def test_ladder_run_of_three():
    assert total(["4", "5", "6", "ladder"]) == 15 + 12


def test_ladder_run_of_five_takes_the_longest_run():
    assert total(["1", "2", "3", "7", "8", "9", "10", "11", "ladder"]) == 51 + 20


def test_ladder_run_with_zero():
    assert total(["0", "1", "2", "ladder"]) == 3 + 12


def test_ladder_ballast_never_joins_a_run():
    # -2 kept beside 4-5-6: the run is three cards (12 points), the Ballast only subtracts
    assert score_steps(["4", "5", "6", "-2", "ladder"])[-1] == {"step": "ladder", "points": 12, "total": 25}


def test_second_copy_of_a_bonus_card_adds_nothing():
    assert total(["4", "5", "6", "ladder", "ladder"]) == 15 + 12
    assert names(score_steps(["4", "5", "6", "ladder", "ladder"])).count("ladder") == 1


def test_sevn_adds_17():
    row = ["0", "1", "2", "3", "4", "5", "6"]
    assert score_steps(row, sevn=True)[-1] == {"step": "sevn", "points": 17, "total": 21 + 17}


def test_floor_at_zero_with_ballast():
    steps = score_steps(["-6", "-4", "1"])
    assert steps[-1] == {"step": "floor", "points": 9, "total": 0}


def test_floor_with_doubled_ballast():
    steps = score_steps(["-6", "2", "x2"])
    assert names(steps) == ["sum", "double", "floor"]
    assert steps[1]["total"] == -8 and steps[-1]["total"] == 0


def test_no_floor_step_when_the_total_is_not_negative():
    assert names(score_steps(["-2", "2"])) == ["sum"]


def random_rows(count: int) -> list[tuple[list[str], bool]]:
    """Rows of up to 12 cards drawn from the real deck, a fifth of them with SEVN."""
    rng = random.Random(5)
    cards = [code for code, copies in DECK.items() for _ in range(copies)]
    return [(rng.sample(cards, rng.randint(0, 12)), rng.random() < 0.2) for _ in range(count)]


# sha256 of score_steps over random_rows(5000), recorded with a71c237's engine.
RECORDED_STEPS = "2bfb36b7d44c6ffc6689b810ce98015f2edd2e3685e5ad3473b820e735f0e2d6"


def test_steps_of_random_rows_are_as_recorded():
    steps = [score_steps(row, sevn) for row, sevn in random_rows(5000)]
    assert hashlib.sha256(json.dumps(steps).encode()).hexdigest() == RECORDED_STEPS


def test_row_score_is_the_last_total_of_the_steps():
    for row, sevn in random_rows(5000):
        assert row_score(row, sevn) == score_steps(row, sevn)[-1]["total"]
