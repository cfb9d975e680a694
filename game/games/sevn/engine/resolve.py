"""Resolving one card taken by a seat (rules section 5): the row, duplicates, Ballast, Second
Chance, and starting or queueing the action cards.

What takes longer than one card is pushed as a frame for flow.py to run: an action card's frame
(run by actions.py) and, on SEVN, the round's end (run by rounds.py). This module calls neither.
"""

from __future__ import annotations

from .cards import ACTION, BALLAST, KIND, NUMBER, SEVN_DISTINCT, TRIPLE_DRAW_CARDS, VALUE
from .state import BUST, Action, Event, Frame, GameState, Pending, take_card
from .table import clockwise, in_round

SECOND_CHANCE = "second_chance"


def give(state: GameState, seat: int, row: list[str], via: str, events: list[Event]) -> bool:
    """The seat takes the top card and resolves it; False when no card is left anywhere.

    `row` is the seat's row: every caller holds it already, and looking it up again through the
    state would cost a dict-subclass subscript on every card.
    """
    deck = state["deck"]
    card = deck.pop() if deck else take_card(state, events)
    if card is None:
        return False
    if via == "deal":
        events.append({"type": "dealt", "seat": seat, "card": card})
    else:
        events.append({"type": "drawn", "seat": seat, "card": card, "via": via})
    resolve(state, seat, row, card, events)
    return True


def resolve(state: GameState, seat: int, row: list[str], card: str, events: list[Event]) -> None:
    """Resolve a card the seat has just taken into its `row`. On SEVN the round's end is the next frame."""
    kind = KIND[card]
    if kind == NUMBER:  # the card taken most: joining the row is written out here, not called
        if card in row:
            _duplicate(state, seat, card, events)
        else:
            row.append(card)
            events.append({"type": "joined", "seat": seat, "card": card})
            if len(row) >= SEVN_DISTINCT:  # a shorter row cannot be SEVN
                _sevn(state, seat, row, events)
    elif kind == BALLAST:
        state["pending"] = {"kind": "ballast", "seat": seat, "card": card}
    elif kind != ACTION:  # a modifier or a bonus card
        row.append(card)
        events.append({"type": "joined", "seat": seat, "card": card})
    elif card == SECOND_CHANCE:
        _second_chance(state, seat, events)
    elif state["active"] is not None:
        state["queue"].append([card, seat])
        events.append({"type": "queued", "seat": seat, "card": card})
    else:
        start_action(state, seat, card, events, from_queue=False)


def start_action(state: GameState, owner: int, card: str, events: list[Event], *, from_queue: bool) -> None:
    """Push the frame of an action card for its owner (actions.py runs it).

    A top-level action gets a "drain" frame under it, which then resolves the queued actions.
    """
    stack = state["stack"]
    if not from_queue:
        stack.append({"op": "drain"})
    state["active"] = card
    if card == "storm":
        events.append({"type": "storm", "seat": owner})
        order = clockwise(len(state["seats"]), owner + 1)
        stack.append({"op": "storm", "owner": owner, "order": list(order[::-1])})
    elif card == "triple_draw":
        stack.append({"op": "triple_draw", "owner": owner, "target": None, "left": TRIPLE_DRAW_CARDS})
    elif card == "crossroads":
        stack.append({"op": "crossroads", "owner": owner, "picked": False})
    else:
        stack.append({"op": "freeze", "owner": owner})


def _sevn(state: GameState, seat: int, row: list[str], events: list[Event]) -> None:
    """Seven distinct values in the row, just completed by a scoring card, is SEVN: the round ends next."""
    if len(row) >= SEVN_DISTINCT and sum(1 for code in row if code in VALUE) == SEVN_DISTINCT:
        events.append({"type": "sevn", "seat": seat})
        state["stack"].append({"op": "round_end", "sevn": seat})


def _duplicate(state: GameState, seat: int, card: str, events: list[Event]) -> None:
    player = state["seats"][seat]
    if SECOND_CHANCE in player["row"]:
        player["row"].remove(SECOND_CHANCE)
        state["discard"] += [card, SECOND_CHANCE]
        events.append({"type": "second_chance_used", "seat": seat, "card": card})
    else:
        player["row"].append(card)  # the busting card stays visible, last in the row
        player["status"] = BUST
        events.append({"type": "bust", "seat": seat, "card": card})


def gift_options(state: GameState, giver: int) -> list[int]:
    """Players in round, other than the giver, who hold no Second Chance."""
    return [seat for seat in in_round(state) if seat != giver and SECOND_CHANCE not in state["seats"][seat]["row"]]


def _second_chance(state: GameState, seat: int, events: list[Event]) -> None:
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


def decide_ballast(state: GameState, frame: Frame, pending: Pending, action: Action, events: list[Event]) -> None:
    seat, card, keep = pending["seat"], pending["card"], action["keep"]
    events.append({"type": "ballast", "seat": seat, "card": card, "keep": keep})
    if keep:
        row = state["seats"][seat]["row"]
        row.append(card)
        events.append({"type": "joined", "seat": seat, "card": card})
        _sevn(state, seat, row, events)
    else:
        state["discard"].append(card)


def decide_gift(state: GameState, frame: Frame, pending: Pending, action: Action, events: list[Event]) -> None:
    target = action["seat"]
    state["seats"][target]["row"].append(pending["card"])
    events.append({"type": "gift", "seat": pending["seat"], "target": target})
