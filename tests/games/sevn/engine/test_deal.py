"""Dealing resolves every dealt card at once (rules section 4.1)."""

from __future__ import annotations

from tests.games.sevn.engine.helpers import act, first, kinds, pending, rows, start, statuses


def test_dealt_action_card_is_resolved_before_the_next_player_is_dealt():
    state, events = start(["freeze", "5", "6"], seats=3)
    assert pending(state) == ("freeze", 1)
    assert [e for e in events if e["type"] == "dealt"] == [{"type": "dealt", "seat": 1, "card": "freeze"}]
    assert state["pending"]["options"] == [0, 1, 2]  # not yet dealt players are in round


def test_player_frozen_by_an_earlier_deal_is_skipped():
    state, _ = start(["freeze", "5", "6"], seats=3)
    events = act(state, {"kind": "freeze", "seat": 2})
    assert [(e["seat"], e["card"]) for e in events if e["type"] == "dealt"] == [(0, "5")]
    assert statuses(state) == ["in", "in", "frozen"]
    assert rows(state)[2] == []


def test_dealt_ballast_asks_keep_or_discard():
    state, _ = start(["-4", "5"])
    assert state["pending"] == {"kind": "ballast", "seat": 1, "card": "-4"}
    act(state, {"kind": "ballast", "keep": True})
    assert rows(state) == [["5"], ["-4"]]


def test_dealt_triple_draw_on_a_player_not_yet_dealt_still_deals_them():
    state, _ = start(["triple_draw", "1", "2", "3", "4", "5"], seats=3)
    events = act(state, {"kind": "triple_draw", "seat": 2})
    assert [(e["seat"], e["card"]) for e in events if e["type"] in ("drawn", "dealt")] == [
        (2, "1"),
        (2, "2"),
        (2, "3"),
        (2, "4"),
        (0, "5"),
    ]
    assert [e["type"] for e in events if e.get("card") == "4"] == ["dealt", "joined"]


def test_dealt_storm_makes_everyone_in_round_take_a_card():
    state, events = start(["storm", "1", "2", "3", "4", "5"], seats=3)
    # seat 1 is dealt Storm: seats 2, 0, 1 each take a card; then the deal goes on to 2 and 0
    assert [(e["seat"], e["card"]) for e in events if e["type"] == "drawn"] == [(2, "1"), (0, "2"), (1, "3")]
    assert [(e["seat"], e["card"]) for e in events if e["type"] == "dealt"][1:] == [(2, "4"), (0, "5")]
    assert rows(state) == [["2", "5"], ["3"], ["1", "4"]]


def test_everyone_out_during_the_deal_ends_the_round_at_once():
    state, _ = start(["freeze", "freeze", "1", "2"])
    act(state, {"kind": "freeze", "seat": 1})  # seat 1 freezes itself; seat 0 is dealt Freeze
    events = act(state, {"kind": "freeze", "seat": 0})
    assert kinds(events)[:3] == ["freeze", "round_scored", "round_started"]
    assert first(events, "round_scored")["scores"] == [0, 0]
    assert pending(state) == ("turn", 0) and rows(state) == [["1"], ["2"]]
