"""Freeze, Triple Draw, Crossroads, Storm and the FIFO action queue (rules section 5)."""

from __future__ import annotations

from game.games.sevn.engine import legal_actions, public_view
from tests.games.sevn.engine.helpers import act, first, kinds, pending, rows, start, statuses


def taken(events: list[dict]) -> list[tuple[int, str]]:
    return [(e["seat"], e["card"]) for e in events if e["type"] in ("drawn", "dealt")]


# Freeze


def test_freeze_targets_any_player_in_round_including_the_drawer():
    state, _ = start(["1", "2", "3", "freeze"], seats=3)
    act(state, "draw")
    assert state["pending"] == {"kind": "freeze", "seat": 1, "options": [0, 1, 2]}


def test_freeze_options_leave_out_players_out_of_round():
    state, _ = start(["1", "2", "3", "freeze"], seats=3)
    act(state, "pass", "draw")
    assert state["pending"] == {"kind": "freeze", "seat": 2, "options": [0, 2]}


def test_frozen_player_leaves_the_round_safely_and_scores_normally():
    state, _ = start(["1", "2", "3", "freeze", "4", "5"], seats=3)
    events = act(state, "draw", {"kind": "freeze", "seat": 2})
    assert first(events, "freeze") == {"type": "freeze", "seat": 1, "target": 2}
    assert statuses(state) == ["in", "in", "frozen"]
    assert pending(state) == ("turn", 0)  # seat 2 is skipped
    events = act(state, "draw", "pass", "pass")
    assert first(events, "round_scored")["scores"] == [3 + 4, 1, 2]


# Triple Draw


def test_triple_draw_target_takes_three_cards_one_at_a_time():
    state, _ = start(["1", "2", "3", "triple_draw", "5", "6", "7", "8"], seats=3)
    act(state, "draw")
    assert state["pending"] == {"kind": "triple_draw", "seat": 1, "options": [0, 1, 2]}
    events = act(state, {"kind": "triple_draw", "seat": 2})
    assert taken(events) == [(2, "5"), (2, "6"), (2, "7")]
    assert state["deck"] == ["8"]


def test_triple_draw_on_oneself():
    state, _ = start(["1", "2", "3", "triple_draw", "5", "6", "7", "8"], seats=3)
    act(state, "draw", {"kind": "triple_draw", "seat": 1})
    assert rows(state)[1] == ["1", "5", "6", "7"]
    assert pending(state) == ("turn", 2)


def test_triple_draw_stops_early_when_the_target_busts():
    state, _ = start(["1", "2", "3", "triple_draw", "2", "4"], seats=3)
    events = act(state, "draw", {"kind": "triple_draw", "seat": 2})
    assert taken(events) == [(1, "triple_draw"), (2, "2")]
    assert statuses(state)[2] == "bust" and state["deck"] == ["4"]
    assert pending(state) == ("turn", 0)


def test_triple_draw_waits_for_a_ballast_decision_of_the_target():
    state, _ = start(["1", "2", "3", "triple_draw", "-4", "5", "6"], seats=3)
    act(state, "draw", {"kind": "triple_draw", "seat": 2})
    assert state["pending"] == {"kind": "ballast", "seat": 2, "card": "-4"}
    act(state, {"kind": "ballast", "keep": True})
    assert rows(state)[2] == ["2", "-4", "5", "6"]


def test_second_chance_during_triple_draw_is_kept_at_once_never_queued():
    state, _ = start(["1", "2", "3", "triple_draw", "second_chance", "2", "6"], seats=3)
    events = act(state, "draw", {"kind": "triple_draw", "seat": 2})
    assert "queued" not in kinds(events)
    assert first(events, "second_chance_used")["seat"] == 2  # caught the 2 right away
    assert rows(state)[2] == ["2", "6"] and statuses(state)[2] == "in"


def test_action_taken_during_triple_draw_is_queued_and_resolved_after_by_its_taker():
    state, _ = start(["1", "2", "3", "triple_draw", "freeze", "5", "6"], seats=3)
    events = act(state, "draw", {"kind": "triple_draw", "seat": 2})
    assert first(events, "queued") == {"type": "queued", "seat": 2, "card": "freeze"}
    assert taken(events) == [(1, "triple_draw"), (2, "freeze"), (2, "5"), (2, "6")]
    assert state["pending"] == {"kind": "freeze", "seat": 2, "options": [0, 1, 2]}
    act(state, {"kind": "freeze", "seat": 1})
    assert statuses(state)[1] == "frozen" and pending(state) == ("turn", 2)


