"""What every client may see of a game (rules section 10): never the deck order or the seed."""

from __future__ import annotations

from collections import Counter

from .scoring import row_score
from .state import BUST, State


def public_view(state: State) -> dict:
    pending = state["pending"]
    return {
        "round": state["round"],
        "dealer": state["dealer"],
        "target": state["target"],
        "current": None if pending is None else pending["seat"],
        "pending": None if pending is None else _public_pending(pending),
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "discard": dict(Counter(state["discard"])),
        "queue": [card for card, _owner in state["queue"]],
        "queue_seats": [owner for _card, owner in state["queue"]],
        "active": state["active"],
        "revealed": list(state["revealed"]),
        "seats": [
            {
                "row": list(seat["row"]),
                "status": seat["status"],
                "total": seat["total"],
                "round_score": 0 if seat["status"] == BUST else row_score(seat["row"]),
            }
            for seat in state["seats"]
        ],
        "over": state["over"],
        "winner": state["winner"],
        "history": [list(scores) for scores in state["history"]],
        "last_round": state["last_round"],
    }


def _public_pending(pending: dict) -> dict:
    shown = {"kind": pending["kind"]}
    for key in ("card", "cards", "options"):
        if key in pending:
            shown[key] = list(pending[key]) if isinstance(pending[key], list) else pending[key]
    return shown
