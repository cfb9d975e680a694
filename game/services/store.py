"""The reads and writes of a move, with their SQL composed once from the models.

Django builds and compiles a queryset's SQL anew on every call, and on the path of a move
(lock the table, read its game and seats, append events, save the game) that cost several
times what the database itself did. These are the same statements, composed once from the
models' metadata, so they follow the migrations. Reads load the fields a move uses (the rest
are deferred, loaded if ever touched) into model instances; writes are prepared by each field.
The same goes for what a socket writes as it opens and closes (its presence row, the table's
count of presence messages): one statement each where the ORM takes several (put_row, take_rows,
count_up).
"""

from __future__ import annotations

import time as clock
from contextlib import contextmanager
from datetime import UTC, datetime, time
from functools import cache

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, transaction
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
    "min_reliability",  # the lobby says a public table's minimum (services.reliability)
    "status",
    "closed_reason",
    "next_seed",  # the next deal's commitment is in every snapshot (game.fair)
    "pace",  # the clocks of a turn-based table (game.core.pace)
    "move_seconds",
    "bank_increment",
    "bank_most",
    "window_start",
    "window_end",
    "time_zone",
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
    "records",  # each seat's finished games, beside its name (services.reliability.seat_records)
    "event_count",
    "deadline",
    "over",
    "winner",
    "finished",
    "acting",
    "turn_started",
)
SEAT_FIELDS = (
    "id",
    "table_id",
    "index",
    "player_key",
    "nickname",
    "user_id",  # a missed turn is kept with its person (turn-based tables); a turn's notice goes to them
    "bot_level",
    "away",
    "timeouts_in_row",
    "last_seen",
    "bank_seconds",
    "let_go_by",  # who agreed to let an away person go (play.seat_let_go); emptied when they are back
)
SAVED_FIELDS = ("version", "state", "deadline", "over", "winner", "finished", "event_count", "acting", "turn_started")
EVENT_FIELDS = ("game", "seq", "version", "kind", "data", "created")
EVENTS_PER_STATEMENT = 500  # well under SQLite's limit of bound parameters per statement


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _columns(model, names, alias: str = "") -> str:
    prefix = f"{alias}." if alias else ""
    return ", ".join(prefix + _q(model._meta.get_field(name).column) for name in names)


def _as_text_json(model, names, alias: str) -> str:
    """Columns for json_build_array, a JSON field's as its text: inside the array it would come
    back already parsed, and its converter reads the text the column itself gives."""
    return ", ".join(
        f"{alias}.{_q(model._meta.get_field(name).column)}"
        + ("::text" if model._meta.get_field(name).get_internal_type() == "JSONField" else "")
        for name in names
    )


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
        f"{_as_text_json(Seat, SEAT_FIELDS, 's')}) ORDER BY s.{_q('index')}) FROM {seat} s "
        f"WHERE s.{_q('table_id')} = %s) "
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


def _time(value: time | str | None) -> time | None:
    """Times as the ORM gives them (SQLite keeps them as text)."""
    return value if value is None or isinstance(value, time) else time.fromisoformat(value)


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
        elif kind == "TimeField":
            converters.append(_time)
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
        started = clock.monotonic()  # logged as Django's cursors log (tests count a move's queries)
        try:
            self.cursor.execute(statement, values, prepare=True)
        finally:
            connection.queries_log.append({"sql": statement, "time": f"{clock.monotonic() - started:.3f}"})

    def fetchone(self):
        return self.cursor.fetchone()

    def fetchall(self):
        return self.cursor.fetchall()

    @property
    def rowcount(self) -> int:
        return self.cursor.rowcount


def _instance(model, names, converters, row):
    """The instance Model.from_db would make of these fields (the others deferred, loaded if
    ever touched), made without Model.__init__: its generic work per field cost ten times this
    on each of a move's seven rows (no pre_init or post_init receiver listens to these models:
    tests/services/test_store.py checks)."""
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


class VersionMoved(DatabaseError):
    """A game's row was not at the version its writer read: another writer saved first. A
    writer holding the table's lock never sees it (every writer locks the table); raised, it
    rolls its transaction back rather than write over another's move."""


# What identifies who plays each seat, as the database's statement draws it and as `seats_mark`
# does from the seats held in memory: a move checked against the seats it was played with.
_UNIT, _RECORD = "\x1f", "\x1e"
SEAT_MARK_FIELDS = ("index", "player_key", "user", "bot_level", "away", "timeouts_in_row", "nickname")


