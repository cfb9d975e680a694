"""Sevens as a game record replays it (game.fair, `python -m game.verify`): the deal and each move
through the engine alone, no Django. The Kind deals and times out through the same functions."""

from __future__ import annotations

from game.games.sevens import engine

NAME = "sevens"
OPTIONS = ("rounds",)  # the table's settings the engine plays by (its Table fields, by name)
RULES = "sevens/1"  # the rules a record was played by: a rules change that alters play gets a new one


def options(state: dict) -> dict:
    """The table's settings the engine plays by, as a record keeps them."""
    return {"rounds": state["rounds"]}


def new(seats: int, seed: int, options: dict, events: list) -> dict:
    return engine.new_game(seats, seed, rounds=options["rounds"], events=events)


def apply(state: dict, action: dict, seat: int) -> list[dict]:
    return engine.apply(state, action, actor=seat)


def timeout(state: dict) -> list[dict]:
    """The clock ran out: said in the log (as SEVN's engine says it), then the default card."""
    return [{"type": "timeout", "seat": state["current"]}, *engine.timeout(state)]


def result(state: dict) -> dict:
    """The final scores: each seat's penalty total and the winning seats (the lowest; may be shared)."""
    return {"totals": [seat["total"] for seat in state["seats"]], "winners": list(state["winners"])}
