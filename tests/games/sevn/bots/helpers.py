"""Positions for bot tests: random legal play over many seeds, and hand-built views."""

from __future__ import annotations

import random
from collections.abc import Iterator

from game.games.sevn.bots.odds import unseen_counts
from game.games.sevn.bots.rows import score
from game.games.sevn.engine import apply, legal_actions, new_game

PENDING_KINDS = {"turn", "freeze", "triple_draw", "gift", "ballast", "crossroads"}


def random_positions(games: int, *, every_turn: int = 1, target: int = 150) -> Iterator[dict]:
    """Live states at decisions reached by random legal play (2 to 8 seats, many seeds).

    The random player draws three times in four, so rows grow long and every kind of decision
    comes up. Each state is yielded before its random move is applied: use it, do not keep it.
    Non-turn decisions are always yielded, turns only every `every_turn`-th time.
    """
    turns = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(2 + seed % 7, seed, target=target)
        while not state["over"]:
            legal = legal_actions(state)
            if state["pending"]["kind"] != "turn":
                yield state
            else:
                turns += 1
                if turns % every_turn == 0:
                    yield state
            keep_drawing = legal[0]["kind"] == "draw" and rng.random() < 0.75
            apply(state, legal[0] if keep_drawing else rng.choice(legal))


def make_view(
    rows: list[list[str]],
    *,
    totals: list[int] | None = None,
    statuses: list[str] | None = None,
    pending: dict | None = None,
    current: int = 0,
    discard: dict[str, int] | None = None,
    deck_count: int | None = None,
    target: int = 250,
) -> dict:
    """A public view built by hand, shaped like `public_view`; the deck holds every unseen card
    unless `deck_count` says otherwise."""
    seats = len(rows)
    totals = totals or [0] * seats
    statuses = statuses or ["in"] * seats
    pending = pending or {"kind": "turn"}
    view = {
        "round": 1,
        "dealer": 0,
        "target": target,
        "current": current,
        "pending": pending,
        "deck_count": 0,
        "discard_count": sum((discard or {}).values()),
        "discard": dict(discard or {}),
        "queue": [],
        "queue_seats": [],
        "active": None,
        "revealed": list(pending["cards"]) if pending["kind"] == "crossroads" else [],
        "seats": [
            {"row": row, "status": status, "total": total, "round_score": 0 if status == "bust" else score(row)}
            for row, status, total in zip(rows, statuses, totals, strict=True)
        ],
        "over": False,
        "winner": None,
        "history": [],
        "last_round": None,
    }
    view["deck_count"] = sum(unseen_counts(view).values()) if deck_count is None else deck_count
    return view
