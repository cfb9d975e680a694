"""SEVN, the push-your-luck card game: everything about it in one folder (engine, bots, faces,
log sentences, table pieces and partials, rulebook, look, and its Kind in kind.py).

What the platform reaches (through game.registry): `replay`, how a record of it replays (plain
Python, for `python -m game.verify` too), `analysis`, the hard bot's judgement on a finished
game's decisions (plain Python, run apart from the server by game.registry.analysing), and
`load()`, its Kind, which needs Django and so is imported only when the site asks for it."""

from __future__ import annotations

from game.games.sevn import analysis  # noqa: F401 (the judgement after a game: game.registry.analysing)
from game.games.sevn import record_play as replay  # noqa: F401 (what the registry reaches: game.registry)


def load():
    from game.games.sevn.kind import KIND

    return KIND
