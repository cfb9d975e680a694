"""Invitations: a friend invited from the table arrives live on every page they have open (the
person socket) and waits in the inbox; it expires with its table; strangers and people who
blocked you cannot be invited; "play again with the same people" opens a new table and invites
the others who are friends; invitations are rate limited."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from game import services
from game.core.errors import ServiceError
from game.models import Invitation, Table
from game.services import friends, invitations, selectors
from sevn_site.asgi import application
from tests.accounts.test_home import account, signed_in
from tests.accounts.test_ratings import play_out

pytestmark = pytest.mark.django_db
ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


def befriend(a, b) -> None:
    friends.friend_request(user=a, name=b.username)
    friends.friend_accept(user=b, from_id=a.pk)


def test_an_invitation_waits_in_the_inbox_and_joining_takes_a_seat(client):
    ana, ana_player = account("Ana")
    ben, ben_player = account("Ben")
    befriend(ana, ben)
    table = services.table_create(player=ana_player, nickname="", seat_count=3)
    [(to, invitation)] = invitations.invitation_send(user=ana, player=ana_player, code=table.code, friend_id=ben.pk)
    assert to == ben.pk and invitation["from"] == "Ana" and invitation["code"] == table.code
    signed_in(client, ben)
    page = client.get("/fr/invitations/").content.decode()
    assert f"Ana vous invite à une partie de SEVN à la table {table.code}." in page
    response = client.post(f"/en/invitations/{invitation['id']}/join/")
    assert response.status_code == 302 and response["Location"] == f"/en/t/{table.code}/"
    assert table.seats.filter(user=ben, nickname="Ben").exists()
    assert selectors.invitations_of(ben.pk) == []  # answered


def test_an_invitation_expires_with_its_table(client):
    ana, ana_player = account("Ana")
    ben, _ = account("Ben")
    befriend(ana, ben)
    table = services.table_create(player=ana_player, nickname="", seat_count=3)
    [(_to, invitation)] = invitations.invitation_send(user=ana, player=ana_player, code=table.code, friend_id=ben.pk)
    Table.objects.filter(id=table.id).update(status=Table.Status.CLOSED)
    assert selectors.invitations_of(ben.pk) == []
    with pytest.raises(ServiceError, match="expired"):
        invitations.invitation_answer(user=ben, invitation_id=invitation["id"])
    table.delete()
    assert not Invitation.objects.exists()


def test_only_friends_can_be_invited_and_a_block_stops_it(settings):
    ana, ana_player = account("Ana")
    ben, _ = account("Ben")
    cy, cy_player = account("Cy")
    table = services.table_create(player=ana_player, nickname="", seat_count=3)
    with pytest.raises(ServiceError, match="only invite your friends"):
        invitations.invitation_send(user=ana, player=ana_player, code=table.code, friend_id=ben.pk)
    befriend(ana, ben)
    friends.friend_block(user=ben, other_id=ana.pk)
    with pytest.raises(ServiceError, match="only invite your friends"):
        invitations.invitation_send(user=ana, player=ana_player, code=table.code, friend_id=ben.pk)
    befriend(cy, ana)
    with pytest.raises(ServiceError, match="people at a table"):  # Cy sits nowhere here
        invitations.invitation_send(user=cy, player=cy_player, code=table.code, friend_id=ana.pk)


def test_invitations_are_rate_limited(settings):
    settings.SEVN_INVITATIONS_PER_HOUR = 1
    ana, ana_player = account("Ana")
    ben, _ = account("Ben")
    befriend(ana, ben)
    table = services.table_create(player=ana_player, nickname="", seat_count=3)
    invitations.invitation_send(user=ana, player=ana_player, code=table.code, friend_id=ben.pk)
    with pytest.raises(ServiceError, match="Too many"):
        invitations.invitation_send(user=ana, player=ana_player, code=table.code, friend_id=ben.pk)


def test_play_again_with_the_same_people_opens_a_table_and_invites_the_others(client):
    ana, ana_player = account("Ana")
    ben, ben_player = account("Ben")
    cy, cy_player = account("Cy")
    old = services.table_create(player=ana_player, nickname="", seat_count=3, turn_seconds=60, options={"target": 50})
    services.seat_take(code=old.code, player=ben_player, nickname="")
    services.seat_take(code=old.code, player=cy_player, nickname="")
    services.game_start(code=old.code, player=ana_player)
    play_out(old, [ana_player, ben_player, cy_player])  # "Play again" comes once a game is over
    befriend(ana, ben)  # only friends are invited, as from the table (tests/runtime/test_limits_everywhere.py)
    befriend(cy, ben)
    friends.friend_block(user=cy, other_id=ben.pk)  # Cy blocked Ben: Ben's new table does not invite Cy
    signed_in(client, ben)
    response = client.post(f"/en/t/{old.code}/again/")
    new = Table.objects.exclude(id=old.id).get()
    assert response["Location"] == f"/en/t/{new.code}/"
    assert new.host_name == "Ben" and new.turn_seconds == 60 and new.seat_count == 3
    assert [row["from"] for row in selectors.invitations_of(ana.pk)] == ["Ben"]
    assert selectors.invitations_of(cy.pk) == []


@database_sync_to_async
def person_session(user) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "allauth.account.auth_backends.AuthenticationBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


@pytest.mark.django_db(transaction=True)
async def test_an_invitation_arrives_live_on_every_open_page_in_its_language():
    @database_sync_to_async
    def setup():
        ana, ana_player = account("Ana")
        ben, _ = account("Ben")
        befriend(ana, ben)
        return ana, ana_player, ben, services.table_create(player=ana_player, nickname="", seat_count=3)

    ana, ana_player, ben, table = await setup()
    sockets = []
    for lang in ("de", "pl"):
        cookie = (b"cookie", f"sessionid={await person_session(ben)}".encode())
        socket = WebsocketCommunicator(application, f"/ws/me/?lang={lang}", headers=[ORIGIN, HOST, cookie])
        assert (await socket.connect())[0]
        sockets.append(socket)
    anonymous = WebsocketCommunicator(application, "/ws/me/", headers=[ORIGIN, HOST])
    connected, _ = await anonymous.connect()  # accepted to hear why it closes, and not come back
    assert connected and (await anonymous.receive_output())["code"] == 4401

    await database_sync_to_async(invitations.invitation_send)(
        user=ana, player=ana_player, code=table.code, friend_id=ben.pk
    )
    german, polish = [await socket.receive_from() for socket in sockets]
    assert f"Ana lädt dich zu einer Partie SEVN an Tisch {table.code} ein." in german and "Beitreten" in german
    assert "/de/invitations/" in german and "data-join-invitation" in german
    assert "/pl/invitations/" in polish
    for toast in (german, polish):  # htmx's WebSocket extension adds it to the page's toasts
        assert toast.startswith('<div id="invitations" hx-swap-oob="beforeend">')
    for socket in sockets:
        await socket.disconnect()
