"""The chat field's hint ("Message to the table", a spectator's "Message to the spectators") is
read whole, in every language, on a desktop's side column and on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules.content.load import LANGUAGES
from tests.browser import scenes
from tests.factories import open_table

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = ({"width": 1280, "height": 800}, {"width": 1366, "height": 768}, {"width": 360, "height": 740})
# The hint's width as drawn (the field holding its text, in the placeholder's own font size)
# against the field's inner width.
HINT = """() => {
    const field = document.querySelector('#chat-text');
    const hint = field.placeholder;
    field.style.fontSize = getComputedStyle(field, '::placeholder').fontSize;
    field.value = hint;
    const widths = [hint, field.scrollWidth, field.clientWidth];
    field.value = '';
    field.style.fontSize = '';
    return widths;
}"""


@pytest.mark.parametrize("who", ["player", "spectator"])
def test_the_chat_hint_is_never_clipped(browser, live_url, who):
    table, (ana, _ben) = open_table(seats=2, turn_seconds=0)
    clipped = []
    for size in SIZES:
        context = browser.new_context(viewport=size)
        if who == "player":
            scenes.seat_as(context, live_url, ana)
        page = context.new_page()
        for language in LANGUAGES:
            page.goto(f"{live_url}/{language}/t/{table.code}/")
            expect(page.locator("#table-presence[data-known]")).to_have_count(1)
            if who == "spectator" and page.locator("#chat-name").count():
                page.fill("#chat-name", "Zoe")
                page.click("#chat-compose button")
            expect(page.locator("#chat-text")).to_have_count(1)
            hint, needed, room = page.evaluate(HINT)
            if needed > room:
                clipped.append(f"{language} at {size['width']} px: {hint!r} needs {needed} px, has {room}")
        context.close()
    assert not clipped, clipped
