"""What a table socket's opening and closing ask of the database (presence.arrived and left,
whose sockets are open): every page opened or closed and every screen after a restart pays it, a
crowd's all at once, on the one thread that makes every database call of its process."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game.models import Presence, SitePresence
from game.services import online as site_online
from game.services import presence, table_reads
from tests.factories import open_table

pytestmark = pytest.mark.django_db(transaction=True)
CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


def statements(queries) -> list[str]:
    return [query["sql"] for query in queries if query["sql"].split()[0] not in CONTROL]


def test_a_socket_opening_is_noted_in_one_write_and_told_with_one_count():
    table, (ana, ben, _cleo) = open_table(("Ana", "Ben", "Cleo"), seats=3)
    presence.arrived(code=table.code, player_key=ben.key, channel="ben-1")
    told = table_reads.table_by_code(table.code).presence_told
    with CaptureQueriesContext(connection) as queries:
        message = presence.arrived(code=table.code, player_key=ana.key, channel="ana-1")
    sql = statements(queries)
    notes = [s for s in sql if "game_presence" in s.split(" WHERE ")[0] and not s.startswith("SELECT")]
    assert len(notes) == 1 and notes[0].startswith("INSERT") and "ON CONFLICT" in notes[0], sql
    counts = [s for s in sql if "presence_told" in s and not s.startswith("SELECT")]
    assert len(counts) == 1 and counts[0].startswith("UPDATE") and "RETURNING" in counts[0], sql
    assert not any(query["sql"].startswith("SAVEPOINT") for query in queries)
    assert len(sql) <= 7, sql  # the table, its seats, the note, the seat seen, the game, the count, who is here
    assert message["events"] == [{"type": "presence", "online": [0, 1], "told": told + 1}]


def test_a_socket_noted_again_moves_its_one_row():
    """A channel noted twice (its socket on another table, a second note) keeps one row, the latest."""
    table, (ana, _ben) = open_table()
    other, (_cleo, ana_there) = open_table(("Cleo", "Ana"))
    presence.arrived(code=table.code, player_key=ana.key, channel="ana-1")
    first_seen = Presence.objects.get(channel="ana-1").seen
    presence.arrived(code=other.code, player_key=ana_there.key, channel="ana-1")
    row = Presence.objects.get(channel="ana-1")
    assert (row.table_id, row.player_key) == (other.id, ana_there.key) and row.seen >= first_seen
    assert Presence.objects.count() == 1
    assert table_reads.online(table.id) == [] and table_reads.online(other.id) == [1]


def test_a_socket_closing_takes_its_row_in_one_statement_and_tells_the_table():
    table, (ana, ben) = open_table()
    presence.arrived(code=table.code, player_key=ana.key, channel="ana-1")
    presence.arrived(code=table.code, player_key=ben.key, channel="ben-1")
    with CaptureQueriesContext(connection) as queries:
        message = presence.left(channel="ana-1")
    sql = statements(queries)
    taken = [s for s in sql if "game_presence" in s.split(" WHERE ")[0] and not s.startswith("SELECT")]
    assert len(taken) == 1 and taken[0].startswith("DELETE") and "RETURNING" in taken[0], sql
    assert message["events"][0]["online"] == [1]
    assert not Presence.objects.filter(channel="ana-1").exists()
    assert presence.left(channel="ana-1") is None  # closed again: nothing to take, nothing to tell


def test_who_is_here_is_one_statement_and_leaves_bots_out():
    table, (ana, ben) = open_table()
    for player, channel in ((ana, "a-1"), (ana, "a-2"), (ben, "b-1")):
        presence.arrived(code=table.code, player_key=player.key, channel=channel)
    with CaptureQueriesContext(connection) as queries:
        assert table_reads.online(table.id) == [0, 1]
    assert len(queries) == 1
    presence.left(channel="b-1")
    assert table_reads.online(table.id) == [0]


def test_a_page_opened_twice_on_one_channel_is_one_row_of_its_latest_person():
    dora, emil = (User.objects.create_user(name, password="pw-123456") for name in ("dora", "emil"))
    site_online.page_opened(channel="page-1", user_id=dora.pk)
    before = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        site_online.page_opened(channel="page-1", user_id=emil.pk)
    assert len(statements(queries)) == 1
    row = SitePresence.objects.get()
    assert row.user_id == emil.pk and row.seen >= before
