"""A person's profile at /u/<name>/: games played and won per game, recent games, frequent
opponents; private when they say so (then only they see it); guests have none."""

from __future__ import annotations

import pytest

from game import services
from game.core.identity import Player
from game.models import Game, Profile
from tests.accounts.test_home import account, signed_in

pytestmark = pytest.mark.django_db


def played(me: Player, against: str, winner: int | None) -> None:
    """A finished two-person game: `against` in seat 0, me in seat 1."""
    host = Player(key=f"guest:{against.lower()}-{Game.objects.count()}")
    table = services.table_create(player=host, nickname=against, seat_count=2)
    services.seat_take(code=table.code, player=me, nickname="")
    services.game_start(code=table.code, player=host)
    Game.objects.filter(table=table).update(over=True, winner=winner)


def test_the_profile_counts_games_played_and_won_and_names_frequent_opponents(client):
    _, me = account("Mia")
    played(me, "Ana", 1)
    played(me, "Ana", 0)
    played(me, "Bo", 1)
    html = client.get("/en/u/Mia/").content.decode()
    assert "Games played and won" in html
    row = html[html.index("<tbody>") : html.index("</tbody>")]
    assert "SEVN" in row and "<td>3</td><td>2</td>" in row
    opponents = html[html.index("Played most often with") :]
    assert opponents.index("Ana") < opponents.index("Bo") and "2 games" in opponents
    assert "Ana won" in html and "Mia won" in html
    assert html.count('data-action="replay"') == 3 and html.count('data-action="download-record"') == 3
    assert client.get("/en/u/mia/").status_code == 200  # any letter case
    assert client.get("/en/u/Nobody/").status_code == 404


def test_a_private_profile_shows_its_games_to_its_owner_only(client):
    mia, me = account("Mia")
    played(me, "Ana", 1)
    signed_in(client, mia)
    response = client.post("/en/settings/profile/", {"private": "on"})
    assert response.status_code == 302 and Profile.objects.get(user=mia).private
    assert "Games played and won" in client.get("/en/u/Mia/").content.decode()  # her own
    client.post("/en/accounts/logout/")
    html = client.get("/de/u/Mia/").content.decode()
    main = html.split("<main", 1)[1]  # not the page's random CSRF token, which once held "Ana"
    assert "Dieses Profil ist privat." in main and "Ana" not in main


@pytest.mark.parametrize(("language", "badge"), [("en", "Friends"), ("de", "Befreundet"), ("pl", "W znajomych")])
def test_a_friend_s_profile_says_you_are_friends_in_a_word_for_one_person(client, language, badge):
    """Beside one person the badge is a state ("Befreundet"), not the menu's "Freunde"."""
    from game.services import friends

    mia, _ = account("Mia")
    noa, _ = account("Noa")
    friends.friend_request(user=mia, name="Noa")
    friends.friend_accept(user=noa, from_id=mia.pk)
    signed_in(client, mia)
    html = client.get(f"/{language}/u/Noa/").content.decode()
    assert f'<span class="badge badge--friend">{badge}</span>' in html


def test_settings_need_an_account(client):
    response = client.get("/en/settings/profile/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    ("language", "joined"),
    [("en", "Playing since March 2026"), ("de", "Dabei seit März 2026"), ("pl", "Gra z nami od marca 2026")],
)
def test_the_month_a_player_joined_takes_the_case_its_sentence_needs(client, language, joined):
    from datetime import UTC, datetime

    from django.contrib.auth.models import User

    account("Mia")
    User.objects.filter(username="Mia").update(date_joined=datetime(2026, 3, 14, 12, tzinfo=UTC))
    assert joined in client.get(f"/{language}/u/Mia/").content.decode()  # Polish: "od marca", not "od: Marzec"


def test_a_suspension_and_a_reinstatement_are_logged_as_such():
    from game.models import ModAction
    from game.services import accounts

    zed, _ = account("Zed")
    accounts.account_suspend(by=None, user=zed, reason="a second account")
    accounts.account_suspend(by=None, user=zed, reason="", suspend=False)
    logged = list(ModAction.objects.order_by("id").values_list("action", flat=True))
    assert logged == [ModAction.Action.SUSPEND, ModAction.Action.REINSTATE]
    assert str(ModAction.Action.SUSPEND.label) == "Suspended an account"
