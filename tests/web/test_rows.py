"""The move's hand-composed SQL reads what the ORM reads and writes what it would write."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from game.models import Event, Game, Room
from game.services import rows

from .factories import game_of, table

pytestmark = pytest.mark.django_db


def test_a_room_its_game_and_seats_read_as_the_orm_reads_them():
    room, _players = table(names=("Ana", "Ben", "Cleo"))
    game = game_of(room)
    game.deadline = timezone.now() + timedelta(seconds=30)
    game.save(update_fields=["deadline"])
    with transaction.atomic():
        locked, current = rows.locked_room_and_game(room.code.lower())
        seats = rows.seats_of(locked)
    with transaction.atomic():  # by id, as the deadline loop, presence and staff lock it
        by_id = rows.locked_room_and_game(room_id=room.id)
    assert (by_id[0].code, by_id[1].id) == (locked.code, current.id)
    orm_room, orm_game = Room.objects.get(id=room.id), Game.objects.get(id=game.id)
    for name in rows.ROOM_FIELDS:
        assert getattr(locked, name) == getattr(orm_room, name), name
    for name in rows.GAME_FIELDS:
        assert getattr(current, name) == getattr(orm_game, name), name
    assert current.deadline.tzinfo is not None and current.players == ["Ana", "Ben", "Cleo"]
    assert [(s.index, s.nickname, s.player_key, s.away, s.bot_level) for s in seats] == [
        (s.index, s.nickname, s.player_key, s.away, s.bot_level) for s in room.seats.order_by("index")]
    assert isinstance(seats[0].away, bool) and isinstance(current.over, bool)


def test_unknown_code_and_a_room_without_a_game():
    with transaction.atomic():
        assert rows.locked_room_and_game("NOPE42") == (None, None)
        assert rows.locked_room_and_game(room_id=10**9) == (None, None)
    room, _ = table(start=False)
    with transaction.atomic():
        locked, current = rows.locked_room_and_game(room.code)
    assert locked.id == room.id and current is None


def test_events_and_the_saved_game_are_what_the_orm_then_reads():
    room, _ = table()
    with transaction.atomic():
        _room, game = rows.locked_room_and_game(room.code)
        first = game.event_count
        records = [{"type": "note", "n": n, "text": "ünïcode"} for n in range(rows.EVENTS_PER_STATEMENT + 3)]
        now = timezone.now()
        game.version += 1
        rows.append_events(game, first, records, now)
        game.event_count, game.over, game.winner, game.finished = first + len(records), True, 1, now
        game.deadline = None
        rows.save_game(game)
    saved = Game.objects.get(id=game.id)
    assert (saved.version, saved.event_count, saved.over, saved.winner, saved.deadline) == (
        game.version, first + len(records), True, 1, None)
    assert abs((saved.finished - now).total_seconds()) < 0.001
    logged = list(Event.objects.filter(game=saved, seq__gte=first).order_by("seq"))
    assert [event.data for event in logged] == records and {event.version for event in logged} == {game.version}
    assert logged[-1].seq == first + len(records) - 1 and logged[0].kind == "note"


def test_the_current_game_is_the_newest_of_the_room():
    room, _ = table()
    first = game_of(room)
    Game.objects.create(room=room, number=first.number + 1, state=first.state, version=7, seed=1,
                        players=first.players)
    with transaction.atomic():
        _room, current = rows.locked_room_and_game(room.code)
    assert (current.number, current.version) == (first.number + 1, 7)
