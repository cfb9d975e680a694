"""The action cards that take time: Freeze, Triple Draw, Crossroads, Storm, and the FIFO queue.

Each runs as a frame on the state's stack, so play can stop for a decision anywhere inside it
and carry on after a JSON round trip. While one action is active, action cards taken go to the
queue; the "drain" frame under a top-level action resolves them in order when it finishes.
"""

from __future__ import annotations

from . import resolve
from .cards import CROSSROADS_CARDS, TRIPLE_DRAW_CARDS
from .state import FROZEN, State, take_card
from .table import clockwise_from, in_round, is_in


def start(state: State, owner: int, card: str, events: list[dict], *, from_queue: bool) -> None:
    """Begin resolving an action card for its owner."""
    stack = state["stack"]
    if not from_queue:
        stack.append({"op": "drain"})
    state["active"] = card
    if card == "storm":
        events.append({"type": "storm", "seat": owner})
        order = clockwise_from(state, owner + 1)
        stack.append({"op": "storm", "owner": owner, "order": order[::-1]})
    elif card == "triple_draw":
        stack.append({"op": "triple_draw", "owner": owner, "target": None, "left": TRIPLE_DRAW_CARDS})
    elif card == "crossroads":
        stack.append({"op": "crossroads", "owner": owner, "picked": False})
    else:
        stack.append({"op": "freeze", "owner": owner})


def _finish(state: State) -> None:
    state["stack"].pop()
    state["discard"].append(state["active"])
    state["active"] = None


def run_drain(state: State, frame: dict, events: list[dict]) -> None:
    """After a top-level action: resolve queued actions oldest first, each by its owner."""
    queue = state["queue"]
    if not queue:
        state["stack"].pop()
        return
    card, owner = queue.pop(0)
    if not is_in(state, owner):
        state["discard"].append(card)
        events.append({"type": "queue_dropped", "seat": owner, "card": card})
        return
    events.append({"type": "dequeued", "seat": owner, "card": card})
    start(state, owner, card, events, from_queue=True)


def run_freeze(state: State, frame: dict, events: list[dict]) -> None:
    state["pending"] = {"kind": "freeze", "seat": frame["owner"], "options": in_round(state)}


def decide_freeze(state: State, frame: dict, target: int, events: list[dict]) -> None:
    state["seats"][target]["status"] = FROZEN
    events.append({"type": "freeze", "seat": frame["owner"], "target": target})
    _finish(state)


def run_triple_draw(state: State, frame: dict, events: list[dict]) -> None:
    target = frame["target"]
    if target is None:
        state["pending"] = {"kind": "triple_draw", "seat": frame["owner"], "options": in_round(state)}
        return
    if frame["left"] == 0 or not is_in(state, target):
        _finish(state)
        return
    frame["left"] -= 1
    if not resolve.give(state, target, "triple_draw", events):
        frame["left"] = 0


def decide_triple_draw(state: State, frame: dict, target: int, events: list[dict]) -> None:
    frame["target"] = target
    events.append({"type": "triple_draw", "seat": frame["owner"], "target": target})


def run_crossroads(state: State, frame: dict, events: list[dict]) -> None:
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
        resolve.resolve(state, owner, cards[0], events)


def decide_crossroads(state: State, frame: dict, pick: int, events: list[dict]) -> None:
    cards = state["revealed"]
    state["revealed"] = []
    chosen, other = cards[pick], cards[1 - pick]
    state["discard"].append(other)
    frame["picked"] = True
    owner = frame["owner"]
    events.append({"type": "crossroads_picked", "seat": owner, "card": chosen, "discarded": other})
    resolve.resolve(state, owner, chosen, events)


def run_storm(state: State, frame: dict, events: list[dict]) -> None:
    """Every player in round takes one card, clockwise from the owner's left, owner last."""
    order = frame["order"]
    while order:
        seat = order.pop()
        if is_in(state, seat):
            if not resolve.give(state, seat, "storm", events):
                order.clear()
            return
    _finish(state)
