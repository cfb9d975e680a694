"""The loop that plays on by itself until a decision is needed or the game is over."""

from __future__ import annotations

from . import actions, rounds
from .state import State

RUN = {
    "deal": rounds.run_deal,
    "turns": rounds.run_turns,
    "drain": actions.run_drain,
    "freeze": actions.run_freeze,
    "triple_draw": actions.run_triple_draw,
    "crossroads": actions.run_crossroads,
    "storm": actions.run_storm,
}


def run(state: State, events: list[dict]) -> None:
    """Run the top frame of the stack until one sets a pending decision (or none is left)."""
    while state["pending"] is None:
        stack = state["stack"]
        if not stack:
            return
        frame = stack[-1]
        RUN[frame["op"]](state, frame, events)
