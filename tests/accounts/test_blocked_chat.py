"""A blocked person's chat lines do not reach the person who blocked them at a table they share,
live on the socket nor when the chat is drawn again; everyone else still reads them."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.contrib.auth import SESSION_KEY as USER_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from game import services
from game.core.identity import ACCOUNT_KEY
from sevn_site.asgi import application
from tests.accounts.test_home import account, signed_in
from tests.live.test_chat_consumers import chat, heard_none_of
from tests.live.test_consumers import HOST, ORIGIN, WHOLE_TABLE, drain

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def people_at_a_table():
    """Ana hosts, Ben and Cy sit with her; all three have accounts."""
    found = [account(name) for name in ("Ana", "Ben", "Cy")]
    table = services.table_create(player=found[0][1], nickname="", seat_count=3)
    for _user, player in found[1:]:
        services.seat_take(code=table.code, player=player, nickname="")
    return table, found


@database_sync_to_async
def session_of(user, key: str) -> str:
    """A signed-in person's session, playing under their account's key."""
    session = SessionStore()
    session[USER_SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "allauth.account.auth_backends.AuthenticationBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session[ACCOUNT_KEY] = [user.pk, key]
    session.create()
    return session.session_key


async def open_socket(code: str, user, key: str) -> WebsocketCommunicator:
    cookie = (b"cookie", f"sessionid={await session_of(user, key)}".encode())
    socket = WebsocketCommunicator(application, f"/ws/t/{code}/?lang=en", headers=[ORIGIN, HOST, cookie])
    assert (await socket.connect())[0]
    return socket


@database_sync_to_async
def block(blocker, blocked) -> None:
    client = Client()
    signed_in(client, blocker)
    assert client.post("/en/friends/block/", {"user": blocked.pk}).status_code == 302


@database_sync_to_async
def table_page(user, code: str) -> str:
    client = Client()
    signed_in(client, user)
    return client.get(f"/en/t/{code}/").content.decode()


async def test_a_blocked_person_s_lines_do_not_reach_the_blocker_at_a_shared_table():
    table, ((ana, ana_player), (ben, ben_player), (cy, cy_player)) = await people_at_a_table()
    sockets = [
        await open_socket(table.code, ana, ana_player.key),
        await open_socket(table.code, ben, ben_player.key),
        await open_socket(table.code, cy, cy_player.key),
    ]
    for socket in sockets:
        await drain(socket, WHOLE_TABLE)
    await chat(sockets[1], text="before the block")
    for socket in sockets:
        await drain(socket, "before the block")
    await block(ana, ben)  # on her friends page, while her table is open
    await chat(sockets[1], text="after the block")
    await drain(sockets[2], "after the block")  # Cy reads it
    await drain(sockets[1], "after the block")  # and Ben himself
    assert await heard_none_of(sockets[0], table.code, cy_player, "after the block")  # Ana does not
    await chat(sockets[2], text="from Cy")
    await drain(sockets[0], "from Cy")  # her chat works for everyone else
    for socket in sockets:
        await socket.disconnect()
    page = await table_page(ana, table.code)  # drawn again: neither of his lines is there
    assert "from Cy" in page and "before the block" not in page and "after the block" not in page
    assert "after the block" in await table_page(cy, table.code)
    again = await open_socket(table.code, ana, ana_player.key)
    opened = "".join(await drain(again, WHOLE_TABLE))
    assert "from Cy" in opened and "after the block" not in opened and "before the block" not in opened
    await again.disconnect()
