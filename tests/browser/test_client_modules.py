"""The page's script is native ES modules with no build step (static/sevn/sevn.js imports
static/sevn/js/): on each page that uses them (the start page, a live table, a replay, the
rulebook's pages) every module is fetched and runs with no console error (conftest fails a test
on any: a module that fails to load or throws included), and shows its work there. The modules'
size, headers and import graph: tests/pages/test_client_modules.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from game.services.records import game_record
from tests.browser.conftest import DESKTOP
from tests.browser.play import create_table
from tests.fair.play import Unwatched, play_out, table_of

pytestmark = pytest.mark.django_db(transaction=True)

MODULES = {path.name for path in (Path(__file__).resolve().parents[2] / "static" / "sevn" / "js").glob("*.js")}


def fetched_modules(page) -> set[str]:
    names = page.evaluate("performance.getEntriesByType('resource').map((entry) => entry.name)")
    return {name.split("?")[0].rsplit("/", 1)[-1] for name in names if "/static/sevn/js/" in name}


def test_every_module_loads_and_works_on_each_page(page, live_url):
    page.set_viewport_size(DESKTOP)

    # the start page: the seat choices are the chosen game's, as its Kind says (game_choice.js)
    page.goto(f"{live_url}/en/")
    assert fetched_modules(page) == MODULES
    seats = page.locator("#id_seat_count")
    page.check('input[name="kind"][value="sevens"]')
    expect(seats.locator('option[value="2"]')).to_be_disabled()
    expect(seats.locator('option[value="8"]')).to_be_disabled()
    expect(seats.locator('option[value="7"]')).to_be_enabled()
    expect(page.locator('.form__field[data-for-game="sevn"]')).to_be_hidden()
    page.check('input[name="kind"][value="sevn"]')
    expect(seats.locator('option[value="8"]')).to_be_enabled()
    expect(page.locator('.form__field[data-for-game="sevens"]')).to_be_hidden()

    # a live table: its socket's first table arrived (table_socket.js), the invitation link is
    # a whole address (lobby.js), and no connection note shows (connection.js)
    create_table(page, live_url, "Ana")
    assert fetched_modules(page) == MODULES
    expect(page.locator("#invite-link")).to_have_value(re.compile(rf"^{re.escape(live_url)}/"))
    expect(page.locator("#connection")).to_be_hidden()

    # a replay steps with the arrow keys (replay.js)
    table, players = table_of("sevn")
    game = play_out(table, players, Unwatched())
    steps = len(game_record(game.id)["moves"])
    page.goto(f"{live_url}/en/g/{game.public_id}/")
    assert fetched_modules(page) == MODULES
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-counter")).to_have_text(f"Move 1 of {steps}")

    # the rulebook's pictures move (rulebook_demos.js)
    page.goto(f"{live_url}/en/rules/")
    assert fetched_modules(page) == MODULES
    expect(page.locator("[data-demo] [data-demo-controls]")).to_be_visible()
    page.goto(f"{live_url}/en/rules/full/")
    assert fetched_modules(page) == MODULES
    expect(page.locator("[data-scoring] [data-scoring-controls]")).to_be_visible()
    page.goto(f"{live_url}/en/rules/sevens/")
    assert fetched_modules(page) == MODULES
    expect(page.locator("[data-fits-verdicts]")).to_be_hidden()
    expect(page.locator("[data-fits-result]")).to_be_visible()
