"""Staff run rooms in Django admin: lists, filters, search, closing rooms, removing players."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from game.models import Room

from .factories import game_of, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    User.objects.create_superuser("staff", "staff@example.com", "secret-pass-1")
    client.login(username="staff", password="secret-pass-1")
    return client


def test_rooms_list_with_filters_and_search(staff):
    room, _ = table(names=("Ana", "Ben"))
    other, _ = table(names=("Cleo", "Dan"), start=False)
    html = staff.get("/admin/game/room/").content.decode()
    assert room.code in html and other.code in html and "Ana, Ben" in html
    html = staff.get("/admin/game/room/", {"q": "Cleo"}).content.decode()
    assert other.code in html and room.code not in html
    html = staff.get("/admin/game/room/", {"status__exact": "playing"}).content.decode()
    assert room.code in html and other.code not in html


def test_game_page_shows_the_event_log_but_never_the_secret_state(staff):
    room, _ = table()
    game = game_of(room)
    html = staff.get(f"/admin/game/game/{game.id}/change/").content.decode()
    assert "round_started" in html and str(game.seed) not in html and game.state[:40] not in html


def test_staff_close_a_room(staff):
    room, _ = table()
    response = staff.post("/admin/game/room/", {"action": "close_rooms", "_selected_action": [room.id]})
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.status == Room.Status.CLOSED and game_of(room).deadline is None


def test_staff_remove_a_player_mid_game_a_bot_keeps_the_seat(staff):
    room, _ = table(names=("Ana", "Ben", "Cleo"))
    seat = room.seats.get(nickname="Cleo")
    staff.post("/admin/game/seat/", {"action": "remove_players", "_selected_action": [seat.id]})
    seat.refresh_from_db()
    assert seat.player_key == "" and seat.away
    assert game_of(room).events.filter(kind="removed").exists()


def test_staff_remove_a_player_in_the_lobby_frees_the_seat(staff):
    room, _ = table(start=False)
    seat = room.seats.get(nickname="Ben")
    staff.post("/admin/game/seat/", {"action": "remove_players", "_selected_action": [seat.id]})
    assert list(room.seats.values_list("nickname", flat=True)) == ["Ana"]


def test_event_log_is_read_only(staff):
    room, _ = table()
    event = game_of(room).events.first()
    assert staff.post(f"/admin/game/event/{event.id}/delete/", {"post": "yes"}).status_code == 403
