"""Nothing waits unseen (issue 38.4): friend requests and invitations waiting for an answer are
counted in the header of every page, and each one not yet shown comes once as a notice on the
next page opened (a live toast, the friends page and the inbox count as shown); inviting from a
table's lobby through htmx redraws only the invitation panel."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from game import services
from game.models import Invitation
from game.services import friends, invitations, waiting
from sevn_site.asgi import application
from tests.accounts.test_home import account, signed_in
from tests.accounts.test_invitations import HOST, ORIGIN, befriend, person_session
from tests.waiting import until_async

pytestmark = pytest.mark.django_db


def _badge(html: str, which: str) -> str | None:
    """The number a header badge shows, or None when it is hidden."""
    start = html.index(f'id="{which}-badge"')
    tag_end = html.index(">", start)
    if " hidden" in html[start:tag_end]:
        return None
    return html[tag_end + 1 : html.index("<", tag_end)]


def test_a_friend_request_is_counted_on_every_page_and_noticed_once(client):
    ana, _ = account("Ana")
    ben, _ = account("Ben")
    friends.friend_request(user=ana, name="Ben")
    signed_in(client, ben)
    first = client.get("/en/").content.decode()
    assert _badge(first, "friends") == "1" and _badge(first, "invitations") is None
    assert "Ana would like to be your friend." in first
    again = client.get("/en/rules/").content.decode()  # any page: the count stays, the notice came once
    assert _badge(again, "friends") == "1" and "would like to be your friend" not in again
    german = client.get("/de/").content.decode()
    assert '>1<span class="sr-only"> Freundschaftsanfrage wartet</span>' in german
    friends.friend_accept(user=ben, from_id=ana.pk)
    assert _badge(client.get("/en/").content.decode(), "friends") is None


def test_the_friends_page_shows_requests_itself_and_takes_them_as_seen(client):
    ana, _ = account("Ana")
    ben, _ = account("Ben")
    cy, _ = account("Cy")
    friends.friend_request(user=ana, name="Ben")
    friends.friend_request(user=cy, name="Ben")
    friends.friend_block(user=ben, other_id=cy.pk)  # a blocked person's request is never Ben's to see
    signed_in(client, ben)
    page = client.get("/en/friends/").content.decode()
    assert "would like to be your friend" not in page and _badge(page, "friends") == "1"
    assert "would like to be your friend" not in client.get("/en/").content.decode()


def test_an_invitation_that_arrived_meanwhile_is_a_notice_on_the_next_page_once(client):
    ana, ana_player = account("Ana")
    ben, _ = account("Ben")
    befriend(ana, ben)
    table = services.table_create(player=ana_player, nickname="", seat_count=3)
    invitations.invitation_send(user=ana, player=ana_player, code=table.code, friend_id=ben.pk)
    signed_in(client, ben)
    page = client.get("/fr/").content.decode()
    assert f"Ana vous invite à une partie de SEVN à la table {table.code}." in page
    assert _badge(page, "invitations") == "1" and 'data-invitation="' in page
    assert "vous invite" not in client.get("/fr/").content.decode()
    # invited again: it comes back, once
    invitations.invitation_send(user=ana, player=ana_player, code=table.code, friend_id=ben.pk)
    assert client.get("/en/").content.decode().count("Ana invites you") == 1
    assert "Ana invites you" not in client.get("/en/").content.decode()


def test_the_inbox_takes_invitations_as_seen(client):
    ana, ana_player = account("Ana")
    ben, _ = account("Ben")
    befriend(ana, ben)
    table = services.table_create(player=ana_player, nickname="", seat_count=3)
    invitations.invitation_send(user=ana, player=ana_player, code=table.code, friend_id=ben.pk)
    signed_in(client, ben)
    inbox = client.get("/en/invitations/").content.decode()
    assert inbox.count("Ana invites you") == 1  # the list's, not a notice besides
    assert "Ana invites you" not in client.get("/en/").content.decode()
    assert Invitation.objects.get().noticed is not None


def test_two_pages_asking_at_once_get_each_notice_once():
    ana, _ = account("Ana")
    ben, _ = account("Ben")
    friends.friend_request(user=ana, name="Ben")
    assert [n["name"] for n in waiting.take_notices(ben.pk)] == ["Ana"]
    assert waiting.take_notices(ben.pk) == []


@pytest.mark.django_db(transaction=True)
async def test_a_live_invitation_is_shown_once_and_updates_the_header():
    @database_sync_to_async
    def setup():
        ana, ana_player = account("Ana")
        ben, _ = account("Ben")
        befriend(ana, ben)
        friends.friend_request(user=account("Cy")[0], name="Ben")
        return ana, ana_player, ben, services.table_create(player=ana_player, nickname="", seat_count=3)

    ana, ana_player, ben, table = await setup()
    cookie = (b"cookie", f"sessionid={await person_session(ben)}".encode())
    socket = WebsocketCommunicator(application, "/ws/me/?lang=en", headers=[ORIGIN, HOST, cookie])
    connected, _ = await socket.connect()
    assert connected
    await database_sync_to_async(invitations.invitation_send)(
        user=ana, player=ana_player, code=table.code, friend_id=ben.pk
    )
    toast = await socket.receive_from(timeout=10)
    assert f"Ana invites you to SEVN at table {table.code}." in toast
    assert 'id="invitations-badge" class="nav-badge" hx-swap-oob="true">1<' in toast
    assert 'id="friends-badge" class="nav-badge" hx-swap-oob="true">1<' in toast  # Cy's request
    shown = await until_async(
        database_sync_to_async(lambda: Invitation.objects.filter(noticed__isnull=False).exists()), "shown"
    )
    assert shown
    notices = await database_sync_to_async(waiting.take_notices)(ben.pk)
    assert [notice["kind"] for notice in notices] == ["friend_request"]  # the invitation was seen live
    await socket.disconnect()


def test_inviting_from_the_lobby_redraws_only_the_invitation_panel(client):
    ana, ana_player = account("Ana")
    ben, _ = account("Ben")
    cy, _ = account("Cy")
    befriend(ana, ben)
    table = services.table_create(player=ana_player, nickname="", seat_count=3)
    signed_in(client, ana)
    response = client.post(f"/en/t/{table.code}/invite/", {"user": ben.pk}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith("<section")
    assert 'id="invite-friends"' in html and "Invitation sent to Ben." in html and "<html" not in html
    refused = client.post(f"/de/t/{table.code}/invite/", {"user": cy.pk}, headers={"HX-Request": "true"})
    assert "table-people__said--error" in refused.content.decode()
    assert Invitation.objects.filter(to_user=cy).count() == 0
    # without htmx: the table page again, with the message
    plain = client.post(f"/en/t/{table.code}/invite/", {"user": ben.pk})
    assert plain.status_code == 302 and plain["Location"] == f"/en/t/{table.code}/"


@pytest.mark.django_db(transaction=True)
async def test_a_friend_request_arrives_live_and_is_not_noticed_again():
    @database_sync_to_async
    def setup():
        return account("Ana")[0], account("Ben")[0], account("Cy")[0], account("Dee")[0]

    ana, ben, cy, dee = await setup()
    await database_sync_to_async(friends.friend_block)(user=ben, other_id=cy.pk)
    cookie = (b"cookie", f"sessionid={await person_session(ben)}".encode())
    socket = WebsocketCommunicator(application, "/ws/me/?lang=nl", headers=[ORIGIN, HOST, cookie])
    connected, _ = await socket.connect()
    assert connected
    await database_sync_to_async(friends.friend_request)(user=cy, name="Ben")  # blocked: never shown
    await database_sync_to_async(friends.friend_request)(user=ana, name="Ben")
    toast = await socket.receive_from(timeout=10)
    assert "Ana wil vrienden met je worden." in toast and "Cy" not in toast
    assert 'id="friends-badge" class="nav-badge" hx-swap-oob="true">1<' in toast
    assert await database_sync_to_async(waiting.take_notices)(ben.pk) == []
    await database_sync_to_async(friends.friend_request)(user=ana, name="Ben")  # asked again: no second toast
    await database_sync_to_async(friends.friend_request)(user=dee, name="Ben")  # the marker after it
    following = await socket.receive_from(timeout=10)
    assert "Dee wil vrienden met je worden." in following and "Ana" not in following
    await socket.disconnect()