# Crossroads


def test_crossroads_reveals_two_cards_and_the_other_is_discarded():
    state, _ = start(["5", "9", "crossroads", "3", "7", "1"])
    events = act(state, "draw")
    revealed = {"type": "crossroads_revealed", "seat": 1, "cards": ["3", "7"]}
    assert first(events, "crossroads_revealed") == revealed
    assert state["pending"] == {"kind": "crossroads", "seat": 1, "cards": ["3", "7"]}
    assert public_view(state)["revealed"] == ["3", "7"]
    events = act(state, {"kind": "crossroads", "pick": 1})
    assert first(events, "crossroads_picked") == {
        "type": "crossroads_picked",
        "seat": 1,
        "card": "7",
        "discarded": "3",
    }
    assert rows(state)[1] == ["5", "7"]
    assert state["discard"] == ["3", "crossroads"] and state["revealed"] == []


def test_crossroads_with_two_duplicates_must_take_one_and_busts():
    state, _ = start(["5", "9", "7", "1", "crossroads", "5", "7"])
    act(state, "draw", "draw", "draw")
    assert state["pending"]["cards"] == ["5", "7"]
    assert legal_actions(state) == [{"kind": "crossroads", "pick": 0}, {"kind": "crossroads", "pick": 1}]
    events = act(state, {"kind": "crossroads", "pick": 0})
    assert first(events, "bust") == {"type": "bust", "seat": 1, "card": "5"}


def test_crossroads_with_two_duplicates_and_a_held_second_chance():
    state, _ = start(["5", "9", "7", "1", "second_chance", "2", "crossroads", "5", "7"])
    act(state, "draw", "draw", "draw", "draw", "draw")
    assert state["pending"]["cards"] == ["5", "7"]
    events = act(state, {"kind": "crossroads", "pick": 1})
    assert first(events, "second_chance_used") == {"type": "second_chance_used", "seat": 1, "card": "7"}
    assert rows(state)[1] == ["5", "7"] and statuses(state)[1] == "in"


def test_crossroads_pick_of_an_action_card_is_queued():
    state, _ = start(["5", "9", "crossroads", "freeze", "3", "1"])
    events = act(state, "draw", {"kind": "crossroads", "pick": 0})
    assert first(events, "queued") == {"type": "queued", "seat": 1, "card": "freeze"}
    assert kinds(events).index("dequeued") > kinds(events).index("queued")
    assert state["pending"] == {"kind": "freeze", "seat": 1, "options": [0, 1]}


def test_crossroads_of_two_equal_cards_is_the_same_game_whichever_is_picked():
    """Why a game's record verifies with either pick there (tests/fair/test_verify.py)."""
    games = []
    for pick in (0, 1):
        state, _ = start(["5", "9", "crossroads", "3", "3", "1"])
        act(state, "draw")
        assert state["pending"] == {"kind": "crossroads", "seat": 1, "cards": ["3", "3"]}
        games.append((act(state, {"kind": "crossroads", "pick": pick}), state))
    assert games[0] == games[1]
    picked = {"type": "crossroads_picked", "seat": 1, "card": "3", "discarded": "3"}
    assert first(games[0][0], "crossroads_picked") == picked


def test_crossroads_with_only_one_card_to_be_had_takes_it_without_a_choice():
    state, _ = start(["5", "9", "crossroads", "3"])
    events = act(state, "draw")
    assert first(events, "crossroads_revealed")["cards"] == ["3"]
    picked = {"type": "crossroads_picked", "seat": 1, "card": "3", "discarded": None}
    assert first(events, "crossroads_picked") == picked
    assert rows(state)[1] == ["5", "3"] and pending(state) == ("turn", 0)


def test_crossroads_reshuffles_for_its_second_card():
    state, _ = start(["5", "9", "1", "crossroads", "3"])
    act(state, "pass", "pass")
    # round 2: seat 0 is dealt 1, seat 1 Crossroads: it reveals 3, then a card of the reshuffled
    # discard pile (round 1's 5 and 9)
    assert state["pending"]["kind"] == "crossroads"
    assert state["pending"]["cards"][0] == "3" and state["pending"]["cards"][1] in ("5", "9")


# Storm


