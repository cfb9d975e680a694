"""The reads and writes of a move, with their SQL composed once from the models.

Django builds and compiles a queryset's SQL anew on every call, and on the path of a move
(lock the table, read its game and seats, append events, save the game) that cost several
times what the database itself did. These are the same statements, composed once from the
models' metadata, so they follow the migrations. Reads load the fields a move uses (the rest
are deferred, loaded if ever touched) into model instances; writes are prepared by each field.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models.base import ModelState

from game.models import Event, Game, Seat, Table

# What a move reads and writes (the tables' other time stamps stay deferred).
# (in the models' field order: Model.from_db takes a partial row in that order)
TABLE_FIELDS = (
    "id",
    "code",
    "host_key",
    "host_name",
    "seat_count",
    "kind",
    "options",
    "turn_seconds",
    "bot_delay_ms",
    "members_only",
    "rated",
    "status",
    "closed_reason",
    "next_seed",  # the next deal's commitment is in every snapshot (game.fair)
)
GAME_FIELDS = (
    "id",
    "table_id",
    "number",
    "public_id",  # every snapshot links the finished game by it (its record, its replay)
    "state",
    "version",
    "seed",
    "server_seed",
    "commitment",
    "client_seeds",
    "players",
    "event_count",
    "deadline",
    "over",
    "winner",
    "finished",
)
SEAT_FIELDS = ("id", "table_id", "index", "player_key", "nickname", "bot_level", "away", "timeouts_in_row", "last_seen")
SAVED_FIELDS = ("version", "state", "deadline", "over", "winner", "finished", "event_count")
EVENT_FIELDS = ("game", "seq", "version", "kind", "data", "created")
EVENTS_PER_STATEMENT = 500  # well under SQLite's limit of bound parameters per statement


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _columns(model, names, alias: str = "") -> str:
    prefix = f"{alias}." if alias else ""
    return ", ".join(prefix + _q(model._meta.get_field(name).column) for name in names)


@cache
def _sql(vendor: str) -> dict[str, str]:
    # the table row is locked (SQLite has no FOR UPDATE: its BEGIN IMMEDIATE locks the database)
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update else ""
    table, game, seat, event = (_q(model._meta.db_table) for model in (Table, Game, Seat, Event))
    # The table is locked first and its game read by a statement of its own: on PostgreSQL a
    # statement that waited for the lock still sees the rows of the moment it began, so a game
    # read in the same statement could be one move old.
    locked_table = f"SELECT {_columns(Table, TABLE_FIELDS, 't')} FROM {table} t "
    return {
        "table": f"{locked_table}WHERE t.{_q('code')} = %s{lock}",
        "table_by_id": f"{locked_table}WHERE t.{_q('id')} = %s{lock}",
        "game": f"SELECT {_columns(Game, GAME_FIELDS)} FROM {game} WHERE {_q('table_id')} = %s "
        f"ORDER BY {_q('number')} DESC LIMIT 1",
        "seats": f"SELECT {_columns(Seat, SEAT_FIELDS)} FROM {seat} WHERE {_q('table_id')} = %s ORDER BY {_q('index')}",
        # PostgreSQL: the game and its seats in one round trip after the lock, the seats as one
        # JSON array of rows (a join would repeat the game's state, its biggest field, per seat)
        "game_and_seats": f"SELECT {_columns(Game, GAME_FIELDS, 'g')}, (SELECT json_agg(json_build_array("
        f"{_columns(Seat, SEAT_FIELDS, 's')}) ORDER BY s.{_q('index')}) FROM {seat} s WHERE s.{_q('table_id')} = %s) "
        f"FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT {_columns(Game, GAME_FIELDS)} FROM {game} "
        f"WHERE {_q('table_id')} = %s ORDER BY {_q('number')} DESC LIMIT 1) g ON true",
        "events": f"INSERT INTO {event} ({_columns(Event, EVENT_FIELDS)}) VALUES ",
        "save_game": f"UPDATE {game} SET {', '.join(f'{_columns(Game, [name])} = %s' for name in SAVED_FIELDS)} "
        f"WHERE {_q('id')} = %s",
    }


def _aware(value: datetime | str) -> datetime:
    """Time stamps as the ORM gives them: SQLite keeps them in UTC without a zone."""
    value = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _converted(model, names):
    """Per field, the conversion from what the database driver returns to the model's value
    (booleans from SQLite's integers, JSON from its text), or None where there is nothing to do."""
    converters = []
    for name in names:
        field = model._meta.get_field(name)
        kind = field.get_internal_type()
        if kind == "BooleanField":
            converters.append(bool)
        elif kind == "DateTimeField":
            converters.append(_aware)
        elif kind == "JSONField":
            converters.append(lambda value, field=field: field.from_db_value(value, None, connection))
        else:
            converters.append(None)
    return converters


for _model, _names in ((Table, TABLE_FIELDS), (Game, GAME_FIELDS), (Seat, SEAT_FIELDS)):
    _order = [field.attname for field in _model._meta.concrete_fields if field.attname in _names]
    assert _order == list(_names), f"{_model.__name__}: list the fields in the model's order: {_order}"
_TABLE, _GAME, _SEAT = (_converted(Table, TABLE_FIELDS), _converted(Game, GAME_FIELDS), _converted(Seat, SEAT_FIELDS))


@contextmanager
def _cursor():
    """On PostgreSQL a cursor that binds its values on the server: the big state text goes as a
    value, not quoted into the statement by Python, and a connection prepares each statement of
    a move on its first run (`_Prepared`) instead of PostgreSQL planning it on every move.
    Django's cursors bind on the client (its default, kept for every other query: its ORM is
    written for that). Errors are Django's, as from its own cursors."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            yield cursor
        return
    connection.ensure_connection()
    with connection.wrap_database_errors:
        yield _kept_cursor(connection.connection)


# Each pooled connection's one cursor for a move's statements. A cursor learns how to read each
# column of a result on its first one (psycopg's loaders, per cursor): a new cursor for every
# statement looked them all up again, about a third of a move's reading CPU. A connection the
# pool closed (PostgreSQL restarted, its lifetime over) leaves with its cursor.
_cursors: dict[int, tuple[object, _Prepared]] = {}


def _kept_cursor(raw) -> _Prepared:
    kept = _cursors.get(id(raw))
    if kept is not None and kept[0] is raw and not kept[1].cursor.closed:
        return kept[1]
    import psycopg

    for key, (other, _cursor_kept) in list(_cursors.items()):
        if other.closed:
            del _cursors[key]
    cursor = _Prepared(psycopg.Cursor(raw))
    _cursors[id(raw)] = (raw, cursor)
    return cursor


class _Prepared:
    """A psycopg cursor whose statements are prepared on their first run on a connection (Django
    turns psycopg's own preparing off; these few statements are all a move sends)."""

    __slots__ = ("cursor",)

    def __init__(self, cursor) -> None:
        self.cursor = cursor

    def execute(self, statement: str, values) -> None:
        if not connection.queries_logged:
            self.cursor.execute(statement, values, prepare=True)
            return
        started = time.monotonic()  # logged as Django's cursors log (tests count a move's queries)
        try:
            self.cursor.execute(statement, values, prepare=True)
        finally:
            connection.queries_log.append({"sql": statement, "time": f"{time.monotonic() - started:.3f}"})

    def fetchone(self):
        return self.cursor.fetchone()

    def fetchall(self):
        return self.cursor.fetchall()


def _instance(model, names, converters, row):
    """The instance Model.from_db would make of these fields (the others deferred, loaded if
    ever touched), made without Model.__init__: its generic work per field cost ten times this
    on each of a move's seven rows (no pre_init or post_init receiver listens to these models:
    tests/web/test_store.py checks)."""
    instance = model.__new__(model)
    state = instance._state = ModelState()
    state.adding, state.db = False, DEFAULT_DB_ALIAS  # read through django.db.connection: the default
    values = instance.__dict__
    for name, convert, value in zip(names, converters, row, strict=True):
        values[name] = value if convert is None or value is None else convert(value)
    return instance


def _locked_table(cursor, code: str | None, table_id: int | None) -> Table | None:
    """The table by its code (or id), its row locked for this transaction (None: no such table)."""
    statements = _sql(connection.vendor)
    if table_id is not None:
        cursor.execute(statements["table_by_id"], [table_id])
    else:
        cursor.execute(statements["table"], [str(code).upper()])
    row = cursor.fetchone()
    return None if row is None else _instance(Table, TABLE_FIELDS, _TABLE, row)


def locked_table_and_game(code: str | None = None, *, table_id: int | None = None) -> tuple[Table | None, Game | None]:
    """The table by its code (or id), locked for this transaction, and its current game (or None).
    Every writer locks a table through here: one statement, the same lock on every database."""
    with _cursor() as cursor:
        table = _locked_table(cursor, code, table_id)
        if table is None:
            return None, None
        cursor.execute(_sql(connection.vendor)["game"], [table.id])  # after the lock: the game as it is now
        row = cursor.fetchone()
    if row is None:  # no game yet
        return table, None
    game = _instance(Game, GAME_FIELDS, _GAME, row)
    game.table = table
    return table, game


def locked_table_game_and_seats(
    code: str | None = None, *, table_id: int | None = None
) -> tuple[Table | None, Game | None, list[Seat]]:
    """As locked_table_and_game, with the table's seats in seat order: what a move reads. On
    PostgreSQL the game and the seats come in one statement after the lock (a move's round
    trips cost the server more CPU than the database's work in them)."""
    if connection.vendor != "postgresql":
        table, game = locked_table_and_game(code, table_id=table_id)
        return table, game, seats_of(table) if table is not None else []
    with _cursor() as cursor:
        table = _locked_table(cursor, code, table_id)
        if table is None:
            return None, None, []
        # after the lock: as they are now
        cursor.execute(_sql(connection.vendor)["game_and_seats"], [table.id, table.id])
        row = cursor.fetchone()
    *game_row, seat_rows = row
    game = None
    if game_row[0] is not None:  # the table has a game
        game = _instance(Game, GAME_FIELDS, _GAME, game_row)
        game.table = table
    return table, game, _seats(table, seat_rows or [])


def _seats(table: Table, rows) -> list[Seat]:
    seats = [_instance(Seat, SEAT_FIELDS, _SEAT, row) for row in rows]
    for seat in seats:
        seat.table = table
    return seats


def seats_of(table: Table) -> list[Seat]:
    """The table's seats in seat order."""
    with _cursor() as cursor:
        cursor.execute(_sql(connection.vendor)["seats"], [table.id])
        rows = cursor.fetchall()
    return _seats(table, rows)


@cache
def _kinds(model, names: tuple[str, ...]) -> tuple[tuple[str | None, object], ...]:
    """Per field, what its value needs before it goes to the database driver: datetimes and
    JSON are adapted for this database; numbers, text and booleans go as they are."""
    kinds = []
    for name in names:
        field = model._meta.get_field(name)
        kind = {"DateTimeField": "datetime", "JSONField": "json"}.get(field.get_internal_type())
        kinds.append((kind, getattr(field, "encoder", None)))
    return tuple(kinds)


def _prepared(model, names: tuple[str, ...], values) -> list:
    """Values as each field's own preparation would give them, without its cost on every move."""
    ops, prepared = connection.ops, []
    for (kind, encoder), value in zip(_kinds(model, names), values, strict=True):
        if kind is None or value is None:
            prepared.append(value)
        elif kind == "datetime":
            prepared.append(ops.adapt_datetimefield_value(value))
        else:
            prepared.append(ops.adapt_json_value(value, encoder))
    return prepared


def _event_rows(game: Game, first_seq: int, records: list[dict], now: datetime) -> list[tuple[str, list]]:
    """The INSERTs of a move's log rows (seq first_seq, first_seq + 1, ...), many rows per
    statement: (statement, values) each."""
    params: list = []
    for i, record in enumerate(records):
        params += _prepared(Event, EVENT_FIELDS, (game.id, first_seq + i, game.version, record["type"], record, now))
    row = "(" + ", ".join(["%s"] * len(EVENT_FIELDS)) + ")"
    width = len(EVENT_FIELDS)
    inserts = []
    for start in range(0, len(records), EVENTS_PER_STATEMENT):
        chunk = params[start * width : (start + EVENTS_PER_STATEMENT) * width]
        inserts.append((_sql(connection.vendor)["events"] + ", ".join([row] * (len(chunk) // width)), chunk))
    return inserts


def append_events(game: Game, first_seq: int, records: list[dict], now: datetime) -> None:
    """Append a move's log rows."""
    with _cursor() as cursor:
        for statement, values in _event_rows(game, first_seq, records, now):
            cursor.execute(statement, values)


def save_game(game: Game) -> None:
    """Write the fields a move changes (version, state, deadline, end of game, log length)."""
    params = _prepared(Game, SAVED_FIELDS, [getattr(game, name) for name in SAVED_FIELDS])
    with _cursor() as cursor:
        cursor.execute(_sql(connection.vendor)["save_game"], [*params, game.id])


def save_move(game: Game, first_seq: int, records: list[dict], now: datetime) -> None:
    """A move's log rows and the game's new fields in one round trip where the database can
    (PostgreSQL runs an INSERT inside a WITH to completion, read or not); elsewhere one after
    the other. `game.event_count` is already the new length."""
    inserts = _event_rows(game, first_seq, records, now)
    if connection.vendor != "postgresql" or len(inserts) != 1:
        append_events(game, first_seq, records, now)
        save_game(game)
        return
    ((insert, values),) = inserts
    params = _prepared(Game, SAVED_FIELDS, [getattr(game, name) for name in SAVED_FIELDS])
    with _cursor() as cursor:
        cursor.execute(f"WITH logged AS ({insert}) {_sql(connection.vendor)['save_game']}", [*values, *params, game.id])
