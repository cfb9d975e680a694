"""The keyboard alone: in the lobby the focus stays on a sensible control after each "Add bot" (the
next free seat's, then Start), in both games; at a Sevens table the hand is one Tab stop, the
arrows move over every card in it, Enter plays a playable card or shows another's rule."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import scenes
from tests.browser.play import create_table
from tests.browser.test_table_polish import sevens_host
from tests.games.sevens.tables import state_of

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}

# What has the keyboard's focus: a lobby control, a card of the hand, or something else.
FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return {where: 'body'};
    const form = el.closest('form'), index = form && form.querySelector('input[name="index"]');
    const hand = el.closest('#controls .sevens-hand__cards');
    return {
        where: hand ? 'hand' : el.closest('#table') ? 'table' : 'page',
        action: el.dataset.action || null,
        index: index ? Number(index.value) : null,
        card: el.dataset.card || el.dataset.code || null,
        playable: el.matches('.sevens-play'),
    };
}"""


def focused(page) -> dict:
    return page.evaluate(FOCUSED)


def tab_to(page, wanted, presses: int = 80) -> dict:
    for _ in range(presses):
        page.keyboard.press("Tab")
        now = focused(page)
        if wanted(now):
            return now
    raise AssertionError(f"Tab never got there (last: {focused(page)})")


@pytest.mark.parametrize("game", ["sevn", "sevens"])
def test_add_bot_leaves_the_focus_on_the_next_free_seat_then_on_start(browser, live_url, game):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    if game == "sevn":
        create_table(page, live_url, "Ana", seats=3)
    else:
        sevens_host(page, live_url, "Ana")
    free = [1, 2]  # both games: three seats, the host in the first
    now = tab_to(page, lambda now: now.get("action") == "add-bot")
    assert now["index"] == free[0]
    for added, index in enumerate(free, start=1):
        assert focused(page)["index"] == index
        page.keyboard.press("Enter")
        expect(page.locator(".lobby-seat .badge--bot")).to_have_count(added)
        expect(page.locator('.lobby-seat [data-action="add-bot"]')).to_have_count(len(free) - added)
        if added < len(free):  # the next free seat's "Add bot", ready for another Enter
            expect(
                page.locator(f'form:has(input[name="index"][value="{free[added]}"]) [data-action="add-bot"]')
            ).to_be_focused()
    expect(page.locator('[data-action="start"]')).to_be_focused()  # every seat taken: Start
    page.keyboard.press("Enter")
    expect(page.locator("#table")).to_have_attribute("data-status", "playing")
    context.close()


def test_the_sevens_hand_is_one_tab_stop_with_arrows_inside(browser, live_url):
    table, players = scenes.sevens_hand_to_choose()
    state = state_of(table)
    seat = state["current"]
    hand = state["seats"][seat]["hand"]
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    scenes.seat_as(context, live_url, players[seat])
    page = context.new_page()
    sockets: list = []
    page.route_web_socket(re.compile(r"/ws/t/"), lambda socket: sockets.append((socket, socket.connect_to_server())))
    page.goto(f"{live_url}/en/t/{table.code}/")
    expect(page.locator("#controls.controls--active")).to_have_count(1)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Escape")

    entered = tab_to(page, lambda now: now["where"] == "hand")
    assert entered["playable"], f"Tab landed on a card you cannot play: {entered}"
    page.keyboard.press("Tab")
    assert focused(page)["where"] != "hand", "a second Tab stayed in the hand"
    page.keyboard.press("Shift+Tab")
    assert focused(page) == entered  # back on the same card

    page.keyboard.press("Home")
    visited = [focused(page)]
    for _ in range(len(hand) - 1):
        page.keyboard.press("ArrowRight")
        visited.append(focused(page))
    assert [card["card"] for card in visited] == page.locator(
        "#controls .sevens-hand__card > form > .sevens-play, #controls .sevens-hand__card > .card"
    ).evaluate_all("items => items.map(item => item.dataset.card || item.dataset.code)")
    assert sorted(card["card"] for card in visited) == sorted(hand)

    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    held = focused(page)
    page.evaluate("document.querySelector('#controls [data-hand]').dataset.before = 'redraw'")
    sockets[0][0].close(code=1012)  # the connection drops and comes back: the table is redrawn
    expect(page.locator("#controls [data-hand][data-before]")).to_have_count(0)
    assert focused(page) == held, f"a redraw moved the focus away from the card it was on: {focused(page)} {held}"
    dead = next(card for card in visited if not card["playable"])
    playable = next(card for card in visited if card["playable"])

    page.keyboard.press("Home")
    while focused(page)["card"] != dead["card"]:
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # a card you cannot play: why not
    expect(page.locator("#card-rule")).to_be_visible()
    expect(page.locator("#card-rule")).to_contain_text("does not fit")
    page.keyboard.press("Escape")
    expect(page.locator("#card-rule")).to_be_hidden()
    assert focused(page)["card"] == dead["card"]
    page.keyboard.press("Tab")  # out of the hand, and back: on a playable card, not the dead one
    page.keyboard.press("Shift+Tab")
    assert focused(page)["playable"]

    while focused(page)["card"] != playable["card"]:
        page.keyboard.press("ArrowLeft" if visited.index(playable) < visited.index(focused(page)) else "ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator(f'.sevens-layout [data-code="{playable["card"]}"]')).to_have_count(1)
    assert playable["card"] not in state_of(table)["seats"][seat]["hand"]
    context.close()
