"""The game state: plain JSON-able data in a dict, plus the seeded shuffle and the card supply.

Layout (the only keys there are; `GameState` below spells out their types):
    seats      [{"row": [codes in the order they joined], "status": in|passed|frozen|bust,
                 "total": int}]
    target, round, dealer, over, winner
    deck       draw pile, top card LAST (secret)
    discard    discard pile, in the order cards went there
    rng        {"seed": int, "shuffles": int}: shuffle k is Random(f"{seed}/{k}") (secret)
    stack      frames of the play in progress (`Frame` below, run by flow.py); the top frame runs next
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
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from .cards import DECK
from .errors import IllegalAction
from .scoring import Step

IN = "in"
PASSED = "passed"
FROZEN = "frozen"
BUST = "bust"

MIN_SEATS = 2
MAX_SEATS = 8

_ALL_CARDS = tuple(code for code, copies in DECK.items() for _ in range(copies))  # before the first shuffle
# Shuffling n cards swaps each card i, from the last down to the second, with a card j <= i drawn
# as `size` random bits (the bit length of i + 1): _SWAPS[n] lists those (i, size).
_SWAPS = [tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1)) for n in range(len(_ALL_CARDS) + 1)]

Event = dict[str, Any]  # {"type": ..., and the fields of that type}
Action = dict[str, Any]  # {"kind": ..., and its field}: see legal_actions


class Seat(TypedDict):
    row: list[str]
    status: str
    total: int


class Rng(TypedDict):
    seed: int
    shuffles: int


class Pending(TypedDict):
    kind: str  # turn | ballast | freeze | triple_draw | gift | crossroads
    seat: int
    card: NotRequired[str]  # ballast, gift
    cards: NotRequired[list[str]]  # crossroads
    options: NotRequired[list[int]]  # freeze, triple_draw, gift


class Frame(TypedDict, total=False):
    """One frame of the play in progress; `op` says which, and which other keys it has."""

    op: str  # deal | turns | drain | freeze | triple_draw | crossroads | storm | round_end
    order: list[int]  # deal, storm: seats still to take a card, the next one last
    next: int  # turns: the seat asked first
    owner: int  # the action frames: who resolves it
    target: int | None  # triple_draw, once chosen
    left: int  # triple_draw: cards still to take
    picked: bool  # crossroads
    sevn: int | None  # round_end: the seat with SEVN, None when nobody is left in round


class LastRound(TypedDict):
    round: int
    scores: list[int]
    steps: list[list[Step] | None]
    sevn: int | None
    rows: list[list[str]]
    statuses: list[str]


class GameState(TypedDict):
    seats: list[Seat]
    target: int
    round: int
    dealer: int
    over: bool
    winner: int | None
    deck: list[str]
    discard: list[str]
    rng: Rng
    stack: list[Frame]
    queue: list[list[Any]]  # [card, owner]: JSON has no tuples
    active: str | None
    revealed: list[str]
    pending: Pending | None
    history: list[list[int]]
    last_round: LastRound | None


def clone(state: GameState) -> GameState:
    """An independent deep copy (for bots that search)."""
    copy: GameState = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return copy


if TYPE_CHECKING:
    # The type checker sees the keys; the runtime class below adds `clone()` to a plain dict.
    State = GameState
else:

    class State(dict):
        """The whole game; a dict of plain data, so `json.dumps(state)` is its full serialisation."""

        __slots__ = ()

        def clone(self) -> State:
            """An independent deep copy (for bots that search)."""
            return clone(self)


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
        target=target,
        round=0,
        dealer=0,
        over=False,
        winner=None,
        deck=[],
        discard=[],
        rng={"seed": seed, "shuffles": 0},
        stack=[],
        queue=[],
        active=None,
        revealed=[],
        pending=None,
        history=[],
        last_round=None,
    )
    if deck is None:
        cards = list(_ALL_CARDS)
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


def shuffle(state: GameState, cards: list[str]) -> None:
    """Shuffle in place with the game's next seeded shuffle, so a game replays from its seed.

    This is random.shuffle's Fisher-Yates, drawing from the generator exactly as it does
    (getrandbits of the range's bit length, again while out of range), written out: twice as
    fast without two method calls per card, and pinned here rather than in the interpreter.
    A game holds 120 cards, so no shuffle is longer than _SWAPS knows.
    tests/games/sevn/engine/test_view_and_json.py checks that it orders cards as random.shuffle does.
    """
    rng = state["rng"]
    bits = random.Random(f"{rng['seed']}/{rng['shuffles']}").getrandbits
    for i, size in _SWAPS[len(cards)]:
        j = bits(size)
        while j > i:
            j = bits(size)
        cards[i], cards[j] = cards[j], cards[i]
    rng["shuffles"] += 1


def take_card(state: GameState, events: list[Event]) -> str | None:
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


def to_json(state: GameState) -> str:
    return json.dumps(state, separators=(",", ":"))


def from_json(text: str) -> State:
    """A saved game, from this engine's `to_json` or any earlier one (the layout has not changed)."""
    saved: GameState = json.loads(text)
    return State(**saved)