def test_storm_starts_left_of_the_drawer_and_ends_with_the_drawer():
    state, _ = start(["1", "2", "3", "4", "storm", "5", "6", "7"], seats=3)
    events = act(state, "draw", "draw")  # seat 1 draws 4, seat 2 draws Storm
    assert first(events, "storm") == {"type": "storm", "seat": 2}
    assert taken(events)[2:] == [(0, "5"), (1, "6"), (2, "7")]
    assert pending(state) == ("turn", 0)


def test_storm_skips_players_out_of_round():
    state, _ = start(["1", "2", "3", "storm", "5", "6"], seats=3)
    events = act(state, "pass", "draw")
    assert taken(events)[1:] == [(0, "5"), (2, "6")]


def test_sevn_during_storm_stops_it_at_once():
    deck = ["0", "13", "1", "12", "2", "11", "3", "10", "4", "9", "5", "storm", "6", "8", "7"]
    state, _ = start(deck)
    events = act(state, *["draw"] * 10)  # seat 1 reaches 0-5, then seat 0 draws Storm
    assert taken(events)[-4:] == [(0, "storm"), (1, "6"), (0, "8"), (1, "7")]  # then round 2's deal
    assert first(events, "sevn") == {"type": "sevn", "seat": 1}
    assert first(events, "round_scored")["scores"] == [13 + 12 + 11 + 10 + 9, 21 + 17]


def test_reshuffle_mid_storm():
    state, _ = start(["1", "2", "3", "4", "5", "6", "storm", "7"], seats=3)
    act(state, "pass", "pass", "pass")  # discard pile: 3, 1, 2; round 2 deals 4, 5, 6
    events = act(state, "draw")  # seat 2 draws Storm: seat 0 takes 7, then the deck is empty
    assert kinds(events).count("reshuffle") == 1
    assert taken(events)[1][0] == 0 and taken(events)[1][1] == "7"
    assert kinds(events).index("reshuffle") < [i for i, e in enumerate(events) if e["type"] == "drawn"][2]
    assert [len(row) for row in rows(state)] == [2, 2, 2]  # the table cards stayed put
    assert rows(state)[0] == ["5", "7"] and rows(state)[1][0] == "6" and rows(state)[2][0] == "4"
    assert sorted([rows(state)[1][1], rows(state)[2][1], *state["deck"]]) == ["1", "2", "3"]


# The FIFO queue


def test_queued_actions_resolve_oldest_first():
    state, _ = start(["1", "2", "3", "triple_draw", "freeze", "storm", "5", "6", "7"], seats=3)
    events = act(state, "draw", {"kind": "triple_draw", "seat": 2})
    assert state["queue"] == [["storm", 2]]
    assert state["pending"] == {"kind": "freeze", "seat": 2, "options": [0, 1, 2]}
    events = act(state, {"kind": "freeze", "seat": 0})
    assert first(events, "dequeued") == {"type": "dequeued", "seat": 2, "card": "storm"}
    assert taken(events) == [(1, "6"), (2, "7")]


def test_actions_taken_during_a_queued_action_join_the_end_of_the_queue():
    deck = ["1", "2", "3", "triple_draw", "storm", "freeze", "5", "triple_draw", "6", "7"]
    state, _ = start(deck, seats=3)
    act(state, "draw", {"kind": "triple_draw", "seat": 2})  # seat 2 takes Storm, Freeze, 5
    # Storm (seat 2) resolves first: seat 0 takes Triple Draw (queued after Freeze)
    assert [card for card, _ in state["queue"]] == ["triple_draw"]
    assert state["pending"] == {"kind": "freeze", "seat": 2, "options": [0, 1, 2]}
    act(state, {"kind": "freeze", "seat": 1})
    assert state["pending"] == {"kind": "triple_draw", "seat": 0, "options": [0, 2]}


def test_queued_action_of_a_player_out_of_round_is_discarded_unresolved():
    state, _ = start(["1", "2", "3", "triple_draw", "freeze", "2", "9"], seats=3)
    events = act(state, "draw", {"kind": "triple_draw", "seat": 2})
    assert first(events, "queue_dropped") == {"type": "queue_dropped", "seat": 2, "card": "freeze"}
    assert "freeze" in state["discard"] and pending(state) == ("turn", 0)


def test_action_cards_go_to_the_discard_pile_once_resolved():
    state, _ = start(["1", "2", "3", "freeze", "4"], seats=3)
    act(state, "draw")
    assert state["active"] == "freeze" and "freeze" not in state["discard"]
    act(state, {"kind": "freeze", "seat": 1})
    assert state["active"] is None and state["discard"] == ["freeze"]
