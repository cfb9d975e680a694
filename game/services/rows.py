"""The reads and writes of a move, with their SQL composed once from the models.

Django builds and compiles a queryset's SQL anew on every call, and on the path of a move
(lock the room, read its game and seats, append events, save the game) that cost several
times what the database itself did. These are the same statements, composed once from the
models' metadata, so they follow the migrations; reads still come back as model instances
through the ORM's converters (Model.objects.raw), writes are prepared by each field.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache

from django.db import connection

from ..models import Event, Game, Room, Seat


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _sql(vendor: str) -> dict[str, str]:
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""  # SQLite: BEGIN IMMEDIATE locks
    room, game, seat, event = (model._meta.db_table for model in (Room, Game, Seat, Event))
    saved = ("version", "state", "deadline", "over", "winner", "finished", "event_count")
    return {
        "room": f"SELECT * FROM {_q(room)} WHERE {_q('code')} = %s{lock}",
        "game": f"SELECT * FROM {_q(game)} WHERE {_q('room_id')} = %s ORDER BY {_q('number')} DESC LIMIT 1",
        "seats": f"SELECT * FROM {_q(seat)} WHERE {_q('room_id')} = %s ORDER BY {_q('index')}",
        "event_columns": f"INSERT INTO {_q(event)} ({', '.join(_q(c) for c in _EVENT_COLUMNS)}) VALUES ",
        "save_game": f"UPDATE {_q(game)} SET {', '.join(f'{_q(name)} = %s' for name in saved)} "
                     f"WHERE {_q('id')} = %s",
    }


EVENTS_PER_STATEMENT = 500  # well under SQLite's limit of bound parameters per statement
_EVENT_COLUMNS = ("game_id", "seq", "version", "kind", "data", "created")
_SAVED_FIELDS = tuple(Game._meta.get_field(name) for name in
                      ("version", "state", "deadline", "over", "winner", "finished", "event_count"))


def locked_room_and_game(code: str) -> tuple[Room | None, Game | None]:
    """The room by its code, locked for this transaction, and its current game (or None)."""
    sql = _sql(connection.vendor)
    room = next(iter(Room.objects.raw(sql["room"], [code.upper()])), None)
    if room is None:
        return None, None
    game = next(iter(Game.objects.raw(sql["game"], [room.id])), None)
    if game is not None:
        game.room = room
    return room, game


def seats_of(room: Room) -> list[Seat]:
    """The room's seats in seat order."""
    seats = list(Seat.objects.raw(_sql(connection.vendor)["seats"], [room.id]))
    for seat in seats:
        seat.room = room
    return seats


def append_events(game: Game, first_seq: int, records: list[dict], now: datetime) -> None:
    """Append a move's log rows (seq first_seq, first_seq + 1, ...) in one statement."""
    if not records:
        return
    data_field, created_field = Event._meta.get_field("data"), Event._meta.get_field("created")
    created = created_field.get_db_prep_save(now, connection)
    params: list = []
    for i, record in enumerate(records):
        params += [game.id, first_seq + i, game.version, record["type"],
                   data_field.get_db_prep_save(record, connection), created]
    row = "(" + ", ".join(["%s"] * len(_EVENT_COLUMNS)) + ")"
    width = len(_EVENT_COLUMNS)
    with connection.cursor() as cursor:
        for start in range(0, len(records), EVENTS_PER_STATEMENT):
            chunk = params[start * width:(start + EVENTS_PER_STATEMENT) * width]
            cursor.execute(_sql(connection.vendor)["event_columns"] + ", ".join([row] * (len(chunk) // width)), chunk)


def save_game(game: Game) -> None:
    """Write the fields a move changes (version, state, deadline, end of game, log length)."""
    params = [field.get_db_prep_save(getattr(game, field.attname), connection) for field in _SAVED_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor)["save_game"], [*params, game.id])
