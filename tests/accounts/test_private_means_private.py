"""Private means private (issue 35, item 4): games are linked by an unguessable id; a private
person is "a private player" to whoever may not see them, in replays, records and profile
lists (whole for themselves and their friends), and a record still verifies; a finished
game's record never leads to the open table where someone who hides from the viewer sits."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from game import registry, services
from game.core.identity import Player
from game.models import Game, Profile, Seat, Table
from game.services import friends, selectors, staff
from tests.accounts.test_home import account, signed_in
from tests.fair.play import Watch, play_out, verify

pytestmark = pytest.mark.django_db


def finished_game(*, mia_private: bool = False, ola_hides: bool = False):
    """Ola (public, hosting) and Mia with accounts and an easy bot finish a game of SEVN."""
    ola_user, ola = account("Ola")
    mia_user, mia = account("Mia")
    Profile.objects.filter(user=mia_user).update(private=mia_private)
    Profile.objects.filter(user=ola_user).update(hide_online=ola_hides)
    table = services.table_create(player=ola, nickname="", seat_count=3, options={"target": 120})
    services.seat_take(code=table.code, player=mia, nickname="")
    services.bot_add(code=table.code, player=ola, level="easy")
    table.refresh_from_db()
    game = play_out(table, [ola, mia], Watch(table, [ola, mia]))
    return table, game, (ola_user, ola), (mia_user, mia)


def viewer(name: str):
    """A new account's client, signed in, and the account."""
    user, _player = account(name)
    client = Client()
    signed_in(client, user)
    return client, user


def test_games_are_linked_by_an_unguessable_id_and_their_numbers_lead_nowhere(client):
    table, game, (ola_user, _ola), _mia = finished_game()
    assert len(game.public_id) >= 16 and not game.public_id.isdigit()
    assert client.get(f"/en/g/{game.id}/").status_code == 404
    assert client.get(f"/en/g/{game.id}/record.json").status_code == 404
    assert client.get(f"/en/g/{game.public_id}/").status_code == 200
    assert client.get(f"/en/g/{game.public_id}/record.json").status_code == 200
    profile = client.get("/en/u/Ola/").content.decode()  # the links people follow carry the public id
    assert f'href="/en/g/{game.public_id}/"' in profile and f"/en/g/{game.id}/" not in profile
    signed_in(client, ola_user)
    over = client.get(f"/en/t/{table.code}/").content.decode()  # the game-over screen's links too
    assert f"/en/g/{game.public_id}/record.json" in over and f"/en/g/{game.id}/record.json" not in over
    other = services.table_create(player=Player(key="guest:zed"), nickname="Zed", seat_count=2)
    services.bot_add(code=other.code, player=Player(key="guest:zed"), level="easy")
    services.game_start(code=other.code, player=Player(key="guest:zed"))
    assert Game.objects.get(table=other).public_id != game.public_id


def closed(table) -> None:
    """The table is closed (nobody can sit or look there any more)."""
    Table.objects.filter(id=table.id).update(status=Table.Status.CLOSED)


def test_a_private_player_is_unnamed_to_strangers_in_records_replays_and_profiles_and_whole_to_friends():
    table, game, (_ola_user, _ola), (mia_user, _mia) = finished_game(mia_private=True)
    closed(table)
    record_link, replay_link = f"/en/g/{game.public_id}/record.json", f"/en/g/{game.public_id}/"
    stranger = Client()
    response = stranger.get(record_link)
    assert response.status_code == 200
    record = json.loads(response.content)
    assert [seat["name"] for seat in record["seats"]] == ["Ola", "a private player", "Bot Ada"]
    assert "Mia" not in response.content.decode()
    assert verify(record).ok  # names are no part of the deal's proof: the stranger's copy verifies
    replay = stranger.get(f"{replay_link}?step=3").content.decode()
    assert "a private player" in replay and "Mia" not in replay and "/u/Mia/" not in replay
    german = stranger.get(f"/de/g/{game.public_id}/").content.decode()
    assert "jemand mit privatem Profil" in german and "Mia" not in german
    profile = stranger.get("/en/u/Ola/").content.decode()  # Ola's profile is public: Mia is not named in it
    opponents = profile[profile.index("Played most often with") :]
    assert "a private player" in opponents and "Mia" not in profile
    # to a signed-in stranger the same; to her friend and to herself, her name
    other, _zoe = viewer("Zoe")
    assert (
        "Mia" not in other.get(record_link).content.decode() and "Mia" not in other.get("/en/u/Ola/").content.decode()
    )
    friend, noa = viewer("Noa")
    friends.friend_request(user=mia_user, name="Noa")
    friends.friend_accept(user=noa, from_id=mia_user.pk)
    assert [s["name"] for s in json.loads(friend.get(record_link).content)["seats"]][1] == "Mia"
    assert "Mia" in friend.get("/en/u/Ola/").content.decode().split("Played most often with")[1]
    herself = Client()
    signed_in(herself, mia_user)
    assert "Mia" in herself.get(replay_link).content.decode()


