"""The move's hand-composed SQL reads what the ORM reads and writes what it would write."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game.models import Event, Game, Room
from game.services import store
from game.sevens.engine import playable

from ..tables.sevens_tables import play, sevens_table
from ..tables.sevens_tables import state_of as sevens_state
from .factories import act, game_of, table

pytestmark = pytest.mark.django_db


def test_a_room_its_game_and_seats_read_as_the_orm_reads_them():
    room, _players = table(names=("Ana", "Ben", "Cleo"))
    game = game_of(room)
    game.deadline = timezone.now() + timedelta(seconds=30)
    game.save(update_fields=["deadline"])
    with transaction.atomic():
        locked, current = store.locked_room_and_game(room.code.lower())
        seats = store.seats_of(locked)
    with transaction.atomic():  # by id, as the deadline loop, presence and staff lock it
        by_id = store.locked_room_and_game(room_id=room.id)
    assert (by_id[0].code, by_id[1].id) == (locked.code, current.id)
    orm_room, orm_game = Room.objects.get(id=room.id), Game.objects.get(id=game.id)
    for name in store.ROOM_FIELDS:
        assert getattr(locked, name) == getattr(orm_room, name), name
    for name in store.GAME_FIELDS:
        assert getattr(current, name) == getattr(orm_game, name), name
    assert current.deadline.tzinfo is not None and current.players == ["Ana", "Ben", "Cleo"]
    assert [(s.index, s.nickname, s.player_key, s.away, s.bot_level) for s in seats] == [
        (s.index, s.nickname, s.player_key, s.away, s.bot_level) for s in room.seats.order_by("index")
    ]
    assert isinstance(seats[0].away, bool) and isinstance(current.over, bool)


def test_unknown_code_and_a_room_without_a_game():
    with transaction.atomic():
        assert store.locked_room_and_game("NOPE42") == (None, None)
        assert store.locked_room_and_game(room_id=10**9) == (None, None)
    room, _ = table(start=False)
    with transaction.atomic():
        locked, current = store.locked_room_and_game(room.code)
    assert locked.id == room.id and current is None


def test_events_and_the_saved_game_are_what_the_orm_then_reads():
    room, _ = table()
    with transaction.atomic():
        _room, game = store.locked_room_and_game(room.code)
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


def test_the_current_game_is_the_newest_of_the_room():
    room, _ = table()
    first = game_of(room)
    Game.objects.create(room=room, number=first.number + 1, state=first.state, version=7, seed=1, players=first.players)
    with transaction.atomic():
        _room, current = store.locked_room_and_game(room.code)
    assert (current.number, current.version) == (first.number + 1, 7)


@pytest.mark.parametrize("game", ["sevn", "sevens"])
def test_a_move_loads_no_deferred_field(game):
    """A move reads the room, its game and seats with the fields it uses: touching one it left
    deferred would cost a query of its own on every move."""
    if game == "sevens":
        room, players = sevens_table(turn_seconds=0)
        state = sevens_state(room)
        card = playable(state["seats"][state["current"]]["hand"], state["layout"])[0]
        with CaptureQueriesContext(connection) as queries:
            play(room, players[state["current"]], card)
    else:
        room, players = table(turn_seconds=0, deck=["5", "9", "4", "1", "2", "3"])
        with CaptureQueriesContext(connection) as queries:
            act(room, players[1], {"kind": "draw"})
    assert len(queries) > 3
    deferred = [
        query["sql"]
        for query in queries
        if query["sql"].startswith('SELECT "game_room"."') and "FOR UPDATE" not in query["sql"]
    ]
    assert deferred == []
