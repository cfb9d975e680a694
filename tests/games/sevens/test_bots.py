"""Every bot level plays legally from what its seat may know; medium and the baseline follow
their rules; hard's choice does not move when the hidden hands do."""

from __future__ import annotations

import random
from itertools import islice

from game.games.sevens.bots import LEVELS, POLICIES, decide, read_sight, round_moves
from game.games.sevens.bots.arena import play_game
from game.games.sevens.bots.bits import ALL, cards, mask
from game.games.sevens.bots.hard import _still_in_question
from game.games.sevens.bots.inference import evidence_by_seat, likely_deals, odd_plays
from game.games.sevens.bots.rollout import keen_pick
from game.games.sevens.bots.sight import Sight
from game.games.sevens.bots.standing import win_share
from game.games.sevens.bots.worlds import Dealer
from game.games.sevens.engine import apply, legal_actions, new_game, to_json, view
from tests.games.sevens.helpers import play, position


def random_positions(games: int, every: int = 3):
    """States with a seat to act, from games of random legal play on 3-7 seats."""
    rng = random.Random(13)
    for game in range(games):
        state = new_game(3 + game % 5, seed=game, rounds=1)
        turn = 0
        while not state["over"]:
            if turn % every == 0:
                yield state.clone()
            apply(state, rng.choice(legal_actions(state)))
            turn += 1


def test_the_levels_and_the_baseline():
    assert LEVELS == ("easy", "medium", "hard")
    assert set(POLICIES) == {*LEVELS, "long_suit_far"}


def test_every_level_plays_a_legal_card_and_changes_nothing():
    for index, state in enumerate(random_positions(12, every=4)):
        before = to_json(state)
        for level in POLICIES:
            assert decide(level, state, random.Random(index)) in legal_actions(state), level
        assert to_json(state) == before


def test_the_round_moves_read_from_the_log_are_the_states():
    rng = random.Random(2)
    log: list[dict] = []
    state = new_game(5, seed=4, rounds=2, events=log)
    while not state["over"]:
        assert round_moves(log) == state["moves"]
        log += apply(state, rng.choice(legal_actions(state)))


def test_what_a_seat_knows_is_sound_a_seat_that_passed_lacks_what_fitted():
    for state in random_positions(20, every=2):
        sight = read_sight(view(state, state["current"]), state["moves"])
        for seat, held in enumerate(state["seats"]):
            assert not mask(held["hand"]) & sight.lacks[seat]
        assert sight.hand | sight.unseen == mask([card for seat in state["seats"] for card in seat["hand"]])


def test_the_deals_a_bot_imagines_fit_the_counts_and_what_it_saw():
    for index, state in enumerate(random_positions(20, every=3)):
        sight = read_sight(view(state, state["current"]), state["moves"])
        hands = Dealer(sight).deal(random.Random(index))
        assert [hand.bit_count() for hand in hands] == sight.counts
        assert all(not hand & lacked for hand, lacked in zip(hands, sight.lacks, strict=True))
        dealt = 0
        for hand in hands:
            assert not dealt & hand
            dealt |= hand
        assert dealt == sight.hand | sight.unseen and hands[sight.seat] == sight.hand


def test_the_deals_weighed_by_the_plays_still_fit_the_counts_and_the_passes():
    for index, state in enumerate(random_positions(10, every=5)):
        sight = read_sight(view(state, state["current"]), state["moves"])
        deals = list(islice(likely_deals(sight, Dealer(sight), random.Random(index)), 40))
        assert len(deals) == 40
        for hands in deals:
            assert [hand.bit_count() for hand in hands] == sight.counts and hands[sight.seat] == sight.hand
            assert all(not hand & lacked for hand, lacked in zip(hands, sight.lacks, strict=True))
            assert sum(hands) == sight.hand | sight.unseen  # disjoint hands: the sum is the union


def test_the_real_hands_of_medium_players_never_look_odd_to_medium_rule():
    rng = random.Random(3)
    state = new_game(4, seed=8, rounds=1)
    while not state["over"]:
        sight = read_sight(view(state, state["current"]), state["moves"])
        evidence = evidence_by_seat(sight)
        for seat, held in enumerate(state["seats"]):
            assert odd_plays(mask(held["hand"]), evidence[seat]) == 0
        apply(state, decide("medium", state, rng))


def test_the_odd_plays_counted_over_the_candidates_are_those_medium_rule_would_not_make():
    """odd_plays writes keen_pick out over the plays where a seat may have had a choice; on any
    hand the seat may hold it counts what keen_pick says of every play."""
    rng = random.Random(6)
    checked = 0
    for state in random_positions(12, every=4):
        sight = read_sight(view(state, state["current"]), state["moves"])
        evidence = evidence_by_seat(sight)
        for seat in range(len(sight.counts)):
            for _ in range(3):
                may_hold = sight.unseen & ~sight.lacks[seat]
                hand = sight.hand if seat == sight.seat else may_hold & rng.getrandbits(52)
                keen = since = 0
                for player, card, fitting, table in reversed(sight.plays):
                    if player != seat:
                        continue
                    since |= card
                    then = hand | since
                    options = then & fitting
                    if options & (options - 1):
                        keen += keen_pick(then, ALL & ~table & ~then, options) != card
                        checked += 1
                assert odd_plays(hand, evidence[seat]) == keen
    assert checked > 100


def test_a_sight_knows_the_standing_and_the_rounds_to_come():
    state = new_game(4, seed=3, rounds=3)
    rng = random.Random(0)
    while state["round"] == 1:
        apply(state, decide("medium", state, rng))
    sight = read_sight(view(state, state["current"]), state["moves"])
    assert sight.totals == [seat["total"] for seat in state["seats"]] and sum(sight.totals) > 0
    assert sight.rounds_after == 1


