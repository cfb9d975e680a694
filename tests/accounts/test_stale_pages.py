"""A page that outlived its session (#38 item 1): its person signed up, logged in or logged out in
another tab. A request refused for its CSRF token says so (htmx: a header and a note to show; a
plain form: a page with the way back), the current token can be asked for, a page drawn for an
account no longer signed in does nothing as someone else and says to reload, and a guest's open
table socket goes on as the account they just signed up for."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client

from game.core.identity import SESSION_KEY, Player, tag
from game.models import Game, Table
from game.services import accounts
from tests.accounts.helpers import sign_up
from tests.accounts.test_home import account
from tests.factories import act, deciding, game_of, open_table, stack
from tests.live.test_consumers import WHOLE_TABLE, connect, drain

pytestmark = pytest.mark.django_db


def guest_host(client: Client, name: str = "Gus") -> Table:
    """A guest (this client's session) hosting a lobby, a bot seated: ready to start."""
    client.get("/en/")
    form = {"nickname": name, "seat_count": 2, "target": 50, "turn_seconds": 0}
    client.post("/en/tables/new/", {**form, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    table = Table.objects.get(host_name=name)
    from game import services

    services.bot_add(code=table.code, player=Player(key=client.session[SESSION_KEY]), level="easy")
    return table


def test_an_old_token_is_refused_with_a_reason_htmx_can_read_and_the_current_one_can_be_asked_for():
    client = Client(enforce_csrf_checks=True)
    table = guest_host(client)
    old = client.cookies["csrftoken"].value
    client.handler.enforce_csrf_checks = False  # the sign-up's own forms: another tab's, with their own token
    sign_up(client, "Gus")  # a log-in rotates the token
    client.handler.enforce_csrf_checks = True
    assert client.cookies["csrftoken"].value != old
    refused = client.post(
        f"/de/t/{table.code}/start/", HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=old, HTTP_REFERER="http://testserver/"
    )
    assert refused.status_code == 403 and refused["X-SEVN-CSRF"] == "refused"
    assert "Diese Seite war veraltet" in refused.content.decode() and "data-reload" in refused.content.decode()
    assert not Game.objects.filter(table=table).exists()  # nothing was done
    answer = client.get("/csrf-token/")
    assert answer.status_code == 200 and "no-cache" in answer["Cache-Control"]
    token = json.loads(answer.content)["token"]
    started = client.post(f"/en/t/{table.code}/start/", HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert started.status_code == 204 and Game.objects.filter(table=table).exists()
    # the token the cookie holds works as well: what the page's script sends (static/sevn/js/csrf.js)
    seed = client.post(
        f"/en/t/{table.code}/seed/",
        {"seed": "abc", "commitment": "0" * 64},
        HTTP_HX_REQUEST="true",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
    )
    assert seed.status_code != 403


def test_a_plain_form_with_an_old_token_gets_a_page_that_says_what_happened_and_the_way_back():
    client = Client(enforce_csrf_checks=True)
    table = guest_host(client)
    client.cookies["csrftoken"] = "x" * 32  # another tab changed it
    page = client.post(
        f"/pl/t/{table.code}/start/",
        {"csrfmiddlewaretoken": "y" * 32},
        HTTP_REFERER=f"http://testserver/pl/t/{table.code}/",
    )
    html = page.content.decode()
    assert page.status_code == 403 and "data-stale-back" in html
    assert f'href="http://testserver/pl/t/{table.code}/"' in html and 'lang="pl"' in html
    elsewhere = client.post(f"/en/t/{table.code}/start/", HTTP_REFERER="https://evil.example/")
    assert "evil.example" not in elsewhere.content.decode()


def test_a_page_drawn_for_an_account_that_logged_out_elsewhere_does_nothing_and_says_to_reload():
    ana_user, ana = account("Ana")
    client = Client()
    client.force_login(ana_user, backend="allauth.account.auth_backends.AuthenticationBackend")
    from game import services

    table = services.table_create(player=ana, nickname="", seat_count=2, turn_seconds=0)
    services.bot_add(code=table.code, player=ana, level="easy")
    client.post("/en/accounts/logout/")  # another tab
    response = client.post(f"/nl/t/{table.code}/start/", HTTP_HX_REQUEST="true", HTTP_X_SEVN_PAGE_USER=str(ana_user.pk))
    assert response.status_code == 403 and response["X-SEVN-Stale"] == "account"
    assert "Opnieuw laden" in response.content.decode()
    assert not Game.objects.filter(table=table).exists()
    # a page drawn for a guest who signed up since goes on (the account plays under their key)
    guest = Client()
    table = guest_host(guest, "Gil")
    sign_up(guest, "Gil")
    started = guest.post(f"/en/t/{table.code}/start/", HTTP_HX_REQUEST="true", HTTP_X_SEVN_PAGE_USER="")
    assert started.status_code == 204 and Game.objects.filter(table=table).exists()


def test_the_page_says_whom_it_was_drawn_for():
    ana_user, _ana = account("Ana")
    client = Client()
    assert '"X-SEVN-Page-User": ""' in client.get("/en/").content.decode()
    client.force_login(ana_user, backend="allauth.account.auth_backends.AuthenticationBackend")
    assert f'"X-SEVN-Page-User": "{ana_user.pk}"' in client.get("/en/").content.decode()


def test_signing_up_tells_the_guest_s_open_screens_the_account():
    client = Client()
    client.get("/en/")
    client.post("/en/tables/new/", {"nickname": "Gus", "seat_count": 2, "target": 50, "turn_seconds": 0})
    key = client.session[SESSION_KEY]
    code = Table.objects.get(host_name="Gus").code
    user = User.objects.create_user("Gus", "gus@example.com", "a-long-password-1")
    done = accounts.account_signed_in(user=user, guest_key=key)
    assert done.key == key
    assert done.sent == [
        (code, {"chat": "account", "body": {"to": [tag(key), tag(f"user:{user.pk}")], "user_id": user.pk}})
    ] or (
        done.sent
        == [(code, {"chat": "account", "body": {"to": [tag(f"user:{user.pk}"), tag(key)], "user_id": user.pk}})]
    )
    assert accounts.account_signed_in(user=user, guest_key=key).sent == []  # a second log-in: nothing new


@pytest.mark.django_db(transaction=True)
async def test_a_guest_s_open_socket_goes_on_as_the_account_they_signed_up_for():
    @database_sync_to_async
    def setup():
        table, (ana, ben) = open_table(names=("Ana", "Ben"), deck=["5", "9", "4", "1", "2"])
        return table, ben

    table, ben = await setup()
    socket = await connect(table.code, ben.key)
    await drain(socket, WHOLE_TABLE)

    @database_sync_to_async
    def sign_up_elsewhere():
        user = User.objects.create_user("Benno", "benno@example.com", "a-long-password-1")
        accounts.account_signed_in(user=user, guest_key=ben.key)

    await sign_up_elsewhere()
    redrawn = "".join(await drain(socket, WHOLE_TABLE))  # the whole table again, as the account's
    assert "Your turn" in redrawn
    await socket.send_to(text_data=json.dumps({"kind": "draw", "version": "1"}))
    moved = "".join(await drain(socket, ('data-version="2"', 'class="toast"')))
    assert "Ben draws 4." in moved and "watching" not in moved
    await socket.disconnect()


@database_sync_to_async
def account_session(user) -> str:
    """A browser signed in to this account: its session's key."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
    from django.contrib.auth import SESSION_KEY as USER_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[USER_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "allauth.account.auth_backends.AuthenticationBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


async def open_socket(code: str, session_key: str):
    from channels.testing import WebsocketCommunicator

    from sevn_site.asgi import application
    from tests.live.test_consumers import HOST, ORIGIN

    headers = [ORIGIN, HOST, (b"cookie", f"sessionid={session_key}".encode())]
    socket = WebsocketCommunicator(application, f"/ws/t/{code}/?lang=en", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


@pytest.mark.django_db(transaction=True)
async def test_a_log_out_ends_that_browser_s_table_socket_and_no_other_device_s():
    @database_sync_to_async
    def setup():
        from game import services

        ana_user, ana = account("Ana")
        ben = Player(key="guest:ben")
        table = services.table_create(player=ana, nickname="", seat_count=2, turn_seconds=0)
        services.seat_take(code=table.code, player=ben, nickname="Ben")
        services.game_start(code=table.code, player=ana)
        stack(table, ["5", "9", "4", "1", "2"])  # number cards: whoever decides draws, nothing more asked
        return ana_user, table, (ana, ben)

    ana_user, table, players = await setup()
    here, there = await account_session(ana_user), await account_session(ana_user)  # a laptop and a phone
    laptop, phone = await open_socket(table.code, here), await open_socket(table.code, there)
    for socket in (laptop, phone):
        await drain(socket, WHOLE_TABLE)

    @database_sync_to_async
    def log_out_on_the_laptop():
        from django.contrib.sessions.backends.db import SessionStore
        from django.http import HttpRequest

        from game.accounts.signals import _signed_out

        request = HttpRequest()
        request.session = SessionStore(session_key=here)
        _signed_out(sender=User, request=request, user=ana_user)

    await log_out_on_the_laptop()
    said = "".join(await drain(laptop, "You logged out in another tab"))
    assert 'data-reason="signed_out"' in said
    closed = await laptop.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4401, "reason": closed.get("reason")}

    @database_sync_to_async
    def someone_moves():
        """Whoever decides first (the deal chooses) draws: a number card, and the turn moves on."""
        act(table, deciding(table, list(players)), {"kind": "draw"})
        return game_of(table).version

    version = await someone_moves()
    moved = "".join(await drain(phone, f'data-version="{version}"'))  # the phone plays on
    assert "logged out" not in moved
    await phone.disconnect()
