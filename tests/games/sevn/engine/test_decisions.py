"""Every decision belongs to the right seat; illegal input changes nothing; timeouts (section 8)."""

from __future__ import annotations

import random

import pytest

from game.games.sevn.engine import IllegalAction, apply, legal_actions, new_game, timeout, to_json
from tests.games.sevn.engine.helpers import act, first, pending, rows, start, statuses


def refused(state: dict, action: object, code: str, **kwargs: object) -> IllegalAction:
    """Assert the action is refused with `code` and the state is byte-for-byte unchanged."""
    before = to_json(state)
    with pytest.raises(IllegalAction) as error:
        apply(state, action, **kwargs)
    assert error.value.code == code
    assert to_json(state) == before
    return error.value


def test_action_out_of_turn_is_refused():
    state, _ = start(["1", "2", "3"])
    error = refused(state, {"kind": "draw"}, "not_your_turn", actor=0)
    assert str(error) == "It is not your turn."


def test_the_seat_that_must_decide_may_act():
    state, _ = start(["1", "2", "3"])
    act(state, {"kind": "draw"})
    assert pending(state) == ("turn", 0)
    apply(state, {"kind": "pass"}, actor=0)


@pytest.mark.parametrize(
    "action",
    [
        None,
        "draw",
        7,
        [],
        {},
        {"kind": 1},
        {"kind": None},
        {"type": "draw"},
        {"kind": "draw", "extra": 1},
        {"kind": "pass", "seat": 0},
    ],
)
def test_malformed_actions_are_refused(action):
    state, _ = start(["1", "2", "3"])
    refused(state, action, "malformed")


def test_wrong_kind_of_decision_is_refused_with_what_is_asked():
    state, _ = start(["1", "2", "3", "freeze"], seats=3)
    error = refused(state, {"kind": "freeze", "seat": 0}, "wrong_decision")
    assert str(error) == "It is your turn: draw or pass."
    act(state, "draw")
    error = refused(state, {"kind": "draw"}, "wrong_decision")
    assert str(error) == "Choose a player in round to freeze."


@pytest.mark.parametrize("target", [3, -1, True, "1", 1.0, None])
def test_freeze_target_must_be_a_player_in_round(target):
    state, _ = start(["1", "2", "3", "freeze"], seats=3)
    act(state, "draw")
    refused(state, {"kind": "freeze", "seat": target}, "bad_target" if type(target) is int else "malformed")


def test_freeze_target_out_of_round_is_refused():
    state, _ = start(["1", "2", "3", "freeze"], seats=3)
    act(state, "pass", "draw")
    refused(state, {"kind": "freeze", "seat": 1}, "bad_target")


def test_gift_to_a_holder_is_refused():
    state, _ = start(["second_chance", "second_chance", "4", "second_chance"], seats=3)
    act(state, "draw")  # seat 1 holds one, seat 2 holds one: only seat 0 is eligible
    assert legal_actions(state) == [{"kind": "gift", "seat": 0}]
    refused(state, {"kind": "gift", "seat": 2}, "bad_target")
    refused(state, {"kind": "gift", "seat": 1}, "bad_target")


@pytest.mark.parametrize("keep", [1, 0, "yes", None])
def test_ballast_keep_must_be_true_or_false(keep):
    state, _ = start(["-4", "1"])
    refused(state, {"kind": "ballast", "keep": keep}, "malformed")


@pytest.mark.parametrize("pick", [2, -1, True, 1.0, "0"])
def test_crossroads_pick_must_be_0_or_1(pick):
    state, _ = start(["5", "9", "crossroads", "3", "7"])
    act(state, "draw")
    refused(state, {"kind": "crossroads", "pick": pick}, "malformed")


def test_draw_with_no_card_left_anywhere_is_refused_and_pass_stays_legal():
    state, _ = start(["1", "2"])
    assert legal_actions(state) == [{"kind": "pass"}]
    refused(state, {"kind": "draw"}, "no_card")


def test_any_action_after_game_over_is_refused():
    state, _ = start(["12", "11"], target=10)
    act(state, "pass", "pass")
    assert state["over"] and legal_actions(state) == []
    refused(state, {"kind": "pass"}, "game_over")
    with pytest.raises(IllegalAction):
        timeout(state)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seats": 1, "seed": 1},
        {"seats": 9, "seed": 1},
        {"seats": "4", "seed": 1},
        {"seats": 4, "seed": "x"},
        {"seats": 4, "seed": 1, "target": 0},
        {"seats": 4, "seed": 1, "deck": ["14"]},
        {"seats": 4, "seed": 1, "deck": ["0", "0"]},
    ],
)
def test_bad_game_set_up_is_refused(kwargs):
    with pytest.raises(IllegalAction):
        new_game(**kwargs)


