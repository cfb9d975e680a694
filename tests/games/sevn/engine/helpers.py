"""Small helpers for scenario tests on stacked decks (`deck=[...]`, top card first)."""

from __future__ import annotations

from game.games.sevn.engine import apply, new_game

SEED = 7


def start(deck: list[str], seats: int = 2, target: int = 250) -> tuple[dict, list[dict]]:
    """A game on a stacked deck and the events of its first deal. Seat 0 deals first."""
    events: list[dict] = []
    state = new_game(seats, SEED, target=target, deck=deck, events=events)
    return state, events


def act(state: dict, *actions: str | dict) -> list[dict]:
    """Apply actions in order ("draw"/"pass" or full dicts) and return all their events."""
    events: list[dict] = []
    for action in actions:
        events += apply(state, {"kind": action} if isinstance(action, str) else action)
    return events


def kinds(events: list[dict]) -> list[str]:
    return [event["type"] for event in events]


def rows(state: dict) -> list[list[str]]:
    return [seat["row"] for seat in state["seats"]]


def statuses(state: dict) -> list[str]:
    return [seat["status"] for seat in state["seats"]]


def pending(state: dict) -> tuple[str, int]:
    return state["pending"]["kind"], state["pending"]["seat"]


def first(events: list[dict], kind: str) -> dict:
    return next(event for event in events if event["type"] == kind)


def all_cards(state: dict) -> list[str]:
    """Every card the game holds, wherever it is (the 120 of a full deck)."""
    cards = list(state["deck"]) + list(state["discard"]) + list(state["revealed"])
    cards += [card for seat in state["seats"] for card in seat["row"]]
    cards += [card for card, _owner in state["queue"]]
    if state["active"] is not None:
        cards.append(state["active"])
    if state["pending"] is not None and "card" in state["pending"]:
        cards.append(state["pending"]["card"])
    return cards
