"""#38 items 1, 5 and 6 in the browser: a table's tab stays fully usable after its guest signs up
in another tab (the fair-deal seed, adding bots, Start, Play again), even with no CSRF cookie
left to read (the token is asked for and the click sent again); after a log-out elsewhere its
socket and its buttons say to reload instead of acting as someone else or failing unseen. Play
again brings the bots back to their seats. A rated game's game-over screen shows each person's
rating before and after, and its replay the final scores and your place; both screenshotted on
a desktop and a phone."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.contrib.auth import SESSION_KEY as USER_KEY
from django.contrib.sessions.backends.db import SessionStore
from playwright.sync_api import expect

from game.models import Game, RatingChange
from tests.accounts.test_home import account
from tests.accounts.test_ratings import play_out, rated_table
from tests.browser.accounts import sign_up
from tests.browser.play import play_until

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def test_signing_up_in_another_tab_leaves_every_button_of_the_open_table_working(
    browser, live_url, shoot, no_console_errors
):
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.goto(f"{live_url}/en/")
    page.fill("#id_nickname", "Gus")
    page.select_option("#id_seat_count", "3")
    page.select_option("#id_turn_seconds", "0")
    page.fill("#id_target", "50")
    page.click(".panel--create button.button--primary")
    page.wait_for_url("**/t/**")
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    expect(page.locator("[data-table-again]")).to_have_count(0)  # a brand-new lobby has no Play again
    page.evaluate("window.__kept = true")  # gone if the page reloads

    tab = context.new_page()  # Gus signs up in another tab; the table's stays open, unreloaded
    sign_up(tab, live_url, "Gus")

    # the fair-deal seed, typed in and sent
    page.locator("#table-fair summary").click()
    page.fill("#fair-seed", "c0ffee")
    page.locator("form[data-fair-seed] button").click()
    expect(page.locator("[data-fair-status]")).to_have_text("Your seed counts for the next deal.")
    # two bots, each at the seat and level chosen
    for index, level in ((1, "hard"), (2, "easy")):
        form = page.locator(f"form:has(#bot-level-{index})")
        form.locator("select").select_option(level)
        form.locator('[data-action="add-bot"]').click()
        expect(page.locator(".lobby-seat--taken")).to_have_count(index + 1)
    # Start
    page.locator('[data-action="start"]').click()
    # to 50, a deal that freezes Gus at once can end with a bot's one round before he ever moves
    expect(page.locator("#table")).to_have_attribute("data-status", re.compile("^(playing|finished)$"))
    play_until([page], lambda: page.locator("#table").get_attribute("data-status") == "finished", timeout=120)
    expect(page.locator("[data-table-again]")).to_be_visible()
    shoot(page, "after-signup-game-over", full_page=False)

    # Play again, with no CSRF cookie left to read: refused once, the token asked for, sent again
    context.clear_cookies(name="csrftoken")
    old = page.url
    page.locator("[data-table-again]").click()
    page.wait_for_url(lambda url: url != old and "/t/" in url)
    seats = page.locator(".lobby-seat")
    expect(seats.nth(0)).to_contain_text("Gus")
    expect(seats.nth(1)).to_contain_text("hard")
    expect(seats.nth(2)).to_contain_text("easy")
    expect(page.locator(".lobby__settings")).to_contain_text("first to 50")
    expect(page.locator(".lobby__settings")).to_contain_text("no turn timer")
    expect(page.locator("[data-table-again]")).to_have_count(0)
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    code = page.url.rstrip("/").rsplit("/", 1)[-1]

    # Gus logs out in the other tab: Start here does nothing as someone else, and says to reload
    tab.goto(f"{live_url}/en/")
    tab.locator(".site-account button").click()
    expect(tab.locator(".site-account")).to_contain_text("Log in")
    # the table's socket, opened as Gus, stops acting as him and says so (another device's would not)
    expect(page.locator("#connection")).to_be_visible()
    expect(page.locator("#connection")).to_contain_text("You logged out in another tab")
    page.locator('[data-action="start"]').click()
    note = page.locator("#toast [data-reason=stale_page]")
    expect(note).to_contain_text("You logged out or changed accounts in another tab")
    expect(page.locator("#table")).to_have_attribute("data-status", "lobby")
    assert not Game.objects.filter(table__code=code).exists()
    note.locator("[data-reload]").click()
    expect(page.locator(".site-account")).to_contain_text("Log in")  # the page again, as it is now
    context.close()
    # the two refusals the browser logs are the ones this test caused, once each: Play again's
    # first try without a cookie (the second went through), and Start after the log-out
    expected = [error for error in no_console_errors.errors if "403" in error]
    assert sum("/again/" in error for error in expected) == 2 and sum("/start/" in error for error in expected) == 2
    no_console_errors.errors[:] = [error for error in no_console_errors.errors if error not in expected]


def signed_in_context(browser, live_url: str, user, viewport: dict):
    session = SessionStore()
    session[USER_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "allauth.account.auth_backends.AuthenticationBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    context = browser.new_context(viewport=viewport, locale="en-GB")
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_url}])
    return context


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_rated_game_over_shows_ratings_and_its_replay_the_final_scores(browser, live_url, shoot, viewport):
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    table = rated_table([mia, noa], bots=("medium",))
    game = play_out(table, [mia, noa])
    mine = RatingChange.objects.get(game=game, user=mia_user)
    context = signed_in_context(browser, live_url, mia_user, viewport)
    page = context.new_page()
    page.goto(f"{live_url}/en/t/{table.code}/")
    standings = page.locator("#standings")
    expect(standings).to_be_visible()
    expect(standings.locator("[data-rating-move]")).to_have_count(2)
    expect(standings).to_contain_text(f"{mine.before} → {mine.value}")
    name = "desktop" if viewport is DESKTOP else "phone"
    shoot(page, f"rated-game-over-{name}", full_page=False)
    page.locator('[data-action="replay"]').first.click()
    page.wait_for_url("**/g/**")
    result = page.locator("[data-final-scores]")
    expect(result).to_contain_text("Final scores")
    expect(result.locator("[data-your-place]")).to_contain_text(" of 3")
    expect(result.locator(".final-scores__row")).to_have_count(3)
    shoot(page, f"replay-result-{name}", full_page=False)
    page.goto(f"{live_url}/en/u/Mia/")  # her recent games: the scores and her place
    row = page.locator(".recent-games__game").first
    expect(row.locator("[data-place]")).to_contain_text(" of 3")
    expect(row.locator(".final-scores__row")).to_have_count(3)
    row.scroll_into_view_if_needed()
    shoot(page, f"recent-games-{name}", full_page=False)
    context.close()
