"""A full server (game.core.capacity) turns a new table socket away: the page says the server
is busy and that it is retrying, tries again after a growing pause (sevn.js, with htmx's
extension), and shows the table once there is room."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from . import scenes
from .conftest import DESKTOP, _serving

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_page_turned_away_says_busy_retries_and_gets_its_table_once_there_is_room(
    browser, django_db_blocker, settings
):
    settings.SEVN_MAX_SOCKETS = 1  # the server forked below has room for one table socket
    table, (ana, ben) = scenes.two_players()
    with _serving(django_db_blocker) as url:
        pages = []
        for player in (ana, ben):
            context = browser.new_context(viewport=DESKTOP)
            scenes.seat_as(context, url, player)
            pages.append(context.new_page())
        inside, waiting = pages
        inside.goto(f"{url}/en/t/{table.code}/")
        expect(inside.locator('body[data-socket="live"]')).to_have_count(1)

        tries = []
        waiting.on("websocket", lambda socket: tries.append(socket.url))
        waiting.goto(f"{url}/en/t/{table.code}/")
        note = waiting.locator("#connection")
        expect(note).to_be_visible()
        expect(note).to_have_text("The server is busy: retrying in a moment…")
        expect(note).to_have_class("connection connection--busy")
        for _ in range(150):  # it tries again by itself (within 15 s: pauses of up to 1 s, then 2 s)
            if len([address for address in tries if "/ws/t/" in address]) > 1:
                break
            waiting.wait_for_timeout(100)
        assert len([address for address in tries if "/ws/t/" in address]) > 1, tries
        expect(note).to_be_visible()  # turned away again: still busy, not a dead table
        expect(waiting.locator('body[data-socket="live"]')).to_have_count(0)

        inside.context.close()  # room for one
        expect(waiting.locator('body[data-socket="live"]')).to_have_count(1, timeout=40_000)
        expect(note).to_be_hidden()
        expect(waiting.locator("#table")).to_have_attribute("data-status", "playing")
        waiting.context.close()
