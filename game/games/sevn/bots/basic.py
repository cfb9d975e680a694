"""The simple policies: the `threshold25` baseline, `easy` and `medium`.

A policy is `policy(view, legal, rng) -> action`: it sees the public view and the legal
actions only, so it cannot peek at the deck order. `view["current"]` is the deciding seat.
"""

from __future__ import annotations

import random

from game.games.sevn.engine.cards import would_duplicate
from game.games.sevn.engine.decisions import default_choice

from .odds import bust_chance, crossroads_busts
from .rows import distinct, score

MEDIUM_BUST_LIMIT = 0.18
EASY_SCORE_LIMITS = (40, 60)


def can_draw(legal: list[dict]) -> bool:
    return {"kind": "draw"} in legal


def default_action(view: dict, legal: list[dict]) -> dict:
    """What a timeout would choose (rules section 8), worked out by the engine from the view."""
    return default_choice(view["pending"], view["current"], view["seats"])


def threshold25(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Baseline: draw while the row scores under 25, else pass; timeout defaults otherwise."""
    if view["pending"]["kind"] == "turn":
        row = view["seats"][view["current"]]["row"]
        return {"kind": "draw"} if can_draw(legal) and score(row) < 25 else {"kind": "pass"}
    return default_action(view, legal)


def easy(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Plain and a bit reckless: chases a high score, picks targets at random."""
    pending, seat = view["pending"], view["current"]
    kind = pending["kind"]
    row = view["seats"][seat]["row"]
    if kind == "turn":
        wanted = rng.randint(*EASY_SCORE_LIMITS)
        return {"kind": "draw"} if can_draw(legal) and score(row) < wanted else {"kind": "pass"}
    if kind == "crossroads":
        safe = [i for i, bust in enumerate(crossroads_busts(view, seat)) if not bust]
        return {"kind": "crossroads", "pick": rng.choice(safe or [0, 1])}
    return rng.choice(legal)


def medium(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Draws while the visible-card bust chance is low; sensible, simple targets."""
    pending, seat = view["pending"], view["current"]
    kind = pending["kind"]
    seats = view["seats"]
    row = seats[seat]["row"]
    if kind == "turn":
        safe = bust_chance(view, seat) < MEDIUM_BUST_LIMIT
        return {"kind": "draw"} if can_draw(legal) and safe else {"kind": "pass"}
    if kind == "ballast":
        return {"kind": "ballast", "keep": distinct(row) == 6}
    if kind == "crossroads":
        gains = [-1 if would_duplicate(row, card) else score(row + [card]) for card in pending["cards"]]
        return {"kind": "crossroads", "pick": 0 if gains[0] >= gains[1] else 1}
    others = [s for s in pending["options"] if s != seat]
    if not others:
        return {"kind": kind, "seat": seat}
    if kind == "freeze":
        target = max(others, key=lambda s: seats[s]["total"] + seats[s]["round_score"])
    elif kind == "triple_draw":
        target = max(others, key=lambda s: bust_chance(view, s))
    else:
        target = min(others, key=lambda s: seats[s]["total"])
    return {"kind": kind, "seat": target}
