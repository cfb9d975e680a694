"""Complete games between policies: shared by the tournament bench and the tests.

Each seat gets its own seeded `random.Random`, so a game is a pure function of its seed and
the policies, whatever process plays it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from game.games.sevens.engine import State, apply, new_game, view

from .sight import Sight, read_sight

Policy = Callable[[Sight, random.Random], dict]


def play_game(policies: list[Policy], seed: int, *, rounds: int = 3, timings: list[list[float]] | None = None) -> State:
    """Play one game to its end, one policy per seat; returns the final state.

    With `timings` (one list per seat), each decision's time in seconds is appended to its
    seat's list: view, sight and policy together, as a live room would pay. It is the CPU time
    of this thread, so it measures the work on one core, not how busy the machine is.
    """
    state = new_game(len(policies), seed, rounds=rounds)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(len(policies))]
    while not state["over"]:
        seat = state["current"]
        started = time.thread_time()
        action = policies[seat](read_sight(view(state, seat), state["moves"]), rngs[seat])
        if timings is not None:
            timings[seat].append(time.thread_time() - started)
        apply(state, action)
    return state
