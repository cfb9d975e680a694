"""Reads a finished game's record (game.fair.record): its seats, its fair-deal proof and its log,
signed with the site's key; and compares a record given to /verify/ with what the site stored."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache

from django.conf import settings

from game import registry
from game.core.identity import Player
from game.fair import record as records
from game.fair import signature
from game.models import Game
from game.services import privacy

# What a record's game is compared on with the one the site stored at its table and number: what
# decides the deal and what came of it (docs/fair-deal.md). Each a path into the record.
STORED_FIELDS = (
    ("fair", "commitment"),
    ("fair", "server_seed"),
    ("fair", "client_seeds"),
    ("fair", "engine_seed"),
    ("result",),
)


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def recordable(game: Game) -> bool:
    """A game has a record once it is over, if it was dealt fairly by a game that can replay."""
    return game.over and bool(game.server_seed) and registry.of(game.table).replay is not None


def _game(**lookup: object) -> Game | None:
    """The one place a game is found for its record, with its table (by id, or by table code and
    number): a game's address in links may change, this is where to follow it."""
    return Game.objects.select_related("table").filter(**lookup).first()


def recorded_game(game_id: int) -> Game:
    """A game with its table (one that game_record gave a record of)."""
    game = _game(id=game_id)
    if game is None:
        raise Game.DoesNotExist(game_id)
    return game


@cache
def site_public_key() -> str:
    """The public key that checks this site's signatures (the half of SEVN_SIGNING_KEY anyone may
    know), as /record-key.txt publishes it."""
    return signature.public_key(settings.SEVN_SIGNING_KEY)


def game_id_of(public_id: str) -> int | None:
    """A game's own id from the random one its links carry (None for no such game)."""
    return Game.objects.filter(public_id=str(public_id)).values_list("id", flat=True).first()


def game_record(game_id: int, viewer: Player | None = None) -> dict | None:
    """The record of a finished game as this viewer may have it, or None (unknown, running, no
    record: see recordable; or its table, still open, would lead the viewer to someone who
    hides where they play: services.privacy.table_hidden). The server seed is in it: only a game
    that is over has one. A private person the viewer may not see is "a private player" in
    it (names are no part of the deal's proof, so it still verifies; the site signs the copy it
    gives this viewer)."""
    if not 0 < game_id < 2**63:  # no such row (and more than the database's integers hold)
        return None
    game = _game(id=game_id)
    if game is None or not recordable(game):
        return None
    viewer_id = viewer.user_id if viewer is not None else None
    seated = privacy.seated_users([game])[game.id]
    if privacy.table_hidden(game, seated, viewer_id, viewer.key if viewer is not None else None):
        return None
    hidden = privacy.hidden_from(viewer_id, seated.values())
    names = privacy.shown_names(list(game.players), {seat for seat, user_id in seated.items() if user_id in hidden})
    return _record_of(game, names)


def full_record(game: Game) -> dict:
    """The whole record of a finished game, every seat under its stored name (for the site's own
    use: its analysis, services.analysis), never handed to a viewer."""
    return _record_of(game)


def stored_difference(record: dict) -> tuple[str, ...] | None:
    """How a self-consistent record differs from the finished game this site stored at its table
    and number: the fields that differ (STORED_FIELDS, joined by "."; empty: none), or None when
    the site holds no finished game there to compare with."""
    game = _game(table__code=record["table"], number=record["number"])
    if game is None or not recordable(game):
        return None
    stored = json.loads(json.dumps(_record_of(game)))  # as a record read back from its file
    if stored["game"] != record["game"]:
        return ("game",)
    return tuple(".".join(path) for path in STORED_FIELDS if _at(stored, path) != _at(record, path))


def _at(record: dict, path: tuple[str, ...]) -> object:
    value: object = record
    for key in path:
        value = value[key] if isinstance(value, dict) else None
    return value


def _record_of(game: Game, names: list[str] | None = None) -> dict:
    """The signed record of a finished game, its seats named `names` (the stored names if None)."""
    names = list(game.players) if names is None else names
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
        signing_key=settings.SEVN_SIGNING_KEY,
    )
