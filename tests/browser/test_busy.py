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


TALL_PHONE = {"width": 390, "height": 844}
LOW_DESKTOP = {"width": 1280, "height": 800}
# The busy banner and the table's Draw button in each language the site speaks.
BUSY = {
    "en": ("The server is busy: retrying in a moment…", "Draw"),
    "de": ("Der Server ist ausgelastet: Erneuter Versuch in Kürze …", "Ziehen"),
    "nl": ("De server is overbelast: zo meteen een nieuwe poging…", "Pakken"),
    "pl": ("Serwer jest przeciążony: za chwilę ponowna próba…", "Dobierz"),
    "fr": ("Le serveur est surchargé\u202f: nouvelle tentative dans un instant…", "Piocher"),
}


def _box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def _busy_as_a_player_sees_it(page, lang: str, viewport: dict) -> None:
    """Turned away: the banner says so in the page's language, whole and in view without
    scrolling, between the header (its links and the language switcher uncovered) and the table;
    the moves are off until the table comes."""
    text, _draw = BUSY[lang]
    note = page.locator("#connection")
    expect(note).to_have_text(text)
    expect(note).to_have_class("connection connection--busy")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    banner = _box(page, "#connection")
    header = _box(page, ".site-header")
    table = _box(page, "#table")
    assert 0 <= banner["x"] and banner["x"] + banner["width"] <= viewport["width"], (lang, banner)
    assert banner["y"] >= header["y"] + header["height"] - 1, (lang, banner, header)  # not over the header
    assert banner["y"] + banner["height"] <= table["y"] + 1, (lang, banner, table)  # nor over the table
    assert banner["y"] + banner["height"] <= viewport["height"], (lang, banner)  # seen without scrolling
    assert note.evaluate("n => n.scrollWidth <= n.clientWidth && n.scrollHeight <= n.clientHeight"), lang
    expect(page.locator('#controls [data-action="draw"]')).to_be_disabled()
    expect(page.locator('#controls [data-action="pass"]')).to_be_disabled()


def test_busy_in_every_language_on_a_phone_and_a_desktop_then_the_table(browser, django_db_blocker, settings, shoot):
    """Each language's pages (a phone's and a desktop's) are turned away while two sockets fill
    the server; once those leave they get in by themselves and show the table in their language,
    and then fill the server for the next language's pages."""
    settings.SEVN_MAX_SOCKETS = 2
    table, (ana, ben) = scenes.two_players()
    with _serving(django_db_blocker) as url:
        inside = []
        for _ in range(2):
            context = browser.new_context(viewport=LOW_DESKTOP)
            scenes.seat_as(context, url, ana)
            page = context.new_page()
            page.goto(f"{url}/en/t/{table.code}/")
            expect(page.locator('body[data-socket="live"]')).to_have_count(1)
            inside.append(page)

        for lang, (_text, draw) in BUSY.items():
            waiting = {}
            for name, viewport, phone in (("phone", TALL_PHONE, True), ("desktop", LOW_DESKTOP, False)):
                context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
                scenes.seat_as(context, url, ben)
                page = context.new_page()
                page.goto(f"{url}/{lang}/t/{table.code}/")
                expect(page.locator("#connection")).to_be_visible()
                _busy_as_a_player_sees_it(page, lang, viewport)
                shoot(page, f"busy-{lang}-{name}", full_page=False)
                waiting[name] = page

            for page in inside:
                page.context.close()  # room for two
            for name, page in waiting.items():
                expect(page.locator('body[data-socket="live"]')).to_have_count(1, timeout=40_000)
                expect(page.locator("#connection")).to_be_hidden()
                expect(page.locator("#table")).to_have_attribute("data-status", "playing")
                button = page.locator('#controls [data-action="draw"]')
                expect(button).to_be_enabled()
                expect(button).to_contain_text(draw)
                shoot(page, f"busy-{lang}-{name}-then-table", full_page=False)
            inside = list(waiting.values())  # the server is full again, for the next language
        for page in inside:
            page.context.close()
