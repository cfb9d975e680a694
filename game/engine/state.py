"""The game state: plain JSON-able data in a dict, plus the seeded shuffle and the card supply.

Layout (the only keys there are):
    seats      [{"row": [codes in the order they joined], "status": in|passed|frozen|bust,
                 "total": int}]
    target, round, dealer, over, winner
    deck       draw pile, top card LAST (secret)
    discard    discard pile, in the order cards went there
    rng        {"seed": int, "shuffles": int}: shuffle k is Random(f"{seed}/{k}") (secret)
    stack      frames of the play in progress (see flow.py); the top frame runs next
    queue      [[card, owner seat]] action cards waiting, oldest first
    active     the action card being resolved, or None
    revealed   the two Crossroads cards on the table while the pick is open
    pending    the decision the engine waits for: {"kind", "seat", ...}, None when over
    history    round scores of finished rounds, one list per round
    last_round the last finished round as it ended ({"round", "scores", "steps", "sevn", "rows",
               "statuses"}), or None
"""

from __future__ import annotations

import json
import pickle
import random

from .cards import DECK
from .errors import IllegalAction

IN = "in"
PASSED = "passed"
FROZEN = "frozen"
BUST = "bust"

MIN_SEATS = 2
MAX_SEATS = 8


class State(dict):
    """The whole game; a dict of plain data, so `json.dumps(state)` is its full serialisation."""

    __slots__ = ()

    def clone(self) -> State:
        """An independent deep copy (for bots that search)."""
        return pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))


def blank_state(seats: int, seed: int, target: int, deck: list[str] | None) -> State:
    """A game before its first deal: checked set-up, deck stacked or shuffled from the seed."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise IllegalAction(f"A game needs {MIN_SEATS} to {MAX_SEATS} seats.", "bad_seats")
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise IllegalAction("The target score must be a positive whole number.", "bad_target")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise IllegalAction("The seed must be a whole number.", "bad_seed")
    state = State(
        seats=[{"row": [], "status": IN, "total": 0} for _ in range(seats)],
        target=target, round=0, dealer=0, over=False, winner=None,
        deck=[], discard=[], rng={"seed": seed, "shuffles": 0},
        stack=[], queue=[], active=None, revealed=[], pending=None,
        history=[], last_round=None,
    )
    if deck is None:
        cards = [code for code, copies in DECK.items() for _ in range(copies)]
        shuffle(state, cards)
        state["deck"] = cards
    else:
        _check_stacked_deck(deck)
        state["deck"] = list(reversed(deck))
    return state


def _check_stacked_deck(deck: list[str]) -> None:
    if not isinstance(deck, list):
        raise IllegalAction("A stacked deck is a list of card codes.", "bad_deck")
    counts: dict[str, int] = {}
    for code in deck:
        if code not in DECK:
            raise IllegalAction(f"{code!r} is not a SEVN card.", "bad_deck")
        counts[code] = counts.get(code, 0) + 1
        if counts[code] > DECK[code]:
            raise IllegalAction(f"The deck has only {DECK[code]} of {code!r}.", "bad_deck")


def shuffle(state: State, cards: list[str]) -> None:
    """Shuffle in place with the game's next seeded shuffle, so a game replays from its seed."""
    rng = state["rng"]
    random.Random(f"{rng['seed']}/{rng['shuffles']}").shuffle(cards)
    rng["shuffles"] += 1


def take_card(state: State, events: list[dict]) -> str | None:
    """The top card of the deck; an empty deck first reshuffles the discard pile.

    None only when no card is left anywhere (possible with small stacked test decks).
    """
    deck = state["deck"]
    if not deck:
        discard = state["discard"]
        if not discard:
            return None
        deck.extend(discard)
        discard.clear()
        shuffle(state, deck)
        events.append({"type": "reshuffle", "deck_count": len(deck)})
    return deck.pop()


def card_available(state: State) -> bool:
    return bool(state["deck"] or state["discard"])


def to_json(state: State) -> str:
    return json.dumps(state, separators=(",", ":"))


def from_json(text: str) -> State:
    return State(json.loads(text))