def seats_mark(seats: list[Seat]) -> str:
    """The seats as the statement of a held move compares them (`_seat_mark_sql`)."""
    return _RECORD.join(
        _UNIT.join(
            (
                str(seat.index),
                seat.player_key,
                "-" if seat.user_id is None else str(seat.user_id),
                seat.bot_level,
                "1" if seat.away else "0",
                str(seat.timeouts_in_row),
                seat.nickname,
            )
        )
        for seat in sorted(seats, key=lambda seat: seat.index)
    )


def _seat_mark_sql(vendor: str) -> str:
    """The seats' mark, drawn by the database from its rows (one string: the seats in order)."""
    column = {name: f"s.{_columns(Seat, [name])}" for name in SEAT_MARK_FIELDS}
    unit, record = ("chr(31)", "chr(30)") if vendor == "postgresql" else ("char(31)", "char(30)")
    mark = f" || {unit} || ".join(
        (
            f"CAST({column['index']} AS TEXT)",
            column["player_key"],
            f"COALESCE(CAST({column['user']} AS TEXT), '-')",
            column["bot_level"],
            f"CASE WHEN {column['away']} THEN '1' ELSE '0' END",
            f"CAST({column['timeouts_in_row']} AS TEXT)",
            column["nickname"],
        )
    )
    seat, table_id = _q(Seat._meta.db_table), f"s.{_q('table_id')}"
    if vendor == "postgresql":
        return f"(SELECT string_agg({mark}, {record} ORDER BY {column['index']}) FROM {seat} s WHERE {table_id} = %s)"
    return (
        f"(SELECT group_concat(mark, {record}) FROM (SELECT {mark} AS mark FROM {seat} s "
        f"WHERE {table_id} = %s ORDER BY {column['index']}))"
    )


@cache
def _checked_sql(vendor: str, rows: int, held: bool) -> tuple[str, str | None]:
    """The checked save of a move with `rows` log rows: (the statement, and on SQLite the log
    rows' INSERT that follows it in the same transaction; None on PostgreSQL, where one statement
    does both). The game row is written only at the version it was read at; a held move (one
    played against the table held in memory, outside any lock) also locks the table's row, which
    must still be playing, and needs its seats as they were held."""
    game, table, event = (_q(model._meta.db_table) for model in (Game, Table, Event))
    sets = ", ".join(f"{_columns(Game, [name])} = %s" for name in SAVED_FIELDS)
    where = f"{game}.{_q('id')} = %s AND {game}.{_q('version')} = %s"
    if held:
        where += f" AND {_seat_mark_sql(vendor)} = %s"
    if vendor == "postgresql":
        locked = ""
        if held:  # the table's row locked within the statement: every other writer holds it to write
            locked = (
                f"locked AS (SELECT t.{_q('id')} FROM {table} t WHERE t.{_q('id')} = %s "
                f"AND t.{_q('status')} = %s FOR UPDATE), "
            )
            where += " AND EXISTS (SELECT 1 FROM locked)"
        update = f"UPDATE {game} SET {sets} WHERE {where} RETURNING {game}.{_q('id')}"
        if not rows:
            return (f"WITH {locked.removesuffix(', ')} {update}" if held else update), None
        kinds = [Event._meta.get_field(name).db_type(connection) for name in EVENT_FIELDS]
        row = "(" + ", ".join(f"CAST(%s AS {kind})" for kind in kinds) + ")"
        # the log rows go in only if the game's row was written (the INSERT reads the UPDATE's rows)
        return (
            f"WITH {locked}saved AS ({update}) INSERT INTO {event} ({_columns(Event, EVENT_FIELDS)}) "
            f"SELECT v.* FROM saved CROSS JOIN (VALUES {', '.join([row] * rows)}) v",
            None,
        )
    if held:  # SQLite: its BEGIN IMMEDIATE has locked the database; the table must still be playing
        where += f" AND EXISTS (SELECT 1 FROM {table} t WHERE t.{_q('id')} = %s AND t.{_q('status')} = %s)"
    insert = None
    if rows:
        row = "(" + ", ".join(["%s"] * len(EVENT_FIELDS)) + ")"
        insert = f"INSERT INTO {event} ({_columns(Event, EVENT_FIELDS)}) VALUES {', '.join([row] * rows)}"
    return f"UPDATE {game} SET {sets} WHERE {where}", insert


