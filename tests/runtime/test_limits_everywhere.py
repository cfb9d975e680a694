"""Issue 35, item 6 in one process: limits that hold for every route. "Play again" obeys the
friends-and-blocks rules and the invitation allowance; new tables are counted per person and per
address; the fair-deal seed counts against the look-up limit; the signed-in page's socket
(/ws/me/) is capped per address and per account. (The same against the real stack:
tests/scaleout/test_limits_everywhere.py.)"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from game import services
from game.models import Invitation, Table
from game.services import friends
from sevn_site.asgi import application
from tests.accounts.test_home import account, signed_in
from tests.accounts.test_invitations import befriend, person_session
from tests.accounts.test_ratings import play_out

pytestmark = pytest.mark.django_db
ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


def seated_together(host_name: str, other_name: str):
    """Two people with accounts at one table (the other took a seat at the host's), its game
    played to the end: "Play again" comes once a game is over."""
    host, host_player = account(host_name)
    other, other_player = account(other_name)
    table = services.table_create(player=host_player, nickname="", seat_count=2)
    services.seat_take(code=table.code, player=other_player, nickname="")
    services.game_start(code=table.code, player=host_player)
    play_out(table, [host_player, other_player])
    return host, other, table


def test_play_again_invites_no_stranger_however_often_it_is_pressed():
    ana, ben, table = seated_together("Ana", "Ben")  # Ben sat down at Ana's table: not her friend
    client = Client()
    signed_in(client, ben)
    answers = [client.post(f"/en/t/{table.code}/again/", follow=True) for _ in range(5)]
    assert not Invitation.objects.filter(to_user=ana).exists()
    said = answers[0].content.decode()
    assert "1 person was not invited: only friends get invitations." in said


def test_play_again_invites_friends_within_the_invitation_allowance(settings):
    settings.SEVN_INVITATIONS_PER_HOUR = 3
    ana, ben, table = seated_together("Ana", "Ben")
    befriend(ana, ben)
    client = Client()
    signed_in(client, ben)
    for _ in range(3):
        assert client.post(f"/en/t/{table.code}/again/").status_code == 302
    tables = Table.objects.count()
    refused = client.post(f"/en/t/{table.code}/again/", follow=True).content.decode()
    assert "Too many invitations: try again later." in refused
    assert Invitation.objects.filter(to_user=ana).count() == 3 and Table.objects.count() == tables


def test_play_again_invites_nobody_who_blocked_the_asker():
    ana, ben, table = seated_together("Ana", "Ben")
    befriend(ana, ben)
    friends.friend_block(user=ana, other_id=ben.pk)
    client = Client()
    signed_in(client, ben)
    assert client.post(f"/en/t/{table.code}/again/").status_code == 302
    assert not Invitation.objects.filter(to_user=ana).exists()


def test_play_again_counts_as_a_new_table(settings):
    settings.SEVN_TABLES_PER_HOUR = 1
    _ana, ben, table = seated_together("Ana", "Ben")
    client = Client()
    signed_in(client, ben)
    assert client.post(f"/en/t/{table.code}/again/").status_code == 302
    refused = client.post(f"/en/t/{table.code}/again/", follow=True).content.decode()
    assert "You opened too many tables lately" in refused
    assert Table.objects.filter(host_name="Ben").count() == 1


def new_table(client: Client, language: str = "en"):
    return client.post(
        f"/{language}/tables/new/", {"nickname": "Zed", "seat_count": 2, "target": 250, "turn_seconds": 0}
    )


def test_new_tables_are_limited_per_person(settings):
    settings.SEVN_TABLES_PER_HOUR = 3
    client = Client(REMOTE_ADDR="198.51.100.1")
    assert [new_table(client).status_code for _ in range(4)] == [302, 302, 302, 400]
    assert "You opened too many tables lately" in new_table(client).content.decode()
    assert Table.objects.count() == 3
    assert new_table(Client(REMOTE_ADDR="198.51.100.2")).status_code == 302  # someone else


def test_new_tables_are_limited_per_address_whatever_the_session(settings):
    settings.SEVN_TABLES_PER_HOUR, settings.SEVN_TABLES_PER_HOUR_PER_ADDRESS = 100, 3
    statuses = [new_table(Client(REMOTE_ADDR="198.51.100.1")).status_code for _ in range(5)]  # a new guest each
    assert statuses == [302, 302, 302, 400, 400] and Table.objects.count() == 3
    assert new_table(Client(REMOTE_ADDR="198.51.100.2")).status_code == 302


@pytest.mark.parametrize("language", ["de", "nl", "pl", "fr"])
def test_the_table_allowance_is_said_in_each_language(settings, language):
    settings.SEVN_TABLES_PER_HOUR = 0
    settings.SEVN_TABLES_PER_HOUR_PER_ADDRESS = 1
    assert new_table(Client(), language).status_code == 302
    page = new_table(Client(), language)
    said = {
        "de": "Du hast in letzter Zeit zu viele Tische eröffnet",
        "nl": "Je hebt de laatste tijd te veel tafels geopend",
        "pl": "Ostatnio otwierasz zbyt wiele stołów",
        "fr": "Vous avez ouvert trop de tables ces derniers temps",
    }[language]
    assert page.status_code == 400 and said in page.content.decode()


def test_the_fair_deal_seed_counts_against_the_look_up_limit(settings):
    settings.SEVN_LOOKUPS_PER_MINUTE = 5
    _ana, _ben, table = seated_together("Ana", "Ben")
    client = Client(REMOTE_ADDR="198.51.100.7")
    statuses = [client.post(f"/en/t/ZZZZ{n:02d}/seed/", {"seed": "abc"}).status_code for n in range(8)]
    assert statuses[:6] == [400] * 6 and statuses[6:] == [429, 429]
    # past it a real code is answered alike: the seed route tells no code from another
    assert client.post(f"/en/t/{table.code}/seed/", {"seed": "abc"}).status_code == 429
    assert Client(REMOTE_ADDR="198.51.100.8").post(f"/en/t/{table.code}/seed/", {"seed": "x"}).status_code == 400


def test_inviting_to_unknown_codes_counts_against_the_look_up_limit(settings):
    settings.SEVN_LOOKUPS_PER_MINUTE = 3
    ana, ben, _table = seated_together("Ana", "Ben")
    befriend(ana, ben)
    client = Client(REMOTE_ADDR="198.51.100.7")
    signed_in(client, ben)
    statuses = [client.post(f"/en/t/ZZZZ{n:02d}/invite/", {"user": ana.pk}).status_code for n in range(4)]
    assert statuses == [302] * 4
    assert client.post("/en/t/ZZZZ99/invite/", {"user": ana.pk}).status_code == 429


async def person_socket(session: str, address: str = "198.51.100.7") -> WebsocketCommunicator:
    cookie = (b"cookie", f"sessionid={session}".encode())
    socket = WebsocketCommunicator(application, "/ws/me/?lang=en", headers=[ORIGIN, HOST, cookie])
    socket.scope["client"] = [address, 5000]
    return socket


async def hears_invitations(socket: WebsocketCommunicator, user) -> bool:
    """The socket is open and in its person's group: an invitation sent there reaches it (one
    turned away would be closed instead)."""
    from channels.layers import get_channel_layer

    from game.delivery.broadcast import person_group

    invitation = {"id": 1, "from": "Cy", "code": "ABC123", "kind": "sevn"}
    await get_channel_layer().group_send(person_group(user.pk), {"type": "invitation", "invitation": invitation})
    return "Cy invites you" in await socket.receive_from(timeout=10)


@pytest.mark.django_db(transaction=True)
async def test_person_sockets_are_capped_per_account(settings):
    settings.SEVN_MAX_PERSON_SOCKETS = 3
    ana, _ = await database_sync_to_async(account)("Ana")
    session = await person_session(ana)
    sockets = [await person_socket(session, f"198.51.100.{n}") for n in range(4)]
    assert [(await socket.connect())[0] for socket in sockets[:3]] == [True] * 3
    connected, _ = await sockets[3].connect()
    assert connected and (await sockets[3].receive_output())["code"] == 4430
    await sockets[0].disconnect()  # one closed: room for another
    again = await person_socket(session)
    assert (await again.connect())[0] and await hears_invitations(again, ana)
    for socket in (*sockets[1:3], again):
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_person_sockets_are_capped_per_address_across_accounts(settings):
    settings.SEVN_MAX_SOCKETS_PER_ADDRESS = 2
    users = [(await database_sync_to_async(account)(name))[0] for name in "ABC"]
    sessions = [await person_session(user) for user in users]
    sockets = [await person_socket(session) for session in sessions]
    assert [(await socket.connect())[0] for socket in sockets[:2]] == [True, True]
    await sockets[2].connect()
    assert (await sockets[2].receive_output())["code"] == 4430
    elsewhere = await person_socket(sessions[2], "198.51.100.99")
    assert (await elsewhere.connect())[0] and await hears_invitations(elsewhere, users[2])
    for socket in (*sockets[:2], elsewhere):
        await socket.disconnect()
