"""One scenario per line of sevens-rules.md: set-up, play, scoring and the decisions."""

from __future__ import annotations

import pytest

from game.games.sevens.engine import DECK, IllegalAction, apply, legal_actions, new_game, playable, timeout, view
from tests.games.sevens.helpers import play, position, stacked_deck

# --- set-up -------------------------------------------------------------------------------------


def test_the_deck_is_52_codes_suit_by_suit_ace_up_to_king():
    assert len(DECK) == len(set(DECK)) == 52
    assert DECK[:13] == ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    assert [card[-1] for card in DECK[::13]] == ["S", "H", "D", "C"]


@pytest.mark.parametrize("seats", [2, 8, 0, True, 4.0, None, "4"])
def test_a_game_has_three_to_seven_seats(seats):
    with pytest.raises(IllegalAction, match="3 to 7 seats"):
        new_game(seats, seed=1)


@pytest.mark.parametrize("rounds", [0, 11, True, 3.0, None])
def test_a_game_has_one_to_ten_rounds(rounds):
    with pytest.raises(IllegalAction, match="1 to 10 rounds"):
        new_game(4, seed=1, rounds=rounds)


def test_three_rounds_unless_set_and_every_count_from_one_to_ten_plays():
    assert new_game(4, seed=1)["rounds"] == 3
    assert [new_game(3, seed=1, rounds=r)["rounds"] for r in (1, 10)] == [1, 10]


def test_a_stacked_deck_must_be_the_52_cards():
    for deck in (DECK[:-1], DECK[:-1] + ["AS"], "AS", [*DECK[:-1], 7]):
        with pytest.raises(IllegalAction, match="each of the 52 cards once"):
            new_game(4, seed=1, deck=deck)


@pytest.mark.parametrize(
    ("seats", "counts"),
    [
        (3, [17, 18, 17]),
        (4, [13, 13, 13, 13]),
        (5, [10, 11, 11, 10, 10]),
        (6, [8, 9, 9, 9, 9, 8]),
        (7, [7, 8, 8, 8, 7, 7, 7]),
    ],
)
def test_the_whole_deck_is_dealt_so_the_first_seats_from_the_dealers_left_get_one_more(seats, counts):
    events: list[dict] = []
    new_game(seats, seed=3, events=events)
    assert events[0] == {"type": "dealt", "round": 1, "dealer": 0, "counts": counts}


def test_the_deal_goes_one_card_at_a_time_from_the_dealers_left():
    state = new_game(4, seed=1, deck=list(DECK))
    dealt = [seat["hand"] for seat in state["seats"]]
    assert dealt[1][:3] == ["AS", "5S", "9S"]  # DECK[0], DECK[4], DECK[8] ...
    assert dealt[0][:3] == ["4S", "8S", "QS"]  # the dealer gets every fourth card, last
    assert sum(map(len, dealt)) == 51  # the 7♦ is on the table


# --- play ---------------------------------------------------------------------------------------


def test_the_holder_of_the_7d_opens_and_play_moves_left():
    events: list[dict] = []
    state = new_game(4, seed=1, deck=stacked_deck(4, {2: ["7D"], 3: ["8D"]}), events=events)
    assert events[1] == {"type": "played", "seat": 2, "card": "7D"}
    assert state["layout"] == {"S": None, "H": None, "D": ["7", "7"], "C": None}
    assert state["current"] == 3


@pytest.mark.parametrize(
    ("row", "fits"),
    [
        (["2", "K"], ["AD"]),  # aces are low: the Ace goes under the 2 ...
        (["A", "Q"], ["KD"]),  # ... and the King on the Queen, never an Ace over a King
        (["A", "K"], []),  # a full row takes nothing
        (["7", "7"], ["6D", "8D"]),  # one down or one up from a lone 7
        (["5", "10"], ["4D", "JD"]),
    ],
)
def test_a_row_grows_from_its_7_up_to_the_king_and_down_to_the_ace_never_wrapping(row, fits):
    diamonds = [card for card in DECK if card.endswith("D")]
    layout = {"S": ["7", "7"], "H": ["7", "7"], "D": row, "C": ["7", "7"]}
    assert playable(diamonds, layout) == fits


def test_any_7_starts_its_row_and_no_other_card_starts_one():
    layout = {"S": None, "H": None, "D": ["7", "7"], "C": None}
    assert playable(["6S", "7S", "7H", "8C", "7C", "AS"], layout) == ["7S", "7H", "7C"]


def test_never_more_than_eight_cards_fit():
    from game.games.sevens.engine.layout import fitting_cards

    assert len(fitting_cards({"S": ["7", "7"], "H": ["5", "9"], "D": ["2", "Q"], "C": ["6", "8"]})) == 8
    assert len(fitting_cards({"S": None, "H": None, "D": ["7", "7"], "C": None})) == 5


def test_playing_puts_the_card_on_its_row_and_the_turn_moves_left():
    state = new_game(4, seed=1, deck=stacked_deck(4, {1: ["7D"], 2: ["8D", "6D"], 3: ["5D"]}))
    events = apply(state, play("6D"), actor=2)
    assert events == [{"type": "played", "seat": 2, "card": "6D"}]
    assert state["layout"]["D"] == ["6", "7"] and state["current"] == 3
    assert "6D" not in state["seats"][2]["hand"]


