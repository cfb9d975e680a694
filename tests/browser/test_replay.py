"""A finished game's replay in a browser: arrow keys and the slider step through it, the address
follows (?step=N) and a link opens that step; Sevens shows every hand."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from game.services.records import game_record
from tests.fair.play import Unwatched, play_out, table_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_arrow_keys_and_the_slider_step_through_a_finished_game(page, live_url, shoot):
    table, players = table_of("sevens", seeds={0: "abc"})
    game = play_out(table, players, Unwatched())
    steps = len(game_record(game.id)["moves"])
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_url}/en/g/{game.public_id}/")
    expect(page.locator("#replay-counter")).to_contain_text(f"The deal (before move 1 of {steps})")
    expect(page.locator("#open-hands .open-hands__seat")).to_have_count(3)  # every hand, face up
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-counter")).to_have_text(f"Move 1 of {steps}")
    expect(page).to_have_url(f"{live_url}/en/g/{game.public_id}/?step=1")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-counter")).to_have_text(f"Move 3 of {steps}")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-counter")).to_have_text(f"Move 2 of {steps}")
    assert page.locator("#replay-slider").input_value() == "2"
    expect(page.locator('[data-replay-to="next"]')).to_have_attribute("href", "?step=3")
    shoot(page, "replay-sevens")
    page.locator("#replay-slider").fill(str(steps))  # the slider to its end
    expect(page.locator("#replay-counter")).to_have_text(f"Move {steps} of {steps}")
    expect(page.locator("section#table.table--over")).to_have_count(1)
    expect(page.locator("#replay-log")).to_contain_text("A new game starts.")
    # a link to a step opens that step
    page.goto(f"{live_url}/en/g/{game.public_id}/?step=7")
    expect(page.locator("#replay-counter")).to_have_text(f"Move 7 of {steps}")
    assert page.locator("#replay-slider").input_value() == "7"
    page.keyboard.press("End")
    expect(page).to_have_url(f"{live_url}/en/g/{game.public_id}/?step={steps}")
    shoot(page, "replay-sevens-end")


def test_a_sevn_replay_at_phone_width(page, live_url, shoot):
    table, players = table_of("sevn")
    game = play_out(table, players, Unwatched())
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(f"{live_url}/de/g/{game.public_id}/?step=4")
    expect(page.locator("#replay-counter")).to_have_text(f"Zug 4 von {len(game_record(game.id)['moves'])}")
    expect(page.locator("#open-hands")).to_have_count(0)  # SEVN's cards are all on the table already
    page.click('[data-replay-to="next"]')
    expect(page).to_have_url(f"{live_url}/de/g/{game.public_id}/?step=5")
    shoot(page, "replay-sevn-phone-de")
