"""A guest who signs up or logs in keeps everything: seats at open tables, hosted tables, chat
identity, finished games; mutes and bans go with them. The seat goes on working over the
sockets already open (the account plays under the key it was made from), and a guest key
that logs in to an account made elsewhere hands its seats over and its screens follow."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client

from game.core.identity import SESSION_KEY, Player
from game.models import ChatMessage, GuestKey, Profile, Sanction, Seat, Table
from game.services import accounts
from tests.accounts.helpers import PASSWORD, log_in, sign_up
from tests.factories import open_table
from tests.live.test_consumers import WHOLE_TABLE, connect, drain

pytestmark = pytest.mark.django_db


def guest_at_a_table(client: Client, name: str = "Gus") -> Table:
    """A guest (this client's session) hosting a table with Ben seated, the game started."""
    client.post("/en/tables/new/", {"nickname": name, "seat_count": 2, "target": 250, "turn_seconds": 0})
    table = Table.objects.get(host_name=name)
    from game import services

    services.seat_take(code=table.code, player=Player(key="guest:ben"), nickname="Ben")
    services.game_start(code=table.code, player=Player(key=client.session[SESSION_KEY]))
    return table


def test_signing_up_keeps_the_guest_s_key_seats_and_chat(client):
    table = guest_at_a_table(client)
    guest_key = client.session[SESSION_KEY]
    client.post(f"/en/t/{table.code}/chat/", {"text": "hello"})
    sign_up(client, "Gus")
    user = User.objects.get(username="Gus")
    assert Profile.objects.get(user=user).player_key == guest_key  # the account plays under it
    assert GuestKey.objects.get(key=guest_key).user == user
    seat = Seat.objects.get(table=table, index=0)
    assert seat.player_key == guest_key and seat.user == user
    assert ChatMessage.objects.filter(author_key=guest_key, author_user=user).exists()
    assert client.session[SESSION_KEY] == guest_key  # and the session still plays it


def test_a_second_browser_logging_in_finds_the_table_under_your_tables(client):
    table = guest_at_a_table(client)
    sign_up(client, "Gus")
    other = Client()
    assert log_in(other, "Gus").status_code == 302
    home = other.get("/en/").content.decode()
    assert table.code in home
    # and that browser sits in the seat: the table shows it as a player, not as a spectator
    assert other.session[SESSION_KEY] == client.session[SESSION_KEY]
    assert "You are watching this game." in Client().get(f"/en/t/{table.code}/").content.decode()
    assert "You are watching this game." not in other.get(f"/en/t/{table.code}/").content.decode()


def test_a_guest_logging_in_to_an_older_account_hands_over_seats_hosting_and_sanctions(client):
    sign_up(Client(), "Hana")
    hana = User.objects.get(username="Hana")
    account_key = Profile.objects.get(user=hana).player_key
    table = guest_at_a_table(client, "Guest")
    guest_key = client.session[SESSION_KEY]
    Sanction.objects.create(kind=Sanction.Kind.MUTE, player_key=guest_key, nickname="Guest", reason="spam")
    assert log_in(client, "Hana").status_code == 302
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.player_key, seat.user) == (account_key, hana)
    assert Table.objects.get(id=table.id).host_key == account_key
    assert Sanction.objects.get().user == hana  # the guest's mute is the account's now
    assert GuestKey.objects.get(key=guest_key).user == hana
    assert client.session[SESSION_KEY] == account_key


def test_logging_in_twice_changes_nothing_more(client):
    sign_up(client, "Ivo")
    ivo = User.objects.get(username="Ivo")
    first = accounts.account_signed_in(user=ivo, guest_key=None)
    again = accounts.account_signed_in(user=ivo, guest_key=first.key)
    assert first.key == again.key and again.sent == [] and Profile.objects.count() == 1


@pytest.mark.django_db(transaction=True)
async def test_the_guest_s_open_socket_follows_a_log_in_made_in_another_tab():
    """A guest sits at a table with a socket open, then logs in (another tab) to an account made
    elsewhere: the seat moves to the account's key and this socket plays on, unreloaded."""

    @database_sync_to_async
    def setup():
        user = User.objects.create_user("Jo", "jo@example.com", PASSWORD)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        accounts.account_signed_in(user=user, guest_key=None)
        table, (ana, ben) = open_table(names=("Ana", "Ben"), deck=["5", "9", "4", "1", "2"])
        return user, table, ben

    user, table, ben = await setup()
    socket = await connect(table.code, ben.key)
    first = await drain(socket, WHOLE_TABLE)
    assert any("Your turn" in html for html in first)

    @database_sync_to_async
    def log_in_elsewhere():
        from django.contrib.sessions.backends.db import SessionStore
        from django.http import HttpRequest

        from game.accounts.signals import _signed_in

        request = HttpRequest()
        request.session = SessionStore()
        request.session[SESSION_KEY] = ben.key
        _signed_in(sender=User, request=request, user=user)

    await log_in_elsewhere()
    redrawn = "".join(await drain(socket, WHOLE_TABLE))
    assert "Your turn" in redrawn  # the whole table again, as the account's
    await socket.send_to(text_data=json.dumps({"kind": "draw", "version": "1"}))
    moved = "".join(await drain(socket, ('data-version="2"', 'class="toast"')))  # the draw, or a refusal
    assert "Jo draws 4." in moved or "Ben draws 4." in moved
    assert "Only seated players" not in moved and "watching" not in moved
    await socket.disconnect()
