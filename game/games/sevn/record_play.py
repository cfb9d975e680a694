"""SEVN as a game record replays it (game.fair, `python -m game.verify`): the deal and each move
through the engine alone, no Django. The Kind deals and times out through the same functions."""

from __future__ import annotations

from game.games.sevn import engine

NAME = "sevn"
OPTIONS = ("target",)  # the table's settings the engine plays by (its Table fields, by name)
RULES = "sevn/1"  # the rules a record was played by: a rules change that alters play gets a new one


def options(state: dict) -> dict:
    """The table's settings the engine plays by, as a record keeps them."""
    return {"target": state["target"]}


def new(seats: int, seed: int, options: dict, events: list) -> dict:
    return engine.new_game(seats, seed, target=options["target"], events=events)


def apply(state: dict, action: dict, seat: int) -> list[dict]:
    return engine.apply(state, action, actor=seat)


def timeout(state: dict) -> list[dict]:
    return engine.timeout(state)


def result(state: dict) -> dict:
    """The final scores: each seat's total and the winning seats (one in SEVN: ties play on)."""
    winner = state["winner"]
    return {"totals": [seat["total"] for seat in state["seats"]], "winners": [] if winner is None else [winner]}