def test_a_seat_with_nothing_that_fits_passes_by_itself_and_it_is_shown():
    hands = {1: ["7D"], 2: ["8D"], 3: ["2S", "3S", "4S", "5S", "6S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2H"]}
    state = new_game(4, seed=1, deck=stacked_deck(4, hands))
    events = apply(state, play("8D"))
    assert events == [{"type": "played", "seat": 2, "card": "8D"}, {"type": "passed", "seat": 3}]
    assert state["current"] == 0 and view(state, None)["seats"][3]["passes"] == 1


def test_a_seat_with_one_card_that_fits_still_chooses():
    spades = ["AS", "2S", "3S", "4S", "5S", "6S", "8S", "9S", "10S", "JS", "QS", "KS"]
    state = new_game(4, seed=1, deck=stacked_deck(4, {1: ["7D"], 2: ["8D", *spades]}))
    assert state["current"] == 2 and legal_actions(state) == [play("8D")]
    assert view(state, 2)["playable"] == ["8D"]


def test_holding_back_an_8_blocks_the_row_while_other_plays_remain():
    hands = {
        1: ["7D"],
        2: ["8D", "7S"],
        3: ["9D", "10D", "JD", "QD", "KD", "2C", "3C", "4C", "5C", "6C", "8C", "9C", "10C"],
    }
    state = new_game(4, seed=1, deck=stacked_deck(4, hands))
    events = apply(state, play("7S"))  # seat 2 keeps the 8♦; seat 3's diamonds all wait
    assert {"type": "passed", "seat": 3} in events
    assert "9D" in state["seats"][3]["hand"]


# --- scoring ------------------------------------------------------------------------------------


def ending_position(rounds: int = 3, totals: list[int] | None = None):
    """Three seats near the end: seat 0 goes out with its 3♥; seat 1 holds 2, seat 2 one."""
    layout = {"S": ["A", "K"], "H": ["4", "K"], "D": ["A", "K"], "C": ["2", "K"]}
    return position([["3H"], ["2H", "AC"], ["AH"]], layout, current=0, rounds=rounds, totals=totals)


def test_the_round_ends_when_a_player_plays_their_last_card_one_point_a_card_left():
    state = ending_position(rounds=1)
    events = apply(state, play("3H"))
    assert events[:2] == [
        {"type": "played", "seat": 0, "card": "3H"},
        {"type": "round_over", "round": 1, "out": 0, "penalties": [0, 2, 1], "totals": [0, 2, 1]},
    ]
    assert state["last_round"] == {"penalties": [0, 2, 1], "hands": [[], ["2H", "AC"], ["AH"]]}


def test_rank_does_not_matter_a_king_and_a_2_are_one_point_each():
    layout = {"S": ["A", "Q"], "H": ["3", "K"], "D": ["A", "K"], "C": ["A", "K"]}
    state = position([["KS"], ["2H"], ["AH"]], layout, current=0, rounds=1)
    apply(state, play("KS"))
    assert state["history"] == [[0, 1, 1]]


def test_after_the_last_round_the_lowest_total_wins():
    state = ending_position(rounds=1, totals=[9, 3, 8])
    events = apply(state, play("3H"))
    assert events[-1] == {"type": "game_over", "winners": [1], "totals": [9, 5, 9]}
    assert state["over"] and state["current"] is None and legal_actions(state) == []


def test_players_tied_for_the_lowest_total_share_the_win():
    state = ending_position(rounds=1, totals=[5, 3, 9])
    events = apply(state, play("3H"))
    assert events[-1] == {"type": "game_over", "winners": [0, 1], "totals": [5, 5, 10]}
    assert view(state, None)["winners"] == [0, 1]


def test_the_next_round_is_dealt_at_once_the_deal_moves_left_and_the_7d_opens_again():
    state = ending_position(rounds=3)
    state["round"] = 1
    events = apply(state, play("3H"))
    dealt = events[2]
    assert dealt["type"] == "dealt" and dealt["round"] == 2 and dealt["dealer"] == 1
    assert dealt["counts"] == [17, 17, 18]  # seat 2 sits left of dealer 1
    assert events[3]["type"] == "played" and events[3]["card"] == "7D"
    assert state["round"] == 2 and state["dealer"] == 1
    assert state["layout"] == {"S": None, "H": None, "D": ["7", "7"], "C": None}
    assert all(seat["passes"] == 0 for seat in state["seats"])
    assert state["moves"][0] == [events[3]["seat"], "7D"]


def test_playing_on_after_the_game_is_over_is_refused():
    state = ending_position(rounds=1)
    apply(state, play("3H"))
    for act in (lambda: apply(state, play("2H")), lambda: timeout(state)):
        with pytest.raises(IllegalAction, match="The game is over."):
            act()


# --- decisions ----------------------------------------------------------------------------------


def test_on_timeout_the_card_after_which_most_of_your_cards_fit_is_played():
    state = position([["6D", "8D", "9D", "10D"], [], []], {"D": ["7", "7"]}, current=0, rest_to=1)
    assert timeout(state)[0] == {"type": "played", "seat": 0, "card": "8D"}  # then 6♦ and 9♦ fit


def test_on_timeout_a_tie_goes_to_the_first_card_in_deck_order():
    state = position([["6D", "8D"], [], []], {"D": ["7", "7"]}, current=0, rest_to=1)
    assert timeout(state)[0] == {"type": "played", "seat": 0, "card": "6D"}