def test_a_verify_link_gives_the_stranger_s_copy_and_it_verifies():
    table, game, _ola, _mia = finished_game(mia_private=True)
    closed(table)
    html = Client().get(f"/en/verify/?record=/en/g/{game.public_id}/record.json").content.decode()
    assert 'data-verdict="site"' in html and "a private player" in html and "Mia" not in html


def test_a_record_never_leads_anyone_to_the_open_table_where_a_person_who_hides_still_sits(client):
    table, game, (ola_user, _ola), (mia_user, _mia) = finished_game()
    Profile.objects.filter(user=mia_user).update(hide_online=True)
    link = f"/en/g/{game.public_id}/record.json"
    response = client.get(link)
    assert response.status_code == 404 and table.code not in response.content.decode()
    replay = client.get(f"/en/g/{game.public_id}/")
    assert replay.status_code == 404 and table.code not in replay.content.decode()
    verify_page = client.get(f"/en/verify/?record={link}").content.decode()
    assert (
        table.code not in verify_page and "That link is not a finished game or its record on this site." in verify_page
    )
    seated = Client()  # who sits at the table knows it: Ola gets the whole record
    signed_in(seated, ola_user)
    assert json.loads(seated.get(link).content)["table"] == table.code
    herself = Client()
    signed_in(herself, mia_user)
    assert herself.get(link).status_code == 200
    friend, noa = viewer("Noa")  # she hides where she plays from her friends too
    friends.friend_request(user=mia_user, name="Noa")
    friends.friend_accept(user=noa, from_id=mia_user.pk)
    assert friend.get(link).status_code == 404
    services.table_close(code=table.code)  # a closed table leads to nobody
    assert json.loads(client.get(link).content)["table"] == table.code


def _relation_part(html: str) -> str:
    return re.search(r'<div class="profile__relation">.*?</div>', html, re.S).group(0)


def test_a_block_looks_to_the_blocked_person_exactly_like_a_request_nobody_answered():
    ana, _ = account("Ana")
    cy, _ = account("Cy")
    dee, _ = account("Dee")
    ben_user, _ = account("Ben")
    ben = Client()
    signed_in(ben, ben_user)
    ben.post("/en/friends/add/", {"name": "Ana"})
    ben.post("/en/friends/add/", {"name": "Cy"})  # Cy never answers
    blocker = Client()
    signed_in(blocker, ana)
    blocker.post("/en/friends/block/", {"user": ben_user.pk})  # Ana blocks Ben after he asked
    dee_client = Client()
    signed_in(dee_client, dee)
    dee_client.post("/en/friends/block/", {"user": ben_user.pk})  # Dee blocks Ben before he asks
    response = ben.post("/en/friends/add/", {"name": "Dee"}, follow=True)
    assert "Friend request sent." in response.content.decode()
    page = ben.get("/en/friends/").content.decode()
    sent = page[page.index("Requests you sent") :]
    assert all(name in sent for name in ("Ana", "Cy", "Dee"))
    unanswered = _relation_part(ben.get("/en/u/Cy/").content.decode())
    for name in ("Ana", "Dee"):
        assert _relation_part(ben.get(f"/en/u/{name}/").content.decode()) == unanswered
    assert "Friend request sent." in unanswered
    mine = blocker.get("/en/friends/").content.decode()  # and the blocker never sees his request
    assert "Friend requests" not in mine and mine.count("Ben") == 1  # in her blocked list only
    assert blocker.post("/en/friends/accept/", {"user": ben_user.pk}, follow=True).status_code == 200
    assert not selectors.friends_of(ana.pk)


