"""A move played against the table held in its process's memory (services.held) and saved in one
statement that checks the version, the table and the seats: one round trip on PostgreSQL, and
whenever anything else wrote meanwhile, nothing written and the move weighed the locked way,
applied or refused exactly as without the memory. Run on SQLite here, on PostgreSQL by
tests/scaleout/test_services_on_postgres.py."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import registry, services
from game.core.errors import ServiceError
from game.models import Event, Game, Seat, Table
from game.services import held, play
from tests.factories import deciding, game_of, open_table, state_of

# committed for real: a table is held once what it holds has committed
pytestmark = pytest.mark.django_db(transaction=True)


def _next(table, players):
    """A legal move of whoever decides, on the current version: (player, action, version)."""
    kind, state, game = registry.of(table), state_of(table), game_of(table)
    action = kind.bot_action("easy", state, kind.bot_rng(game.seed, game.version, state))
    return deciding(table, players), action, game.version


def _play(table, players, move=None):
    player, action, version = move or _next(table, players)
    return services.game_act(code=table.code, player=player, action=action, version=version)


def _held_table():
    """A started table of four people, its first move played the locked way (which holds it)."""
    table, players = open_table(names=("Ana", "Ben", "Cleo", "Dan"), turn_seconds=0)
    held.clear()
    _play(table, players)
    assert held.get(table.code) is not None
    return table, players


def test_a_held_move_is_one_statement_on_postgresql():
    table, players = _held_table()
    before, move = game_of(table), _next(table, players)
    with CaptureQueriesContext(connection) as queries:
        update = _play(table, players, move)
    after = game_of(table)
    assert after.version == before.version + 1 == update["snapshot"]["game"]["version"]
    assert Event.objects.filter(game=after, version=after.version).count() == after.event_count - before.event_count
    assert list(Event.objects.filter(game=after).values_list("seq", flat=True).order_by("seq")) == list(
        range(after.event_count)
    )
    statements = [q["sql"] for q in queries]
    if connection.vendor == "postgresql":
        # the version, table and seats checked, the game's row and its log rows written: one
        # statement, committed on its own (no BEGIN, no lock, no read before it)
        assert len(statements) == 1, statements
        assert statements[0].startswith("WITH locked AS") and "INSERT INTO" in statements[0]
    else:  # SQLite: the checked UPDATE and the INSERT in one BEGIN IMMEDIATE
        assert statements[0] == "BEGIN IMMEDIATE" and statements[-1] == "COMMIT", statements
        assert [s.split()[0] for s in statements[1:-1]] == ["UPDATE", "INSERT"], statements
    assert held.get(table.code).game.version == after.version


def test_the_held_table_is_what_the_database_has():
    table, players = _held_table()
    for _move in range(3):
        _play(table, players)
        found = held.get(table.code)
        assert found is not None
        database = game_of(table)
        for name in ("version", "state", "event_count", "acting", "deadline", "over"):
            assert getattr(found.game, name) == getattr(database, name), name


def test_a_move_on_a_version_another_process_wrote_is_refused_and_the_table_read_again():
    """Two processes received a move on the same version (a page posting on the other one, a
    failover): the other's commits first; this process's held statement writes nothing, and the
    move, weighed the locked way, is refused as stale. Exactly one applies the version."""
    table, players = _held_table()
    move = _next(table, players)
    version = move[2]
    kept = held.get(table.code)
    _play(table, players, move)  # "the other process": its move commits version + 1
    held._held[table.code] = kept  # this process still holds the table at `version`
    with pytest.raises(ServiceError) as refused:
        _play(table, players, move)  # the same move, received at once by this process
    assert refused.value.code == "stale"
    assert game_of(table).version == version + 1
    assert Event.objects.filter(game=game_of(table), version=version + 2).count() == 0
    # read again the locked way: the next move is held at the database's version once more
    _play(table, players)
    assert held.get(table.code).game.version == version + 2 == game_of(table).version


def test_a_held_move_after_another_process_moved_the_game_is_applied_at_the_new_version():
    table, players = _held_table()
    kept = held.get(table.code)
    _play(table, players)  # written elsewhere: this process does not know
    held._held[table.code] = kept
    version = game_of(table).version
    update = _play(table, players)  # on the version the screen was shown: applied
    assert update["snapshot"]["game"]["version"] == version + 1 == game_of(table).version


def test_seats_changed_behind_the_held_table_are_read_again():
    """A seat renamed by staff (no version of its own) in another process: the held statement
    finds the seats differ, writes nothing, and the move goes the locked way with the new name."""
    table, players = _held_table()
    kept = held.get(table.code)
    Seat.objects.filter(table=table, index=1).update(nickname="Benno")  # as another process would
    assert held.get(table.code) is kept
    update = _play(table, players)
    assert [seat["nickname"] for seat in update["snapshot"]["seats"]][1] == "Benno"
    assert held.get(table.code).seats[1].nickname == "Benno"


def test_a_table_closed_behind_the_held_table_refuses_the_move():
    table, players = _held_table()
    version = game_of(table).version
    Table.objects.filter(id=table.id).update(status=Table.Status.CLOSED)  # as another process would
    with pytest.raises(ServiceError) as refused:
        _play(table, players)
    assert refused.value.code == "closed" and game_of(table).version == version


def test_a_state_rewritten_in_this_process_is_read_again():
    """An ORM save of the game (a test stacking a deck, staff) drops the held table here."""
    table, players = _held_table()
    game = game_of(table)
    game.save(update_fields=["state"])
    assert held.get(table.code) is None


def test_an_illegal_move_is_refused_in_the_locked_ways_words_and_writes_nothing():
    table, players = _held_table()
    version = game_of(table).version
    with pytest.raises(ServiceError):
        services.game_act(
            code=table.code, player=deciding(table, players), action={"kind": "nonsense"}, version=version
        )
    assert game_of(table).version == version and held.get(table.code).game.version == version


def test_a_game_that_ends_takes_the_locked_way(monkeypatch):
    """The game's end writes more than its row and log (results, ratings, the table finished):
    a held move that ends the game is not played held, and nothing held was written."""
    table, players = _held_table()
    calls = []
    real = play._commit

    def commit(*args, **kwargs):
        calls.append(kwargs.get("held_move", False))
        return real(*args, **kwargs)

    monkeypatch.setattr(play, "_commit", commit)
    while not Game.objects.get(id=game_of(table).id).over:
        _play(table, players)
    assert calls[-1] is False and True in calls
    assert Table.objects.get(id=table.id).status == Table.Status.FINISHED
