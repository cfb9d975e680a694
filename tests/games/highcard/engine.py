"""High card, a 30-line game: each seat in turn draws a card; when all have drawn, the highest wins
the round (the first to draw it on a tie); after the rounds the table chose (three unless it chose
otherwise), most rounds won wins."""

from __future__ import annotations

import random

ROUNDS = 3


class IllegalAction(ValueError):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def new_game(seats: int, seed: int, rounds: int = ROUNDS) -> dict:
    deck = [rank for rank in range(2, 15) for _ in range(4)]
    random.Random(seed).shuffle(deck)
    state = {"deck": deck, "drawn": [None] * seats, "wins": [0] * seats, "round": 1, "current": 0, "over": False}
    return {**state, "rounds": rounds}


def legal_actions(state: dict) -> list[dict]:
    return [] if state["over"] else [{"kind": "draw"}]


def apply(state: dict, action: object, actor: int | None = None) -> list[dict]:
    if state["over"]:
        raise IllegalAction("game_over")
    if actor is not None and actor != state["current"]:
        raise IllegalAction("not_your_turn")
    if action not in legal_actions(state):
        raise IllegalAction("malformed")
    seat, card = state["current"], state["deck"].pop()
    state["drawn"][seat] = card
    events = [{"type": "drawn", "seat": seat, "card": card}]
    if None in state["drawn"]:
        state["current"] = seat + 1
        return events
    best = state["drawn"].index(max(state["drawn"]))
    state["wins"][best] += 1
    events.append({"type": "round_won", "seat": best, "round": state["round"]})
    state["drawn"], state["current"], state["round"] = [None] * len(state["drawn"]), 0, state["round"] + 1
    if state["round"] > state["rounds"]:
        state["over"], state["current"] = True, None
        events.append({"type": "game_over", "winners": winners(state)})
    return events


def winners(state: dict) -> list[int]:
    return [seat for seat, wins in enumerate(state["wins"]) if wins == max(state["wins"])]
