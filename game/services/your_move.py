"""Your move: at which turn-based tables a person is to decide now, and by when.

The one place other code asks "whose move is it now, at which tables, with what deadline"
(`waiting_for`, `waiting_count`, `all_waiting`), and the one place a turn starting for a person
is heard (`turn_started`, called by the service that changes the turn, inside its transaction:
what it says goes out when that commits, game.delivery.announce).

A person's move is waiting at a table when its game runs, the table is turn-based, the game's
deciding seat (Game.acting, kept by services.play at every move) is theirs and no bot plays it
for them. Its deadline is the game's (None at a table with no time limit); it is already worked
out in the table's playing window (game.core.pace), so "time left" is the wall-clock time to it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from typing import NamedTuple

from django.conf import settings
from django.db import connection
from django.db.models import F

from game.core import pace as paces
from game.delivery import announce
from game.models import Game, Seat, Table


class Waiting(NamedTuple):
    """One table waiting for a person's move."""

    code: str  # the table's code (its page: /t/<code>/)
    kind: str  # the game (registry key)
    seat: int
    player_key: str
    user_id: int | None
    deadline: datetime | None  # when a bot plays the turn for them (None: no limit)
    turn_started: datetime | None
    table_id: int
    game_id: int


def _waiting_rows(**whose):
    """Every game waiting for a person at a turn-based table, with that person's seat: one join
    (the seat's conditions in the one filter, so they are one seat's). `whose`: more conditions
    on that seat (its player key)."""
    seat = {f"table__seats__{name}": value for name, value in whose.items()}
    return (
        Game.objects.order_by()
        .filter(
            over=False,
            acting__isnull=False,
            table__status=Table.Status.PLAYING,
            table__seats__index=F("acting"),
            table__seats__bot_level="",
            table__seats__away=False,
            **seat,
        )
        .exclude(table__pace=paces.LIVE)
    )


_FIELDS = (
    "table__code",
    "table__kind",
    "table__seats__index",
    "table__seats__player_key",
    "table__seats__user_id",
    "deadline",
    "turn_started",
    "table_id",
    "id",
)
_FAR = datetime.max.replace(tzinfo=UTC)


def _order(rows) -> list[Waiting]:
    """Soonest deadline first; tables with no limit after every deadline, the longest waiting first."""
    found = [Waiting(*row) for row in rows]
    return sorted(found, key=lambda w: (w.deadline is None, w.deadline or _FAR, w.turn_started or _FAR, w.code))


def waiting_for(player_key: str | None) -> list[Waiting]:
    """The tables waiting for this person's move, the least time left first."""
    if not player_key:
        return []
    return _order(_waiting_rows(player_key=player_key).values_list(*_FIELDS))


def waiting_count(player_key: str | None) -> int:
    """How many tables wait for this person's move (the number in their tab's title)."""
    if not player_key:
        return 0
    return _waiting_rows(player_key=player_key).count()


def all_waiting(*, due_before: datetime | None = None, limit: int = 1000) -> list[Waiting]:
    """Every table waiting for someone's move, soonest deadline first (`due_before`: only those
    due by then), for whatever tells people off the site (reminders, digests)."""
    rows = _waiting_rows()
    if due_before is not None:
        rows = rows.filter(deadline__lte=due_before)
    return _order(rows.order_by("deadline").values_list(*_FIELDS)[:limit])


def turn_based_seats(player_key: str) -> int:
    """How many turn-based tables a person sits at that are not over for good (in their lobby
    or playing): SEVN_MAX_TURN_BASED_TABLES at most."""
    return (
        Seat.objects.filter(player_key=player_key, table__status__in=(Table.Status.LOBBY, Table.Status.PLAYING))
        .exclude(table__pace=paces.LIVE)
        .count()
    )


def max_turn_based_tables() -> int:
    return settings.SEVN_MAX_TURN_BASED_TABLES


def turn_started(table: Table, seat: Seat, game: Game) -> None:
    """A person's turn just began at a turn-based table (`game.deadline` is when it runs out).
    Called by services.play inside the transaction that changed the turn; what this says goes
    out when that commits: the person's open pages (signed in: their /ws/me/ socket) hear that a
    move waits, with the count for their tab title."""
    if seat.user_id is not None:
        told = {
            "code": table.code,
            "deadline": game.deadline.timestamp() if game.deadline else None,
            "count": waiting_count(seat.player_key),  # inside the transaction: this turn counts
            "yours": True,
        }
        announce.your_move(seat.user_id, told)