def test_the_win_share_counts_ties_as_shared_and_a_lead_as_worth_more_with_fewer_rounds_to_go():
    assert win_share([3, 5, 5, 5], 0, 0) == 1.0
    assert win_share([5, 5, 3, 9], 0, 0) == 0.0
    assert win_share([4, 4, 6, 9], 1, 0) == 0.5
    assert abs(win_share([5, 5, 5, 5], 2, 2) - 0.25) < 1e-9
    assert 0.25 < win_share([3, 5, 5, 5], 0, 2) < win_share([3, 5, 5, 5], 0, 1) < 1.0
    shares = [win_share([2, 4, 6, 7], seat, 1) for seat in range(4)]
    assert abs(sum(shares) - 1) < 1e-9 and shares == sorted(shares, reverse=True)


def test_hard_decides_the_same_whatever_the_hidden_hands_are():
    """Its choice is the same when the other hands are dealt again consistently with all it
    saw: it never reads them."""
    checked = 0
    for index, state in enumerate(random_positions(10, every=7)):
        seat = state["current"]
        if len(legal_actions(state)) < 2:
            continue
        other = state.clone()
        sight = read_sight(view(state, seat), state["moves"])
        hands = Dealer(sight).deal(random.Random(1000 + index))
        for number, held in enumerate(other["seats"]):
            held["hand"] = cards(hands[number])
        assert other["seats"] != state["seats"] or index == 0
        assert decide("hard", other, random.Random(index)) == decide("hard", state, random.Random(index))
        checked += 1
    assert checked >= 10


def test_hard_drops_an_option_only_when_it_clearly_trails_the_best_deal_by_deal():
    best = [0.0, -1.0, 0.5, -0.5, 0.0, 1.0, -1.0, 0.5]
    noisy = [1, -1, 1, -1, 1, -1, 1, -0.5]  # as good, noisily
    unsure = [2, -1, 0.5, 1, 2, -0.5, 1, 1]  # worse, but not surely
    losses = {
        "8D": best,
        "9S": [loss + 0.25 for loss in best],  # always a little worse: no doubt left
        "KH": [loss + gap for loss, gap in zip(best, noisy, strict=True)],
        "2C": [loss + gap for loss, gap in zip(best, unsure, strict=True)],
    }
    assert list(_still_in_question(losses)) == ["8D", "KH", "2C"]
    assert list(_still_in_question({"8D": best, "9S": list(best)})) == ["8D", "9S"]  # a tie stays in


def test_medium_opens_the_way_to_its_own_cards_and_holds_back_a_blocker():
    # 8♦ has nothing of ours behind it (it would free the others' 9♦-K♦); 7♠ leads to our spades
    state = position([["8D", "7S", "8S", "9S"], [], []], {"D": ["7", "7"]}, current=0, rest_to=1)
    assert decide("medium", state, random.Random(0)) == play("7S")
    # of two plays that lead to our cards, the one with more of ours behind it
    state = position([["6H", "5H", "4H", "8C", "9C"], [], []], {"H": ["7", "7"], "C": ["7", "7"]}, current=0, rest_to=1)
    assert decide("medium", state, random.Random(0)) == play("6H")


def test_medium_gives_way_where_it_frees_the_fewest_cards_when_all_it_has_blocks():
    state = position(
        [["8D", "2H", "KS"], [], []], {"D": ["7", "7"], "H": ["3", "K"], "S": ["A", "Q"]}, current=0, rest_to=1
    )
    assert decide("medium", state, random.Random(0)) in (play("2H"), play("KS"))


def test_the_baseline_plays_the_farthest_card_of_its_longest_suit():
    layout = {"H": ["4", "Q"], "D": ["7", "7"], "C": ["7", "8"]}
    state = position([["3H", "2H", "KH", "8D", "9C"], [], []], layout, current=0, rest_to=1)
    assert [a["card"] for a in legal_actions(state)] == ["3H", "KH", "8D", "9C"]
    assert decide("long_suit_far", state, random.Random(0)) == play("KH")  # K♥ is 6 from the 7, 3♥ only 4
    state = position([["3H", "8D", "9D", "10D", "9C"], [], []], layout, current=0, rest_to=1)
    assert decide("long_suit_far", state, random.Random(0)) == play("8D")  # diamonds is the longest suit


def test_medium_beats_random_play():
    share = 0.0
    games = 200
    for seed in range(games):
        seat = seed % 4
        policies = [POLICIES["easy"]] * 4
        policies[seat] = POLICIES["medium"]
        winners = play_game(policies, seed)["winners"]
        share += 1 / len(winners) if seat in winners else 0.0
    assert share / games > 0.45


def test_a_deal_is_found_even_when_what_was_seen_leaves_little_room():
    """Dense passes (each seat lacks most cards it does not hold) force the dealer into corners
    that only a chain of moves between hands gets out of."""
    rng = random.Random(5)
    for trial in range(200):
        cards_left = list(range(20))
        rng.shuffle(cards_left)
        sizes = [4, 5, 5, 6]
        real, start = [], 0
        for size in sizes:
            real.append(sum(1 << card for card in cards_left[start : start + size]))
            start += size
        every = (1 << 20) - 1
        lacks = [0] + [every & ~hand & rng.getrandbits(20) for hand in real[1:]]
        sight = Sight(
            seat=0, hand=real[0], playable=[], fitting=0, unseen=every & ~real[0], counts=sizes, lacks=lacks, plays=[]
        )
        hands = Dealer(sight).deal(random.Random(trial))
        assert [hand.bit_count() for hand in hands] == sizes
        assert all(not hand & lacked for hand, lacked in zip(hands, lacks, strict=True))
        assert sum(hands) == every
