"""The odds a player can know: exact from the public view, never from the deck order."""

from __future__ import annotations

from collections import Counter

import pytest

from game.games.sevn.bots.odds import bust_chance, crossroads_busts, draw_pool, unseen_counts
from game.games.sevn.engine import DECK, apply, legal_actions, new_game, public_view
from tests.games.sevn.bots.helpers import make_view, random_positions


def full_deck(top: list[str]) -> list[str]:
    """All 120 cards, `top` first (top card first), the rest in a fixed order."""
    rest = Counter(DECK) - Counter(top)
    return top + [card for card, copies in sorted(rest.items()) for _ in range(copies)]


def true_bust_share(state: dict, seat: int) -> float:
    """What the next card really is, on average: the share of busting cards where it comes from."""
    row = state["seats"][seat]["row"]
    source = state["deck"] or state["discard"]
    if "second_chance" in row or not source:
        return 0.0
    return sum(1 for card in source if card.isdigit() and card in row) / len(source)


def test_unseen_cards_are_exactly_the_draw_pile_in_every_random_position():
    positions = 0
    for state in random_positions(40):
        view = public_view(state)
        assert Counter(unseen_counts(view)) == Counter(state["deck"])
        assert sum(unseen_counts(view).values()) == view["deck_count"]
        positions += 1
    assert positions > 3000


def test_bust_chance_is_the_true_share_of_busting_cards_for_every_seat():
    checked = 0
    for state in random_positions(30, every_turn=3):
        view = public_view(state)
        for seat in range(len(state["seats"])):
            assert bust_chance(view, seat) == pytest.approx(true_bust_share(state, seat), abs=1e-12)
            checked += 1
    assert checked > 3000


def test_bust_chance_by_hand_counts_rows_and_discard_pile():
    view = make_view([["5", "7"], ["7"]], discard={"5": 2, "freeze": 1})
    # 5s unseen: 5 - 1 in a row - 2 discarded = 2; 7s: 7 - 2 in rows = 5; 120 - 6 cards seen.
    assert view["deck_count"] == 114
    assert bust_chance(view, 0) == pytest.approx(7 / 114)
    assert bust_chance(view, 1) == pytest.approx(5 / 114)


def test_every_visible_place_is_counted_once():
    view = make_view([["3"], ["4"]], pending={"kind": "crossroads", "cards": ["3", "3"]})
    view["queue"], view["active"] = ["storm"], "crossroads"
    unseen = unseen_counts(view)
    assert "3" not in unseen  # three 3s: one in a row, two revealed
    assert unseen["storm"] == 1 and unseen["crossroads"] == 1
    ballast = make_view([["4"], []], pending={"kind": "ballast", "card": "-4"})
    assert "-4" not in unseen_counts(ballast)


def test_second_chance_means_no_bust():
    view = make_view([["13", "12", "second_chance"], ["1"]])
    assert bust_chance(view, 0) == 0.0
    crossroads = make_view([["9", "second_chance"]], pending={"kind": "crossroads", "cards": ["9", "2"]})
    assert crossroads_busts(crossroads, 0) == [False, False]


def test_empty_deck_means_the_shuffled_discard_pile():
    view = make_view([["9"], ["2"]], discard={"9": 3, "5": 1}, deck_count=0)
    assert draw_pool(view) == {"9": 3, "5": 1}
    assert bust_chance(view, 0) == pytest.approx(3 / 4)
    assert bust_chance(view, 1) == 0.0


def test_empty_deck_on_a_stacked_game_reshuffles_the_discard_pile():
    state = new_game(2, 1, deck=["5", "9", "crossroads", "9", "5"])  # seat 1 gets 5, seat 0 gets 9
    apply(state, {"kind": "draw"})  # seat 1: Crossroads reveals 9 and 5 and empties the deck
    apply(state, {"kind": "crossroads", "pick": 0})  # takes the 9; the 5 is discarded
    view = public_view(state)
    assert (view["current"], view["deck_count"], view["discard"]) == (0, 0, {"5": 1, "crossroads": 1})
    assert bust_chance(view, 1) == 0.5 == true_bust_share(state, 1)
    assert bust_chance(view, 0) == 0.0


def test_crossroads_busts_on_a_stacked_deck():
    state = new_game(2, 3, deck=full_deck(["5", "9", "crossroads", "5", "7"]))
    assert state["seats"][1]["row"] == ["5"]
    apply(state, {"kind": "draw"})  # seat 1 draws the Crossroads: 5 and 7 revealed
    view = public_view(state)
    assert view["pending"] == {"kind": "crossroads", "cards": ["5", "7"]}
    assert crossroads_busts(view, 1) == [True, False]
    assert crossroads_busts(view, 0) == [False, False]
    # the pool knows both revealed cards are gone: three 5s left in 115 cards
    assert bust_chance(view, 1) == pytest.approx(3 / 115) == pytest.approx(true_bust_share(state, 1))
    assert legal_actions(state) == [{"kind": "crossroads", "pick": 0}, {"kind": "crossroads", "pick": 1}]