def test_a_look_alike_username_is_refused_at_sign_up():
    from tests.accounts.helpers import PASSWORD

    account("Anna")
    account("Bob")
    for name in ("\u0410nna", "B\u03bfb", "ANNA"):  # a Cyrillic А; a Greek ο; another letter case
        response = Client().post(
            "/en/accounts/signup/",
            {"username": name, "email": "x@example.com", "password1": PASSWORD, "password2": PASSWORD},
        )
        assert response.status_code == 200, name
        assert not Profile.objects.filter(user__username=name).exists()
    html = (
        Client()
        .post(
            "/de/accounts/signup/",
            {"username": "\u0410nna", "email": "x@example.com", "password1": PASSWORD, "password2": PASSWORD},
        )
        .content.decode()
    )
    assert "Dieser Benutzername ähnelt zu sehr dem eines anderen Kontos" in html


def management_forms(html: str) -> dict:
    """The hidden counts of a change page's inline forms, as the browser sends them back."""
    return dict(re.findall(r'name="([^"]+-(?:TOTAL|INITIAL|MIN_NUM|MAX_NUM)_FORMS)"[^>]*value="(\d+)"', html))


def test_a_look_alike_username_is_refused_at_a_rename_in_admin(client, django_user_model):
    from django.contrib.auth.models import User

    boss = User.objects.create_superuser("boss", "boss@example.com", "a-long-password-1")
    anna, _ = account("Anna")
    bob, _ = account("Bob")
    signed_in(client, boss)
    page = f"/admin/auth/user/{bob.pk}/change/"
    form = {
        "username": "\u0410nna",
        "email": bob.email,
        "is_active": "on",
        "date_joined_0": bob.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": bob.date_joined.strftime("%H:%M:%S"),
        **management_forms(client.get(page).content.decode()),  # the page's inlines (reports, sanctions)
    }
    response = client.post(page, form)
    assert response.status_code == 200 and "looks like someone else" in response.content.decode()
    bob.refresh_from_db()
    assert bob.username == "Bob"
    response = client.post(page, {**form, "username": "Bobby"})  # a name of its own is taken
    assert response.status_code == 302, response.context["adminform"].form.errors
    bob.refresh_from_db()
    assert response.status_code == 302 and bob.username == "Bobby"
    response = client.post(page, {**form, "username": "B\u03bfbby"})  # its own look-alike is no rival
    bob.refresh_from_db()
    assert response.status_code == 302 and bob.username == "B\u03bfbby"
    anna.refresh_from_db()
    assert anna.username == "Anna"


def test_staff_add_an_account_in_admin_with_or_without_a_password_and_never_a_look_alike(client):
    """Admin's add page opens (Django's own form asks whether the password is usable: a person who
    signs in by passkey or a reset link needs none) and keeps the site's look-alike check."""
    from django.contrib.auth.models import User

    boss = User.objects.create_superuser("boss", "boss@example.com", "a-long-password-1")
    account("Anna")
    signed_in(client, boss)
    page = client.get("/admin/auth/user/add/")
    assert page.status_code == 200
    inlines = management_forms(page.content.decode())
    response = client.post("/admin/auth/user/add/", {"username": "\u0410nna", "usable_password": "false", **inlines})
    assert response.status_code == 200 and "looks like someone else" in response.content.decode()
    response = client.post("/admin/auth/user/add/", {"username": "Cleo", "usable_password": "false", **inlines})
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert not User.objects.get(username="Cleo").has_usable_password()
    password = "a-long-password-2"
    form = {"username": "Dora", "usable_password": "true", "password1": password, "password2": password, **inlines}
    assert client.post("/admin/auth/user/add/", form).status_code == 302
    assert User.objects.get(username="Dora").check_password(password)


