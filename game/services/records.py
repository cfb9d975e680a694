"""Reads a finished game's record (game.fair.record): its seats, its fair-deal proof and its log."""

from __future__ import annotations

from datetime import UTC, datetime

from game import registry
from game.fair import record as records
from game.models import Game


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def recordable(game: Game) -> bool:
    """A game has a record once it is over, if it was dealt fairly by a game that can replay."""
    return game.over and bool(game.server_seed) and registry.of(game.table).replay is not None


def recorded_game(game_id: int) -> Game:
    """A game with its table (one that game_record gave a record of)."""
    return Game.objects.select_related("table").get(id=game_id)


def game_record(game_id: int) -> dict | None:
    """The record of a finished game, or None (unknown, running, or no record: see recordable).
    The server seed is in it: only a game that is over has one."""
    game = Game.objects.select_related("table").filter(id=game_id).first()
    if game is None or not recordable(game):
        return None
    kind = registry.of(game.table)
    replay = kind.replay
    state = kind.from_json(game.state)
    rows = [
        (version, _when(created), data)
        for version, created, data in game.events.order_by("seq").values_list("version", "created", "data")
    ]
    bots = game.bots or [""] * len(game.players)
    seats = [
        {"seat": index, "name": name, "player": "bot", "level": bots[index]}
        if bots[index]
        else {"seat": index, "name": name, "player": "person"}
        for index, name in enumerate(game.players)
    ]
    return records.build(
        game=kind.name,
        rules=replay.RULES,
        table=game.table.code,
        number=game.number,
        options=replay.options(state),
        started=_when(game.created),
        finished=_when(game.finished or game.created),
        seats=seats,
        server_seed=game.server_seed,
        commitment=game.commitment,
        client_seeds=game.client_seeds,
        engine_seed=game.seed,
        rows=rows,
        result=replay.result(state),
    )
