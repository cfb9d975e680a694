"""The games a table can play, each behind the same small surface the services speak through.

What is common (tables, seats, presence, timers, versions, the event log, broadcast) knows a
game only as a `Kind`: how to deal a new game for a table, apply a move or a timeout, who must
act, whether it is over, what each viewer may see, and what its computer players do. Each
game brings its engine and bots; nothing outside this module imports both.

Secrecy lives here: `views` is the only way a game's state reaches a page or a socket. SEVN's
cards are all face up, so every viewer shares one view; Sevens' hands are secret, so each seat
gets the engine's `view(state, seat)` and a spectator `view(state, None)`.
"""

from __future__ import annotations

import random
from typing import Any

from game import engine as sevn
from game.bots import decide as sevn_bot
from game.engine.state import MAX_SEATS as SEVN_MAX_SEATS
from game.engine.state import MIN_SEATS as SEVN_MIN_SEATS
from game.sevens import engine as sevens
from game.sevens.bots import decide as sevens_bot
from game.sevens.engine.state import MAX_ROUNDS, MIN_ROUNDS
from game.sevens.engine.state import MAX_SEATS as SEVENS_MAX_SEATS
from game.sevens.engine.state import MIN_SEATS as SEVENS_MIN_SEATS


class Kind:
    """One game's rules as the tables use them."""

    name: str
    min_seats: int
    max_seats: int
    max_bots: int  # a table needs at least (seats - max_bots) people
    secret: bool  # whether viewers see different things (hidden hands)
    illegal: type[Exception]  # the engine's error: its message is a sentence a user can read

    def new(self, table, seat_count: int, seed: int, events: list) -> dict:
        raise NotImplementedError

    def apply(self, state: dict, action: object, actor: int | None = None) -> list[dict]:
        raise NotImplementedError

    def timeout(self, state: dict) -> list[dict]:
        raise NotImplementedError

    def acting(self, state: dict) -> int | None:
        """The seat whose decision the game waits for (None when it is over)."""
        raise NotImplementedError

    def winner(self, state: dict) -> int | None:
        """The one winning seat, or None (not over yet, or a shared win)."""
        raise NotImplementedError

    def views(self, state: dict) -> dict[str, Any]:
        """What viewers may see: {"view": a spectator's, "seat_views": one per seat or None}."""
        raise NotImplementedError

    def bot_action(self, level: str, state: dict, rng: random.Random) -> dict:
        raise NotImplementedError

    def bot_rng(self, seed: int, version: int, state: dict) -> random.Random:
        raise NotImplementedError

    def to_json(self, state: dict) -> str:
        raise NotImplementedError

    def from_json(self, text: str) -> dict:
        raise NotImplementedError


class Sevn(Kind):
    name, min_seats, max_seats, max_bots, secret = "sevn", SEVN_MIN_SEATS, SEVN_MAX_SEATS, SEVN_MAX_SEATS - 1, False
    illegal = sevn.IllegalAction

    def new(self, table, seat_count, seed, events):
        return sevn.new_game(seat_count, seed, target=table.target, events=events)

    def apply(self, state, action, actor=None):
        return sevn.apply(state, action, actor=actor)

    def timeout(self, state):
        return sevn.timeout(state)

    def acting(self, state):
        return None if state["pending"] is None else state["pending"]["seat"]

    def winner(self, state):
        return state["winner"]

    def views(self, state):
        return {"view": sevn.public_view(state), "seat_views": None}

    def bot_action(self, level, state, rng):
        return sevn_bot(level, state, rng)

    def bot_rng(self, seed, version, state):
        return random.Random(f"{seed}/{version}/{len(state['history'])}/{state['round']}")

    def to_json(self, state):
        return sevn.to_json(state)

    def from_json(self, text):
        return sevn.from_json(text)


class Sevens(Kind):
    name, min_seats, max_seats, max_bots, secret = "sevens", SEVENS_MIN_SEATS, SEVENS_MAX_SEATS, 5, True
    illegal = sevens.IllegalAction

    def new(self, table, seat_count, seed, events):
        return sevens.new_game(seat_count, seed, rounds=table.rounds, events=events)

    def apply(self, state, action, actor=None):
        return sevens.apply(state, action, actor=actor)

    def timeout(self, state):
        """The clock ran out: said in the log (as SEVN's engine says it), then the default card."""
        seat = state["current"]
        return [{"type": "timeout", "seat": seat}, *sevens.timeout(state)]

    def acting(self, state):
        return state["current"]

    def winner(self, state):
        winners = state["winners"]
        return winners[0] if state["over"] and len(winners) == 1 else None

    def views(self, state):
        return {
            "view": sevens.view(state, None),
            "seat_views": [sevens.view(state, seat) for seat in range(len(state["seats"]))],
        }

    def bot_action(self, level, state, rng):
        return sevens_bot(level, state, rng)

    def bot_rng(self, seed, version, state):
        return random.Random(f"{seed}/{version}/{len(state['moves'])}/{state['round']}")

    def to_json(self, state):
        return sevens.to_json(state)

    def from_json(self, text):
        return sevens.from_json(text)


SEVN, SEVENS = Sevn(), Sevens()
KINDS = {kind.name: kind for kind in (SEVN, SEVENS)}
ROUNDS = range(MIN_ROUNDS, MAX_ROUNDS + 1)


def of(table) -> Kind:
    """The game a table plays (a Table, or a snapshot's table dict)."""
    name = table["kind"] if isinstance(table, dict) else table.kind
    return KINDS[name]
