"""Reads: the plain-data snapshot of a table that every view and socket renders from.

A snapshot holds only what may be shown, plus a tag per seated person and for the host (an
HMAC of their key, identity.tag): the renderer finds "you" by it and never prints it. Player
keys themselves never enter a snapshot, so no broadcast carries them.
"""

from __future__ import annotations

from django.db.models import QuerySet

from . import kinds
from .identity import tag
from .models import Event, Game, Room, Seat

LOG_LINES = 80


def room_by_code(code: str) -> Room | None:
    return Room.objects.filter(code=code.upper()).first()


def current_game(room: Room) -> Game | None:
    return room.games.order_by("-number").first()


def room_dict(room: Room) -> dict:
    return {
        "code": room.code,
        "kind": room.kind,
        "status": room.status,
        "seat_count": room.seat_count,
        "target": room.target,
        "rounds": room.rounds,
        "turn_seconds": room.turn_seconds,
        "show_odds": room.show_odds,
        "closed_reason": room.closed_reason,
        "host": tag(room.host_key),
        "host_name": room.host_name,
        "bot_delay_ms": room.bot_delay_ms,
    }


def seat_dict(seat: Seat) -> dict:
    return {
        "index": seat.index,
        "nickname": seat.nickname,
        "who": tag(seat.player_key),
        "bot_level": seat.bot_level,
        "away": seat.away,
    }


def game_dict(game: Game, kind: kinds.Kind, state: dict | None = None) -> dict:
    """A game as its viewers may see it: a spectator's view, and for a game with secrets each
    seat's own view (`seat_views`), the only place a hand is; nothing else of the state."""
    state = kind.from_json(game.state) if state is None else state
    return {
        "id": game.id,
        "number": game.number,
        "version": game.version,
        **kind.views(state),
        "deadline": game.deadline.timestamp() if game.deadline else None,
        "over": game.over,
        "winner": game.winner,
        "players": game.players,
    }


def snapshot(room: Room, seats: list[Seat] | None = None, game: Game | None = None, state: dict | None = None) -> dict:
    """Everything a viewer's table is drawn from (without the log)."""
    seats = list(room.seats.all()) if seats is None else seats
    game = current_game(room) if game is None else game
    return {
        "room": room_dict(room),
        "seats": [seat_dict(seat) for seat in sorted(seats, key=lambda s: s.index)],
        "game": None if game is None else game_dict(game, kinds.of(room), state),
    }


def log_events(game: Game | None, limit: int = LOG_LINES) -> list[dict]:
    """The last engine events of a game, oldest first, as {"seq", "type", ...} dicts."""
    if game is None:
        return []
    rows: QuerySet[Event] = game.events.exclude(kind="action").order_by("-seq")[:limit]
    return [{"seq": row.seq, **row.data} for row in reversed(list(rows))]


def rooms_of(player_key: str) -> QuerySet[Room]:
    """The open tables a player sits at or hosts, newest first."""
    seated = Seat.objects.filter(player_key=player_key).values("room_id")
    return (
        (
            Room.objects.exclude(status=Room.Status.CLOSED).filter(id__in=seated)
            | Room.objects.exclude(status=Room.Status.CLOSED).filter(host_key=player_key)
        )
        .distinct()
        .order_by("-created")
    )


def fingerprint(snapshot: dict | None) -> tuple | None:
    """What identifies the state of a table a screen shows: status, game, version, seats."""
    if snapshot is None:
        return None
    game = snapshot["game"]
    return (
        snapshot["room"]["status"],
        game and game["id"],
        game and game["version"],
        tuple((s["index"], s["nickname"], s["bot_level"], s["away"]) for s in snapshot["seats"]),
    )


def fingerprints(codes: list[str]) -> dict[str, tuple]:
    """The fingerprint of each table, read from the database in three queries for all of them."""
    found = list(Room.objects.filter(code__in=codes).values_list("id", "code", "status"))
    rooms = {room_id: code for room_id, code, _status in found}
    statuses = {room_id: status for room_id, _code, status in found}
    games: dict[int, tuple[int, int]] = {}
    for room_id, game_id, version in (
        Game.objects.filter(room_id__in=rooms).order_by("room_id", "number").values_list("room_id", "id", "version")
    ):
        games[room_id] = (game_id, version)  # the last one, by number, is the current game
    seats: dict[int, list] = {room_id: [] for room_id in rooms}
    for room_id, *seat in (
        Seat.objects.filter(room_id__in=rooms)
        .order_by("room_id", "index")
        .values_list("room_id", "index", "nickname", "bot_level", "away")
    ):
        seats[room_id].append(tuple(seat))
    return {
        code: (statuses[room_id], *games.get(room_id, (None, None)), tuple(seats[room_id]))
        for room_id, code in rooms.items()
    }