def test_legal_actions_for_each_decision_kind():
    state, _ = start(["-4", "9"])
    assert legal_actions(state) == [{"kind": "ballast", "keep": True}, {"kind": "ballast", "keep": False}]
    act(state, {"kind": "ballast", "keep": False})  # the deck is empty; the discard pile is not
    assert legal_actions(state) == [{"kind": "draw"}, {"kind": "pass"}]


# Timeouts: the default safest for the player (rules section 8)


def test_timeout_on_a_turn_passes():
    state, _ = start(["1", "2", "3"])
    events = timeout(state)
    assert events[0] == {"type": "timeout", "seat": 1, "kind": "turn", "action": {"kind": "pass"}}
    assert statuses(state)[1] == "passed"


def test_timeout_on_ballast_discards_it():
    state, _ = start(["-4", "2", "3"])
    timeout(state)
    assert rows(state)[1] == [] and state["discard"] == ["-4"]


def test_timeout_on_freeze_freezes_the_player_themselves():
    state, _ = start(["1", "2", "3", "freeze"], seats=3)
    act(state, "draw")
    timeout(state)
    assert statuses(state) == ["in", "frozen", "in"]


def test_timeout_on_triple_draw_picks_the_next_player_in_round_clockwise():
    state, _ = start(["1", "2", "3", "4", "triple_draw", "5", "6", "7"], seats=3)
    act(state, "pass", "draw", "draw")  # seat 1 passes; seat 2 draws 4; seat 0 draws Triple Draw
    events = timeout(state)
    assert first(events, "triple_draw") == {"type": "triple_draw", "seat": 0, "target": 2}


def test_timeout_on_triple_draw_alone_in_round_picks_themselves():
    state, _ = start(["1", "2", "triple_draw", "5", "6", "7"])
    act(state, "pass", "draw")
    events = timeout(state)
    assert first(events, "triple_draw") == {"type": "triple_draw", "seat": 0, "target": 0}


def test_timeout_on_crossroads_takes_the_first_card_that_does_not_bust():
    state, _ = start(["5", "9", "crossroads", "5", "7"])
    act(state, "draw")
    timeout(state)
    assert rows(state)[1] == ["5", "7"]


def test_timeout_on_crossroads_with_two_busting_cards_takes_the_first():
    state, _ = start(["5", "9", "7", "1", "crossroads", "7", "5"])
    act(state, "draw", "draw", "draw")
    events = timeout(state)
    assert first(events, "bust") == {"type": "bust", "seat": 1, "card": "7"}


def test_timeout_on_a_gift_gives_to_the_next_eligible_player_clockwise():
    state, _ = start(["second_chance", "9", "4", "3", "second_chance"], seats=4)
    # deal: seat 1 SC, seat 2 9, seat 3 4, seat 0 3; seat 1 draws the second SC
    act(state, "draw")
    assert state["pending"]["options"] == [0, 2, 3]
    events = timeout(state)
    assert first(events, "gift") == {"type": "gift", "seat": 1, "target": 2}


# legal_actions is derived from the one legality check: it lists exactly what the contract says


def contract_legal_actions(state: dict) -> list[dict]:
    """The legal actions as the contract spells them out, from the pending decision alone."""
    pending = state["pending"]
    kind = pending["kind"]
    if kind == "turn":
        return ([{"kind": "draw"}] if state["deck"] or state["discard"] else []) + [{"kind": "pass"}]
    if kind == "ballast":
        return [{"kind": "ballast", "keep": True}, {"kind": "ballast", "keep": False}]
    if kind == "crossroads":
        return [{"kind": "crossroads", "pick": 0}, {"kind": "crossroads", "pick": 1}]
    return [{"kind": kind, "seat": seat} for seat in pending["options"]]


def test_legal_actions_are_what_the_contract_lists_and_each_is_accepted():
    rng = random.Random(8)
    kinds = set()
    for seed in range(40):
        state = new_game(2 + seed % 7, seed, target=100)
        while not state["over"]:
            legal = legal_actions(state)
            assert legal == contract_legal_actions(state)
            for action in legal:
                apply(state.clone(), action)
            others = [{"kind": state["pending"]["kind"], "seat": seat} for seat in range(9)]
            for action in others:
                if action not in legal:
                    with pytest.raises(IllegalAction):
                        apply(state.clone(), action)
            kinds.add(state["pending"]["kind"])
            apply(state, rng.choice(legal))
    assert kinds == {"turn", "ballast", "freeze", "triple_draw", "gift", "crossroads"}
