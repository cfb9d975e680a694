"""No 500s from bad input (#35 item 7): a NUL byte anywhere in a request's path, query or form is
refused with 400 before any look-up, a socket whose address holds one is closed with 4400, and
blocking an account that does not exist is a 404. These tests run on SQLite here and again on
PostgreSQL (tests/scaleout/test_services_on_postgres.py), where each used to be a 500: it refuses
a NUL in any string it is sent. On SQLite the string ended at the NUL: /u/ana%00/ was Ana's page."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from game.live.nul_bytes import CLOSE_BAD_REQUEST
from game.models import Friendship
from game.services import accounts
from sevn_site.asgi import application
from tests.factories import open_table

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


def person(name: str) -> User:
    user = User.objects.create_user(name, f"{name.lower()}@example.com", "a-long-password-1")
    accounts.account_signed_in(user=user, guest_key=None)
    return user


@pytest.mark.django_db
def test_a_nul_in_a_path_a_query_or_a_form_is_a_400_on_every_route(client):
    ana = person("ana")
    table, _players = open_table()
    assert client.get("/en/u/ana/").status_code == 200
    refused = client.get("/en/u/ana%00/")
    assert refused.status_code == 400 and "ana@" not in refused.content.decode()
    assert "NUL" in refused.content.decode()
    assert client.get(f"/en/t/{table.code}%00/").status_code == 400
    assert client.get("/en/t/%00/").status_code == 400
    assert client.get("/en/tables/find/", {"code": f"{table.code}\x00"}).status_code == 400
    assert client.get("/en/ratings/sevn/", {"among\x00": "friends"}).status_code == 400
    de = client.get("/de/t/%00/")
    assert de.status_code == 400 and "NUL" in de.content.decode() and "Anfrage" in de.content.decode()
    # forms: a nickname, a name to befriend, a search in admin
    assert client.post(f"/en/t/{table.code}/join/", {"nickname": "Zo\x00e"}).status_code == 400
    signup = {"username": "an\x00a", "email": "a@example.com", "password1": "a-long-pw-1", "password2": "a-long-pw-1"}
    assert client.post("/en/accounts/signup/", signup).status_code == 400
    assert User.objects.count() == 1  # nobody signed up
    client.force_login(ana, backend="allauth.account.auth_backends.AuthenticationBackend")
    assert client.post("/en/friends/add/", {"name": "be\x00n"}).status_code == 400
    admin = Client()
    boss = User.objects.create_superuser("boss", "boss@example.com", "pw-123456")
    admin.force_login(boss, backend="allauth.account.auth_backends.AuthenticationBackend")
    assert admin.get("/admin/game/table/", {"q": "A\x00"}).status_code == 400
    assert admin.get("/admin/auth/user/", {"q": "an\x00a"}).status_code == 400
    assert admin.get("/admin/game/table/", {"q": table.code}).status_code == 200  # the same search, clean


@pytest.mark.django_db
def test_blocking_an_account_that_does_not_exist_is_a_404_and_changes_nothing(client):
    ana = person("ana")
    ben = person("ben")
    client.force_login(ana, backend="allauth.account.auth_backends.AuthenticationBackend")
    nobody = User.objects.order_by("-pk").first().pk + 1000
    response = client.post("/en/friends/block/", {"user": nobody})
    assert response.status_code == 404
    assert not Friendship.objects.exists()
    assert client.post("/en/friends/block/", {"user": "x"}).status_code == 404
    assert client.post("/en/friends/block/", {"user": ben.pk}).status_code == 302  # a real one is blocked
    assert Friendship.objects.filter(from_user=ana, to_user=ben, status=Friendship.Status.BLOCKED).exists()


async def test_a_socket_whose_address_holds_a_nul_is_closed_with_4400():
    for path in ("/ws/t/%00/", "/ws/t/ABC%00/?lang=en", "/ws/t/ABCDEF/?lang=e%00n", "/ws/me/?x=%00"):
        socket = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST])
        connected, _ = await socket.connect()
        assert connected
        closed = await socket.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": CLOSE_BAD_REQUEST}, path
        await socket.disconnect()
