"""Invariants over random seeds, 3-7 seats and random legal play (hypothesis), and 2,000
complete random games."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.games.sevens.engine import DECK, apply, from_json, legal_actions, new_game, playable, timeout, to_json, view
from game.games.sevens.engine.layout import empty_layout, fitting_cards, place
from tests.games.sevens.helpers import all_cards

CARDS = set(DECK)


def random_step(state: dict, rng: random.Random) -> tuple[dict | None, list[dict]]:
    """One random legal play, or now and then a timeout, as a player might let happen."""
    if rng.random() < 0.1:
        return None, timeout(state)
    action = rng.choice(legal_actions(state))
    return action, apply(state, action)


def check_secrecy(state: dict) -> None:
    """No viewer's view (but for the last round's revealed hands) holds another seat's cards,
    and the view is the same whatever the other seats hold."""
    for viewer in [None, *range(len(state["seats"]))]:
        seen = view(state, viewer)
        text = json.dumps({key: value for key, value in seen.items() if key != "last_round"})
        secret = {card for seat, held in enumerate(state["seats"]) if seat != viewer for card in held["hand"]}
        assert not any(f'"{card}"' in text for card in secret), viewer
    others = state.clone()
    hands = [seat["hand"] for seat in others["seats"][1:]]
    pooled = sorted(card for hand in hands for card in hand)
    random.Random(len(pooled)).shuffle(pooled)
    for seat in others["seats"][1:]:
        size = len(seat["hand"])
        seat["hand"], pooled = sorted(pooled[:size], key=DECK.index), pooled[size:]
    assert view(others, 0) == view(state, 0)


def check_events_hide_hands(events: list[dict]) -> None:
    """A card code appears in an event only as the card just played."""
    for event in events:
        shown = {key: value for key, value in event.items() if not (event["type"] == "played" and key == "card")}
        assert not CARDS & set(json.dumps(shown).replace('"', " ").replace(",", " ").split()), event


def check_round(moves: list[list], last_round: dict, counts: list[int]) -> None:
    """Replay a finished round from its deal: turns go left, every play fitted, and a seat
    passed only when nothing in its hand fitted."""
    hands = [set(hand) for hand in last_round["hands"]]
    for seat, card in moves:
        if card is not None:
            hands[seat].add(card)
    assert [len(hand) for hand in hands] == counts
    layout = empty_layout()
    for index, (seat, card) in enumerate(moves):
        if index:
            assert seat == (moves[index - 1][0] + 1) % len(hands)
        fitting = fitting_cards(layout)
        assert len(fitting) <= 8
        if card is None:
            assert not fitting & hands[seat]
        else:
            assert card in fitting and card in hands[seat]
            hands[seat].remove(card)
            place(layout, card)
    assert moves[0][1] == "7D" and not hands[moves[-1][0]]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**63), seats=st.integers(3, 7), rounds=st.integers(1, 3), rng=st.randoms(use_true_random=False)
)
def test_invariants_hold_through_random_play(seed, seats, rounds, rng):
    events: list[dict] = []
    state = new_game(seats, seed, rounds=rounds, events=events)
    log: list[dict | None] = []
    moves: list[list] = []
    counts: list[int] = []
    finished = 0
    while True:
        check_events_hide_hands(events)
        for event in events:
            if event["type"] == "dealt":
                moves, counts = [], event["counts"]
            elif event["type"] in ("played", "passed"):
                moves.append([event["seat"], event.get("card")])
            elif event["type"] == "round_over":
                check_round(moves, state["last_round"], counts)
                assert event["penalties"][event["out"]] == 0
                assert event["penalties"] == [len(hand) for hand in state["last_round"]["hands"]]
                finished += 1
        if state["over"]:
            break
        assert Counter(all_cards(state)) == Counter(DECK)
        assert state["moves"] == moves
        assert from_json(to_json(state)) == state and to_json(from_json(to_json(state))) == to_json(state)
        assert legal_actions(state) and [a["card"] for a in legal_actions(state)] == view(state, state["current"])[
            "playable"
        ] == playable(state["seats"][state["current"]]["hand"], state["layout"])
        check_secrecy(state)
        action, events = random_step(state, rng)
        log.append(action)
        assert len(log) <= 52 * rounds, "a round did not end"
    assert finished == rounds == len(state["history"])
    totals = [sum(column) for column in zip(*state["history"], strict=True)]
    assert totals == [seat["total"] for seat in state["seats"]]
    assert state["winners"] == [seat for seat, total in enumerate(totals) if total == min(totals)]

    replay = new_game(seats, seed, rounds=rounds)
    for action in log:
        if action is None:
            timeout(replay)
        else:
            apply(replay, action)
    assert to_json(replay) == to_json(state)


def test_two_thousand_random_games_always_end():
    rng = random.Random(2026)
    for game in range(2000):
        seats = 3 + game % 5
        state = new_game(seats, seed=game)
        for _ in range(3 * 52):
            if state["over"]:
                break
            apply(state, rng.choice(legal_actions(state)))
        assert state["over"], f"game {game} did not end"
        assert sum(len(seat["hand"]) for seat in state["seats"]) == sum(state["history"][-1])
        assert min(state["history"][-1]) == 0
        assert state["winners"]
