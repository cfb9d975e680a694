"""Online means on the site (issue 37.8): a friend with any page of the site open (its person
socket, /ws/me/) shows online on the friends list and the home page, seated or not; one who
hides where they play shows offline whatever they have open; a private profile is no secret
from friends. The heartbeat renews a process's open pages and forgets rows nobody renewed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from game.models import SitePresence
from game.services import accounts, online, selectors
from game.services.presence import STALE_AFTER
from sevn_site.asgi import application
from tests.accounts.test_home import account, signed_in
from tests.accounts.test_invitations import HOST, ORIGIN, befriend, person_session
from tests.waiting import until_async

pytestmark = pytest.mark.django_db(transaction=True)


async def _open_page(user) -> WebsocketCommunicator:
    cookie = (b"cookie", f"sessionid={await person_session(user)}".encode())
    socket = WebsocketCommunicator(application, "/ws/me/?lang=en", headers=[ORIGIN, HOST, cookie])
    connected, _ = await socket.connect()
    assert connected
    return socket


@database_sync_to_async
def _friends_page(user, language: str = "en") -> str:
    client = Client()
    signed_in(client, user)
    return client.get(f"/{language}/friends/").content.decode()


@database_sync_to_async
def _online(user) -> dict[str, bool]:
    return {friend["name"]: friend["online"] for friend in selectors.friends_of(user.pk)}


async def test_a_friend_with_any_page_open_is_online_and_offline_once_it_closes():
    @database_sync_to_async
    def setup():
        ana, _ = account("Ana")
        ben, _ = account("Ben")
        befriend(ana, ben)
        return ana, ben

    ana, ben = await setup()
    assert await _online(ana) == {"Ben": False}
    socket = await _open_page(ben)
    assert await _online(ana) == {"Ben": True}
    page = await _friends_page(ana)
    row = page[page.index('<li class="friend friend--online">') :]
    assert row.index("Ben") < row.index("Online") < row.index("</li>") and "at table" not in row[: row.index("</li>")]
    await socket.disconnect()

    async def ben_offline() -> bool:
        return await _online(ana) == {"Ben": False}

    assert await until_async(ben_offline, "Ben offline again")  # the row goes with the socket


async def test_hiding_where_you_play_hides_being_online_and_a_private_profile_does_not():
    @database_sync_to_async
    def setup():
        ana, _ = account("Ana")
        ben, _ = account("Ben")
        cy, _ = account("Cy")
        befriend(ana, ben)
        befriend(ana, cy)
        accounts.profile_update(user=ben, private=False, hide_online=True)
        accounts.profile_update(user=cy, private=True, hide_online=False)
        return ana, ben, cy

    ana, ben, cy = await setup()
    sockets = [await _open_page(ben), await _open_page(cy)]
    assert await _online(ana) == {"Ben": False, "Cy": True}
    assert "None of your friends is online now." not in await database_sync_to_async(_home)(ana)
    for socket in sockets:
        await socket.disconnect()


def _home(user) -> str:
    client = Client()
    signed_in(client, user)
    return client.get("/en/").content.decode()


def test_the_heartbeat_renews_open_pages_and_forgets_the_stale(db):
    ana, _ = account("Ana")
    ben, _ = account("Ben")
    now = timezone.now()
    online.page_opened(channel="here", user_id=ana.pk)
    online.page_opened(channel="dead-process", user_id=ben.pk)
    later = now + STALE_AFTER + timedelta(seconds=1)
    assert online.on_site([ana.pk, ben.pk], now=later) == set()  # nobody renewed them: stale
    online.heartbeat(pages={"here": ana.pk, "swept": ben.pk}, now=later)
    assert set(SitePresence.objects.values_list("channel", flat=True)) == {"here", "swept"}
    assert online.on_site([ana.pk, ben.pk], now=later) == {ana.pk, ben.pk}
    online.page_closed(channel="swept")
    assert online.on_site([ana.pk, ben.pk], now=later) == {ana.pk}
    online.heartbeat(pages={"gone": 10**9}, now=later)  # an account deleted with its page open
    assert not SitePresence.objects.filter(channel="gone").exists()