def save_move(
    game: Game,
    first_seq: int,
    records: list[dict],
    now: datetime,
    *,
    seats: list[Seat] | None = None,
    table_id: int | None = None,
) -> bool:
    """A move's log rows and the game's new fields, written only if the game's row is still at
    the version before this one (`game.version` is the new one, `game.event_count` the new
    length): on PostgreSQL in one statement, the log rows inside a WITH that reads the UPDATE's
    row, so that they go in only with it; on SQLite the UPDATE, then the INSERT in the same
    transaction. Returns whether it was written.

    With `seats` (a held move: game.services.held), the statement also locks the table's row
    (`table_id`), checks that it is still playing and that its seats are `seats`, and commits on
    its own when no transaction is open: the move's one round trip. Without, its caller holds
    the table's lock, and a version that moved regardless raises VersionMoved."""
    held = seats is not None
    params = _prepared(Game, SAVED_FIELDS, [getattr(game, name) for name in SAVED_FIELDS])
    where = [game.id, game.version - 1]
    if held:
        where += [table_id, seats_mark(seats)]
    events: list = []
    for i, record in enumerate(records):
        events += _prepared(Event, EVENT_FIELDS, (game.id, first_seq + i, game.version, record["type"], record, now))
    vendor = connection.vendor
    if len(records) > EVENTS_PER_STATEMENT and not held:  # a long game played out at once by bots
        statement, _insert = _checked_sql(vendor, 0, False)
        with _cursor() as cursor:
            cursor.execute(statement, [*params, *where])
            written = cursor.rowcount == 1
        if written:
            append_events(game, first_seq, records, now)
    elif vendor == "postgresql":
        statement, _insert = _checked_sql(vendor, len(records), held)
        locked = [table_id, Table.Status.PLAYING] if held else []
        with _cursor() as cursor:
            cursor.execute(statement, [*locked, *params, *where, *events])
            written = cursor.rowcount == (len(records) or 1)
    else:
        statement, insert = _checked_sql(vendor, len(records), held)
        playing = [table_id, Table.Status.PLAYING] if held else []
        with transaction.atomic(), _cursor() as cursor:
            cursor.execute(statement, [*params, *where, *playing])
            written = cursor.rowcount == 1
            if written and insert is not None:
                cursor.execute(insert, events)
    if not written and not held:
        raise VersionMoved(f"game {game.id} was not at version {game.version - 1}")
    return written


def put_row(model, **values) -> None:
    """A row by its primary key, made or (if it is there already) changed, in one statement:
    `INSERT … ON CONFLICT (pk) DO UPDATE` (PostgreSQL and SQLite alike). Django's
    update_or_create takes six round trips for it (a transaction, a locking read, a savepoint
    around the insert), and a socket opening writes one of these rows (presence, online)."""
    meta = model._meta
    fields = [meta.get_field(name) for name in values]
    key = meta.pk.column
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    changed = ", ".join(
        f"{quote(field.column)} = EXCLUDED.{quote(field.column)}" for field in fields if field.column != key
    )
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))}) "
        f"ON CONFLICT ({quote(key)}) DO UPDATE SET {changed}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [field.get_db_prep_save(values[field.name], connection) for field in fields])


def count_up(model, pk: int, name: str) -> int:
    """One more on a counter column, and its new value, in one statement (`UPDATE … RETURNING`);
    the row stays locked to the end of the transaction, as with Django's update and read."""
    meta = model._meta
    quote = connection.ops.quote_name
    column = quote(meta.get_field(name).column)
    table, key = quote(meta.db_table), quote(meta.pk.column)
    sql = f"UPDATE {table} SET {column} = {column} + 1 WHERE {key} = %s RETURNING {column}"
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        return cursor.fetchone()[0]


def take_rows(model, name: str, values: list, fields: tuple[str, ...]) -> list[tuple]:
    """The rows whose `name` is one of `values`, deleted, and their `fields` as they were, in
    one statement (`DELETE … RETURNING`). Django reads them first, then deletes them in a
    transaction of its own: four round trips where sockets close (presence.left_all)."""
    if not values:
        return []
    meta = model._meta
    quote = connection.ops.quote_name
    key = meta.get_field(name)
    returned = ", ".join(quote(meta.get_field(field).column) for field in fields)
    sql = (
        f"DELETE FROM {quote(meta.db_table)} WHERE {quote(key.column)} IN ({', '.join(['%s'] * len(values))}) "
        f"RETURNING {returned}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [key.get_db_prep_value(value, connection) for value in values])
        return [tuple(row) for row in cursor.fetchall()]
