"""Resolving one card taken by a seat (rules section 5): the row, duplicates, Ballast, Second
Chance, and starting or queueing the action cards."""

from __future__ import annotations

from . import actions, rounds
from .cards import ACTION, BALLAST, KIND, NUMBER, SEVN_DISTINCT, VALUE
from .state import BUST, State, take_card
from .table import in_round

SECOND_CHANCE = "second_chance"


def give(state: State, seat: int, via: str, events: list[dict]) -> bool:
    """The seat takes the top card and resolves it; False when no card is left anywhere."""
    card = take_card(state, events)
    if card is None:
        return False
    if via == "deal":
        events.append({"type": "dealt", "seat": seat, "card": card})
    else:
        events.append({"type": "drawn", "seat": seat, "card": card, "via": via})
    resolve(state, seat, card, events)
    return True


def resolve(state: State, seat: int, card: str, events: list[dict]) -> None:
    """Resolve a card the seat has just taken. Ends the round at once on SEVN."""
    kind = KIND[card]
    row = state["seats"][seat]["row"]
    if kind == NUMBER:
        if card in row:
            _duplicate(state, seat, card, events)
        else:
            join_row(state, seat, card, events)
    elif kind == BALLAST:
        state["pending"] = {"kind": "ballast", "seat": seat, "card": card}
    elif kind != ACTION:
        row.append(card)
        events.append({"type": "joined", "seat": seat, "card": card})
    elif card == SECOND_CHANCE:
        _second_chance(state, seat, events)
    elif state["active"] is not None:
        state["queue"].append([card, seat])
        events.append({"type": "queued", "seat": seat, "card": card})
    else:
        actions.start(state, seat, card, events, from_queue=False)


def join_row(state: State, seat: int, card: str, events: list[dict]) -> None:
    """A scoring card joins the row; seven distinct values is SEVN."""
    row = state["seats"][seat]["row"]
    row.append(card)
    events.append({"type": "joined", "seat": seat, "card": card})
    if sum(1 for code in row if code in VALUE) == SEVN_DISTINCT:
        events.append({"type": "sevn", "seat": seat})
        rounds.end_round(state, seat, events)


def _duplicate(state: State, seat: int, card: str, events: list[dict]) -> None:
    player = state["seats"][seat]
    if SECOND_CHANCE in player["row"]:
        player["row"].remove(SECOND_CHANCE)
        state["discard"] += [card, SECOND_CHANCE]
        events.append({"type": "second_chance_used", "seat": seat, "card": card})
    else:
        player["row"].append(card)  # the busting card stays visible, last in the row
        player["status"] = BUST
        events.append({"type": "bust", "seat": seat, "card": card})


def gift_options(state: State, giver: int) -> list[int]:
    """Players in round, other than the giver, who hold no Second Chance."""
    return [
        seat for seat in in_round(state)
        if seat != giver and SECOND_CHANCE not in state["seats"][seat]["row"]
    ]


def _second_chance(state: State, seat: int, events: list[dict]) -> None:
    if SECOND_CHANCE not in state["seats"][seat]["row"]:
        state["seats"][seat]["row"].append(SECOND_CHANCE)
        events.append({"type": "joined", "seat": seat, "card": SECOND_CHANCE})
        return
    options = gift_options(state, seat)
    if options:
        state["pending"] = {"kind": "gift", "seat": seat, "card": SECOND_CHANCE, "options": options}
    else:
        state["discard"].append(SECOND_CHANCE)
        events.append({"type": "second_chance_discarded", "seat": seat})
