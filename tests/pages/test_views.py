"""Pages and lobby forms: creating and joining tables, CSRF, escaping, errors."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game.models import Table
from game.screen import render_table
from game.services import table_reads
from tests.factories import open_table

pytestmark = pytest.mark.django_db


def test_root_sends_the_browser_to_its_language(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="pl,en;q=0.5")
    assert response.status_code == 302 and response["Location"] == "/pl/"


def test_home_page_offers_create_join_and_how_to_play(client):
    html = client.get("/en/").content.decode()
    assert "Create a table" in html and "Join with a code" in html and "/en/rules/" in html


def test_create_a_table_and_land_in_its_lobby(client):
    response = client.post(
        "/en/tables/new/", {"nickname": "Ana", "seat_count": 4, "target": 250, "turn_seconds": 30, "show_odds": "on"}
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/en/t/{table.code}/"
    assert table.options == {"target": 250, "show_odds": True}  # SEVN's settings, as its Kind checked them
    html = client.get(response["Location"]).content.decode()
    assert table.code in html and "Start the game" in html and f"/t/{table.code}/" in html
    assert "first to 250 · 30 s per decision · bust odds shown" in html


def test_create_with_bad_settings_shows_the_form_again(client):
    response = client.post("/en/tables/new/", {"nickname": "", "seat_count": 4, "target": 5, "turn_seconds": 30})
    assert response.status_code == 400 and Table.objects.count() == 0


def test_every_form_needs_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/en/tables/new/", {"nickname": "Ana", "seat_count": 4, "target": 250, "turn_seconds": 30})
    assert response.status_code == 403 and Table.objects.count() == 0


def test_a_friend_joins_with_the_token_of_the_lobby_page_they_opened():
    table, _ = open_table(start=False)
    friend = Client(enforce_csrf_checks=True)
    page = friend.get(f"/en/t/{table.code}/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = friend.post(f"/en/t/{table.code}/join/", {"nickname": "Cleo", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and table.seats.filter(nickname="Cleo").exists()


def test_invite_link_opens_the_table_in_the_visitors_language(client):
    table, _ = open_table(start=False)
    response = client.get(f"/t/{table.code.lower()}/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302 and response["Location"] == f"/de/t/{table.code}/"


def test_join_by_link_with_a_nickname(client):
    table, _ = open_table(start=False)
    response = client.post(f"/en/t/{table.code}/join/", {"nickname": "Cleo"})
    assert response.status_code == 302
    assert table.seats.filter(nickname="Cleo").exists()
    assert "Leave seat" in client.get(f"/en/t/{table.code}/").content.decode()


def test_taken_nickname_gets_a_clear_error(client):
    table, _ = open_table(start=False)
    response = client.post(f"/en/t/{table.code}/join/", {"nickname": "BEN"}, follow=True)
    assert "That nickname is already taken at this table." in response.content.decode()
    assert table.seats.count() == 2


def test_join_over_htmx_answers_with_the_error_for_this_user_only(client):
    table, _ = open_table(names=("Ana", "Ben"), seats=2, start=False)
    response = client.post(f"/en/t/{table.code}/join/", {"nickname": "Cleo"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "This table is full. You can watch the game." in response.content.decode()


def test_nicknames_are_escaped_everywhere(client):
    table, _ = open_table(start=False)
    client.post(f"/en/t/{table.code}/join/", {"nickname": "<b>x</b>"})
    html = client.get(f"/en/t/{table.code}/").content.decode()
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html


def test_unknown_table_code_answers_404(client):
    assert client.get("/en/t/NOPE00/").status_code == 404
    response = client.get("/en/tables/find/", {"code": "nope00"}, follow=True)
    assert "There is no table with that code." in response.content.decode()


def test_join_with_a_code_goes_to_the_table(client):
    table, _ = open_table(start=False)
    response = client.get("/en/tables/find/", {"code": f" {table.code.lower()} "})
    assert response["Location"] == f"/en/t/{table.code}/"


def test_later_visitors_watch_without_controls(client):
    table, _ = open_table()
    html = client.get(f"/en/t/{table.code}/").content.decode()
    assert "You are watching this game." in html and 'data-key="d"' not in html and "Take a seat" not in html


def test_host_starts_over_htmx_and_others_cannot(client):
    table, (ana, ben) = open_table(start=False)
    session = client.session
    session["sevn_player"] = ben.key
    session.save()
    response = client.post(f"/en/t/{table.code}/start/", HTTP_HX_REQUEST="true")
    assert "Only the host can do that." in response.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.LOBBY


def test_home_lists_your_tables(client):
    client.post("/en/tables/new/", {"nickname": "Ana", "seat_count": 4, "target": 250, "turn_seconds": 30})
    table = Table.objects.get()
    assert table.code in client.get("/en/").content.decode()


def test_logged_in_users_play_under_their_username(client):
    from allauth.account.models import EmailAddress
    from django.contrib.auth.models import User

    carol = User.objects.create_user("carol", "carol@example.com", password="a-long-password-1")
    EmailAddress.objects.create(user=carol, email=carol.email, verified=True, primary=True)
    response = client.post("/en/accounts/login/", {"login": "carol", "password": "a-long-password-1"})
    assert response.status_code == 302
    assert "Signed in as carol" in client.get("/en/").content.decode()
    table, _ = open_table(start=False)
    client.post(f"/en/t/{table.code}/join/", {"nickname": "ignored"})
    assert table.seats.filter(nickname="carol", user__username="carol").exists()


def test_the_lobby_names_its_host_for_everyone():
    table, (ana, ben) = open_table(start=False)
    for viewer in (ana.key, ben.key, None):
        html = render_table(table_reads.snapshot(table), viewer)
        host_place = re.findall(r'<li class="lobby-seat.*?</li>', html, re.S)[0]  # Ana's place, the first
        assert "Ana" in host_place and "badge--host" in host_place
        assert html.count("badge--host") == 1
