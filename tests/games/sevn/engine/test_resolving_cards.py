"""Resolving numbers, Ballast, modifiers, bonus cards and Second Chance (rules section 5)."""

from __future__ import annotations

from game.games.sevn.engine import public_view
from tests.games.sevn.engine.helpers import act, first, kinds, pending, rows, start, statuses


def test_new_value_joins_the_row():
    state, _ = start(["5", "9", "4"])
    events = act(state, "draw")
    assert kinds(events) == ["drawn", "joined"]
    assert rows(state)[1] == ["5", "4"]


def test_duplicate_busts_and_the_busting_card_stays_visible():
    state, _ = start(["5", "9", "5", "1"])
    events = act(state, "draw")
    assert first(events, "bust") == {"type": "bust", "seat": 1, "card": "5"}
    assert statuses(state)[1] == "bust" and rows(state)[1] == ["5", "5"]
    assert public_view(state)["seats"][1]["round_score"] == 0


def test_bust_row_scores_zero():
    state, _ = start(["12", "9", "12", "1"])
    events = act(state, "draw", "pass")
    assert first(events, "round_scored")["scores"] == [9, 0]
    assert first(events, "round_scored")["steps"][1] is None


def test_second_chance_catches_a_duplicate_and_both_are_discarded():
    state, _ = start(["second_chance", "9", "5", "1", "5", "2"])
    act(state, "draw", "draw")  # seat 1 draws 5, seat 0 draws 1
    events = act(state, "draw")  # seat 1 draws the second 5
    assert first(events, "second_chance_used") == {"type": "second_chance_used", "seat": 1, "card": "5"}
    assert rows(state)[1] == ["5"] and statuses(state)[1] == "in"
    assert state["discard"][-2:] == ["5", "second_chance"]


def test_ballast_kept_is_a_distinct_value_that_scores_negative():
    state, _ = start(["9", "8", "-4", "1"])
    act(state, "draw", {"kind": "ballast", "keep": True}, "pass", "pass")
    assert state["history"][0] == [8, 5]


def test_ballast_discarded_goes_to_the_discard_pile():
    state, _ = start(["9", "8", "-4", "1"])
    events = act(state, "draw", {"kind": "ballast", "keep": False})
    assert first(events, "ballast") == {"type": "ballast", "seat": 1, "card": "-4", "keep": False}
    assert rows(state)[1] == ["9"] and state["discard"] == ["-4"]


def test_ballast_decision_belongs_to_the_player_who_took_it():
    state, _ = start(["9", "8", "-6", "1"])
    act(state, "draw")
    assert state["pending"] == {"kind": "ballast", "seat": 1, "card": "-6"}


def test_modifier_joins_the_row():
    state, _ = start(["9", "8", "x2", "+4", "1"])
    act(state, "draw", "draw")
    assert rows(state) == [["8", "+4"], ["9", "x2"]]
    assert public_view(state)["seats"][1]["round_score"] == 18


def test_bonus_card_joins_the_row_and_counts_only_at_round_end():
    state, _ = start(["4", "8", "5", "ladder", "6", "1"])
    act(state, "draw", "draw", "draw")  # seat 1: 4 5 6; seat 0: 8 ladder
    assert rows(state) == [["8", "ladder"], ["4", "5", "6"]]
    assert public_view(state)["seats"][0]["round_score"] == 8


def test_second_chance_joins_the_row_when_none_is_held():
    state, _ = start(["second_chance", "9"])
    assert rows(state)[1] == ["second_chance"]


def test_extra_second_chance_is_given_by_the_drawer():
    state, _ = start(["second_chance", "9", "4", "second_chance", "second_chance", "1"], seats=3)
    act(state, "draw")  # seat 1 draws a second one: seats 0 and 2 hold none
    assert state["pending"] == {"kind": "gift", "seat": 1, "card": "second_chance", "options": [0, 2]}
    events = act(state, {"kind": "gift", "seat": 0})
    assert first(events, "gift") == {"type": "gift", "seat": 1, "target": 0}
    assert rows(state)[0] == ["4", "second_chance"]


def test_gift_options_exclude_holders_and_players_out_of_round():
    state, _ = start(["second_chance", "9", "4", "second_chance", "second_chance", "1"], seats=3)
    act(state, "draw", {"kind": "gift", "seat": 0}, "pass")  # seat 2 passes
    events = act(state, "draw")  # seat 0 draws the third: seat 1 holds one, seat 2 passed
    assert first(events, "second_chance_discarded") == {"type": "second_chance_discarded", "seat": 0}
    assert rows(state)[0] == ["4", "second_chance"] and pending(state) == ("turn", 1)


def test_second_chance_with_no_eligible_player_is_discarded():
    state, _ = start(["second_chance", "second_chance", "second_chance", "1"])
    events = act(state, "draw")  # both hold one: the third is discarded
    assert first(events, "second_chance_discarded") == {"type": "second_chance_discarded", "seat": 1}
    assert state["discard"] == ["second_chance"]
