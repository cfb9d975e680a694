"""Staff run tables in Django admin: lists, filters, search, closing tables, removing players."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from game.models import Table

from .factories import game_of, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    User.objects.create_superuser("staff", "staff@example.com", "secret-pass-1")
    client.login(username="staff", password="secret-pass-1")
    return client


def test_tables_list_with_filters_and_search(staff):
    table, _ = open_table(names=("Ana", "Ben"))
    other, _ = open_table(names=("Cleo", "Dan"), start=False)
    html = staff.get("/admin/game/table/").content.decode()
    assert table.code in html and other.code in html and "Ana, Ben" in html
    html = staff.get("/admin/game/table/", {"q": "Cleo"}).content.decode()
    assert other.code in html and table.code not in html
    html = staff.get("/admin/game/table/", {"status__exact": "playing"}).content.decode()
    assert table.code in html and other.code not in html


def test_game_page_shows_the_event_log_but_never_the_secret_state(staff):
    table, _ = open_table()
    game = game_of(table)
    html = staff.get(f"/admin/game/game/{game.id}/change/").content.decode()
    assert "round_started" in html and str(game.seed) not in html and game.state[:40] not in html


def test_staff_close_a_table(staff):
    table, _ = open_table()
    response = staff.post("/admin/game/table/", {"action": "close_tables", "_selected_action": [table.id]})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and game_of(table).deadline is None


def test_staff_remove_a_player_mid_game_a_bot_keeps_the_seat(staff):
    table, _ = open_table(names=("Ana", "Ben", "Cleo"))
    seat = table.seats.get(nickname="Cleo")
    staff.post("/admin/game/seat/", {"action": "remove_players", "_selected_action": [seat.id]})
    seat.refresh_from_db()
    assert seat.player_key == "" and seat.away
    assert game_of(table).events.filter(kind="removed").exists()


def test_staff_remove_a_player_in_the_lobby_frees_the_seat(staff):
    table, _ = open_table(start=False)
    seat = table.seats.get(nickname="Ben")
    staff.post("/admin/game/seat/", {"action": "remove_players", "_selected_action": [seat.id]})
    assert list(table.seats.values_list("nickname", flat=True)) == ["Ana"]


def test_event_log_is_read_only(staff):
    table, _ = open_table()
    event = game_of(table).events.first()
    assert staff.post(f"/admin/game/event/{event.id}/delete/", {"post": "yes"}).status_code == 403
