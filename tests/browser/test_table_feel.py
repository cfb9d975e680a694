"""How the table feels: game over in view, the decision bar beside (never over) your row, the
round summary beside the controls, focus that survives redraws; screenshots in every language."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from game.models import Table
from rules.content.load import LANGUAGES
from tests.browser import scenes
from tests.browser.play import next_frames
from tests.factories import act, game_of

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1366, "height": 768}}


def box(page, selector: str) -> dict:
    """Where an element is drawn, once it is (a piece swapped in at that moment is measured again,
    once the page has drawn it)."""
    locator = page.locator(selector).first
    for _attempt in range(20):
        expect(locator).to_be_visible()
        found = locator.bounding_box()
        if found is not None:
            return found
        next_frames(page)
    raise AssertionError(f"{selector} is not on screen")


def overlap(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def in_view(page, selector: str) -> bool:
    found = box(page, selector)
    size = page.viewport_size
    return (
        found["y"] >= 0
        and found["y"] + found["height"] <= size["height"]
        and found["x"] >= 0
        and found["x"] + found["width"] <= size["width"]
    )


# Card names wider than the face they are printed on (each label's text must fit its card).
CLIPPED_LABELS = """() => [...document.querySelectorAll('.card')].filter(card => {
    const label = card.querySelector('.card__label');
    return label && card.offsetParent !== null && label.scrollWidth > card.clientWidth + 1;
}).map(card => card.dataset.code + ' at ' + card.clientWidth + 'px')"""


def open_table(browser, live_url, table, player, language: str, size: str):
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce", has_touch=size == "phone")
    scenes.seat_as(context, live_url, player)
    page = context.new_page()
    page.goto(f"{live_url}/{language}/t/{table.code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)  # the socket is live
    return context, page


@pytest.mark.parametrize("size", SIZES)
def test_game_over_shows_the_winner_standings_and_what_comes_next(browser, live_url, shoot, size):
    table, (ana, ben, cleo, dan) = scenes.game_over()
    for language in LANGUAGES:
        context, page = open_table(browser, live_url, table, cleo, language, size)
        expect(page.locator("#standings")).to_be_visible()
        assert in_view(page, "#standings-title"), "the winner is below the fold"
        assert page.locator(".standings__list li").count() == 4
        expect(page.locator("#scores .chart polyline")).to_have_count(4)
        expect(page.locator("#controls")).to_contain_text("Ana")  # waiting for the host
        expect(page.locator('#controls [data-action="ask-rematch"]')).to_be_visible()
        shoot(page, f"game-over-{language}-{size}", full_page=False)
        context.close()


def test_a_rematch_request_reaches_the_host(browser, live_url):
    table, (ana, ben, cleo, dan) = scenes.game_over()
    host_context, host = open_table(browser, live_url, table, ana, "en", "desktop")
    context, page = open_table(browser, live_url, table, cleo, "en", "phone")
    expect(host.locator("#standings-title")).to_have_text("Ben wins!")
    page.locator('#controls [data-action="ask-rematch"]').click()
    expect(page.locator("#controls")).to_contain_text("You asked Ana for a rematch.")
    expect(host.locator("#controls")).to_contain_text("Cleo would like a rematch.")
    host.locator('#controls [data-action="rematch"]').click()
    expect(page.locator("#table")).to_have_attribute("data-status", "playing")
    for each in (host_context, context):
        each.close()


@pytest.mark.parametrize("size", SIZES)
def test_while_you_choose_a_freeze_target_you_see_your_row_and_the_deck(browser, live_url, shoot, size):
    table, (ana, ben, cleo, dan) = scenes.freeze_pending()
    for language in LANGUAGES:
        context, page = open_table(browser, live_url, table, ben, language, size)
        expect(page.locator('#controls [data-action="target"]')).to_have_count(4)
        for selector in ("#controls", ".table__mine .seat", "#pile-deck", ".table__mine .row--values"):
            assert in_view(page, selector), selector
        assert not overlap(box(page, "#controls"), box(page, ".table__mine .seat"))
        assert "row:" in page.locator("#controls").inner_text() or language != "en"
        assert "Ben decides" not in page.locator("#table").inner_text()
        assert page.evaluate(CLIPPED_LABELS) == [], (language, page.evaluate(CLIPPED_LABELS))
        shoot(page, f"freeze-target-{language}-{size}", full_page=False)
        context.close()
    watcher = browser.new_context(viewport=SIZES[size])
    page = watcher.new_page()
    page.goto(f"{live_url}/en/t/{table.code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)  # the socket's table is in
    expect(page.locator(".table--watching .seat")).to_have_count(4)
    if size == "desktop":  # the four seats side by side, no empty half-row
        tops = {round(box(page, f"#seat-{index}")["y"]) for index in range(4)}
        assert len(tops) == 1, tops
    shoot(page, f"spectator-{size}", full_page=False)
    watcher.close()


@pytest.mark.parametrize("size", SIZES)
def test_every_card_name_fits_on_its_face_at_table_size(browser, live_url, size):
    """Each named card (bonus, action) drawn as the table draws a pending card, in every language:
    its name wraps where it may and is never cut off at the card's edge."""
    context = browser.new_context(viewport=SIZES[size], bypass_csp=True)
    page = context.new_page()
    for language in LANGUAGES:
        page.goto(f"{live_url}/{language}/rules/full/")
        cards = page.locator(".card-rules .card.card--lg")
        expect(cards.first).to_be_attached()
        page.evaluate("""() => {
            const shelf = document.createElement('div');
            shelf.className = 'table__dock';
            shelf.id = 'shelf';
            document.body.append(shelf);
            for (const width of [56, 44]) {
                for (const card of document.querySelectorAll('.card-rules .card.card--lg')) {
                    const copy = card.cloneNode(true);
                    copy.classList.replace('card--lg', 'card--md');
                    copy.style.setProperty('--w', width + 'px');
                    copy.style.setProperty('--h', Math.round(width * 1.4) + 'px');
                    shelf.append(copy);
                }
            }
        }""")
        assert page.locator("#shelf .card--action, #shelf .card--bonus").count() >= 16
        assert page.evaluate(CLIPPED_LABELS) == [], (language, page.evaluate(CLIPPED_LABELS))
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_round_summary_never_covers_the_controls_whose_clock_runs(browser, live_url, shoot, size):
    table, (ana, ben, cleo, dan) = scenes.round_scored()
    for language in LANGUAGES:
        context, page = open_table(browser, live_url, table, cleo, language, size)
        page.locator("[data-open-summary]").click()
        expect(page.locator("#summary")).to_be_visible()
        assert in_view(page, "#controls") and not overlap(box(page, "#controls"), box(page, "#summary"))
        assert not overlap(box(page, "#controls"), box(page, ".table__mine .seat"))
        shoot(page, f"round-summary-{language}-{size}", full_page=False)
        context.close()
    context, page = open_table(browser, live_url, table, cleo, "en", "phone")
    page.locator("[data-open-summary]").click()
    page.locator('#controls [data-action="draw"]').click()  # the decider plays at once
    expect(page.locator("#log-list")).to_contain_text("Cleo draws")
    context.close()


