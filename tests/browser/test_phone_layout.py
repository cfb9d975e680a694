"""The site on a phone (#38 item 8), measured at 360x740 and 390x844 and against a desktop
(1280x800): the header is a compact bar whose menu button opens the links, the account and the
languages (in all five languages, whose words run long in German and Polish), so that a table
page opens with the table in view; nothing scrolls sideways; the report dialog's radio buttons
sit beside their words; a Sevens round's result fits the width; the replay's steps stay in one
line. The screenshots land in artifacts/screenshots/ (phone-*) to be looked at."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from game.services import accounts
from tests.browser import scenes
from tests.fair.play import Unwatched, play_out, table_of

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = {"360x740": {"width": 360, "height": 740}, "390x844": {"width": 390, "height": 844}}
DESKTOP = {"width": 1280, "height": 800}
LANGUAGES = ("en", "de", "nl", "pl", "fr")
HEADER_MOST = 64  # px: the phone's bar
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def signed_in(context, live_url: str, name: str) -> None:
    """The context is logged in as a new account with this (long) name."""
    user = User.objects.create_user(name, f"{name.lower()}@example.com", "pw-123456")
    accounts.account_signed_in(user=user, guest_key=None)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_url}])


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


def inside_width(page, selector: str) -> None:
    """Every element matching `selector` is drawn within the viewport's width."""
    width = page.viewport_size["width"]
    for each in page.locator(selector).all():
        found = each.bounding_box()
        assert found and found["x"] >= -1 and found["x"] + found["width"] <= width + 1, (selector, found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_is_a_compact_bar_with_a_menu_on_a_phone_and_one_row_on_a_desktop(
    browser, live_url, language, shoot
):
    for size, viewport in {**PHONES, "1280x800": DESKTOP}.items():
        phone = size in PHONES
        context = browser.new_context(viewport=viewport, has_touch=phone, reduced_motion="reduce")
        signed_in(context, live_url, f"Maximiliane_{language}{viewport['width']}")
        page = context.new_page()
        page.goto(f"{live_url}/{language}/")
        menu, button = page.locator("[data-site-menu]"), page.locator(".site-menu__button")
        links = page.locator(".site-nav a")
        expect(links).to_have_count(5)
        header = box(page, ".site-header")
        assert header["height"] <= HEADER_MOST, (size, header)  # one row on a desktop too
        assert page.evaluate(NO_SIDEWAYS), size
        if not phone:
            expect(button).to_be_hidden()
            for link in (*links.all(), page.locator(".site-account__name"), page.locator(".lang-switch a").first):
                expect(link).to_be_visible()
            links.first.focus()  # reached by the keyboard, as before
            expect(links.first).to_be_focused()
            shoot(page, f"phone-header-{language}-{size}", full_page=False)
            context.close()
            continue
        expect(button).to_be_visible()
        expect(links.first).to_be_hidden()
        expect(page.locator(".site-account")).to_be_hidden()
        shoot(page, f"phone-header-{language}-{size}", full_page=False)
        button.click()
        expect(menu).to_have_attribute("open", "")
        for link in (*links.all(), page.locator(".site-account__name"), *page.locator(".lang-switch a").all()):
            expect(link).to_be_visible()
        inside_width(page, ".site-nav a, .site-account__name, .site-account button, .lang-switch a")
        assert page.evaluate(NO_SIDEWAYS), size
        assert box(page, ".site-header")["height"] <= HEADER_MOST  # the menu opens over the page
        shoot(page, f"phone-header-{language}-{size}-open", full_page=False)
        page.keyboard.press("Escape")
        expect(menu).not_to_have_attribute("open", "")
        button.click()
        page.mouse.click(viewport["width"] // 2, viewport["height"] - 40)  # a tap outside the menu closes it
        expect(menu).not_to_have_attribute("open", "")
        button.click()
        other = "de" if language == "en" else "en"
        page.locator(f'.lang-switch a[hreflang="{other}"]').click()  # the languages work from the menu
        expect(page.locator("html")).to_have_attribute("lang", other)
        context.close()


def test_the_menu_opens_by_keyboard_and_escape_gives_the_focus_back(browser, live_url):
    context = browser.new_context(viewport=PHONES["390x844"])
    page = context.new_page()
    page.goto(f"{live_url}/en/")
    button = page.locator(".site-menu__button")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-site-menu]")).to_have_attribute("open", "")
    page.keyboard.press("Tab")
    expect(page.locator(".site-nav a").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("[data-site-menu]")).not_to_have_attribute("open", "")
    expect(button).to_be_focused()
    # a guest's menu: log in and sign up
    button.click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    expect(page.get_by_role("link", name="Sign up")).to_be_visible()
    context.close()


@pytest.mark.parametrize("language", ("en", "de", "pl"))
def test_a_table_page_opens_with_the_table_in_view(browser, live_url, language, shoot):
    table, players = scenes.freeze_pending()
    for size, viewport in PHONES.items():
        context = browser.new_context(viewport=viewport, has_touch=True, reduced_motion="reduce")
        scenes.seat_as(context, live_url, players[1])
        page = context.new_page()
        page.goto(f"{live_url}/{language}/t/{table.code}/")
        expect(page.locator("#table-presence[data-known]")).to_have_count(1)
        assert box(page, ".site-header")["height"] <= HEADER_MOST
        top = box(page, "#table")["y"]
        assert top <= 80, (size, top)  # the table starts right under the bar
        assert box(page, "#seat-2")["y"] < viewport["height"], size  # and its seats are on the first screen
        assert page.evaluate(NO_SIDEWAYS), size
        shoot(page, f"phone-table-{language}-{size}", full_page=False)
        page.locator(".site-menu__button").click()
        expect(page.locator(".site-nav a").first).to_be_visible()
        shoot(page, f"phone-table-{language}-{size}-menu", full_page=False)
        context.close()


def test_the_report_dialogs_radio_buttons_sit_beside_their_words(browser, live_url, shoot):
    table, players = scenes.freeze_pending()
    for size, viewport in {**PHONES, "1280x800": DESKTOP}.items():
        context = browser.new_context(viewport=viewport, has_touch=size in PHONES)
        scenes.seat_as(context, live_url, players[1])
        page = context.new_page()
        page.goto(f"{live_url}/pl/t/{table.code}/")
        expect(page.locator("#table-presence[data-known]")).to_have_count(1)
        page.locator("#seat-0 .seat__report").click()
        dialog = page.locator("#report-dialog")
        expect(dialog).to_be_visible()
        labels = dialog.locator(".report__reasons label")
        expect(labels).to_have_count(5)
        for label in labels.all():
            radio = label.locator("input[type=radio]").bounding_box()
            words = label.evaluate(
                """label => { const range = document.createRange();
                    range.selectNodeContents(label); range.setStartAfter(label.querySelector('input'));
                    const r = range.getBoundingClientRect(); return {x: r.x, y: r.y, height: r.height}; }"""
            )
            middle = radio["y"] + radio["height"] / 2
            assert words["y"] <= middle <= words["y"] + words["height"], (size, radio, words)  # one row
            assert radio["x"] + radio["width"] <= words["x"], (size, radio, words)  # the button first
        shoot(page, f"phone-report-{size}", full_page=False)
        labels.nth(1).click()  # a tap on the row picks its reason
        expect(labels.nth(1).locator("input")).to_be_checked()
        context.close()


@pytest.mark.parametrize("moment", ("round", "over"))
def test_a_sevens_rounds_result_fits_the_width(browser, live_url, moment, shoot):
    table, players = scenes.sevens_round_scored() if moment == "round" else scenes.sevens_game_over()
    for size, viewport in PHONES.items():
        context = browser.new_context(viewport=viewport, has_touch=True, reduced_motion="reduce")
        scenes.seat_as(context, live_url, players[0])
        page = context.new_page()
        page.goto(f"{live_url}/de/t/{table.code}/")
        expect(page.locator("#table-presence[data-known]")).to_have_count(1)
        if moment == "round":
            page.locator("[data-open-summary]").click()
        summary = page.locator("#summary")
        expect(summary).to_be_visible()
        seats = summary.locator(".summary__seats")
        assert seats.evaluate("el => el.scrollWidth <= el.clientWidth"), size  # no sideways cards
        expect(summary.locator(".summary__seat")).to_have_count(4)
        inside_width(page, "#summary .summary__seat, #summary .card")
        assert page.evaluate(NO_SIDEWAYS), size
        summary.scroll_into_view_if_needed()
        shoot(page, f"phone-sevens-{moment}-{size}", full_page=False)
        context.close()


@pytest.mark.parametrize("language", ("pl", "de", "en"))
def test_the_replay_steps_stay_in_one_line(browser, live_url, language, shoot):
    table, players = table_of("sevens")
    game = play_out(table, players, Unwatched())
    for size, viewport in {**PHONES, "1280x800": DESKTOP}.items():
        context = browser.new_context(viewport=viewport, has_touch=size in PHONES)
        page = context.new_page()
        page.goto(f"{live_url}/{language}/g/{game.public_id}/?step=3")
        nav = page.locator(".replay__nav")
        parts = nav.locator(":scope > *")
        expect(parts).to_have_count(5)
        tops = {round(part.bounding_box()["y"] + part.bounding_box()["height"] / 2) for part in parts.all()}
        assert max(tops) - min(tops) <= 2, (size, tops)  # one line
        assert nav.evaluate("el => el.scrollWidth <= el.clientWidth"), size
        assert box(page, "#replay-slider")["width"] >= 60, size  # the slider still there to drag
        assert page.evaluate(NO_SIDEWAYS), size
        expect(
            page.get_by_role("link", name={"pl": "Następny ruch", "de": "Nächster Zug", "en": "Next move"}[language])
        ).to_be_visible()
        shoot(page, f"phone-replay-{language}-{size}", full_page=False)
        page.locator('[data-replay-to="next"]').click()
        expect(page).to_have_url(f"{live_url}/{language}/g/{game.public_id}/?step=4")
        context.close()


def test_the_menu_works_without_a_script(browser, live_url):
    for viewport in (PHONES["360x740"], DESKTOP):
        context = browser.new_context(viewport=viewport, java_script_enabled=False)
        page = context.new_page()
        page.goto(f"{live_url}/de/")
        links = page.locator(".site-nav a")
        if viewport is DESKTOP:
            expect(page.locator(".site-menu__button")).to_be_hidden()
            expect(links.first).to_be_visible()
        else:
            expect(links.first).to_be_hidden()
            page.locator(".site-menu__button").click()
            expect(links.first).to_be_visible()
            expect(page.locator('.lang-switch a[hreflang="pl"]')).to_be_visible()
            page.locator(".site-menu__button").click()
            expect(links.first).to_be_hidden()
        context.close()


@pytest.mark.parametrize("language", ("fr", "de"))
def test_the_last_move_near_the_table_is_never_cut_short_on_a_phone(browser, live_url, language, shoot):
    """The game's last line (who won, with how many points) wraps under the table's bar on a phone:
    a French or German sentence is read whole, never ended with an ellipsis."""
    table, players = scenes.game_over()
    context = browser.new_context(viewport=PHONES["360x740"], has_touch=True, reduced_motion="reduce")
    scenes.seat_as(context, live_url, players[0])
    page = context.new_page()
    page.goto(f"{live_url}/{language}/t/{table.code}/")
    strip = page.locator("#table-last-move")
    expect(strip).to_be_visible()
    expect(strip).to_contain_text("Ben")
    assert strip.evaluate("el => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight")
    assert strip.evaluate("el => getComputedStyle(el).textOverflow") != "ellipsis"
    inside_width(page, "#table-last-move")
    strip.scroll_into_view_if_needed()
    shoot(page, f"phone-last-move-{language}", full_page=False)
    context.close()
