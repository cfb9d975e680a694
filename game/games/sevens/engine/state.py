"""The game state: plain JSON-able data in a dict, plus the seeded shuffle.

Layout (the only keys there are):
    seats      [{"hand": [codes in DECK order] (secret), "total": int, "passes": int}]
    rounds, round, dealer
    current    the seat to act (it always has a card that fits), None when the game is over
    layout     per suit None or [lowest, highest] rank on the table (layout.py)
    moves      this round's public moves in order: [seat, card] for a play, [seat, None] for a pass
    history    the penalties of each finished round, one list per round
    last_round the last finished round: {"penalties": [...], "hands": [[...], ...]}, or None
    over, winners
    rng        {"seed": int, "shuffles": int}: shuffle k is Random(f"{seed}/{k}") (secret)
"""

from __future__ import annotations

import json
import random

from .cards import DECK
from .errors import IllegalAction
from .layout import empty_layout

MIN_SEATS, MAX_SEATS = 3, 7
MIN_ROUNDS, MAX_ROUNDS = 1, 10


class State(dict):
    """The whole game; a dict of plain data, so `json.dumps(state)` is its full serialisation."""

    __slots__ = ()

    def clone(self) -> State:
        """An independent deep copy."""
        return from_json(to_json(self))


def blank_state(seats: int, seed: int, rounds: int) -> State:
    """A game before its first deal, its set-up checked."""
    if not _whole(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise IllegalAction(f"A game of Sevens needs {MIN_SEATS} to {MAX_SEATS} seats.", "bad_seats")
    if not _whole(rounds) or not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
        raise IllegalAction(f"A game has {MIN_ROUNDS} to {MAX_ROUNDS} rounds.", "bad_rounds")
    if not _whole(seed):
        raise IllegalAction("The seed must be a whole number.", "bad_seed")
    return State(
        seats=[{"hand": [], "total": 0, "passes": 0} for _ in range(seats)],
        rounds=rounds,
        round=0,
        dealer=0,
        current=None,
        layout=empty_layout(),
        moves=[],
        history=[],
        last_round=None,
        over=False,
        winners=[],
        rng={"seed": seed, "shuffles": 0},
    )


def check_stacked_deck(deck: object) -> list[str]:
    """A test's stacked deal order, checked to be a permutation of DECK."""
    if not isinstance(deck, list) or sorted(deck, key=str) != sorted(DECK):
        raise IllegalAction("A stacked deck lists each of the 52 cards once.", "bad_deck")
    return list(deck)


def shuffled_deck(state: State) -> list[str]:
    """The next round's deal order from the game's next seeded shuffle, so a game replays."""
    rng = state["rng"]
    cards = list(DECK)
    random.Random(f"{rng['seed']}/{rng['shuffles']}").shuffle(cards)
    rng["shuffles"] += 1
    return cards


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def to_json(state: State) -> str:
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def from_json(text: str) -> State:
    return State(json.loads(text))
