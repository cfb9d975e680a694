"""The frame dispatcher: the one place that calls across the modules that run play.

resolve.py pushes frames; rounds.py and actions.py run them (RUN) and take the decisions asked
inside them (DECIDE). Play runs on by itself until a frame asks for a decision or the game is over.
"""

from __future__ import annotations

from collections.abc import Callable

from . import actions, resolve, rounds
from .state import Action, Event, Frame, GameState, Pending

RUN: dict[str, Callable[[GameState, Frame, list[Event]], None]] = {
    "deal": rounds.run_deal,
    "turns": rounds.run_turns,
    "round_end": rounds.run_round_end,
    "drain": actions.run_drain,
    "freeze": actions.run_freeze,
    "triple_draw": actions.run_triple_draw,
    "crossroads": actions.run_crossroads,
    "storm": actions.run_storm,
}

DECIDE: dict[str, Callable[[GameState, Frame, Pending, Action, list[Event]], None]] = {
    "turn": rounds.decide_turn,
    "ballast": resolve.decide_ballast,
    "gift": resolve.decide_gift,
    "freeze": actions.decide_freeze,
    "triple_draw": actions.decide_triple_draw,
    "crossroads": actions.decide_crossroads,
}


def decide(state: GameState, pending: Pending, action: Action, events: list[Event]) -> None:
    """Take a legal answer to the pending decision, then run play on as `run` does.

    The decision's handler gets the frame on top of the stack, the play under way when the
    decision came up (most handlers update it). `run`'s loop is written out here, not called:
    this runs on every action, and the state's subscripts and calls are most of its cost.
    """
    state["pending"] = None
    stack = state["stack"]  # always this list: frames are pushed, popped and cleared, never replaced
    DECIDE[pending["kind"]](state, stack[-1], pending, action, events)
    while state["pending"] is None and stack:
        frame = stack[-1]
        RUN[frame["op"]](state, frame, events)


def run(state: GameState, events: list[Event]) -> None:
    """Run the top frame of the stack until one sets a pending decision (or none is left)."""
    stack = state["stack"]  # always this list: frames are pushed, popped and cleared, never replaced
    while state["pending"] is None and stack:
        frame = stack[-1]
        RUN[frame["op"]](state, frame, events)
