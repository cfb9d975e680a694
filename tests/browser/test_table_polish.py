"""The table as players asked for it: presence true from the first second and kept true, others'
moves easy to follow, round results and the game's end in view, notices that never block play."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from game.services import presence

from .conftest import DESKTOP, PHONE
from .play import create_table, join

pytestmark = pytest.mark.django_db(transaction=True)

# Each seat's presence mark as its viewer sees it: "online", "offline", or "" for a bot.
MARKS = """() => Object.fromEntries([...document.querySelectorAll('.seat[data-seat]')].map(seat => {
    const on = seat.querySelector('.presence__on'), off = seat.querySelector('.presence__off');
    const shown = el => el && getComputedStyle(el).display !== 'none';
    return [seat.dataset.seat, shown(on) ? 'online' : shown(off) ? 'offline' : ''];
}))"""


def marks(page) -> dict:
    return page.evaluate(MARKS)


def wait_for_marks(page, wanted: dict, seconds: float) -> None:
    end = time.monotonic() + seconds
    while True:
        seen = marks(page)
        if all(seen.get(seat) == mark for seat, mark in wanted.items()):
            return
        assert time.monotonic() < end, f"presence marks {seen}, wanted {wanted}"
        time.sleep(0.1)


def sevens_host(page, base: str, nickname: str) -> str:
    """A three-seat Sevens table hosted from the home page: its invite link."""
    page.goto(f"{base}/en/")
    page.get_by_label("Sevens", exact=False).first.check()
    page.fill("#id_nickname", nickname)
    page.select_option("#id_seat_count", "3")
    page.select_option("#id_turn_seconds", "0")
    page.click(".panel--create button.button--primary")
    page.wait_for_url("**/t/**")
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    return page.locator("#invite-link").input_value()


@pytest.mark.parametrize("game", ["sevn", "sevens"])
def test_people_connected_since_the_lobby_are_online_from_the_start_and_stay_so(browser, live_url, game):
    """Both online on both screens within 2 s of the start and a minute later; Ben closes his
    tab: offline on Ana's screen at once, away (a bot plays for him) after presence.AWAY_AFTER."""
    contexts = [browser.new_context(viewport=size) for size in (DESKTOP, PHONE)]
    ana, ben = (context.new_page() for context in contexts)
    invite = create_table(ana, live_url, "Ana", seats=2) if game == "sevn" else sevens_host(ana, live_url, "Ana")
    join(ben, invite, "Ben")
    if game == "sevens":  # Sevens needs three: a bot in the last seat
        ana.locator('[data-action="add-bot"]').first.click()
        expect(ana.locator(".lobby-seat .badge--bot")).to_have_count(1)
    ana.click('[data-action="start"]')
    started = time.monotonic()
    both = {"0": "online", "1": "online"}
    for page in (ana, ben):
        expect(page.locator("#table")).to_have_attribute("data-status", "playing")
        wait_for_marks(page, both, 2 - (time.monotonic() - started))
    expect(ana.locator("#seat-0 .badge--you")).to_have_count(1)
    ana.wait_for_timeout(60_000)
    for page in (ana, ben):
        assert all(marks(page)[seat] == "online" for seat in both), marks(page)
    contexts[1].close()
    closed = time.monotonic()
    wait_for_marks(ana, {"0": "online", "1": "offline"}, 2)
    if game == "sevens":  # the away mark is the platform's: one game shows it
        left = presence.AWAY_AFTER.total_seconds() - (time.monotonic() - closed) + 5
        expect(ana.locator("#seat-1 .badge--away")).to_have_count(1, timeout=max(left, 1) * 1000)
        assert time.monotonic() - closed < presence.AWAY_AFTER.total_seconds() + 5
    contexts[0].close()
