"""The exact solve of a Sevens round's end (game/games/sevens/endgame.py) checked against brute
force: every deal of the unseen cards tried one card at a time, each played out on the engine
itself with every seat trying every card; the C solver against its Python reference; and the
judgement it gives the same for every deal of the hidden hands that fits what the player saw."""

from __future__ import annotations

import copy
import random
from itertools import product

from django.template.loader import render_to_string
from django.utils import translation
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game import registry
from game.games.sevens import analysis, endgame
from game.games.sevens.bots import POLICIES
from game.games.sevens.bots.bits import BIT, cards
from game.games.sevens.bots.hard import TIE_BREAK
from game.games.sevens.bots.inference import POWERS, evidence_by_seat, odd_plays
from game.games.sevens.bots.native import C
from game.games.sevens.bots.sight import Sight, read_sight
from game.games.sevens.bots.standing import win_share
from game.games.sevens.engine import apply, new_game, view
from game.screen import replay_analysis


def with_hands(state: dict, hands: list[int]) -> dict:
    """The same position with these hands (masks): what the seat to act sees is unchanged if
    they fit its sight."""
    other = copy.deepcopy(state)
    for seat, hand in enumerate(hands):
        other["seats"][seat]["hand"] = cards(hand)
    return other


def position(seats: int, seed: int, rounds: int, in_round: int, cards_left: int, policy: str = "medium"):
    """The first decision with a choice in round `in_round` where at most `cards_left` cards are in
    all hands together, in a game of bots; (state, sight) or None if the round ends first."""
    state = new_game(seats, seed, rounds=rounds)
    rng = random.Random(seed)
    while not state["over"]:
        seat = state["current"]
        sight = read_sight(view(state, seat), state["moves"])
        if state["round"] > in_round:
            return None
        if state["round"] == in_round and len(sight.playable) > 1 and sum(sight.counts) <= cards_left:
            return state, sight
        apply(state, POLICIES[policy](sight, rng), actor=seat)
    return None


def brute_deals(sight: Sight) -> list[tuple[list[int], float]]:
    """Every deal that fits, by trying every holder for every unseen card, with the sampler's weight."""
    others = [seat for seat in range(len(sight.counts)) if seat != sight.seat]
    unseen = [BIT[card] for card in cards(sight.unseen)]
    evidence = evidence_by_seat(sight)
    found = []
    for holders in product(others, repeat=len(unseen)):
        hands = [0] * len(sight.counts)
        hands[sight.seat] = sight.hand
        for card, seat in zip(unseen, holders, strict=True):
            hands[seat] |= card
        if any(hands[seat].bit_count() != sight.counts[seat] or hands[seat] & sight.lacks[seat] for seat in others):
            continue
        weight = 1.0
        for seat in others:
            weight *= POWERS[odd_plays(hands[seat], evidence[seat])]
        found.append((hands, weight))
    return found


def worths(sight: Sight, penalties: list[int]) -> list[float]:
    seats = len(penalties)
    totals = [total + cards for total, cards in zip(sight.totals, penalties, strict=True)]
    return [
        win_share(totals, seat, sight.rounds_after)
        - TIE_BREAK * (penalties[seat] - (sum(penalties) - penalties[seat]) / (seats - 1))
        for seat in range(seats)
    ]


def played_out(sight: Sight, state: dict, card: str) -> list[int]:
    """The round's penalties when the seat to act plays `card` and every seat then tries every
    card it may play on the engine, keeping the first of its best (no memory, no masks)."""
    state = copy.deepcopy(state)
    seat = state["current"]
    events = apply(state, {"kind": "play", "card": card}, actor=seat)
    over = next((event for event in events if event["type"] == "round_over"), None)
    if over is not None:
        return over["penalties"]
    seat = state["current"]
    best, best_penalties = None, None
    for option in view(state, seat)["playable"]:
        penalties = played_out(sight, state, option)
        value = worths(sight, penalties)[seat]
        if best is None or value > best:
            best, best_penalties = value, penalties
    assert best_penalties is not None
    return best_penalties


