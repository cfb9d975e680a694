"""Driving the table like a person: create, join by link, and play whatever is asked."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from tests.waiting import until


def create_table(page: Page, base: str, nickname: str, seats: int = 4, timer: str = "0") -> str:
    page.goto(f"{base}/en/")
    page.fill("#id_nickname", nickname)
    page.select_option("#id_seat_count", str(seats))
    page.select_option("#id_turn_seconds", timer)
    page.click(".panel--create button.button--primary")
    page.wait_for_url("**/t/**")
    expect(page.locator("#table")).to_have_attribute("data-status", "lobby")
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)  # its redraw won't undo a choice
    return page.locator("#invite-link").input_value()


def join(page: Page, invite: str, nickname: str) -> None:
    """Take a seat by the invite link, once the page's socket is live (its first redraw of the
    lobby would otherwise race the typing and the click); a refusal names itself."""
    page.goto(invite)
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    page.fill("#join-nickname", nickname)
    page.click(".join-form button")
    try:
        expect(page.locator(".lobby-seat--you")).to_contain_text(nickname)
    except AssertionError as error:
        said = page.locator("#toast").text_content() or "no toast"
        raise AssertionError(f"{nickname} got no seat ({said.strip()})") from error


def deciding(pages: list[Page]) -> Page | None:
    """The page showing choices that can be clicked now (not while a move is on its way)."""
    for page in pages:
        if page.locator("#controls.controls--active button:enabled").count():
            return page
    return None


def decide(page: Page) -> str:
    """Take the decision on screen: draw while the row is short, otherwise the first choice
    (the round summary, beside the table, never needs closing first)."""
    controls = page.locator("#controls")
    draw = controls.locator('[data-action="draw"]')
    if draw.count():
        values = page.locator(".table__mine .row--values .card").count()
        if values < 3 and draw.is_enabled():
            draw.click()
            return "draw"
        controls.locator('[data-action="pass"]').click()
        return "pass"
    controls.locator("button").first.click()
    return "choice"


def play_until(pages: list[Page], done, timeout: float = 60) -> None:
    """Whoever must decide decides, until done() is true; each decision waits for the table it
    brings (its version on the deciding screen)."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        assert left > 0, "the game did not get there in time"
        page = until(lambda: "done" if done() else deciding(pages), "the game got there, or someone to decide", left)
        if page == "done":
            return
        version = page.locator("#table-meta").get_attribute("data-version")
        decide(page)
        expect(page.locator("#table-meta")).not_to_have_attribute("data-version", version or "")


def next_frames(page: Page, frames: int = 1) -> None:
    """Once the page has drawn `frames` more frames (what a swap or a scroll just changed is on
    screen, measurable)."""
    page.evaluate(
        """frames => new Promise(resolve => {
            const step = left => (left ? requestAnimationFrame(() => step(left - 1)) : resolve());
            step(frames);
        })""",
        frames,
    )


def two_players(browser, live_url: str, viewport: dict) -> tuple:
    """Ana hosts a two-seat table, Ben joins by the link, Ana starts: (contexts, Ana, Ben)."""
    contexts = [browser.new_context(viewport=viewport) for _ in range(2)]
    ana, ben = (context.new_page() for context in contexts)
    invite = create_table(ana, live_url, "Ana", seats=2)
    join(ben, invite, "Ben")
    ana.click("text=Start the game")
    for page in (ana, ben):  # both screens show the game (Ana's redraw may come after Ben's)
        expect(page.locator("#table")).to_have_attribute("data-status", "playing")
        expect(page.locator("#table-meta")).to_have_count(1)
    return contexts, ana, ben
