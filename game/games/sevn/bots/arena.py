"""Complete games between policies: shared by the tournament bench and the tests.

Each seat gets its own seeded `random.Random`, so a game is a pure function of its seed and
the policies, whatever process plays it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from game.games.sevn.engine import apply, legal_actions, new_game, public_view
from game.games.sevn.engine.cards import TARGET

Policy = Callable[[dict, list[dict], random.Random], dict]


def play_game(
    policies: list[Policy],
    seed: int,
    *,
    target: int = TARGET,
    timings: list[list[float]] | None = None,
) -> dict:
    """Play one game to its end, one policy per seat; returns the final state.

    With `timings` (one list per seat), each decision's wall time in seconds is appended to its
    seat's list: view, legal actions and policy together, as a live table would pay.
    """
    state = new_game(len(policies), seed, target=target)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(len(policies))]
    while not state["over"]:
        seat = state["pending"]["seat"]
        started = time.perf_counter()
        action = policies[seat](public_view(state), legal_actions(state), rngs[seat])
        if timings is not None:
            timings[seat].append(time.perf_counter() - started)
        apply(state, action)
    return state
