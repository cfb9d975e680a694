"""SEVN: seven distinct values end the round at once (rules section 6)."""

from __future__ import annotations

from tests.games.sevn.engine.helpers import act, first, kinds, rows, start


def climb(extra: list[str]) -> tuple[dict, list[dict]]:
    """Two seats: seat 1 passes nothing and reaches 0-5 while seat 0 passed; then `extra`."""
    state, _ = start(["0", "13", "1", "2", "3", "4", "5"] + extra)
    events = act(state, "draw", "pass", "draw", "draw", "draw", "draw")
    assert rows(state)[1] == ["0", "1", "2", "3", "4", "5"]
    return state, events


def test_seven_distinct_values_end_the_round_with_17_more():
    state, _ = climb(["6", "8", "9"])
    events = act(state, "draw")
    assert kinds(events)[:4] == ["drawn", "joined", "sevn", "round_scored"]
    scored = first(events, "round_scored")
    assert scored["sevn"] == 1 and scored["scores"] == [13, 21 + 17]
    assert scored["steps"][1][-1] == {"step": "sevn", "points": 17, "total": 38}


def test_other_players_score_their_rows_and_bust_players_zero_on_sevn():
    deck = ["0", "13", "9", "1", "12", "9", "2", "3", "4", "5", "6", "10", "11"]
    state, _ = start(deck, seats=3)
    # deal: seat 1 gets 0, seat 2 gets 13, seat 0 gets 9
    act(state, "draw", "draw", "draw")  # seat 1: 1, seat 2: 12, seat 0: 9 -> bust
    events = act(state, "draw", "pass", "draw", "draw", "draw", "draw")
    scored = first(events, "round_scored")
    assert scored["scores"] == [0, 21 + 17, 25]


def test_sevn_by_a_kept_ballast():
    state, _ = climb(["-4", "8", "9"])
    act(state, "draw")
    events = act(state, {"kind": "ballast", "keep": True})
    assert first(events, "sevn") == {"type": "sevn", "seat": 1}
    assert first(events, "round_scored")["scores"][1] == 15 - 4 + 17


def test_sevn_mid_triple_draw_stops_it_and_drops_the_queue():
    state, _ = climb(["triple_draw", "storm", "6", "7", "8", "9"])
    events = act(state, "draw", {"kind": "triple_draw", "seat": 1})
    assert first(events, "queued")["card"] == "storm"
    assert "storm" not in [e["type"] for e in events]
    assert first(events, "round_scored")["sevn"] == 1
    assert "storm" in state["discard"] and "triple_draw" in state["discard"]
    assert state["queue"] == [] and state["active"] is None
    assert [e["card"] for e in events if e["type"] == "dealt"] == ["7", "8"]  # round 2's deal


def test_sevn_during_the_deal():
    deck = ["triple_draw", "triple_draw", "triple_draw", "0", "1", "2", "3", "4", "5", "6", "9", "10"]
    state, events = start(deck)
    assert state["pending"]["kind"] == "triple_draw"
    events = act(
        state,
        {"kind": "triple_draw", "seat": 1},
        {"kind": "triple_draw", "seat": 1},
        {"kind": "triple_draw", "seat": 1},
    )
    scored = first(events, "round_scored")
    assert scored["sevn"] == 1 and scored["scores"] == [0, 21 + 17]
    assert state["round"] == 2 and rows(state) == [["9"], ["10"]]


def test_triple_draw_whose_second_card_is_storm_whose_third_player_hits_sevn():
    deck = [
        "1",
        "2",
        "3",  # deal: seats 1, 2, 0
        "4",
        "5",
        "0",
        "6",
        "7",
        "x2",
        "+2",
        "12",
        "+4",  # three turns each
        "triple_draw",  # seat 1 draws it, aims at seat 2
        "8",
        "storm",
        "9",  # seat 2 takes three; Storm is queued
        "10",
        "11",
        "13",  # Storm: seats 0, 1, then 2 hits SEVN
        "10",
        "11",
        "12",  # round 2's deal
    ]
    state, _ = start(deck, seats=3)
    act(state, *["draw"] * 10)
    events = act(state, {"kind": "triple_draw", "seat": 2})
    assert [(e["seat"], e["card"]) for e in events if e["type"] == "drawn"] == [
        (2, "8"),
        (2, "storm"),
        (2, "9"),
        (0, "10"),
        (1, "11"),
        (2, "13"),
    ]
    assert kinds(events)[kinds(events).index("drawn") :].count("queued") == 1
    scored = first(events, "round_scored")
    assert scored["sevn"] == 2
    assert scored["scores"] == [(3 + 0 + 10) * 2 + 4, 1 + 4 + 6 + 11 + 2, 2 + 5 + 7 + 12 + 8 + 9 + 13 + 17]
