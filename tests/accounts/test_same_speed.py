"""Same speed: a move with people who have accounts at the table asks the database what it asks
with guests only, and nothing of accounts, friends or invitations; one statement more when the
move passes the turn to a person with an account: their "your move" notice, written into the
outbox in the move's own transaction (game.services.alerts), so that no crash loses it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import services
from game.core.identity import Player
from tests.accounts.test_home import account
from tests.factories import act, stack

pytestmark = pytest.mark.django_db
DECK = ["5", "9", "4", "1", "2", "3"]
ACCOUNT_TABLES = ("auth_user", "game_profile", "game_guestkey", "game_friendship", "game_invitation", "account_")


def table_of(players: list[Player], timer: int):
    table = services.table_create(player=players[0], nickname="Ana", seat_count=2, turn_seconds=timer)
    services.seat_take(code=table.code, player=players[1], nickname="Ben")
    services.game_start(code=table.code, player=players[0])
    stack(table, DECK)
    table.refresh_from_db()
    return table


def queries_of_a_move(players: list[Player], timer: int) -> list[str]:
    table = table_of(players, timer)
    with CaptureQueriesContext(connection) as queries:
        act(table, players[1], {"kind": "draw"})  # seat 1 decides first with this deck
    return [query["sql"] for query in queries]


@pytest.mark.parametrize("timer", [0, 30])
def test_a_move_costs_the_same_queries_with_accounts_at_the_table(timer):
    guests = queries_of_a_move([Player(key="guest:ana"), Player(key="guest:ben")], timer)
    with_accounts = queries_of_a_move([account("Ana")[1], account("Ben")[1]], timer)
    extra = [sql for sql in with_accounts if "game_notice" in sql]  # when the move began Ana's turn
    assert len(extra) <= 1 and all(sql.startswith("INSERT") for sql in extra)
    assert len(with_accounts) == len(guests) + len(extra)
    assert not [sql for sql in with_accounts if any(name in sql for name in ACCOUNT_TABLES)]
