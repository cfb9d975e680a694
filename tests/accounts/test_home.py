"""The home page of a signed-in person: their open tables with the ones waiting for their move
first, and their recent games with who won."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from game import services
from game.core.identity import Player
from game.models import Game, Profile
from game.services import accounts, selectors
from tests.factories import open_table, stack

pytestmark = pytest.mark.django_db


def account(name: str) -> tuple[User, Player]:
    user = User.objects.create_user(name, f"{name.lower()}@example.com", "a-long-password-1")
    key = accounts.account_signed_in(user=user, guest_key=None).key
    return user, Player(key=key, user_id=user.pk, username=name)


def signed_in(client, user: User) -> None:
    client.force_login(user, backend="allauth.account.auth_backends.AuthenticationBackend")


def test_tables_waiting_for_your_move_come_first(client):
    lea, me = account("Lea")
    # a started table where Lea is the one to decide (seat 1 decides first at two)
    table, _players = open_table(names=("Ana", "Ben"), start=False)
    services.seat_leave(code=table.code, player=Player(key="guest:ben"))
    services.seat_take(code=table.code, player=me, nickname="")
    services.game_start(code=table.code, player=Player(key="guest:ana"))
    stack(table, ["5", "9", "4", "1", "2"])  # a deal where seat 1 (Lea's) decides first
    waiting = services.table_create(player=me, nickname="", seat_count=4)  # newer, in its lobby
    rows = selectors.your_tables(me.key)
    assert [row["table"].code for row in rows][0] == table.code and rows[0]["your_move"]
    signed_in(client, lea)
    html = client.get("/en/").content.decode()
    assert html.index(table.code) < html.index(waiting.code) and "Your move" in html


def test_recent_games_say_who_won_in_the_viewer_s_language(client):
    ola, me = account("Ola")
    table, (ana, _ben) = open_table(names=("Ana", "Ben"), start=False)
    services.seat_leave(code=table.code, player=Player(key="guest:ben"))
    services.seat_take(code=table.code, player=me, nickname="")
    services.game_start(code=table.code, player=ana)
    Game.objects.filter(table=table).update(over=True, winner=1)  # Ola's seat
    signed_in(client, ola)
    html = client.get("/de/").content.decode()
    assert "Deine letzten Spiele" in html and "Du hast gewonnen" in html and "Ana, Ola" in html
    game = Game.objects.get(table=table)  # the history leads to the game's replay and its record
    assert f'href="/de/g/{game.public_id}/"' in html and f'href="/de/g/{game.public_id}/record.json" download' in html
    Game.objects.filter(table=table).update(winner=0)
    assert "Ana hat gewonnen" in client.get("/de/").content.decode()
    assert Profile.objects.get(user=ola).player_key == me.key


def test_a_guest_has_no_recent_games_panel(client):
    open_table()
    assert "Your recent games" not in client.get("/en/").content.decode()
