"""A round from deal to score (rules sections 1 and 4) on stacked decks."""

from __future__ import annotations

from game.games.sevn.engine import public_view
from tests.games.sevn.engine.helpers import act, first, kinds, pending, rows, start, statuses


def test_deal_starts_left_of_dealer_and_goes_clockwise():
    state, events = start(["1", "2", "3"], seats=3)
    assert [(e["seat"], e["card"]) for e in events if e["type"] == "dealt"] == [(1, "1"), (2, "2"), (0, "3")]


def test_first_turn_is_left_of_the_dealer():
    state, _ = start(["1", "2"])
    assert pending(state) == ("turn", 1)


def test_turns_go_clockwise_skipping_players_out_of_round():
    state, _ = start(["1", "2", "3", "4", "5"], seats=3)
    act(state, "pass")  # seat 1 passes
    assert pending(state) == ("turn", 2)
    act(state, "draw")
    assert pending(state) == ("turn", 0)
    act(state, "draw")
    assert pending(state) == ("turn", 2)


def test_pass_leaves_the_round_safely_and_the_row_scores():
    state, _ = start(["5", "9", "4"])
    events = act(state, "pass", "draw", "pass")
    scored = first(events, "round_scored")
    assert scored["scores"] == [13, 5]
    assert statuses(state) == ["in", "in"]  # the next round is dealt in the same call


def test_round_ends_when_nobody_is_in_round():
    state, _ = start(["5", "9", "1", "2"])
    events = act(state, "pass", "pass")
    assert kinds(events)[:3] == ["passed", "passed", "round_scored"]
    assert first(events, "round_scored")["sevn"] is None


def test_dealer_moves_one_seat_clockwise_each_round():
    state, _ = start(["1", "2", "3", "4", "5", "6", "7", "8", "9"], seats=3)
    events = act(state, "pass", "pass", "pass")
    assert first(events, "round_started") == {"type": "round_started", "round": 2, "dealer": 1}
    assert [(e["seat"], e["card"]) for e in events if e["type"] == "dealt"] == [(2, "4"), (0, "5"), (1, "6")]
    assert pending(state) == ("turn", 2)


def test_drawer_does_not_draw_again_after_their_triple_draw():
    state, _ = start(["1", "2", "3", "triple_draw", "4", "5", "6", "7"], seats=3)
    act(state, "draw", {"kind": "triple_draw", "seat": 2})  # seat 1 draws Triple Draw on seat 2
    assert rows(state)[2] == ["2", "4", "5", "6"]
    assert pending(state) == ("turn", 2)  # the next player after the drawer, not the drawer


def test_target_is_checked_only_at_round_end():
    state, _ = start(["9", "8", "13", "12", "2", "3"], target=20)
    events = act(state, "draw")  # seat 1 has 9 + 13 = 22 >= 20 mid-round
    assert "game_over" not in kinds(events)
    events = act(state, "pass", "pass")
    assert first(events, "game_over") == {"type": "game_over", "winner": 1, "totals": [8, 22]}
    assert state["over"] and state["winner"] == 1 and state["pending"] is None


def test_highest_total_wins_when_several_reach_the_target():
    state, _ = start(["12", "11", "10", "13"], target=20)
    events = act(state, "draw", "draw", "pass", "pass")
    assert first(events, "game_over")["winner"] == 0
    assert [seat["total"] for seat in public_view(state)["seats"]] == [11 + 13, 12 + 10]


def test_tie_at_the_top_plays_another_round():
    state, _ = start(["12", "12", "3", "4", "5", "6"], target=10)
    events = act(state, "pass", "pass")
    assert first(events, "tie") == {"type": "tie", "seats": [0, 1], "total": 12}
    assert "game_over" not in kinds(events)
    assert state["round"] == 2 and not state["over"]
    events = act(state, "pass", "pass")  # seat 1 now deals: seat 0 got 3, seat 1 got 4
    assert first(events, "game_over") == {"type": "game_over", "winner": 1, "totals": [15, 16]}


def test_tie_round_is_a_full_round_for_everyone():
    state, _ = start(["12", "12", "3", "1", "5", "6"], seats=3, target=10)
    act(state, "pass", "pass", "pass")  # totals 12, 12, 3: tie at the top
    assert statuses(state) == ["in", "in", "in"]  # everyone plays the extra round


def test_deck_carries_over_between_rounds():
    deck = ["1", "2", "3", "4", "5", "6"]
    state, _ = start(deck)
    act(state, "pass", "pass")
    # round 2 deals the next cards of the same deck; round 1's cards are in the discard pile
    assert rows(state) == [["3"], ["4"]]
    assert state["discard"] == ["2", "1"] and state["deck"] == ["6", "5"]


def test_empty_deck_reshuffles_the_discard_pile_and_table_stays():
    state, _ = start(["1", "2", "3", "4"])
    act(state, "pass", "pass")  # discard: 2, 1; round 2 dealt 3 (seat 0) and 4 (seat 1)
    assert state["deck"] == []
    events = act(state, "draw")  # seat 0 draws from the reshuffled discard pile
    assert first(events, "reshuffle") == {"type": "reshuffle", "deck_count": 2}
    assert rows(state)[1] == ["4"] and rows(state)[0][0] == "3"  # the table cards stayed
    assert sorted(state["deck"] + rows(state)[0][1:]) == ["1", "2"]


def test_reshuffle_order_comes_from_the_seed():
    a, _ = start(["1", "2", "3", "4", "5", "6", "7", "8", "9"], seats=4)
    b, _ = start(["1", "2", "3", "4", "5", "6", "7", "8", "9"], seats=4)
    for state in (a, b):
        act(state, "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass")
    assert a["deck"] == b["deck"]