def turn_ended(table: Table, seat: Seat) -> None:
    """A person's turn ended at a turn-based table (they moved, or a bot played it): their open
    pages hear the new count."""
    if seat.user_id is not None:
        announce.your_move(
            seat.user_id,
            {"code": table.code, "deadline": None, "count": waiting_count(seat.player_key), "yours": False},
        )


class TurnBasedRow(NamedTuple):
    """One turn-based table of a person's, as their home page lists it."""

    code: str
    kind: str  # the game (registry key)
    status: str
    yours: bool  # waiting for their move
    deadline: datetime | None  # the deciding seat's (None: no limit, or nobody decides)
    whose: str | None  # the name of whoever decides now (None in a lobby)
    kept_by_bot: bool  # the bot keeps their seat (two missed turns): they may take it back


def _when(value: datetime | str | None) -> datetime | None:
    """A time stamp as the ORM gives it (SQLite keeps them as text in UTC, without a zone)."""
    if value is None:
        return None
    value = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


@cache
def _tables_sql(vendor: str) -> str:
    """The home list's one statement, composed once from the models (it follows the
    migrations): the person's seats at turn-based tables in their lobby or playing, each with
    its table, its running game's deciding seat and deadline, and that seat's name. Composed by
    the ORM on every call, the same read cost ten times its database time (bench/turn_based_load.py)."""
    q = connection.ops.quote_name
    seat, table, game = (q(model._meta.db_table) for model in (Seat, Table, Game))

    def col(model, name: str, alias: str) -> str:
        return f"{alias}.{q(model._meta.get_field(name).column)}"

    running = (
        f"FROM {game} g WHERE {col(Game, 'table', 'g')} = {col(Seat, 'table', 's')} AND NOT {col(Game, 'over', 'g')} "
        f"ORDER BY {col(Game, 'number', 'g')} DESC LIMIT 1"
    )
    acting = f"(SELECT {col(Game, 'acting', 'g')} {running})"
    return (
        f"SELECT {col(Seat, 'table', 's')}, {col(Table, 'code', 't')}, {col(Table, 'kind', 't')}, "
        f"{col(Table, 'status', 't')}, {col(Table, 'created', 't')}, {col(Seat, 'index', 's')}, "
        f"{col(Seat, 'away', 's')}, {acting}, (SELECT {col(Game, 'deadline', 'g')} {running}), "
        f"(SELECT {col(Seat, 'nickname', 'd')} FROM {seat} d WHERE {col(Seat, 'table', 'd')} = "
        f"{col(Seat, 'table', 's')} AND {col(Seat, 'index', 'd')} = {acting}) "
        f"FROM {seat} s JOIN {table} t ON {col(Table, 'id', 't')} = {col(Seat, 'table', 's')} "
        f"WHERE {col(Seat, 'player_key', 's')} = %s AND {col(Table, 'status', 't')} IN (%s, %s) "
        f"AND {col(Table, 'pace', 't')} <> %s"
    )


def turn_based_tables(player_key: str | None) -> list[TurnBasedRow]:
    """A person's turn-based tables in their lobby or playing: those waiting for their move
    first, the least time left first, then the others by their deadline (then newest). One
    statement whatever the count (SEVN_MAX_TURN_BASED_TABLES at most)."""
    if not player_key:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            _tables_sql(connection.vendor), [player_key, Table.Status.LOBBY, Table.Status.PLAYING, paces.LIVE]
        )
        found = cursor.fetchall()
    seats = [
        (table_id, code, kind, status, _when(created), index, bool(away), acting, _when(deadline), name)
        for table_id, code, kind, status, created, index, away, acting, deadline, name in found
    ]
    names = {(table_id, acting): name for table_id, *_rest, acting, _deadline, name in seats}
    rows = []
    for table_id, code, kind, status, created, index, away, acting, deadline, _name in seats:
        playing = status == Table.Status.PLAYING and acting is not None
        yours = playing and acting == index and not away
        whose = None if not playing else names.get((table_id, acting)) if acting != index else ""
        row = TurnBasedRow(code, kind, status, yours, deadline if playing else None, whose, bool(away and playing))
        rows.append((created, row))
    rows.sort(key=lambda pair: pair[0], reverse=True)  # newest first where nothing else decides
    ordered = [row for _created, row in rows]
    return sorted(ordered, key=lambda row: (not row.yours, row.deadline is None, row.deadline or _FAR))
