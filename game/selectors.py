"""Reads: the plain-data snapshot of a table that every view and socket renders from.

A snapshot holds only what may be shown, plus the seats' player keys, which stay on the server
(the renderer uses them to find "you" and never prints them).
"""

from __future__ import annotations

from django.db.models import QuerySet

from game.engine import from_json, public_view

from .models import Event, Game, Room, Seat

LOG_LINES = 80


def room_by_code(code: str) -> Room | None:
    return Room.objects.filter(code=code.upper()).first()


def current_game(room: Room) -> Game | None:
    return room.games.order_by("-number").first()


def room_dict(room: Room) -> dict:
    return {
        "code": room.code, "status": room.status, "seat_count": room.seat_count, "target": room.target,
        "turn_seconds": room.turn_seconds, "show_odds": room.show_odds, "closed_reason": room.closed_reason,
        "host_key": room.host_key, "host_name": room.host_name, "bot_delay_ms": room.bot_delay_ms,
    }


def seat_dict(seat: Seat) -> dict:
    return {
        "index": seat.index, "nickname": seat.nickname, "player_key": seat.player_key,
        "bot_level": seat.bot_level, "away": seat.away,
    }


def game_dict(game: Game, state: dict | None = None) -> dict:
    state = from_json(game.state) if state is None else state
    return {
        "id": game.id, "number": game.number, "version": game.version, "view": public_view(state),
        "deadline": game.deadline.timestamp() if game.deadline else None,
        "over": game.over, "winner": game.winner, "players": game.players,
    }


def snapshot(room: Room, seats: list[Seat] | None = None, game: Game | None = None,
             state: dict | None = None) -> dict:
    """Everything a viewer's table is drawn from (without the log)."""
    seats = list(room.seats.all()) if seats is None else seats
    game = current_game(room) if game is None else game
    return {
        "room": room_dict(room),
        "seats": [seat_dict(seat) for seat in sorted(seats, key=lambda s: s.index)],
        "game": None if game is None else game_dict(game, state),
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
    return (Room.objects.exclude(status=Room.Status.CLOSED)
            .filter(id__in=seated) | Room.objects.exclude(status=Room.Status.CLOSED)
            .filter(host_key=player_key)).distinct().order_by("-created")
