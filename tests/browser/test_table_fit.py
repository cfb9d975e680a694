"""Nothing important under the sticky panel at the bottom of the table: the round summary, the
game-over standings and score table (Sevens: the last round's result), the hand and the action
buttons stay clear of it at two desktop and two phone sizes, in both games."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import scenes
from tests.browser.play import next_frames

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
}
DESKTOPS = ("1280x800", "1366x768")
SUMMARY = {"sevn": scenes.round_scored, "sevens": scenes.sevens_round_scored}
OVER = {"sevn": scenes.game_over, "sevens": scenes.sevens_game_over}
# At game over the sheet of the whole game: SEVN's score table, Sevens' last round's result
# (the button in the bar that brings it into view).
SHEET = {"sevn": ("#scores", "[data-toggle-scores]"), "sevens": ("#summary", "[data-open-summary]")}

# Where the sticky panel at the bottom starts (the viewport's height when there is none).
PANEL_TOP = """() => {
    const panel = [...document.querySelectorAll('#table .table__dock, #table .table__dock > .controls')]
        .find(el => getComputedStyle(el).position === 'sticky' && getComputedStyle(el).display !== 'contents');
    return panel ? panel.getBoundingClientRect().top : window.innerHeight;
}"""


# Twenty more lines in a sheet's first part, as a long round would give it.
LONGER = """(selector) => {
    const part = document.querySelector(selector);
    for (let i = 0; i < 20; i++) part.insertAdjacentHTML('beforeend', '<p>+1</p>');
}"""


def opened(browser, live_url, table, player, size: str):
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce", has_touch=size not in DESKTOPS)
    scenes.seat_as(context, live_url, player)
    page = context.new_page()
    page.goto(f"{live_url}/en/t/{table.code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)  # the socket is live
    return context, page


def settled_box(page, selector: str) -> dict:
    """Where an element is once scrolling has stopped (the same over three frames drawn)."""
    locator = page.locator(selector).first
    expect(locator).to_be_visible()
    seen: list = []
    for _attempt in range(120):
        seen = [*seen[-2:], locator.bounding_box()]
        if len(seen) == 3 and seen[0] is not None and seen.count(seen[0]) == 3:
            return seen[0]
        next_frames(page)
    raise AssertionError(f"{selector} never settled on screen")


def clear_of_panel(page, selector: str) -> None:
    """The whole element is on screen and above the sticky panel (not under it)."""
    found = settled_box(page, selector)
    top = page.evaluate(PANEL_TOP)
    bottom = found["y"] + found["height"]
    assert found["y"] >= -1 and bottom <= top + 1, f"{selector} spans {found['y']:.0f}-{bottom:.0f}, panel at {top:.0f}"


def in_view(page, selector: str) -> None:
    found = settled_box(page, selector)
    height = page.viewport_size["height"]
    assert found["y"] >= -1 and found["y"] + found["height"] <= height + 1, f"{selector} is off screen: {found}"


@pytest.mark.parametrize("game", SUMMARY)
def test_the_round_summary_sits_above_the_panel_with_the_hand_and_buttons_in_view(browser, live_url, game, shoot):
    table, players = SUMMARY[game]()
    decider = players[scenes.current_seat(table)]
    for size in SIZES:
        context, page = opened(browser, live_url, table, decider, size)
        page.locator("[data-open-summary]").click()
        clear_of_panel(page, "#summary")
        in_view(page, "#controls")
        expect(page.locator("#controls.controls--active")).to_have_count(1)  # the decider's buttons, live
        if game == "sevens":
            in_view(page, ".sevens-hand__cards")
        else:
            in_view(page, ".table__mine .seat")
        shoot(page, f"fit-summary-{game}-{size}", full_page=False)
        page.evaluate(LONGER, "#summary .summary__seat")  # a round with far more to tell
        page.locator("[data-open-summary]").click()
        clear_of_panel(page, "#summary")  # it scrolls within itself instead
        in_view(page, "#controls")
        context.close()


@pytest.mark.parametrize("game", OVER)
def test_game_over_shows_the_winner_and_the_scores_clear_of_the_panel(browser, live_url, game, shoot):
    table, players = OVER[game]()
    sheet, button = SHEET[game]
    for size in SIZES:
        context, page = opened(browser, live_url, table, players[2], size)
        clear_of_panel(page, "#standings")
        if size in DESKTOPS:  # a desktop has room for the whole game's end without scrolling
            clear_of_panel(page, sheet)
        in_view(page, '#controls [data-action="ask-rematch"]')
        shoot(page, f"fit-over-{game}-{size}", full_page=False)
        page.locator(button).click()
        clear_of_panel(page, sheet)
        context.close()
