"""The public verbs that read and change a game: legal_actions, apply, timeout.

`apply` checks the action completely against the pending decision before touching the state,
then hands it to one handler per decision kind, then lets play run on to the next decision.
"""

from __future__ import annotations

from . import actions, flow, resolve, rounds
from .cards import VALUE
from .errors import IllegalAction
from .state import State, card_available
from .table import next_in_round

# What each decision asks for, in words, for errors about the wrong kind of action.
_ASK = {
    "turn": "It is your turn: draw or pass.",
    "ballast": "Decide first whether to keep or discard the Ballast card.",
    "freeze": "Choose a player in round to freeze.",
    "triple_draw": "Choose a player in round for the Triple Draw.",
    "gift": "Choose a player to give your extra Second Chance to.",
    "crossroads": "Pick one of the two Crossroads cards.",
}
_TARGETED = ("freeze", "triple_draw", "gift")


def legal_actions(state: State) -> list[dict]:
    """The actions open to the seat that must decide now (empty when the game is over)."""
    pending = state["pending"]
    if pending is None:
        return []
    kind = pending["kind"]
    if kind == "turn":
        draw = [{"kind": "draw"}] if card_available(state) else []
        return draw + [{"kind": "pass"}]
    if kind == "ballast":
        return [{"kind": "ballast", "keep": True}, {"kind": "ballast", "keep": False}]
    if kind == "crossroads":
        return [{"kind": "crossroads", "pick": 0}, {"kind": "crossroads", "pick": 1}]
    return [{"kind": kind, "seat": seat} for seat in pending["options"]]


def apply(state: State, action: dict, *, actor: int | None = None) -> list[dict]:
    """Apply one action in place and return the events it caused, in order.

    `actor`, when given, is the seat sending the action: any other seat than the one that must
    decide is refused. Anything refused raises IllegalAction and leaves the state unchanged.
    """
    pending = _check(state, action, actor)
    state["pending"] = None
    events: list[dict] = []
    _decide(state, pending, action, events)
    flow.run(state, events)
    return events


def timeout(state: State) -> list[dict]:
    """Apply the default of the pending decision (rules section 8), announced as an event."""
    pending = state["pending"]
    if pending is None:
        raise IllegalAction("The game is over.", "game_over")
    action = default_action(state)
    announced = {"type": "timeout", "seat": pending["seat"], "kind": pending["kind"], "action": action}
    return [announced] + apply(state, action)


def default_action(state: State) -> dict:
    """The choice safest for the player who let the clock run out."""
    pending = state["pending"]
    kind, seat = pending["kind"], pending["seat"]
    if kind == "turn":
        return {"kind": "pass"}
    if kind == "ballast":
        return {"kind": "ballast", "keep": False}
    if kind == "freeze":
        return {"kind": "freeze", "seat": seat}
    if kind == "triple_draw":
        other = next_in_round(state, seat)
        return {"kind": "triple_draw", "seat": seat if other is None else other}
    if kind == "gift":
        options = pending["options"]
        return {"kind": "gift", "seat": min(options, key=lambda s: (s - seat) % len(state["seats"]))}
    row = state["seats"][seat]["row"]
    safe = [i for i, card in enumerate(pending["cards"]) if not would_duplicate(row, card)]
    return {"kind": "crossroads", "pick": safe[0] if safe else 0}


def would_duplicate(row: list[str], card: str) -> bool:
    """Whether taking this card repeats a value already in the row."""
    return card in VALUE and card in row


def _check(state: State, action: object, actor: int | None) -> dict:
    """The pending decision, if the action answers it legally; otherwise IllegalAction."""
    pending = state["pending"]
    if pending is None:
        raise IllegalAction("The game is over.", "game_over")
    if actor is not None and actor != pending["seat"]:
        raise IllegalAction("It is not your turn.", "not_your_turn", seat=pending["seat"])
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise IllegalAction('An action must be an object with a "kind".', "malformed")
    kind = pending["kind"]
    expected = {"turn": ("draw", "pass"), "ballast": ("ballast",),
                "crossroads": ("crossroads",)}.get(kind, (kind,))
    if action["kind"] not in expected:
        raise IllegalAction(_ASK[kind], "wrong_decision", pending=kind)
    if kind == "turn":
        _check_keys(action, ())
        if action["kind"] == "draw" and not card_available(state):
            raise IllegalAction("There is no card left to draw: pass.", "no_card")
    elif kind == "ballast":
        _check_keys(action, ("keep",))
        if not isinstance(action["keep"], bool):
            raise IllegalAction('"keep" must be true or false.', "malformed")
    elif kind == "crossroads":
        _check_keys(action, ("pick",))
        if type(action["pick"]) is not int or action["pick"] not in (0, 1):
            raise IllegalAction('"pick" must be 0 or 1.', "malformed")
    else:
        _check_keys(action, ("seat",))
        seat = action["seat"]
        if type(seat) is not int:
            raise IllegalAction('"seat" must be a seat number.', "malformed")
        if seat not in pending["options"]:
            raise IllegalAction(_ASK[kind], "bad_target", seat=seat)
    return pending


def _check_keys(action: dict, fields: tuple[str, ...]) -> None:
    if set(action) != {"kind", *fields}:
        raise IllegalAction("That action has missing or unknown fields.", "malformed")


def _decide(state: State, pending: dict, action: dict, events: list[dict]) -> None:
    kind, seat = pending["kind"], pending["seat"]
    frame = state["stack"][-1]
    if kind == "turn":
        if action["kind"] == "draw":
            rounds.decide_draw(state, frame, seat, events)
        else:
            rounds.decide_pass(state, frame, seat, events)
    elif kind == "ballast":
        card = pending["card"]
        events.append({"type": "ballast", "seat": seat, "card": card, "keep": action["keep"]})
        if action["keep"]:
            resolve.join_row(state, seat, card, events)
        else:
            state["discard"].append(card)
    elif kind == "gift":
        target = action["seat"]
        state["seats"][target]["row"].append(pending["card"])
        events.append({"type": "gift", "seat": seat, "target": target})
    elif kind == "freeze":
        actions.decide_freeze(state, frame, action["seat"], events)
    elif kind == "triple_draw":
        actions.decide_triple_draw(state, frame, action["seat"], events)
    else:
        actions.decide_crossroads(state, frame, action["pick"], events)
