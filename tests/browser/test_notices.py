"""A moderator's notice never blocks play: it arrives during the player's turn as a banner, the
hand and the buttons stay clickable (the player moves while it shows, by mouse or keyboard) and
the turn's clock stays in sight, never running out behind it."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from game import services
from tests.browser import scenes
from tests.browser.play import next_frames
from tests.browser.test_chat import _moderator
from tests.factories import game_of, open_table
from tests.games.sevens.tables import sevens_table

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
TURN_SECONDS = 60
TWO_DECK = ["5", "9", "4", "1", "2", "3", "6", "7"]  # Ben is dealt the 5, Ana the 9; Ben draws the 4

# The element drawn on top at the centre of each match that is on screen: whether it is that
# element (or inside it), i.e. not covered by anything.
UNCOVERED = """(selector) => [...document.querySelectorAll(selector)].filter(el => {
    const box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
}).map(el => {
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return [el.dataset.card || el.dataset.action || el.className, !!top && el.contains(top)];
})"""


def uncovered(page, selector: str) -> None:
    found = page.evaluate(UNCOVERED, selector)
    assert found, f"no {selector} on screen"
    assert all(clear for _name, clear in found), f"covered: {found}"


def clock_uncovered(page) -> None:
    """The turn's clock is not under the notice, even scrolled to the top of the screen (where a
    banner kept in view would sit)."""
    page.evaluate("window.scrollTo(0, document.querySelector('#table-turn').getBoundingClientRect().top + scrollY - 4)")
    next_frames(page)  # drawn where it scrolled to
    uncovered(page, "#table-turn .countdown")
    page.evaluate("window.scrollTo(0, 0)")


def seconds_left(page) -> float:
    meta = page.locator("#table-meta")
    deadline = meta.get_attribute("data-deadline")
    assert deadline, "the turn has no clock"
    return int(deadline) / 1000 - time.time()


def a_moderator_acts(browser, live_url, report, action: str) -> None:
    """In admin, on the report's page: a warning, or a mute at this table for 15 minutes."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    _moderator(context, live_url)
    admin = context.new_page()
    admin.goto(f"{live_url}/admin/game/report/{report.id}/change/")
    form = admin.locator(f".moderation__form--{action}")
    if action == "mute":
        form.locator("select[name=mute-duration]").select_option("15m")
        form.locator("input[name=mute-reason]").fill("shouting")
    form.locator(f"[data-moderation={action}]").click()
    expect(admin.locator(".messagelist")).to_contain_text("Done")
    context.close()


def player_page(browser, live_url, table, player, size: str):
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce", has_touch=size == "phone")
    scenes.seat_as(context, live_url, player)
    page = context.new_page()
    page.goto(f"{live_url}/en/t/{table.code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)  # the socket is live
    expect(page.locator("#controls.controls--active")).to_have_count(1)  # their turn
    return context, page


@pytest.mark.parametrize("size", SIZES)
def test_a_mute_during_a_sevens_turn_leaves_the_hand_playable(browser, live_url, size):
    table, players = sevens_table(turn_seconds=TURN_SECONDS, seed=7)
    seat = scenes.current_seat(table)
    player, reporter = players[seat], players[(seat + 1) % 3]
    report = services.report_create(code=table.code, player=reporter, reason="insults", seat_index=seat)
    context, page = player_page(browser, live_url, table, player, size)

    a_moderator_acts(browser, live_url, report, "mute")
    banner = page.locator("#notice .notice-banner")
    expect(banner).to_contain_text("You are muted in chat")
    uncovered(page, "#controls .sevens-play")
    clock_uncovered(page)
    assert seconds_left(page) > 0
    version = page.locator("#table-meta").get_attribute("data-version")
    card = page.locator("#controls .sevens-play").first
    played = card.get_attribute("data-card")
    card.click()  # no "Understood" first
    expect(page.locator("#table-meta")).not_to_have_attribute("data-version", version)
    expect(banner).to_be_visible()  # it stays until read, without holding up the game
    expect(page.locator(f'.sevens-cell [data-code="{played}"]')).to_have_count(1)
    assert "Time is up" not in page.locator("#log-list").inner_text()
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_warning_during_a_sevn_turn_leaves_the_keyboard_on_draw(browser, live_url, size):
    table, (ana, ben) = open_table(seats=2, turn_seconds=TURN_SECONDS, deck=TWO_DECK)  # Ben decides first
    game_of(table).events.all().delete()  # the log of the game the stacked deck replaced
    report = services.report_create(code=table.code, player=ana, reason="insults", seat_index=1)
    context, page = player_page(browser, live_url, table, ben, size)
    draw = page.locator('#controls [data-action="draw"]')
    expect(draw).to_be_focused()  # the turn brought the keyboard's focus to Draw

    a_moderator_acts(browser, live_url, report, "warn")
    banner = page.locator("#notice .notice-banner")
    expect(banner).to_be_visible()
    expect(draw).to_be_focused()  # the notice took no focus away
    uncovered(page, "#controls button")
    uncovered(page, ".table__mine .seat")
    clock_uncovered(page)
    assert seconds_left(page) > 0
    page.keyboard.press("Enter")
    expect(page.locator("#log-list")).to_contain_text("Ben draws")
    expect(banner).to_be_visible()
    assert "Time is up" not in page.locator("#log-list").inner_text()
    context.close()