def focused_action(page) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset.action || null")


def test_focus_comes_back_to_draw_when_the_turn_comes_back(browser, live_url):
    """No Tab needed: the turn that comes back brings the focus to Draw, and says so."""
    table, (ana, ben) = scenes.two_players()
    (ana_context, ana_page), (ben_context, ben_page) = (
        open_table(browser, live_url, table, player, "en", "desktop") for player in (ana, ben)
    )
    expect(ben_page.locator("#turn-announce")).to_have_text("Your turn")
    assert focused_action(ben_page) == "draw"
    ben_page.keyboard.press("Enter")  # Ben draws; Ana's turn
    expect(ana_page.locator("#turn-announce")).to_have_text("Your turn")
    expect(ben_page.locator("#turn-announce")).to_have_text("")
    assert focused_action(ana_page) == "draw"
    ana_page.keyboard.press("Enter")  # Ana draws; Ben's turn again, after a redraw of his bar
    expect(ben_page.locator('#controls [data-action="draw"]')).to_be_focused()
    expect(ben_page).to_have_title(re.compile("^● Your turn"))
    for context in (ana_context, ben_context):
        context.close()


FOCUSED_CARD = """() => {
    const card = document.activeElement;
    if (!card || !card.matches('#table .card[data-code]')) return null;
    return {code: card.dataset.code, seat: card.closest('[data-seat]')?.dataset.seat ?? null,
            row: card.closest('.row')?.className ?? null, role: card.getAttribute('role')};
}"""


