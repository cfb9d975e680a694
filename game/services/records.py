"""Reads a finished game's record (game.fair.record): its seats, its fair-deal proof and its log."""

from __future__ import annotations

from datetime import UTC, datetime

from game import registry
from game.core.identity import Player
from game.fair import record as records
from game.models import Game
from game.services import privacy


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def recordable(game: Game) -> bool:
    """A game has a record once it is over, if it was dealt fairly by a game that can replay."""
    return game.over and bool(game.server_seed) and registry.of(game.table).replay is not None


def recorded_game(game_id: int) -> Game:
    """A game with its table (one that game_record gave a record of)."""
    return Game.objects.select_related("table").get(id=game_id)


def game_id_of(public_id: str) -> int | None:
    """A game's own id from the random one its links carry (None for no such game)."""
    return Game.objects.filter(public_id=str(public_id)).values_list("id", flat=True).first()


def game_record(game_id: int, viewer: Player | None = None) -> dict | None:
    """The record of a finished game as this viewer may have it, or None (unknown, running, no
    record: see recordable; or its table, still open, would lead the viewer to someone who
    hides where they play: services.privacy.table_hidden). The server seed is in it: only a game
    that is over has one. A private person the viewer may not see is "a private player" in
    it (names are no part of the deal's proof, so it still verifies)."""
    game = Game.objects.select_related("table").filter(id=game_id).first()
    if game is None or not recordable(game):
        return None
    viewer_id = viewer.user_id if viewer is not None else None
    seated = privacy.seated_users([game])[game.id]
    if privacy.table_hidden(game, seated, viewer_id, viewer.key if viewer is not None else None):
        return None
    hidden = privacy.hidden_from(viewer_id, seated.values())
    names = privacy.shown_names(list(game.players), {seat for seat, user_id in seated.items() if user_id in hidden})
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
        for index, name in enumerate(names)
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
