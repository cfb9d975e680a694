"""The public verbs that read and change a game: legal_actions, apply, timeout.

What is legal is written once, in `refusal`: why an action is refused now, or None when it is
legal. `apply` asks it before touching the state; `legal_actions` is every well-formed answer to
the pending decision that it does not refuse. The accepted action goes to the frame dispatcher's
handler for the decision, then play runs on to the next one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import flow
from .cards import would_duplicate
from .errors import IllegalAction
from .state import IN, Action, Event, GameState, Pending
from .table import clockwise

# What each decision asks for, in words, for errors about the wrong kind of action.
_ASK = {
    "turn": "It is your turn: draw or pass.",
    "ballast": "Decide first whether to keep or discard the Ballast card.",
    "freeze": "Choose a player in round to freeze.",
    "triple_draw": "Choose a player in round for the Triple Draw.",
    "gift": "Choose a player to give your extra Second Chance to.",
    "crossroads": "Pick one of the two Crossroads cards.",
}
# For each decision, the action kinds that answer it, and the one field each carries besides "kind".
_ANSWERS: dict[str, dict[str, str | None]] = {
    "turn": {"draw": None, "pass": None},
    "ballast": {"ballast": "keep"},
    "crossroads": {"crossroads": "pick"},
    "freeze": {"freeze": "seat"},
    "triple_draw": {"triple_draw": "seat"},
    "gift": {"gift": "seat"},
}
_CHOICES = {"keep": (True, False), "pick": (0, 1)}  # and "seat": every seat
# The two answers to a turn, exactly: an action equal to one of them needs no shape checks.
_DRAW = {"kind": "draw"}
_PASS = {"kind": "pass"}


def legal_actions(state: GameState) -> list[Action]:
    """The actions open to the seat that must decide now (empty when the game is over)."""
    pending = state["pending"]
    if pending is None:
        return []
    return [action for action in _answers(state, pending) if refusal(state, pending, action) is None]


def _answers(state: GameState, pending: Pending) -> list[Action]:
    """Every well-formed answer to the pending decision, legal now or not, in the order listed."""
    answers: list[Action] = []
    for kind, field in _ANSWERS[pending["kind"]].items():
        if field is None:
            answers.append({"kind": kind})
        else:
            choices = _CHOICES.get(field) or range(len(state["seats"]))
            answers += [{"kind": kind, field: choice} for choice in choices]
    return answers


def refusal(state: GameState, pending: Pending, action: object) -> IllegalAction | None:
    """Why `action` does not answer the pending decision legally now; None when it does."""
    kind = pending["kind"]
    if kind == "turn" and type(action) is dict and (action == _DRAW or action == _PASS):
        answer = action["kind"]  # the decision asked most: a well-formed answer, known at a glance
    else:
        shape = _shape_refusal(kind, action)
        if shape is not None:
            return shape
        assert isinstance(action, dict)  # _shape_refusal said so
        answer = action["kind"]
        field = _ANSWERS[kind][answer]
        if field is not None:
            return _value_refusal(pending, field, action[field])
    if answer == "draw" and not (state["deck"] or state["discard"]):  # a reshuffle refills it
        return IllegalAction("There is no card left to draw: pass.", "no_card")
    return None


def _shape_refusal(kind: str, action: object) -> IllegalAction | None:
    """Why `action` is not an answer to a decision of this kind at all; None when it has the shape of one."""
    if not isinstance(action, dict) or not isinstance(answer := action.get("kind"), str):
        return IllegalAction('An action must be an object with a "kind".', "malformed")
    answers = _ANSWERS[kind]
    if answer not in answers:
        return IllegalAction(_ASK[kind], "wrong_decision", pending=kind)
    field = answers[answer]
    if len(action) != (1 if field is None else 2) or (field is not None and field not in action):
        return IllegalAction("That action has missing or unknown fields.", "malformed")
    return None


def _value_refusal(pending: Pending, field: str, value: object) -> IllegalAction | None:
    """Why the value an answer carries is refused: the wrong type, or a seat not among the options."""
    if field == "keep":
        return None if type(value) is bool else IllegalAction('"keep" must be true or false.', "malformed")
    if field == "pick":
        return None if type(value) is int and value in (0, 1) else IllegalAction('"pick" must be 0 or 1.', "malformed")
    if type(value) is not int:
        return IllegalAction('"seat" must be a seat number.', "malformed")
    if value not in pending["options"]:
        return IllegalAction(_ASK[pending["kind"]], "bad_target", seat=value)
    return None


def apply(state: GameState, action: Action, actor: int | None = None) -> list[Event]:
    """Apply one action in place and return the events it caused, in order.

    `actor`, when given, is the seat sending the action: any other seat than the one that must
    decide is refused. Anything refused raises IllegalAction and leaves the state unchanged.
    (`actor` is not keyword-only: CPython 3.11 sets up calls to such functions the slow way,
    and this one is called on every action.)
    """
    pending = state["pending"]
    if pending is None:
        raise IllegalAction("The game is over.", "game_over")
    if actor is not None and actor != pending["seat"]:
        raise IllegalAction("It is not your turn.", "not_your_turn", seat=pending["seat"])
    refused = refusal(state, pending, action)
    if refused is not None:
        raise refused
    events: list[Event] = []
    flow.decide(state, pending, action, events)
    return events


def timeout(state: GameState) -> list[Event]:
    """Apply the default of the pending decision (rules section 8), announced as an event."""
    pending = state["pending"]
    if pending is None:
        raise IllegalAction("The game is over.", "game_over")
    action = default_choice(pending, pending["seat"], state["seats"])
    events: list[Event] = [{"type": "timeout", "seat": pending["seat"], "kind": pending["kind"], "action": action}]
    flow.decide(state, pending, action, events)  # the default is legal by construction: no refusal to ask
    return events


def default_action(state: GameState) -> Action:
    """The choice safest for the player who let the clock run out."""
    pending = state["pending"]
    if pending is None:
        raise IllegalAction("The game is over.", "game_over")
    return default_choice(pending, pending["seat"], state["seats"])


def default_choice(pending: Mapping, seat: int, seats: Sequence[Mapping]) -> Action:
    """The timeout default (rules section 8) from what everyone sees: the pending decision, the
    seat deciding, and each seat's row and status. A state and a public view both have these,
    so the engine and the bots work it out in this one place."""
    kind = pending["kind"]
    if kind == "turn":
        return {"kind": "pass"}
    if kind == "ballast":
        return {"kind": "ballast", "keep": False}
    if kind == "freeze":
        return {"kind": "freeze", "seat": seat}
    if kind == "triple_draw":
        return {"kind": "triple_draw", "seat": _next_in_round(seat, seats)}
    if kind == "gift":
        options = pending["options"]
        return {"kind": "gift", "seat": next(s for s in clockwise(len(seats), seat) if s in options)}
    row = seats[seat]["row"]
    for pick, card in enumerate(pending["cards"]):
        if not would_duplicate(row, card):
            return {"kind": "crossroads", "pick": pick}
    return {"kind": "crossroads", "pick": 0}


def _next_in_round(seat: int, seats: Sequence[Mapping]) -> int:
    """The next seat in round clockwise other than `seat`; `seat` itself when it is alone."""
    for other in clockwise(len(seats), seat + 1)[:-1]:
        if seats[other]["status"] == IN:
            return other
    return seat
