"""Staff run tables in Django admin: lists, filters, search, closing tables, removing players."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from game.models import Table
from tests.factories import game_of, open_table

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


def test_game_results_name_each_game_as_people_do(staff):
    """The results list and its filter say "SEVN" and "Sevens" (the games' own names, in the
    reader's language), not the registry's short names."""
    from django.utils import timezone

    from game.models import GameResult

    table, _ = open_table()
    for name, kind in (("Ana", "sevn"), ("Ben", "sevens")):  # one game is enough for the list's words
        user = User.objects.create_user(f"{name}-account")
        GameResult.objects.create(
            game=game_of(table), user=user, kind=kind, seat=0, place=1, points=0, finished=timezone.now()
        )
    html = staff.get("/admin/game/gameresult/").content.decode()
    rows = html.split('id="result_list"')[1].split("</table>")[0]
    assert ">SEVN<" in rows and ">Sevens<" in rows and ">sevens<" not in rows
    assert ">Sevens</a>" in html.split('id="changelist-filter"')[1]  # the filter's choice
    assert "Game results: 2" in html.split('class="paginator"')[1]  # the list's name, then its count
    staff.cookies["django_language"] = "pl"
    polish = staff.get("/admin/game/gameresult/").content.decode()
    assert "Wybierz do podglądu: " in polish and ": 2" in polish.split('class="paginator"')[1]
    del staff.cookies["django_language"]
    only = staff.get("/admin/game/gameresult/", {"kind": "sevens"}).content.decode()
    rows = only.split('id="result_list"')[1].split("</table>")[0]
    assert ">Sevens<" in rows and ">SEVN<" not in rows


def test_rating_flags_name_their_game_as_people_do(staff):
    from game.models import RatingFlag

    user = User.objects.create_user("Ana-account")
    RatingFlag.objects.create(kind=RatingFlag.Kind.LEAVING, game_kind="sevens", user=user, count=3)
    staff.cookies["django_language"] = "nl"
    html = staff.get("/admin/game/ratingflag/").content.decode()
    rows = html.split('id="result_list"')[1].split("</table>")[0]
    assert ">Zevenen<" in rows and ">sevens<" not in rows
    assert ">Zevenen</a>" in html.split('id="changelist-filter"')[1]
    assert ">Zevenen<" in staff.get("/admin/game/ratingflag/", {"game_kind": "sevens"}).content.decode()
