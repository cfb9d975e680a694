"""A full server (game.runtime.capacity) turns a new table socket away: the page says the server
is busy and that it is retrying, tries again after a growing pause (static/sevn/js/connection.js,
with htmx's extension), counts a long pause down with "Try now", and shows the table once there is room.
A socket lost (not turned away) says "Reconnecting…" in the same place, the moves off alike; one
the server closed for good (too many sockets, too many messages, a table that is gone) says so,
with Reload or the way to the start page, and tries nothing more."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser import scenes
from tests.browser.conftest import DESKTOP, _serving
from tests.waiting import POLL_MS, until

pytestmark = pytest.mark.django_db(transaction=True)


def _droppable(page) -> dict:
    """The page's table sockets go through to the server until `down["now"]` is set; from then on
    each new one is closed at once with 1012, as by a server restarting. `down["sockets"]`: the
    ones that went through (a test closes them to drop the connection)."""
    down = {"now": False, "sockets": []}

    def route(socket):
        if down["now"]:
            socket.close(code=1012)
            return
        socket.connect_to_server()
        down["sockets"].append(socket)

    page.route_web_socket(re.compile(r"/ws/t/"), route)
    return down


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

        waiting.add_init_script(COUNT_TRIES)
        waiting.add_init_script(SHORT_PAUSES)  # its tries come within moments, however many it makes
        waiting.goto(f"{url}/en/t/{table.code}/")
        note = waiting.locator("#connection")
        expect(note).to_be_visible()
        expect(note.locator("[data-connection-text]")).to_have_text("The server is busy: retrying in a moment…")
        expect(note).to_have_class("connection connection--busy")
        # it tries again by itself (pauses of up to 1 s, then 2 s: here a twentieth), turned away again
        waiting.wait_for_function("() => window.closes && window.closes.length > 1", timeout=15_000, polling=POLL_MS)
        expect(note).to_be_visible()  # turned away again: still busy, not a dead table
        expect(waiting.locator('body[data-socket="live"]')).to_have_count(0)

        inside.context.close()  # room for one
        expect(waiting.locator('body[data-socket="live"]')).to_have_count(1, timeout=40_000)
        expect(note).to_be_hidden()
        expect(waiting.locator("#table")).to_have_attribute("data-status", "playing")
        waiting.context.close()


def test_a_page_turned_away_while_a_crowd_is_let_in_comes_back_within_seconds(browser, django_db_blocker):
    """A server with room that lets a crowd in a few at a time says so when it turns a page away
    (4504, not a full server's 4503): the page's pauses stop growing at 4 s (a full server's go
    on to a minute, counted down), so eight turn-aways in a row never make it wait longer, and
    the table comes."""
    table, (_ana, ben) = scenes.two_players()
    with _serving(django_db_blocker) as url:
        context = browser.new_context(viewport=DESKTOP)
        scenes.seat_as(context, url, ben)
        page = context.new_page()
        page.add_init_script(LONGEST_PAUSES)  # each pause at its longest: 0.99 s, 1.98 s, then 3.96 s
        page.add_init_script(COUNT_TRIES)
        page.clock.install()
        turned: list = []

        def route(socket):
            if len(turned) < 8:
                turned.append(socket)
                socket.close(code=4504)
                return
            socket.connect_to_server()

        page.route_web_socket(re.compile(r"/ws/t/"), route)
        page.goto(f"{url}/en/t/{table.code}/")
        note = page.locator("#connection")
        while len(turned) < 8:
            so_far = len(turned)
            expect(note).to_have_class("connection connection--busy")
            expect(note.locator("[data-connection-text]")).to_have_text(BUSY["en"][0])  # no countdown
            expect(note.locator("[data-connection-retry]")).to_be_hidden()
            page.clock.fast_forward(4_000)  # longer than any pause it may take now
            # it tried again within the 4 s, and was turned away
            page.wait_for_function("n => window.closes && window.closes.length > n", arg=so_far, polling=POLL_MS)
            assert len(turned) > so_far, (so_far, note.inner_text())
        page.clock.fast_forward(4_000)
        expect(page.locator('body[data-socket="live"]')).to_have_count(1)
        expect(note).to_be_hidden()
        expect(page.locator('#controls [data-action="draw"]')).to_be_enabled()
        context.close()


TALL_PHONE = {"width": 390, "height": 844}
LOW_DESKTOP = {"width": 1280, "height": 800}
SIZES = (("phone", TALL_PHONE, True), ("desktop", LOW_DESKTOP, False))
# The busy banner, its countdown once the pause is long, its "Try now", the lost socket's note
# and the table's Draw button in each language the site speaks.
BUSY = {
    "en": ("The server is busy: retrying in a moment…", "Draw"),
    "de": ("Der Server ist ausgelastet: erneuter Versuch in Kürze\u00a0…", "Ziehen"),
    "nl": ("De server is overbelast: zo meteen een nieuwe poging…", "Pakken"),
    "pl": ("Serwer jest przeciążony: za chwilę ponowna próba…", "Dobierz"),
    "fr": ("Le serveur est surchargé\u202f: nouvelle tentative dans un instant…", "Piocher"),
}
WAIT = {
    "en": ("The server is busy: trying again in {seconds} s", "Try now"),
    "de": ("Der Server ist ausgelastet: erneuter Versuch in {seconds}\u00a0s", "Jetzt versuchen"),
    "nl": ("De server is overbelast: nieuwe poging over {seconds} s", "Nu proberen"),
    "pl": ("Serwer jest przeciążony: ponowna próba za {seconds} s", "Spróbuj teraz"),
    "fr": ("Le serveur est surchargé\u202f: nouvelle tentative dans {seconds}\u202fs", "Réessayer maintenant"),
}
LOST = {
    "en": "Reconnecting…",
    "de": "Verbindung wird wiederhergestellt …",
    "nl": "Opnieuw verbinden…",
    "pl": "Ponowne łączenie…",
    "fr": "Reconnexion…",
}
# Every pause drawn at its longest (a page's pauses are random): a long one, counted down, comes
# at the fourth turn-away in a row (below 1 s, 2 s, 4 s, then 8 s: 7.92 s).
LONGEST_PAUSES = "Math.random = () => 0.99;"
# Every pause drawn at a twentieth of its longest, where the pauses are not what a test is about:
# a lost socket's tries then come within 50 ms, 100 ms, 200 ms, 400 ms, not up to 1, 2, 4, 8 s.
SHORT_PAUSES = "Math.random = () => 0.05;"
# The close codes the page's table socket saw, in order (window.closes).
CLOSE_CODES = (
    "document.addEventListener('htmx:wsClose', e => /[/]ws[/]t[/]/.test(e.target.getAttribute('ws-connect'))"
    " && (window.closes = window.closes || []).push(e.detail.event.code));"
)
# How many table sockets the page has opened (window.tries: each try, as htmx's extension makes
# it; not a signed-in page's invitations socket, which goes through the extension too) and the
# close codes they met (window.closes).
COUNT_TRIES = (
    "document.addEventListener('htmx:wsConnecting', e => /[/]ws[/]t[/]/.test(e.target.getAttribute('ws-connect'))"
    " && (window.tries = (window.tries || 0) + 1));" + CLOSE_CODES
)
# How many messages the page's forms gave the socket to send (window.sends), at once or kept
# until it opens.
COUNT_SENDS = "document.addEventListener('htmx:wsConfigSend', () => (window.sends = (window.sends || 0) + 1));"
DOCKED = re.compile(r"\bconnection--docked\b")


def _box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def _banner_as_a_player_sees_it(page, lang: str, viewport: dict, text: str | re.Pattern, kind: str) -> None:
    """The banner says `text` in the page's language, whole and in view without scrolling,
    between the header (its links and the language switcher uncovered) and the table; the moves
    are off until the table comes."""
    note = page.locator("#connection")
    expect(note).not_to_have_class(DOCKED)  # the page at its top: the note back in its place
    expect(note.locator("[data-connection-text]")).to_have_text(text)
    expect(note).to_have_class(kind)
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


def _busy_as_a_player_sees_it(page, lang: str, viewport: dict) -> None:
    _banner_as_a_player_sees_it(page, lang, viewport, BUSY[lang][0], "connection connection--busy")
    expect(page.locator("#connection [data-connection-retry]")).to_be_hidden()  # a short pause: no button


def _countdown(lang: str) -> re.Pattern:
    wait, _try_now = WAIT[lang]
    return re.compile("^" + re.escape(wait).replace(re.escape("{seconds}"), r"(\d+)") + "$")


def _seconds_left(page, lang: str) -> int:
    match = _countdown(lang).match(page.locator("#connection [data-connection-text]").inner_text())
    assert match, (lang, page.locator("#connection").inner_text())
    return int(match.group(1))


def _turned_away_until_the_pause_is_long(page, lang: str) -> None:
    """Each pause (all at their longest) run out on the page's clock at once, each try turned
    away, until the pause is long enough to count down."""
    for _ in range(30):
        if _countdown(lang).match(page.locator("#connection [data-connection-text]").inner_text()):
            return
        closes = page.evaluate("window.closes.length")
        page.clock.fast_forward(4_000)
        page.wait_for_function("n => window.closes.length > n", arg=closes, polling=POLL_MS)  # tried, turned away again
    raise AssertionError((lang, page.locator("#connection").inner_text()))


def _counts_down_and_tries_now(page, lang: str, viewport: dict) -> None:
    """A long pause says in how many seconds the next try is, the seconds going down on screen
    (a screen reader hears the state once, not each second), and "Try now" tries at once."""
    _wait, try_now = WAIT[lang]
    _banner_as_a_player_sees_it(page, lang, viewport, _countdown(lang), "connection connection--busy")
    button = page.locator("#connection [data-connection-retry]")
    expect(button).to_be_visible()
    expect(button).to_have_text(try_now)
    assert _box(page, "#connection [data-connection-retry]")["x"] >= 0, lang
    said = page.locator("#connection [data-connection-said]").inner_text()
    before = _seconds_left(page, lang)
    assert 2 <= before <= 8, (lang, before)
    page.clock.fast_forward(1_000)
    # a second less, or more than one if the machine's own seconds passed meanwhile (the page's
    # clock runs on between the jumps), and never read aloud again
    expect(page.locator("#connection [data-connection-text]")).not_to_have_text(
        WAIT[lang][0].replace("{seconds}", str(before))
    )
    assert 1 <= _seconds_left(page, lang) < before, (lang, before)
    assert page.locator("#connection [data-connection-said]").inner_text() == said, lang

    so_far = page.evaluate("window.tries")
    button.click()
    page.wait_for_function(
        "n => window.tries > n", arg=so_far, polling=POLL_MS
    )  # at once, not when the seconds run out
    # turned away once more: a longer pause (below 16 s: 15.84 s), counted down again
    expect(button).to_be_visible()
    expect(page.locator("#connection [data-connection-text]")).to_have_text(_countdown(lang))
    assert _seconds_left(page, lang) > before, lang


def test_busy_in_every_language_on_a_phone_and_a_desktop_then_the_table(browser, django_db_blocker, settings, shoot):
    """Each language's pages (a phone's and a desktop's) are turned away while two sockets fill
    the server, again and again until their pause is long and counted down, and "Try now" tries
    at once; once those two leave they get in by themselves and show the table in their
    language, and then fill the server for the next language's pages."""
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
            for name, viewport, phone in SIZES:
                context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
                scenes.seat_as(context, url, ben)
                page = context.new_page()
                page.add_init_script(LONGEST_PAUSES)
                page.add_init_script(COUNT_TRIES)
                page.clock.install()
                page.goto(f"{url}/{lang}/t/{table.code}/")
                expect(page.locator("#connection")).to_be_visible()
                _busy_as_a_player_sees_it(page, lang, viewport)
                shoot(page, f"busy-{lang}-{name}", full_page=False)
                _turned_away_until_the_pause_is_long(page, lang)
                shoot(page, f"busy-{lang}-{name}-countdown", full_page=False)
                _counts_down_and_tries_now(page, lang, viewport)
                waiting[name] = page

            for page in inside:
                page.context.close()  # room for two
            for name, page in waiting.items():
                page.clock.fast_forward(20_000)  # the pause (15.84 s) runs out
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


def test_a_lost_socket_says_reconnecting_above_the_table_with_the_moves_off_in_every_language(
    browser, django_db_blocker, shoot
):
    """The table socket drops (1012, a server restarting) and every try to reconnect fails for a
    while: the note says "Reconnecting…" in the page's language where the busy banner goes (not
    over the header's links on a phone), the moves are off (a click or a key is not taken and
    then lost), and once the socket is back the table is and so are the moves."""
    table, (_ana, ben) = scenes.two_players()
    with _serving(django_db_blocker) as url:
        for lang, (_text, draw) in BUSY.items():
            for name, viewport, phone in SIZES:
                context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
                scenes.seat_as(context, url, ben)
                page = context.new_page()
                for script in (SHORT_PAUSES, COUNT_TRIES, COUNT_SENDS):
                    page.add_init_script(script)
                down = _droppable(page)
                page.goto(f"{url}/{lang}/t/{table.code}/")
                expect(page.locator('body[data-socket="live"]')).to_have_count(1)
                expect(page.locator("#connection")).to_be_hidden()
                deck = page.locator("#pile-deck .pile__count").inner_text()

                down["now"] = True
                for socket in down["sockets"]:
                    socket.close(code=1012)
                expect(page.locator("#connection")).to_be_visible()
                _banner_as_a_player_sees_it(page, lang, viewport, LOST[lang], "connection")
                expect(page.locator("#connection [data-connection-retry]")).to_be_hidden()
                expect(page.locator("#connection [data-connection-said]")).to_have_text(LOST[lang])
                draw_button = page.locator('#controls [data-action="draw"]')
                page.keyboard.press(draw_button.get_attribute("data-key") or "")
                draw_button.click(force=True)
                assert page.evaluate("window.sends || 0") == 0, "a move was taken while lost"
                tried = page.evaluate("window.tries")
                # some tries to reconnect, each refused
                page.wait_for_function(
                    "n => window.tries >= n && window.closes.length >= n", arg=tried + 2, polling=POLL_MS
                )
                page.evaluate("window.scrollTo(0, 0)")  # the click scrolled to the button
                _banner_as_a_player_sees_it(page, lang, viewport, LOST[lang], "connection")
                shoot(page, f"lost-{lang}-{name}", full_page=False)

                down["now"] = False
                expect(page.locator("#connection")).to_be_hidden(timeout=30_000)
                button = page.locator('#controls [data-action="draw"]')
                expect(button).to_be_enabled()
                expect(button).to_contain_text(draw)
                # neither the key nor the click while lost was sent when the socket came back (a
                # move kept for the socket goes as it opens, before the table it draws shows)
                assert page.evaluate("window.sends || 0") == 0, "a move taken while lost was sent"
                expect(page.locator("#pile-deck .pile__count")).to_have_text(deck)
                expect(page.locator("#table")).to_have_attribute("data-status", "playing")
                expect(button).to_be_enabled()  # still this player's turn
                page.context.close()


# A socket the server closed for good: what the note says, its one control, and (when the
# server said why, in a toast) the reason kept under it.
CLOSED = {
    "en": ("Disconnected from this table.", "Reload", "Too many open tables from your address: close some tabs."),
    "de": (
        "Die Verbindung zu diesem Tisch wurde getrennt.",
        "Neu laden",
        "Zu viele offene Tische von deiner Adresse aus: Schließ ein paar Tabs.",
    ),
    "nl": (
        "De verbinding met deze tafel is verbroken.",
        "Opnieuw laden",
        "Te veel open tafels vanaf jouw adres: sluit een paar tabbladen.",
    ),
    "pl": (
        "Połączenie z tym stołem zostało przerwane.",
        "Odśwież",
        "Za dużo otwartych stołów z twojego adresu: zamknij kilka kart przeglądarki.",
    ),
    "fr": (
        "La connexion à cette table a été coupée.",
        "Recharger",
        "Trop de tables ouvertes depuis votre adresse\u202f: fermez quelques onglets.",
    ),
}
GONE = {
    "en": ("This table no longer exists.", "Back to the start page"),
    "de": ("Diesen Tisch gibt es nicht mehr.", "Zurück zur Startseite"),
    "nl": ("Deze tafel bestaat niet meer.", "Terug naar de startpagina"),
    "pl": ("Ten stół już nie istnieje.", "Wróć na stronę główną"),
    "fr": ("Cette table n\u2019existe plus.", "Retour à l\u2019accueil"),
}


def _closed_for_good(page, lang: str, viewport: dict, text: str, control: str) -> None:
    """The note says `text`, not "Reconnecting…", above the table with the moves and the chat
    off, its one control `control`; a screen reader hears it; and nothing tries to connect again
    (the page's clock installed, its tries counted: COUNT_TRIES)."""
    note = page.locator("#connection")
    expect(note).to_be_visible()
    _banner_as_a_player_sees_it(page, lang, viewport, text, "connection connection--closed")
    expect(note.locator("[data-connection-said]")).to_have_text(text)
    shown = note.locator("[data-connection-for]:visible")
    expect(shown).to_have_count(1)
    expect(shown).to_have_text(control)
    expect(page.locator("#chat-text")).to_be_disabled()  # a line typed now could never be sent
    expect(page.locator("[data-chat-form] button")).to_be_disabled()
    so_far = page.evaluate("window.tries")
    # time under test, on the page's own clock: a socket the extension reconnects tries again
    # within 1 s (its first pause); 2.5 s of the page's time pass at once, and no try came
    page.clock.run_for(2_500)
    assert page.evaluate("window.tries") == so_far, (lang, so_far)
    expect(note.locator("[data-connection-text]")).to_have_text(text)
    expect(page.locator('#controls [data-action="draw"]')).to_be_disabled()


def _docked_when_scrolled(page, lang: str) -> None:
    """Scrolled down on a phone, the note sits at the bottom of the screen, no higher than the
    top of the table's bottom panel (none of the seats or the bar under it), the page's end
    reachable above it; back at the top it is in its place above the table again."""
    note = page.locator("#connection")
    page.evaluate("window.scrollTo(0, 300)")
    expect(note).to_have_class(DOCKED)
    box, panel = _box(page, "#connection"), _box(page, ".table__dock")
    height = page.viewport_size["height"]
    assert panel["y"] - 1 <= box["y"] and box["y"] + box["height"] <= height, (lang, box, panel)
    assert note.evaluate("n => n.scrollWidth <= n.clientWidth && n.scrollHeight <= n.clientHeight"), lang
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = page.locator(".table-side > *").last.bounding_box()
    assert last["y"] + last["height"] <= _box(page, "#connection")["y"] + 1, (lang, last)
    page.evaluate("window.scrollTo(0, 0)")
    expect(note).not_to_have_class(DOCKED)


def test_a_page_with_too_many_sockets_is_disconnected_for_good_with_reload_in_every_language(
    browser, django_db_blocker, settings, shoot
):
    """An address may hold one table socket here: each other page is told why (a toast, the
    reason then kept under the note) and that it is disconnected, with Reload and its moves off,
    and tries nothing more; scrolled on a phone, the note docks over the controls at the bottom.
    Once the first page has gone, Reload brings the table."""
    settings.SEVN_MAX_SOCKETS_PER_ADDRESS = 1
    table, (ana, ben) = scenes.two_players()
    from game.models import Presence, Seat

    # Ben's pages are all refused for as long as the ten of them take, more than the minute after
    # which a seat never seen counts as away on a slow machine; and the sweep that marks it is not
    # only this test's server's: the session's server (live_url) sweeps the same database. His seat
    # is seen until after the test, so the turn whose moves must show off stays his.
    Seat.objects.filter(table=table, player_key=ben.key).update(last_seen=timezone.now() + timedelta(hours=1))
    with _serving(django_db_blocker) as url:
        context = browser.new_context(viewport=LOW_DESKTOP)
        scenes.seat_as(context, url, ana)
        inside = context.new_page()
        inside.goto(f"{url}/en/t/{table.code}/")
        expect(inside.locator('body[data-socket="live"]')).to_have_count(1)

        page = inside
        for lang, (text, reload, reason) in CLOSED.items():
            for name, viewport, phone in SIZES:
                context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
                scenes.seat_as(context, url, ben)
                page = context.new_page()
                page.add_init_script(COUNT_TRIES)
                page.clock.install()
                page.goto(f"{url}/{lang}/t/{table.code}/")
                _closed_for_good(page, lang, viewport, text, reload)
                expect(page.locator("#connection [data-connection-detail]")).to_have_text(reason)
                shoot(page, f"closed-{lang}-{name}", full_page=False)
                if phone:
                    _docked_when_scrolled(page, lang)
                    page.evaluate("window.scrollTo(0, 300)")
                    expect(page.locator("#connection")).to_have_class(DOCKED)
                    shoot(page, f"closed-{lang}-{name}-scrolled", full_page=False)
                    page.evaluate("window.scrollTo(0, 0)")
                    _banner_as_a_player_sees_it(page, lang, viewport, text, "connection connection--closed")
                if (lang, name) != ("fr", "desktop"):
                    page.context.close()

        inside.context.close()  # the address's one socket is free once the server has seen it close:
        # its presence row goes after the address's count (game.live.consumers' _cleanup)
        until(lambda: not Presence.objects.filter(player_key=ana.key).exists(), "Ana's socket closed on the server")
        page.locator("#connection [data-connection-reload]").click()
        expect(page.locator('body[data-socket="live"]')).to_have_count(1)
        expect(page.locator("#connection")).to_be_hidden()
        button = page.locator('#controls [data-action="draw"]')
        expect(button).to_be_enabled()
        expect(button).to_contain_text(BUSY["fr"][1])
        page.context.close()


def test_a_table_that_no_longer_exists_says_so_with_the_way_to_the_start_page_in_every_language(
    browser, django_db_blocker, shoot
):
    """The table is deleted while its page is open; the socket drops (1012, a server restarting)
    and reconnects, and the server says there is no such table (4404): the note says the table
    no longer exists, with the way to the start page, the moves off, and nothing tries again."""
    from game.models import Table

    tables = {(lang, name): scenes.two_players() for lang in GONE for name, _viewport, _phone in SIZES}
    with _serving(django_db_blocker) as url:
        for lang, (text, home) in GONE.items():
            for name, viewport, phone in SIZES:
                table, (_ana, ben) = tables[lang, name]
                context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
                scenes.seat_as(context, url, ben)
                page = context.new_page()
                page.add_init_script(COUNT_TRIES)
                page.clock.install()
                sockets: list = []

                def route(socket, sockets=sockets):
                    socket.connect_to_server()
                    sockets.append(socket)

                page.route_web_socket(re.compile(r"/ws/t/"), route)
                page.goto(f"{url}/{lang}/t/{table.code}/")
                expect(page.locator('body[data-socket="live"]')).to_have_count(1)
                Table.objects.filter(pk=table.pk).delete()
                sockets[0].close(code=1012)
                page.wait_for_function("() => window.closes && window.closes.length > 0", polling=POLL_MS)
                page.clock.run_for(1_000)  # its pause before the try (up to 1 s) at once
                _closed_for_good(page, lang, viewport, text, home)
                assert len(sockets) == 2, (lang, sockets)  # the one try, answered 4404
                # said once, in the note: the toast sent before the close is gone
                expect(page.locator('#toast .toast[data-reason="no_table"]')).to_have_count(0)
                expect(page.locator("#connection [data-connection-detail]")).to_be_hidden()
                shoot(page, f"gone-{lang}-{name}", full_page=False)
                page.locator("#connection [data-connection-home]").click()
                expect(page).to_have_url(f"{url}/{lang}/")
                page.context.close()


def test_a_socket_closed_for_too_many_messages_says_disconnected_and_reload_brings_it_back(
    browser, django_db_blocker, settings, shoot
):
    """The transport's 4429 (frames it kept dropping: no toast before it) and the consumer's
    (too many messages: its reason in a toast, then kept under the note) are final: the note
    says the page is disconnected, with Reload, and nothing reconnects; Reload does."""
    settings.SEVN_SOCKET_RATE, settings.SEVN_SOCKET_BURST, settings.SEVN_SOCKET_CLOSE_AFTER = 0.01, 1, 3
    table, (_ana, ben) = scenes.two_players()
    text, reload, _reason = CLOSED["en"]
    with _serving(django_db_blocker) as url:
        context = browser.new_context(viewport=LOW_DESKTOP)
        scenes.seat_as(context, url, ben)
        page = context.new_page()
        page.add_init_script(COUNT_TRIES)
        page.clock.install()
        routes: list = []
        page.route_web_socket(re.compile(r"/ws/t/"), lambda socket: routes.append((socket, socket.connect_to_server())))
        page.goto(f"{url}/en/t/{table.code}/")
        expect(page.locator('body[data-socket="live"]')).to_have_count(1)

        routes[0][0].close(code=4429, reason="Too many messages: this connection was closed.")
        _closed_for_good(page, "en", LOW_DESKTOP, text, reload)
        expect(page.locator("#connection [data-connection-detail]")).to_be_hidden()
        assert page.evaluate("window.closes") == [4429], "the transport's close"

        page.locator("#connection [data-connection-reload]").click()
        expect(page.locator("#connection")).to_be_hidden()
        expect(page.locator('body[data-socket="live"]')).to_have_count(1)
        expect(page.locator('#controls [data-action="draw"]')).to_be_enabled()
        assert len(routes) == 2, routes

        _page_side, server = routes[1]
        # One within the allowance, then dropped ones until the third closes it: no more, for
        # the route sends each from the page, and one sent after the close reached the page is
        # a send on a closed socket that Chromium reports as a console error.
        for _ in range(settings.SEVN_SOCKET_BURST + settings.SEVN_SOCKET_CLOSE_AFTER):
            server.send("{}")
        _closed_for_good(page, "en", LOW_DESKTOP, text, reload)
        expect(page.locator("#connection [data-connection-detail]")).to_have_text(
            "This connection sent too many messages and was closed."
        )
        assert page.evaluate("window.closes") == [4429], "the consumer's close"

        # Reloaded within the address's half minute of penalty: the new socket is told why and
        # closed, not refused at the handshake (the page said "Reconnecting…" and kept trying)
        page.locator("#connection [data-connection-reload]").click()
        _closed_for_good(page, "en", LOW_DESKTOP, text, reload)
        expect(page.locator("#connection [data-connection-detail]")).to_have_text(
            "Too many messages from this address: wait half a minute, then reload."
        )
        assert page.evaluate("window.closes") == [4429], "the penalty's close"
        shoot(page, "penalised-en-desktop", full_page=False)
        page.context.close()


def test_a_socket_dropped_without_a_close_says_reconnecting_and_comes_back(browser, django_db_blocker):
    """A socket lost with no close frame (1006: the network, a proxy gone) is one the extension
    reconnects: the note says "Reconnecting…", not disconnected, and the table comes back."""
    table, (_ana, ben) = scenes.two_players()
    with _serving(django_db_blocker) as url:
        for _name, viewport, phone in SIZES:
            context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
            scenes.seat_as(context, url, ben)
            page = context.new_page()
            page.add_init_script(SHORT_PAUSES)
            page.add_init_script(COUNT_TRIES)
            down = {"now": False, "sockets": []}

            def route(socket, down=down):
                down["sockets"].append(socket)
                if down["now"]:
                    socket.close(code=1006)
                    return
                socket.connect_to_server()

            page.route_web_socket(re.compile(r"/ws/t/"), route)
            page.goto(f"{url}/en/t/{table.code}/")
            expect(page.locator('body[data-socket="live"]')).to_have_count(1)

            down["now"] = True
            down["sockets"][0].close(code=1006)
            expect(page.locator("#connection")).to_be_visible()
            _banner_as_a_player_sees_it(page, "en", viewport, LOST["en"], "connection")
            expect(page.locator("#connection [data-connection-for]:visible")).to_have_count(0)
            tries = page.evaluate("window.tries")
            # it tries again by itself, each try dropped (its pause is random, up to 1 s, 2 s, 4 s,
            # then 8 s: here a twentieth of that), and says so once more
            page.wait_for_function("n => window.tries > n && window.closes.length > n", arg=tries, polling=POLL_MS)
            assert len(down["sockets"]) > tries, down["sockets"]
            assert set(page.evaluate("window.closes")) == {1006}, page.evaluate("window.closes")
            _banner_as_a_player_sees_it(page, "en", viewport, LOST["en"], "connection")

            down["now"] = False
            expect(page.locator("#connection")).to_be_hidden(timeout=30_000)
            expect(page.locator('#controls [data-action="draw"]')).to_be_enabled()
            page.context.close()


# Scrolled down to the seats: the table's top 160 px above the screen's, whatever the header's height.
TO_THE_SEATS = "window.scrollTo(0, document.getElementById('table').getBoundingClientRect().top + window.scrollY + 160)"


def test_a_lost_socket_on_a_scrolled_phone_docks_its_note_over_the_controls_not_the_seats(
    browser, django_db_blocker, shoot
):
    """Four seats on a phone: scrolled down to the seats, the bottom panel stuck at the bottom,
    the socket drops. The note says "Reconnecting…" over that panel's controls (off meanwhile),
    not over the seats in view; back at the top it is above the table; once the socket is back
    it is gone, and so is the room it took."""
    table, players = scenes.freeze_pending()
    with _serving(django_db_blocker) as url:
        context = browser.new_context(viewport=TALL_PHONE, is_mobile=True, has_touch=True)
        scenes.seat_as(context, url, players[1])
        page = context.new_page()
        page.add_init_script(SHORT_PAUSES)  # back within moments once the socket may be
        down = _droppable(page)
        page.goto(f"{url}/en/t/{table.code}/")
        expect(page.locator('body[data-socket="live"]')).to_have_count(1)
        page.evaluate(TO_THE_SEATS)
        down["now"] = True
        down["sockets"][0].close(code=1012)

        note = page.locator("#connection")
        expect(note).to_have_class(DOCKED)
        expect(note.locator("[data-connection-text]")).to_have_text(LOST["en"])
        box, panel, controls = _box(page, "#connection"), _box(page, ".table__dock"), _box(page, "#controls")
        assert panel["y"] + panel["height"] >= TALL_PHONE["height"] - 1, panel  # stuck at the bottom
        assert box["y"] >= controls["y"] and box["y"] + box["height"] <= TALL_PHONE["height"], (box, controls)
        seat = _box(page, ".table__seats .seat:last-child")  # the last seat, just above the panel
        assert seat["y"] < panel["y"] and seat["y"] + 40 <= box["y"], (seat, panel, box)
        expect(page.locator("#controls button").first).to_be_disabled()
        shoot(page, "lost-en-phone-scrolled-four-seats", full_page=False)

        page.evaluate("window.scrollTo(0, 0)")
        expect(note).not_to_have_class(DOCKED)
        box = _box(page, "#connection")
        assert box["y"] + box["height"] <= _box(page, "#table")["y"] + 1, box
        page.evaluate(TO_THE_SEATS)
        expect(note).to_have_class(DOCKED)

        down["now"] = False
        expect(note).to_be_hidden(timeout=30_000)
        expect(note).not_to_have_class(DOCKED)
        assert page.evaluate("getComputedStyle(document.body).paddingBottom") == "0px"
        page.context.close()
