"""The move's hand-composed SQL reads what the ORM reads and writes what it would write."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game.models import Event, Game, Table
from game.services import store
from game.sevens.engine import playable

from ..tables.sevens_tables import play, sevens_table
from ..tables.sevens_tables import state_of as sevens_state
from .factories import act, game_of, open_table

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


def test_the_current_game_is_the_newest_of_the_table():
    table, _ = open_table()
    first = game_of(table)
    Game.objects.create(
        table=table, number=first.number + 1, state=first.state, version=7, seed=1, players=first.players
    )
    with transaction.atomic():
        _table, current = store.locked_table_and_game(table.code)
    assert (current.number, current.version) == (first.number + 1, 7)


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
