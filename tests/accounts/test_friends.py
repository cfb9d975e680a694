"""Friends: a request by name or from a seat, accept, decline, withdraw, remove; a block stops
requests and hides you; friends show online and at which table unless they hide it; requests
are rate limited."""

from __future__ import annotations

import pytest

from game import services
from game.core.errors import ServiceError
from game.models import Friendship, Presence, Profile
from game.services import friends, selectors
from tests.accounts.test_home import account, signed_in
from tests.factories import open_table

pytestmark = pytest.mark.django_db


def test_request_accept_and_remove(client):
    ana, _ = account("Ana")
    ben, _ = account("Ben")
    assert friends.friend_request(user=ana, name="ben") == "sent"  # any letter case
    assert selectors.friend_requests(ben.pk)["incoming"] == [ana]
    assert selectors.friend_requests(ana.pk)["outgoing"] == [ben]
    friends.friend_accept(user=ben, from_id=ana.pk)
    assert [f["name"] for f in selectors.friends_of(ana.pk)] == ["Ben"]
    assert [f["name"] for f in selectors.friends_of(ben.pk)] == ["Ana"]
    friends.friend_remove(user=ben, other_id=ana.pk)
    assert selectors.friends_of(ana.pk) == [] and not Friendship.objects.exists()


def test_asking_back_makes_friends_and_declining_ends_a_request():
    ana, _ = account("Ana")
    ben, _ = account("Ben")
    cy, _ = account("Cy")
    friends.friend_request(user=ana, name="Ben")
    assert friends.friend_request(user=ben, name="Ana") == "friends"
    friends.friend_request(user=cy, name="Ana")
    friends.friend_decline(user=ana, from_id=cy.pk)
    assert selectors.friend_requests(ana.pk)["incoming"] == []
    with pytest.raises(ServiceError):
        friends.friend_request(user=ana, name="Nobody")
    with pytest.raises(ServiceError):
        friends.friend_request(user=ana, name="Ana")


def test_a_blocked_person_can_neither_ask_nor_see_you():
    ana, ana_player = account("Ana")
    ben, _ = account("Ben")
    friends.friend_request(user=ana, name="Ben")
    friends.friend_accept(user=ben, from_id=ana.pk)
    friends.friend_block(user=ana, other_id=ben.pk)
    assert selectors.friends_of(ben.pk) == [] and selectors.friends_of(ana.pk) == []
    assert friends.friend_request(user=ben, name="Ana") == "sent"  # said so, never revealed
    assert selectors.friend_requests(ana.pk)["incoming"] == []
    assert selectors.friend_requests(ana.pk)["blocked"] == [ben]
    friends.friend_unblock(user=ana, other_id=ben.pk)
    assert friends.friend_request(user=ben, name="Ana") == "sent"
    assert selectors.friend_requests(ana.pk)["incoming"] == [ben]


def test_friends_show_online_at_their_table_unless_they_hide_it(client):
    ana, ana_player = account("Ana")
    ben, _ = account("Ben")
    friends.friend_request(user=ana, name="Ben")
    friends.friend_accept(user=ben, from_id=ana.pk)
    table = services.table_create(player=ana_player, nickname="", seat_count=2)
    Presence.objects.create(channel="c1", table=table, player_key=ana_player.key, seen=table.created)
    [friend] = selectors.friends_of(ben.pk)
    assert friend["online"] and friend["table"] == table.code
    signed_in(client, ben)
    home = client.get("/en/").content.decode()
    assert "Friends online" in home and f"at table {table.code}" in home
    Profile.objects.filter(user=ana).update(hide_online=True)
    assert selectors.friends_of(ben.pk)[0]["online"] is False
    assert f"at table {table.code}" not in client.get("/en/").content.decode()


def test_the_pages_send_accept_and_block(client):
    ana, _ = account("Ana")
    ben, _ = account("Ben")
    signed_in(client, ana)
    response = client.post("/en/friends/add/", {"name": "Ben"})
    assert response.status_code == 302
    assert "Friend request sent." in client.get("/en/friends/").content.decode()
    other = client.__class__()
    signed_in(other, ben)
    page = other.get("/de/friends/").content.decode()
    assert "Freundschaftsanfragen" in page and "Ana" in page
    other.post("/en/friends/accept/", {"user": ana.pk})
    assert "Ben" in client.get("/en/friends/").content.decode()
    other.post("/en/friends/block/", {"user": ana.pk})
    assert selectors.friends_of(ana.pk) == []
    assert client.get("/en/friends/").status_code == 200


def test_a_request_from_a_seat_at_the_table(client):
    ana, ana_player = account("Ana")
    ben, ben_player = account("Ben")
    table = services.table_create(player=ana_player, nickname="", seat_count=2)
    services.seat_take(code=table.code, player=ben_player, nickname="")
    signed_in(client, ana)
    page = client.get(f"/en/t/{table.code}/").content.decode()
    assert 'data-add-friend="Ben"' in page
    client.post("/en/friends/add/", {"name": "Ben", "next": f"/en/t/{table.code}/"})
    assert "Friend request sent." in client.get(f"/en/t/{table.code}/").content.decode()
    assert not client.get("/en/t/ZZZZZZ/").status_code == 200


def test_friend_requests_are_rate_limited(settings):
    settings.SEVN_FRIEND_REQUESTS_PER_HOUR = 2
    ana, _ = account("Ana")
    for name in ("Ben", "Cy", "Dan"):
        account(name)
    friends.friend_request(user=ana, name="Ben")
    friends.friend_request(user=ana, name="Cy")
    with pytest.raises(ServiceError, match="Too many"):
        friends.friend_request(user=ana, name="Dan")


def test_a_private_profile_shows_to_friends(client):
    ana, _ = account("Ana")
    ben, _ = account("Ben")
    Profile.objects.filter(user=ana).update(private=True)
    signed_in(client, ben)
    assert "This profile is private." in client.get("/en/u/Ana/").content.decode()
    friends.friend_request(user=ana, name="Ben")
    friends.friend_accept(user=ben, from_id=ana.pk)
    assert "This profile is private." not in client.get("/en/u/Ana/").content.decode()
    open_table()
