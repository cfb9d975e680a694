"""The action cards that take time: Freeze, Triple Draw, Crossroads, Storm, and the FIFO queue.

Each runs as a frame on the state's stack (pushed by resolve.start_action), so play can stop for
a decision anywhere inside it and carry on after a JSON round trip. While one action is active,
action cards taken go to the queue; the "drain" frame under a top-level action resolves them in
order when it finishes.
"""

from __future__ import annotations

from . import resolve
from .cards import CROSSROADS_CARDS
from .state import FROZEN, IN, Action, Event, Frame, GameState, Pending, take_card
from .table import in_round


def _finish(state: GameState) -> None:
    state["stack"].pop()
    active = state["active"]
    assert active is not None  # an action frame runs only while its card is active
    state["discard"].append(active)
    state["active"] = None


def run_drain(state: GameState, frame: Frame, events: list[Event]) -> None:
    """After a top-level action: resolve queued actions oldest first, each by its owner."""
    queue = state["queue"]
    if not queue:
        state["stack"].pop()
        return
    card, owner = queue.pop(0)
    if state["seats"][owner]["status"] != IN:
        state["discard"].append(card)
        events.append({"type": "queue_dropped", "seat": owner, "card": card})
        return
    events.append({"type": "dequeued", "seat": owner, "card": card})
    resolve.start_action(state, owner, card, events, from_queue=True)


def run_freeze(state: GameState, frame: Frame, events: list[Event]) -> None:
    state["pending"] = {"kind": "freeze", "seat": frame["owner"], "options": in_round(state)}


def decide_freeze(state: GameState, frame: Frame, pending: Pending, action: Action, events: list[Event]) -> None:
    target = action["seat"]
    state["seats"][target]["status"] = FROZEN
    events.append({"type": "freeze", "seat": pending["seat"], "target": target})
    _finish(state)


def run_triple_draw(state: GameState, frame: Frame, events: list[Event]) -> None:
    target = frame["target"]
    if target is None:
        state["pending"] = {"kind": "triple_draw", "seat": frame["owner"], "options": in_round(state)}
        return
    player = state["seats"][target]
    if frame["left"] == 0 or player["status"] != IN:
        _finish(state)
        return
    frame["left"] -= 1
    if not resolve.give(state, target, player["row"], "triple_draw", events):
        frame["left"] = 0


def decide_triple_draw(state: GameState, frame: Frame, pending: Pending, action: Action, events: list[Event]) -> None:
    target = action["seat"]
    frame["target"] = target
    events.append({"type": "triple_draw", "seat": pending["seat"], "target": target})


def run_crossroads(state: GameState, frame: Frame, events: list[Event]) -> None:
    if frame["picked"]:
        _finish(state)
        return
    owner = frame["owner"]
    cards = []
    for _ in range(CROSSROADS_CARDS):
        card = take_card(state, events)
        if card is None:
            break
        cards.append(card)
    events.append({"type": "crossroads_revealed", "seat": owner, "cards": cards})
    if len(cards) == CROSSROADS_CARDS:
        state["revealed"] = cards
        state["pending"] = {"kind": "crossroads", "seat": owner, "cards": list(cards)}
        return
    frame["picked"] = True  # one card (or none) to be had: no choice
    if cards:
        events.append({"type": "crossroads_picked", "seat": owner, "card": cards[0], "discarded": None})
        resolve.resolve(state, owner, state["seats"][owner]["row"], cards[0], events)


def decide_crossroads(state: GameState, frame: Frame, pending: Pending, action: Action, events: list[Event]) -> None:
    pick = action["pick"]
    cards = state["revealed"]
    state["revealed"] = []
    chosen, other = cards[pick], cards[1 - pick]
    state["discard"].append(other)
    frame["picked"] = True
    owner = pending["seat"]
    events.append({"type": "crossroads_picked", "seat": owner, "card": chosen, "discarded": other})
    resolve.resolve(state, owner, state["seats"][owner]["row"], chosen, events)


def run_storm(state: GameState, frame: Frame, events: list[Event]) -> None:
    """Every player in round takes one card, clockwise from the owner's left, owner last."""
    order = frame["order"]
    seats = state["seats"]
    while order:
        seat = order.pop()
        if seats[seat]["status"] == IN:
            if not resolve.give(state, seat, seats[seat]["row"], "storm", events):
                order.clear()
            return
    _finish(state)
