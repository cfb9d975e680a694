"""The Sevens rules page in a browser: the worked example in every language (each card's verdict
is the engine's), by click, tap and keyboard, complete without JavaScript, and screenshots of the
page in every language on a desktop and a phone."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from game.games.sevens import rulebook as sevens
from rules.content.load import LANGUAGES
from tests.browser.conftest import DESKTOP

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 360, "height": 740}


def _verdicts(language: str) -> list[tuple[str, str]]:
    """Each example card with the text its verdict must show: the engine's, in `language`."""
    with translation.override(language):
        judged = sevens.verdicts(sevens.EXAMPLE_HAND, sevens.EXAMPLE_LAYOUT)
    return [(v["code"], f"{'✓' if v['fits'] else '✗'} {v['reason']}") for v in judged]


@pytest.mark.parametrize("language", LANGUAGES)
def test_choose_every_card_of_the_example_and_screenshots(browser, live_url, shoot, language):
    for name, viewport, touch in (("desktop", DESKTOP, False), ("phone", PHONE, True)):
        context = browser.new_context(viewport=viewport, has_touch=touch, reduced_motion="reduce")
        page = context.new_page()
        page.goto(f"{live_url}/{language}/rules/sevens/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        result = page.locator("[data-fits-result]")
        expect(page.locator("[data-fits-verdicts]")).to_be_hidden()  # the script shows one at a time
        shown = []
        for code, text in _verdicts(language):
            pick = page.locator(f'[data-pick="{code}"]')
            pick.tap() if touch else pick.click()
            expect(result).to_have_text(text)
            expect(pick).to_have_attribute("aria-checked", "true")
            shown.append(result.inner_text())
        assert len(set(shown)) == len(sevens.EXAMPLE_HAND)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.locator(f'[data-pick="{sevens.EXAMPLE_HAND[0]}"]').click()
        shoot(page, f"sevens-{language}-{name}")
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, f"sevens-{language}-{name}-top", full_page=False)
        page.locator("[data-fits-example]").scroll_into_view_if_needed()
        shoot(page, f"sevens-{language}-{name}-example", full_page=False)
        page.locator(".cases").scroll_into_view_if_needed()
        shoot(page, f"sevens-{language}-{name}-cases", full_page=False)
        context.close()


def test_choose_a_card_with_the_keyboard(page, live_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_url}/en/rules/sevens/")
    expected = dict(_verdicts("en"))
    result = page.locator("[data-fits-result]")
    expect(result).to_have_text("Choose a card from your hand.")
    page.locator("[data-fits-hand]").locator("[tabindex='0']").focus()  # the hand is one Tab stop
    page.keyboard.press("Enter")
    expect(result).to_have_text(expected["5D"])
    page.keyboard.press("ArrowRight")
    expect(result).to_have_text(expected["9D"])
    expect(page.locator('[data-pick="9D"]')).to_be_focused()
    page.keyboard.press("End")
    expect(result).to_have_text(expected["KH"])
    page.keyboard.press("ArrowRight")  # wraps round to the first card
    expect(result).to_have_text(expected["5D"])
    assert page.locator("[data-fits-hand] [tabindex='0']").count() == 1


def test_without_javascript_every_verdict_is_on_the_page(browser, live_url):
    context = browser.new_context(java_script_enabled=False, viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{live_url}/de/rules/sevens/")
    verdicts = page.locator("[data-fits-verdicts] [data-verdict]")
    expect(verdicts).to_have_count(len(sevens.EXAMPLE_HAND))
    for code, text in _verdicts("de"):
        expect(page.locator(f'[data-verdict="{code}"]')).to_be_visible()
        expect(page.locator(f'[data-verdict="{code}"]')).to_have_text(text)
    page.locator('[data-pick="6C"]').click()  # a card is a link to its verdict
    assert page.url.endswith("#fits-6C")
    context.close()


@pytest.mark.parametrize("width", [560, 640, 800, 1024])
def test_no_sideways_scrolling_between_phone_and_desktop(page, live_url, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_url}/pl/rules/sevens/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_from_the_home_page_and_the_rulebook_to_the_sevens_page(browser, live_url, shoot):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_url}/de/")
    teaser = page.locator(".home-sevens")
    teaser.scroll_into_view_if_needed()
    shoot(page, "sevens-home-de-phone", full_page=False)
    teaser.get_by_role("link", name="So wird Sevens gespielt").tap()
    expect(page).to_have_url(f"{live_url}/de/rules/sevens/")
    page.goto(f"{live_url}/de/rules/full/")
    page.locator(".rules-nav").get_by_role("link", name="So wird Sevens gespielt").tap()
    expect(page.locator("h1")).to_have_text("So wird Sevens gespielt")
    context.close()