def test_cards_take_the_keyboard_focus_and_show_their_rule(browser, live_url):
    """A keyboard user reaches the cards with Tab (one stop per row), moves along a row with the
    arrows, opens a card's rule with Enter and closes it with Escape; a redraw of the row keeps
    the focus on the same card."""
    table, (ana, ben, cleo, dan) = scenes.freeze_pending()
    context, page = open_table(browser, live_url, table, ana, "en", "desktop")
    for _ in range(80):  # Tab until Dan's row of values (4 and 11)
        page.keyboard.press("Tab")
        card = page.evaluate(FOCUSED_CARD)
        if card and card["seat"] == "3" and "row--values" in card["row"]:
            break
    else:
        pytest.fail("Tab never reached Dan's cards")
    assert card["code"] == "4" and card["role"] == "button"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED_CARD)["code"] == "11"
    page.keyboard.press("Enter")
    rule = page.locator("#card-rule")
    expect(rule).to_be_visible()
    expect(rule).to_contain_text("Drawing a value you already hold busts you.")
    page.keyboard.press("Escape")
    expect(rule).to_be_hidden()
    assert page.evaluate(FOCUSED_CARD)["code"] == "11"
    page.keyboard.press("Shift+Tab")  # out of the row at once: the 4 is not a stop of its own
    assert (page.evaluate(FOCUSED_CARD) or {}).get("code") != "4"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_CARD)["code"] == "11"  # the row remembers its stop

    ben_context, ben_page = open_table(browser, live_url, table, ben, "en", "desktop")
    ben_page.locator('#controls [data-action="target"][data-target="3"]').click()  # Dan is frozen: his seat redrawn
    expect(page.locator("#seat-3.seat--frozen")).to_have_count(1)
    assert page.evaluate(FOCUSED_CARD) == {"code": "11", "seat": "3", "row": "row row--values", "role": "button"}
    for opened in (context, ben_context):
        opened.close()


def test_a_decision_like_the_last_one_is_answered_again_once_per_click(browser, live_url):
    """Ben has passed: Ana draws again and again, each decision like the last, so her controls
    are not sent again. Each click still makes exactly one move, and the bar comes back for the
    next one once the table has moved on (not when some other message arrives meanwhile)."""
    table, (ana, ben) = scenes.two_players()
    Table.objects.filter(id=table.id).update(
        options={"target": 250, "show_odds": False}
    )  # the same controls, draw after draw
    act(table, ben, {"kind": "pass"})
    context, page = open_table(browser, live_url, table, ana, "en", "desktop")
    draw = page.locator('#controls [data-action="draw"]')
    for _turn in range(3):
        version = int(page.locator("#table-meta").get_attribute("data-version"))
        expect(draw).to_be_enabled()
        draw.click()
        expect(page.locator("#table-meta")).to_have_attribute("data-version", str(version + 1))
    expect(draw).to_be_enabled()
    assert game_of(table).version == version + 1
    assert page.locator("#log-list li", has_text="Ana draws").count() == 3
    context.close()
