"""The move's hand-composed SQL reads what the ORM reads and writes what it would write."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models.signals import post_init, pre_init
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game.games.sevens.engine import playable
from game.models import Event, Game, Seat, Table
from game.services import store
from tests.factories import act, game_of, open_table
from tests.games.sevens.tables import play, sevens_table
from tests.games.sevens.tables import state_of as sevens_state

pytestmark = pytest.mark.django_db


def test_a_table_its_game_and_seats_read_as_the_orm_reads_them():
    table, _players = open_table(names=("Ana", "Ben", "Cleo"))
    game = game_of(table)
    game.deadline = timezone.now() + timedelta(seconds=30)
    game.save(update_fields=["deadline"])
    with transaction.atomic():
        locked, current = store.locked_table_and_game(table.code.lower())
        seats = store.seats_of(locked)
    with transaction.atomic():  # by id, as the deadline loop, presence and staff lock it
        by_id = store.locked_table_and_game(table_id=table.id)
    assert (by_id[0].code, by_id[1].id) == (locked.code, current.id)
    orm_table, orm_game = Table.objects.get(id=table.id), Game.objects.get(id=game.id)
    for name in store.TABLE_FIELDS:
        assert getattr(locked, name) == getattr(orm_table, name), name
    for name in store.GAME_FIELDS:
        assert getattr(current, name) == getattr(orm_game, name), name
    assert current.deadline.tzinfo is not None and current.players == ["Ana", "Ben", "Cleo"]
    assert [(s.index, s.nickname, s.player_key, s.away, s.bot_level) for s in seats] == [
        (s.index, s.nickname, s.player_key, s.away, s.bot_level) for s in table.seats.order_by("index")
    ]
    assert isinstance(seats[0].away, bool) and isinstance(current.over, bool)


def test_nothing_listens_to_the_making_of_a_moves_rows():
    """The store makes a move's rows without Model.__init__ (store._instance), so no receiver of
    pre_init or post_init may count on seeing them; and what it makes is what the ORM makes."""
    for model in (Table, Game, Seat):
        assert not pre_init.has_listeners(model) and not post_init.has_listeners(model), model
    table, _ = open_table()
    with transaction.atomic():
        locked, current, seats = store.locked_table_game_and_seats(table.code)
    orm = Table.objects.only(*store.TABLE_FIELDS).get(id=table.id)
    assert locked == orm and locked.get_deferred_fields() == orm.get_deferred_fields()
    assert (locked._state.adding, locked._state.db) == (False, "default")
    seats[0].nickname = "Anna"
    seats[0].save(update_fields=["nickname"])  # an instance the ORM can save
    current.refresh_from_db(fields=["version"])  # and load again
    assert Seat.objects.get(id=seats[0].id).nickname == "Anna"


def test_unknown_code_and_a_table_without_a_game():
    with transaction.atomic():
        assert store.locked_table_and_game("NOPE42") == (None, None)
        assert store.locked_table_and_game(table_id=10**9) == (None, None)
    table, _ = open_table(start=False)
    with transaction.atomic():
        locked, current = store.locked_table_and_game(table.code)
    assert locked.id == table.id and current is None


def test_events_and_the_saved_game_are_what_the_orm_then_reads():
    table, _ = open_table()
    with transaction.atomic():
        _table, game = store.locked_table_and_game(table.code)
        first = game.event_count
        records = [{"type": "note", "n": n, "text": "ünïcode"} for n in range(store.EVENTS_PER_STATEMENT + 3)]
        now = timezone.now()
        game.version += 1
        store.append_events(game, first, records, now)
        game.event_count, game.over, game.winner, game.finished = first + len(records), True, 1, now
        game.deadline = None
        store.save_game(game)
    saved = Game.objects.get(id=game.id)
    assert (saved.version, saved.event_count, saved.over, saved.winner, saved.deadline) == (
        game.version,
        first + len(records),
        True,
        1,
        None,
    )
    assert abs((saved.finished - now).total_seconds()) < 0.001
    logged = list(Event.objects.filter(game=saved, seq__gte=first).order_by("seq"))
    assert [event.data for event in logged] == records and {event.version for event in logged} == {game.version}
    assert logged[-1].seq == first + len(records) - 1 and logged[0].kind == "note"


def test_a_move_reads_the_locked_table_its_game_and_seats_as_the_orm_reads_them():
    """What a move reads (one statement for the game and seats after the lock, on PostgreSQL):
    every field as the ORM reads it, a seat's time stamp and a bot's level included."""
    table, _players = open_table(names=("Ana", "Ben", "Cleo"))
    seen = timezone.now() - timedelta(seconds=5)
    table.seats.filter(index=1).update(last_seen=seen, away=True, timeouts_in_row=2)
    table.seats.filter(index=2).update(bot_level="hard", player_key="")
    orm_game = game_of(table)
    with transaction.atomic():
        locked, current, seats = store.locked_table_game_and_seats(table.code.lower())
    with transaction.atomic():
        by_id = store.locked_table_game_and_seats(table_id=table.id)
    assert (by_id[0].id, by_id[1].id, [s.id for s in by_id[2]]) == (locked.id, current.id, [s.id for s in seats])
    assert current.table is locked and all(seat.table is locked for seat in seats)
    for name in store.GAME_FIELDS:
        assert getattr(current, name) == getattr(Game.objects.get(id=orm_game.id), name), name
    orm_seats = list(table.seats.order_by("index"))
    assert [seat.index for seat in seats] == [0, 1, 2]
    for seat, orm_seat in zip(seats, orm_seats, strict=True):
        for name in store.SEAT_FIELDS:
            assert getattr(seat, name) == getattr(orm_seat, name), name
    assert seats[1].last_seen == seen and seats[1].last_seen.tzinfo is not None
    assert seats[1].away is True and seats[0].away is False and seats[2].bot_level == "hard"


def test_a_move_reads_no_game_for_a_lobby_and_nothing_for_an_unknown_table():
    table, _ = open_table(names=("Ana", "Ben"), start=False)
    with transaction.atomic():
        locked, current, seats = store.locked_table_game_and_seats(table.code)
        assert store.locked_table_game_and_seats("NOPE42") == (None, None, [])
        assert store.locked_table_game_and_seats(table_id=10**9) == (None, None, [])
    assert locked.id == table.id and current is None
    assert [(seat.index, seat.nickname) for seat in seats] == [(0, "Ana"), (1, "Ben")]


def test_the_current_game_is_the_newest_of_the_table():
    table, _ = open_table()
    first = game_of(table)
    Game.objects.create(
        table=table, number=first.number + 1, state=first.state, version=7, seed=1, players=first.players
    )
    with transaction.atomic():
        _table, current = store.locked_table_and_game(table.code)
        _table, with_seats, _seats = store.locked_table_game_and_seats(table.code)
    assert (current.number, current.version) == (first.number + 1, 7)
    assert (with_seats.number, with_seats.version) == (first.number + 1, 7)


# What Django sends when a deferred field of an instance is touched: its id and that field, by id.
DEFERRED_LOAD = re.compile(r'SELECT "(game_\w+)"\."id", "\1"\."\w+" FROM "\1" WHERE "\1"\."id" = ')


@pytest.mark.parametrize("game", ["sevn", "sevens"])
@pytest.mark.parametrize("timer", [0, 30])
def test_a_move_loads_no_deferred_field(game, timer):
    """A move reads the table, its game and seats with the fields it uses: touching one it left
    deferred would cost a query of its own on every move."""
    if game == "sevens":
        table, players = sevens_table(turn_seconds=timer)
        state = sevens_state(table)
        card = playable(state["seats"][state["current"]]["hand"], state["layout"])[0]
        with CaptureQueriesContext(connection) as queries:
            play(table, players[state["current"]], card)
    else:
        table, players = open_table(turn_seconds=timer, deck=["5", "9", "4", "1", "2", "3"])
        with CaptureQueriesContext(connection) as queries:
            act(table, players[1], {"kind": "draw"})
    assert len(queries) > 3
    deferred = [query["sql"] for query in queries if DEFERRED_LOAD.match(query["sql"])]
    assert deferred == []


def test_each_connection_keeps_one_cursor_and_a_closed_one_leaves_with_it(monkeypatch):
    """A move's statements reuse their connection's cursor (it knows how to read each column
    already); a connection the pool closed is forgotten, cursor and all, and a closed cursor is
    replaced."""
    import psycopg

    class Raw:
        closed = False

    class FakeCursor:
        def __init__(self, raw):
            self.raw, self.closed = raw, False

    monkeypatch.setattr(psycopg, "Cursor", FakeCursor)
    monkeypatch.setattr(store, "_cursors", {})
    first, second = Raw(), Raw()
    kept = store._kept_cursor(first)
    assert store._kept_cursor(first) is kept and kept.cursor.raw is first
    assert store._kept_cursor(second) is not kept and len(store._cursors) == 2
    first.closed = True  # the pool closed it (a restart, its lifetime over)
    third = Raw()
    store._kept_cursor(third)
    assert {id(raw) for raw, _cursor in store._cursors.values()} == {id(second), id(third)}
    again = store._kept_cursor(second)
    again.cursor.closed = True
    assert store._kept_cursor(second) is not again
