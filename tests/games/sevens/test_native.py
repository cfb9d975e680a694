"""The hard bot's hot loops in C (built by `make setup`) do exactly what their Python
references do, on 3-7 seats: the rollouts reach the same end of the round, the chain gives the
same deals from the same random numbers; so the hard bot plays the same with or without them."""

from __future__ import annotations

import random
from array import array
from itertools import chain, islice

from game.games.sevens.bots import hard, inference, native
from game.games.sevens.bots.bits import BIT, OPENS
from game.games.sevens.bots.inference import evidence_by_seat, likely_deals
from game.games.sevens.bots.rollout import counts_of, end_after, finish_round
from game.games.sevens.bots.sight import read_sight
from game.games.sevens.bots.worlds import Dealer
from game.games.sevens.engine import view
from tests.games.sevens.test_bots import random_positions


def imagined(games: int):
    """(sight, a few deals it imagines) at positions of random games on 3-7 seats where the
    seat to act has a choice."""
    for index, state in enumerate(random_positions(games, every=2)):
        sight = read_sight(view(state, state["current"]), state["moves"])
        if len(sight.playable) > 1:
            yield sight, list(islice(likely_deals(sight, Dealer(sight), random.Random(index)), 12))


def test_make_setup_built_the_c_library():
    assert native.C is not None, f"no {native.LIBRARY.name}: run `make setup`"


def test_the_c_rollouts_reach_the_same_ends_as_the_python_ones():
    compared = 0
    for sight, deals in imagined(40):
        for card in sight.playable:
            python = [end_after(hands, sight.fitting, sight.seat, BIT[card]) for hands in deals]
            assert native.deal_ends(flat(deals), len(deals[0]), sight.fitting, sight.seat, BIT[card]) == python
            compared += len(deals)
    assert compared > 3000


def test_an_end_is_what_is_left_when_medium_rule_plays_the_round_out():
    for sight, deals in imagined(10):
        card = BIT[sight.playable[-1]]
        for hands, key in zip(
            deals, native.deal_ends(flat(deals), len(deals[0]), sight.fitting, sight.seat, card), strict=True
        ):
            played = list(hands)
            played[sight.seat] ^= card
            if played[sight.seat]:
                after = (sight.fitting ^ card) | OPENS[card.bit_length() - 1]
                left = finish_round(played, after, (sight.seat + 1) % len(hands))
            else:
                left = [hand.bit_count() for hand in played]
            assert counts_of(key, len(hands)) == left
            assert left.count(0) == 1


def test_the_c_chain_gives_the_same_deals_as_the_python_one():
    burn_in, thin = 40, 3  # a short chain: the Python one is slow, and the steps are the same
    compared = 0
    for index, state in enumerate(random_positions(25, every=2)):
        sight = read_sight(view(state, state["current"]), state["moves"])
        evidence = evidence_by_seat(sight)
        hands = Dealer(sight).deal(random.Random(index))
        seed = random.Random(index).getrandbits(64)
        python = list(
            islice(inference._python_chain(list(hands), sight.lacks, sight.seat, evidence, seed, burn_in, thin), 80)
        )
        c = native.chain_deals(hands, sight.lacks, sight.seat, evidence, inference.POWERS, seed, burn_in, thin)
        assert list(islice(c, 80)) == python
        compared += len(python)
    assert compared > 5000


def test_hard_plays_the_same_with_or_without_the_c_library(monkeypatch):
    monkeypatch.setattr(hard, "DEALS", 400)  # the Python is slow; the same code either way
    positions = [(sight, index) for index, (sight, _) in enumerate(imagined(12))][::4]
    with_c = [hard.choose(sight, random.Random(index)) for sight, index in positions]
    monkeypatch.setattr(native, "C", None)
    assert [hard.choose(sight, random.Random(index)) for sight, index in positions] == with_c
    assert len(positions) >= 10


def flat(deals: list[list[int]]) -> array:
    return array("Q", chain.from_iterable(deals))