def brute_options(state: dict, sight: Sight) -> dict[str, tuple[float, float, float]]:
    """Each option's (value, share of the win, own cards left), weighed over every deal."""
    dealt = brute_deals(sight)
    total = sum(weight for _hands, weight in dealt)
    out = {}
    for card in sight.playable:
        value = share = left = 0.0
        for hands, weight in dealt:
            penalties = played_out(sight, with_hands(state, hands), card)
            totals = [t + p for t, p in zip(sight.totals, penalties, strict=True)]
            value += weight * worths(sight, penalties)[sight.seat]
            share += weight * win_share(totals, sight.seat, sight.rounds_after)
            left += weight * penalties[sight.seat]
        out[card] = (value / total, share / total, left / total)
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(
    seats=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    rounds=st.integers(1, 3),
    in_round=st.integers(1, 2),
    cards_left=st.integers(4, 11),
    policy=st.sampled_from(["medium", "easy", "long_suit_far"]),
)
def test_the_exact_solve_agrees_with_brute_force(seats, seed, rounds, in_round, cards_left, policy):
    found = position(seats, seed, rounds, min(in_round, rounds), cards_left, policy)
    assume(found is not None)
    state, sight = found
    assume(endgame.count_deals(sight) <= 300)
    expected = brute_options(state, sight)
    assert endgame.count_deals(sight) == len(brute_deals(sight))
    for native_solve in (True, False):
        rated, values, _chances, count = endgame.options(sight, native_solve=native_solve)
        assert count == len(brute_deals(sight))
        for option in rated:
            value, share, left = expected[option["action"]["card"]]
            assert abs(option["value"] - value) < 1e-9
            assert abs(values[option["action"]["card"]] - value) < 1e-9
            assert abs(option["chance"] - share) < 1e-9
            assert abs(option["cards"] - left) < 1e-9


def test_the_c_solver_finds_the_same_ends_as_the_python_one_and_every_deal_is_counted():
    assert C is not None, "make setup builds _native.so"
    checked = 0
    for seed in range(60):
        found = position(4 + seed % 2, seed, 2, 1 + seed % 2, 14 + seed % 5)
        if found is None:
            continue
        _state, sight = found
        if endgame.count_deals(sight) > 3000:
            continue
        assert endgame.count_deals(sight) == sum(1 for _deal in endgame.deals(sight))
        assert endgame.options(sight, native_solve=True) == endgame.options(sight, native_solve=False)
        checked += 1
    assert checked >= 15


def perfect_card(state: dict, sight: Sight) -> str:
    """The right card knowing every hand (as nobody at the table could)."""
    return max(sight.playable, key=lambda card: worths(sight, played_out(sight, state, card))[sight.seat])


def endgame_the_hidden_hands_decide():
    """A position judged exactly whose right card, knowing every hand, depends on the deal; with
    every deal that fits it (as states) and the card right only for the real hands."""
    for seed in range(200):
        found = position(4, seed, 2, 1, 14)
        if found is None:
            continue
        state, sight = found
        if not endgame.applies(sight) or endgame.count_deals(sight) > 60:
            continue
        every = [with_hands(state, hands) for hands, _weight in endgame.deals(sight)]
        if len({perfect_card(other, sight) for other in every}) > 1:
            return state, sight, every, {"kind": "play", "card": perfect_card(state, sight)}
    raise AssertionError("no endgame whose right card depends on the hidden hands was found")


def test_an_endgame_is_judged_exactly_and_the_same_for_every_deal_that_fits():
    state, sight, every, chosen = endgame_the_hidden_hands_decide()
    for other in every:  # each fits what the seat saw: its own view is unchanged
        assert view(other, sight.seat) == view(state, sight.seat)
    first = analysis.judge_at(state, chosen, seed=3)
    assert first is not None and first["exact"] == len(every) and first["error"] == 0.0
    for other in every:
        assert analysis.judge_at(other, chosen, seed=7) == first


def test_the_replay_says_when_a_move_was_solved_exactly():
    state, sight, every, chosen = endgame_the_hidden_hands_decide()
    decision = analysis.judge_at(state, chosen)
    names = [f"P{seat}" for seat in range(len(sight.counts))]
    kind = registry.of({"kind": "sevens"})
    with translation.override("en"):
        words = replay_analysis.judgement(kind, decision, names)
        html = render_to_string("game/_replay_judgement.html", {"judgement": words})
    assert f"Solved exactly: all {len(every)} ways the others’ cards could lie" in words["how"]
    assert words["how"] in html
    with translation.override("fr"):
        french = replay_analysis.judgement(kind, decision, names)["how"]
    assert f"Calcul exact\u202f: les {len(every)} répartitions" in french
    sampled = {**decision}
    del sampled["exact"]
    assert replay_analysis.judgement(kind, sampled, names)["how"] == ""


def test_the_exact_solve_takes_over_only_within_its_limits():
    seen = set()
    for seed in range(40):
        state = new_game(5, seed, rounds=1)
        rng = random.Random(seed)
        while not state["over"]:
            seat = state["current"]
            sight = read_sight(view(state, seat), state["moves"])
            unseen = sum(c for s, c in enumerate(sight.counts) if s != seat)
            if len(sight.playable) > 1:
                exact = endgame.applies(sight)
                assert exact == (unseen <= endgame.EXACT_CARDS and endgame.count_deals(sight) <= endgame.EXACT_DEALS)
                seen.add(exact)
            apply(state, POLICIES["medium"](sight, rng), actor=seat)
    assert seen == {True, False}
