"""Sevens in a browser: a host creates a Sevens table from the home page; two people and a
spectator play it live at phone width with the keyboard, every screen in step, no hand but
your own on your screen; screenshots of the table in every language."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from game.models import Event, Table
from rules.content.load import LANGUAGES
from tests.browser import scenes
from tests.games.sevens.tables import PASS_CERTAIN_SEED, sevens_table, state_of

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 768}


def open_as(browser, live_url, table, player, size=PHONE, language="en"):
    context = browser.new_context(viewport=size, reduced_motion="reduce", has_touch=size is PHONE)
    if player is not None:
        scenes.seat_as(context, live_url, player)
    page = context.new_page()
    page.goto(f"{live_url}/{language}/t/{table.code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)  # the socket is live
    return context, page


def version(page) -> int:
    return int(page.locator("#table-meta").get_attribute("data-version"))


def hand_codes(page) -> set[str]:
    return set(
        page.locator("#controls .sevens-hand__cards [data-code]").evaluate_all(
            "cards => cards.map(card => card.dataset.code)"
        )
    )


def test_a_host_creates_a_sevens_table_adds_a_bot_and_starts(page, live_url):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_url}/en/")
    page.get_by_label("Sevens", exact=False).first.check()
    expect(page.locator('[data-for-game="sevens"]').first).to_be_visible()
    expect(page.locator('[data-for-game="sevn"]').first).to_be_hidden()
    assert page.locator('#id_seat_count option[value="2"]').is_disabled()
    page.fill("#id_nickname", "Mia")
    page.select_option("#id_seat_count", "3")
    page.select_option("#id_rounds", "2")
    page.select_option("#id_turn_seconds", "0")
    page.click(".panel--create button.button--primary")
    page.wait_for_url("**/t/**")
    table = Table.objects.get(host_name="Mia")
    assert (table.kind, table.options["rounds"], table.seat_count) == ("sevens", 2, 3)
    for bots in (1, 2):
        page.locator('[data-action="add-bot"]').first.click()
        expect(page.locator(".lobby-seat .badge--bot")).to_have_count(bots)
    page.locator('[data-action="start"]').click()
    expect(page.locator("#sevens-layout")).to_be_visible()
    expect(page.locator(".sevens-row")).to_have_count(4)
    expect(page.locator("#seat-0")).to_contain_text("Mia")


def test_two_people_and_a_spectator_play_a_round_live_with_the_keyboard(browser, live_url, shoot):
    table, (ana, ben) = sevens_table(
        names=("Ana", "Ben"), bots=("easy",), turn_seconds=0, rounds=1, seed=PASS_CERTAIN_SEED
    )
    ana_context, ana_page = open_as(browser, live_url, table, ana)
    ben_context, ben_page = open_as(browser, live_url, table, ben)
    watch_context, watcher = open_as(browser, live_url, table, None)
    pages = {0: ana_page, 1: ben_page}
    plays = 0
    for _ in range(80):
        state = state_of(table)
        if state["over"]:
            break
        seat = state["current"]
        page = pages[seat]
        expect(page.locator("#controls.controls--active")).to_have_count(1)
        expect(page.locator("#table-turn")).to_have_text(re.compile("Your turn"))
        mine = set(state["seats"][seat]["hand"])
        assert hand_codes(page) == mine  # your own hand, sorted by suit then rank
        other = pages[1 - seat]
        assert not (hand_codes(other) & mine)  # nobody else's screen has a card of yours
        assert not (
            set(watcher.locator("[data-code]").evaluate_all("c => c.map(x => x.dataset.code)"))
            & (mine - {c + s for s in "SHDC" for c in ("7",)})
        )
        before = version(page)
        focused = page.evaluate("document.activeElement && document.activeElement.dataset.card || null")
        assert focused, "the turn brings the focus to a card you can play"
        page.keyboard.press("Enter")
        expect(page.locator("#table-meta")).not_to_have_attribute("data-version", str(before))
        plays += 1
        if plays == 3:
            shoot(page, "sevens-play-phone", full_page=False)
            shoot(watcher, "sevens-spectator-phone", full_page=False)
    assert state_of(table)["over"] and plays > 5
    assert Event.objects.filter(game__table=table, kind="passed").exists()  # the deal brought its pass
    for page in (ana_page, ben_page, watcher):
        expect(page.locator("#standings")).to_be_visible()
        expect(page.locator("#summary")).to_be_visible()
        expect(page.locator("#log-list")).to_contain_text("passes: nothing fits")
    shoot(ana_page, "sevens-game-over-phone", full_page=False)
    for context in (ana_context, ben_context, watch_context):
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screenshots_of_a_sevens_table_in_every_language(browser, live_url, shoot, size):
    table, (ana, ben, cleo) = sevens_table(names=("Ana", "Ben", "Cleo"), bots=("medium",), turn_seconds=30)
    for language in LANGUAGES:
        context, page = open_as(browser, live_url, table, ana, PHONE if size == "phone" else DESKTOP, language)
        expect(page.locator(".sevens-row")).to_have_count(4)
        shoot(page, f"sevens-table-{language}-{size}", full_page=False)
        context.close()
