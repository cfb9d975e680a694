"""The rulebook in a browser: the self-playing round, the scoring animation, the language
switcher on the rules and on the table, and a screenshot of each page in every language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules.content.load import LANGUAGES
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import create_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_step_through_the_demo_round_and_the_scoring(page, live_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_url}/en/rules/")
    demo = page.locator("[data-demo]")
    demo.locator("[data-demo-toggle]").click()  # pause the autoplay, then step by hand
    frame = demo.locator("[data-frame]:visible")
    expect(frame).to_contain_text("1/6")
    expect(frame).to_contain_text("First everyone gets one open card.")
    for step in range(2, 7):
        demo.locator("[data-demo-next]").click()
        expect(demo.locator("[data-frame]:visible")).to_contain_text(f"{step}/6")
    expect(demo.locator("[data-frame]:visible")).to_contain_text("Nobody is left in round")
    demo.locator("[data-demo-prev]").click()
    expect(demo.locator("[data-frame]:visible")).to_contain_text("5/6")

    page.goto(f"{live_url}/en/rules/full/")
    scoring = page.locator("[data-scoring]")
    scoring.scroll_into_view_if_needed()
    scoring.locator("[data-scoring-restart]").click()
    totals = []
    expect(scoring.locator("[data-scoring-total]")).to_have_text("0")
    for _ in range(5):
        scoring.locator("[data-scoring-next]").click()
        totals.append(scoring.locator("[data-scoring-total]").inner_text())
    assert totals == ["33", "66", "70", "70", "82"]
    expect(scoring.locator("[data-scoring-next]")).to_be_disabled()


def test_demo_plays_by_itself(page, live_url):
    page.goto(f"{live_url}/en/rules/")
    expect(page.locator("[data-demo] [data-frame]:visible")).to_contain_text("2/6", timeout=8000)


def test_switch_language_on_a_rules_page_and_on_the_table(page, live_url):
    page.goto(f"{live_url}/en/rules/full/")
    page.click('.lang-switch a[hreflang="pl"]')
    expect(page).to_have_url(f"{live_url}/pl/rules/full/")
    expect(page.locator("h1")).to_have_text("Pełne zasady")
    assert page.locator("html").get_attribute("lang") == "pl"

    create_table(page, live_url, "Ana")
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    page.click('.lang-switch a[hreflang="fr"]')
    expect(page).to_have_url(f"{live_url}/fr/t/{code}/")
    expect(page.locator(".lobby__actions")).to_contain_text("Lancer la partie")
    expect(page.locator(".lobby-seat--you")).to_contain_text("Ana")


@pytest.mark.parametrize("language", LANGUAGES)
def test_screenshots_of_both_pages(browser, live_url, shoot, language):
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport, reduced_motion="reduce")
        page = context.new_page()
        for path, title in (("rules/", "tutorial"), ("rules/full/", "full-rules")):
            page.goto(f"{live_url}/{language}/{path}")
            expect(page.locator("html")).to_have_attribute("lang", language)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
            shoot(page, f"{title}-{language}-{name}")
        context.close()