def test_two_private_players_keep_names_of_their_own_so_the_record_still_verifies(client):
    table, game, (ola_user, _ola), _mia = finished_game(mia_private=True)
    Profile.objects.filter(user=ola_user).update(private=True)
    closed(table)
    record = json.loads(client.get(f"/en/g/{game.public_id}/record.json").content)
    assert [seat["name"] for seat in record["seats"]] == ["a private player", "a private player (2)", "Bot Ada"]
    assert verify(record).ok


def test_a_private_person_staff_removed_mid_game_is_still_a_private_player_to_strangers():
    """Staff removing a seat mid-game unlinks it from the account (a bot plays on): the record
    and the other player's profile still do not name the private person who sat there."""
    ola_user, ola = account("Ola")
    mia_user, mia = account("Mia")
    Profile.objects.filter(user=mia_user).update(private=True)
    table = services.table_create(player=ola, nickname="", seat_count=3, options={"target": 120})
    services.seat_take(code=table.code, player=mia, nickname="")
    services.bot_add(code=table.code, player=ola, level="easy")
    services.game_start(code=table.code, player=ola)
    staff.seat_remove_by_staff(seat_id=Seat.objects.get(table=table, user=mia_user).id)
    game = finish_alone(table, ola)
    record = Client().get(f"/en/g/{game.public_id}/record.json")
    assert record.status_code == 200
    names = [seat["name"] for seat in json.loads(record.content)["seats"]]
    assert "Mia" not in names and "a private player" in names
    assert "Mia" not in Client().get(f"/en/g/{game.public_id}/").content.decode()
    assert "Mia" not in Client().get("/en/u/Ola/").content.decode()
    friend = Client()
    signed_in(friend, mia_user)  # herself: her own name
    assert "Mia" in [
        seat["name"] for seat in json.loads(friend.get(f"/en/g/{game.public_id}/record.json").content)["seats"]
    ]


def finish_alone(table, player):
    """Play `player`'s turns (a seeded choice) and let the clock play every other seat's, to the end."""
    kind = registry.of(table)
    rng = random.Random(3)
    for _ in range(3000):
        game = table.games.order_by("-number").first()
        state = kind.from_json(game.state)
        if state["over"]:
            return game
        if kind.acting(state) != 0:
            Game.objects.filter(id=game.id).update(deadline=timezone.now() - timedelta(milliseconds=1))
            services.game_expire(game_id=game.id)
        else:
            action = rng.choice(kind.engine.legal_actions(state))
            services.game_act(code=table.code, player=player, action=action, version=game.version)
    raise AssertionError("the game did not end")


def test_a_record_never_leads_a_stranger_to_the_open_table_where_a_private_person_still_sits():
    """The record names its table (the deal's proof needs the code), and the open table shows
    the names of those sitting there: while a private person still sits there, a stranger gets
    neither the record nor the replay; a friend and the people at the table get them whole."""
    table, game, (ola_user, _ola), (mia_user, _mia) = finished_game(mia_private=True)
    link = f"/en/g/{game.public_id}/record.json"
    stranger = Client()
    for address in (link, f"/en/g/{game.public_id}/", f"/en/verify/?record={link}"):
        page = stranger.get(address)
        assert table.code not in page.content.decode() and "Mia" not in page.content.decode(), address
    assert stranger.get(link).status_code == 404
    friend, friend_user = viewer("Fay")
    friends.friend_request(user=friend_user, name="Mia")
    friends.friend_accept(user=mia_user, from_id=friend_user.id)
    assert "Mia" in [seat["name"] for seat in json.loads(friend.get(link).content)["seats"]]
    seated = Client()
    signed_in(seated, ola_user)
    assert json.loads(seated.get(link).content)["table"] == table.code
    closed(table)
    assert stranger.get(link).status_code == 200
