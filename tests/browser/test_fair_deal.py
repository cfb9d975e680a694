"""The fair-deal panel in a browser: before the deal each seated person's browser sends a fresh
random client seed (shown, and changeable), the commitment on screen is the server's, and the
deal uses the seeds the browsers sent."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from game.fair import seeds
from game.models import Seat, Table
from tests.browser.play import create_table, join

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def open_panel(page):
    panel = page.locator("#table-fair")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    return panel


def test_each_browser_contributes_a_client_seed_to_the_deal(browser, live_url, shoot):
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    ana, ben = (context.new_page() for context in contexts)
    invite = create_table(ana, live_url, "Ana", seats=2)
    join(ben, invite, "Ben")
    table = Table.objects.get(host_name="Ana")
    for page in (ana, ben):
        panel = open_panel(page)
        expect(panel.locator("[data-fair-next]")).to_have_text(seeds.commitment(table.next_seed))
        expect(panel.locator("[data-fair-status]")).to_have_text("Your seed counts for the next deal.")
    # Ben's browser drew 32 random bytes and sent them; Ana types a seed of her own
    ben_seed = ben.locator("#fair-seed").input_value()
    assert re.fullmatch(r"[0-9a-f]{64}", ben_seed)
    assert ana.locator("#fair-seed").input_value() != ben_seed
    ana.fill("#fair-seed", "AnaPicksThis7")
    expect(ana.locator("[data-fair-status]")).to_have_text("")  # edited: not sent yet
    ana.click("text=Use this seed")
    expect(ana.locator("[data-fair-status]")).to_have_text("Your seed counts for the next deal.")
    seated = dict(Seat.objects.filter(table=table).values_list("nickname", "client_seed"))
    assert seated == {"Ana": "AnaPicksThis7", "Ben": ben_seed}
    committed = seeds.commitment(table.next_seed)
    shoot(ana, "fair-panel-lobby")
    ana.click("text=Start the game")
    expect(ben.locator("#table")).to_have_attribute("data-status", "playing")
    game = table.games.get()
    assert game.commitment == committed and game.client_seeds == [[0, "AnaPicksThis7"], [1, ben_seed]]
    panel = open_panel(ben)
    expect(panel.locator("[data-fair-commitment]")).to_have_text(committed)
    expect(panel).to_contain_text(ben_seed)
    expect(panel).to_contain_text("Revealed when the game is over.")
    assert table.next_seed not in ben.content() and game.server_seed not in ben.content()
    shoot(ben, "fair-panel-playing")
    for context in contexts:
        context.close()
