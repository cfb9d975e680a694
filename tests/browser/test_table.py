"""Two friends create and join a table by its link and play live; reloads and spectators."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import create_table, decide, deciding, join, play_until, two_players
from tests.waiting import POLL_MS, until

pytestmark = pytest.mark.django_db(transaction=True)


def log_text(page) -> str:
    return page.locator("#log-list").inner_text()


def test_two_friends_play_a_round_live_and_a_spectator_watches(browser, live_url, shoot):
    ana_ctx = browser.new_context(viewport=DESKTOP)
    ben_ctx = browser.new_context(viewport=PHONE)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    invite = create_table(ana, live_url, "Ana", seats=3)
    assert re.fullmatch(rf"{re.escape(live_url)}/t/[A-Z0-9]{{6}}/", invite)
    join(ben, invite, "Ben")
    expect(ana.locator(".lobby__seats")).to_contain_text("Ben")  # live, no reload
    shoot(ana, "lobby-desktop")

    ana.click("text=Start the game")
    expect(ana.locator("#table")).to_have_attribute("data-status", "playing")
    expect(ben.locator("#table")).to_have_attribute("data-status", "playing")

    watcher_ctx = browser.new_context(viewport=DESKTOP)
    watcher = watcher_ctx.new_page()
    watcher.goto(invite)
    expect(watcher.locator("#controls")).to_contain_text("You are watching this game.")

    # every draw appears on the other screens at once
    seen_draw = False
    for _ in range(40):
        page = until(lambda: deciding([ana, ben]), "someone to decide")
        name = "Ana" if page is ana else "Ben"
        other = ben if page is ana else ana
        before = log_text(other).count(f"{name} draws")
        version = page.locator("#table-meta").get_attribute("data-version")
        if decide(page) == "draw":
            expect(other.locator("#log-list")).to_contain_text(f"{name} draws", timeout=5000)
            assert log_text(other).count(f"{name} draws") == before + 1
            expect(watcher.locator("#log-list")).to_contain_text(f"{name} draws")
            seen_draw = True
            break
        expect(page.locator("#table-meta")).not_to_have_attribute("data-version", version or "")
    assert seen_draw
    assert watcher.locator("#controls button").count() == 0
    shoot(ana, "table-desktop")
    shoot(ben, "table-phone")

    play_until([ana, ben], lambda: "Round 1 scored" in log_text(ana))
    expect(ben.locator("#log-list")).to_contain_text("Round 1 scored")
    expect(watcher.locator("#log-list")).to_contain_text("Round 1 scored")
    expect(ana.locator("#summary")).to_be_visible()
    shoot(ana, "round-summary-desktop")
    for context in (ana_ctx, ben_ctx, watcher_ctx):
        context.close()


def test_reload_mid_round_brings_the_player_back_to_their_seat(browser, live_url):
    contexts, ana, ben = two_players(browser, live_url, DESKTOP)
    play_until([ana, ben], lambda: ben.locator("#table-meta").get_attribute("data-version") not in ("1", None))
    version = ben.locator("#table-meta").get_attribute("data-version")
    ben.reload()
    expect(ben.locator(".table__mine .seat")).to_contain_text("Ben")
    expect(ben.locator("#table-meta")).to_have_attribute("data-version", version)
    # after the reload Ben still plays: the socket is back and his decisions reach the server
    play_until([ana, ben], lambda: int(ben.locator("#table-meta").get_attribute("data-version")) >= int(version) + 2)
    for context in contexts:
        context.close()


def test_a_refusal_arriving_after_the_socket_redrew_its_form_still_shows(browser, live_url):
    """The host's Start is on its way when the lobby is drawn again (Ben left): the form that
    sent it is gone from the page, and the refusal still shows in the page's toast (htmx alone
    looked for the toast's place inside the detached form)."""
    ana_ctx, ben_ctx = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    invite = create_table(ana, live_url, "Ana", seats=2)
    join(ben, invite, "Ben")
    held = []
    ana.route("**/start/", lambda route: held.append(route))
    ana.click("text=Start the game")
    until(lambda: held, "the start reached the route", page=ana)
    assert len(held) == 1
    ben.click(".lobby__actions button")  # Leave seat
    expect(ana.locator(".lobby-seat", has_text="Ben")).to_have_count(0)
    held[0].continue_()
    expect(ana.locator("#toast .toast")).to_be_visible()
    expect(ana.locator("#toast .toast")).not_to_be_empty()
    expect(ana.locator("#table")).to_have_attribute("data-status", "lobby")
    for context in (ana_ctx, ben_ctx):
        context.close()


def test_keyboard_plays_draw_and_pass(browser, live_url):
    contexts, ana, ben = two_players(browser, live_url, DESKTOP)

    def turn_on_screen() -> bool:
        page = deciding([ana, ben])
        return page is not None and page.locator('#controls [data-action="pass"]').count() > 0

    play_until([ana, ben], turn_on_screen)  # Ballast or a target first? Those get answered
    page = deciding([ana, ben])
    name = "Ana" if page is ana else "Ben"
    page.keyboard.press("p")
    expect(page.locator("#log-list")).to_contain_text(f"{name} passes.")
    for context in contexts:
        context.close()


def test_a_person_plays_a_round_against_bots(browser, live_url, shoot):
    context = browser.new_context(viewport=DESKTOP)
    ana = context.new_page()
    create_table(ana, live_url, "Ana", seats=4)
    for level in ("easy", "medium", "hard"):
        seat = ana.locator(".lobby-seat:not(.lobby-seat--taken)").first
        seat.locator("select").select_option(level)
        seat.locator("button").click()
        expect(ana.locator(".lobby__seats")).to_contain_text(f"bot · {level}")
    expect(ana.locator(".lobby-seat--taken")).to_have_count(4)
    ana.click("text=Start the game")
    expect(ana.locator("#table")).to_have_attribute("data-status", "playing")
    expect(ana.locator(".seat .badge--bot")).to_have_count(3)
    play_until([ana], lambda: "Round 1 scored" in log_text(ana), timeout=60)
    assert any(name in log_text(ana) for name in ("Bot Ada", "Bot Alan", "Bot Grace"))
    shoot(ana, "table-with-bots-desktop")
    context.close()


def test_a_nickname_being_typed_survives_live_updates(browser, live_url):
    ana_ctx, ben_ctx, cleo_ctx = (browser.new_context(viewport=DESKTOP) for _ in range(3))
    ana, ben, cleo = ana_ctx.new_page(), ben_ctx.new_page(), cleo_ctx.new_page()
    invite = create_table(ana, live_url, "Ana", seats=4)
    ben.goto(invite)
    expect(ben.locator(".lobby__seats")).to_contain_text("Ana")
    ben.fill("#join-nickname", "Ben")
    join(cleo, invite, "Cleo")  # Ben's lobby redraws live while he is still typing
    expect(ben.locator(".lobby__seats")).to_contain_text("Cleo")
    expect(ben.locator("#join-nickname")).to_have_value("Ben")
    for context in (ana_ctx, ben_ctx, cleo_ctx):
        context.close()


TURN_LIGHT = """() => {
  const turn = document.getElementById("table-meta").dataset.turn;
  return [...document.querySelectorAll(".seat[data-seat]")].map(
    (seat) => [seat.dataset.seat === turn, getComputedStyle(seat).boxShadow !== "none"]);
}"""


def lit_seats(page, seconds: float = 2.0) -> list:
    """Each seat: (whether #table-meta says it decides, whether it is lit), once the light's fade
    (0.2 s) has settled, or as it is after `seconds` (for the caller's message)."""
    try:
        page.wait_for_function(
            f"() => ({TURN_LIGHT})().every(([isTurn, lit]) => isTurn === lit)",
            timeout=seconds * 1000,
            polling=POLL_MS,
        )
    except PlaywrightTimeoutError:
        pass
    return page.evaluate(TURN_LIGHT)


def test_the_turn_light_follows_the_decider_and_a_summary_stays_beside_play(browser, live_url):
    contexts, ana, ben = two_players(browser, live_url, DESKTOP)
    for _ in range(3):  # only what changed is sent: the light moves without redrawing the seats
        for page in (ana, ben):
            lights = lit_seats(page)
            assert len(lights) == 2 and all(is_turn == lit for is_turn, lit in lights), lights
        page = until(lambda: deciding([ana, ben]), "someone to decide")
        version = page.locator("#table-meta").get_attribute("data-version")
        decide(page)
        expect(page.locator("#table-meta")).not_to_have_attribute("data-version", version)

    play_until([ana, ben], lambda: "Round 1 scored" in log_text(ana) and "Round 1 scored" in log_text(ben))
    expect(ana.locator("#summary")).to_be_visible()
    expect(ben.locator("#summary")).to_be_visible()
    mover = until(lambda: deciding([ana, ben]), "someone to decide")
    reader = ben if mover is ana else ana
    version = reader.locator("#table-meta").get_attribute("data-version")
    decide(mover)  # at once: nothing to close first
    expect(reader.locator("#table-meta")).not_to_have_attribute("data-version", version)
    expect(reader.locator("#summary")).to_be_visible()  # the next move does not close it
    reader.locator("[data-close-summary]").click()
    expect(reader.locator("#summary")).to_be_hidden()
    for context in contexts:
        context.close()


def pause_clock(page) -> None:
    """Stop the page's clock a moment past its own now. The clock runs until then, and a busy
    machine can take longer than the moment between reading the page's now and pausing (Playwright
    refuses to pause in the past, "Cannot fast-forward to the past"): then it is read again."""
    from playwright.sync_api import Error

    for _ in range(10):
        try:
            page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 0.5)  # (seconds)
            return
        except Error as error:
            if "to the past" not in str(error):
                raise
    raise AssertionError("the page's clock ran past every moment it was to pause at")


def test_the_turn_clock_steps_once_a_second_with_its_seconds(browser, live_url, shoot):
    """The countdown's ring and its seconds change together as each second turns, and not in
    between: a ring eased on a 250 ms tick redrew itself sixty times a second for as long as a
    clock ran (a fifth of a core per open table in headless Chromium, and a phone's battery)."""
    from tests.browser.scenes import seat_as
    from tests.factories import open_table

    table, (ana, _ben) = open_table(turn_seconds=30)
    context = browser.new_context(viewport=DESKTOP)
    seat_as(context, live_url, ana)
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_url}/en/t/{table.code}/")
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    seconds = page.locator("#table-turn .countdown__text")
    # some of the thirty seconds may be gone by now on a loaded machine; five must be left
    expect(seconds).to_have_text(re.compile(r"^([6-9]|[12][0-9]|30)$"))
    pause_clock(page)  # time moves only as the test says
    page.evaluate(
        """() => {
            window.ringSteps = 0;
            const ring = document.querySelector('#table-turn .countdown__ring');
            new MutationObserver(found => { window.ringSteps += found.length; })
                .observe(ring, {attributes: true, attributeFilter: ['style']});
        }"""
    )
    before = int(seconds.inner_text())
    page.clock.run_for(5_000)  # time under test: five seconds of the page's own clock
    expect(seconds).to_have_text(str(before - 5))
    assert 4 <= page.evaluate("window.ringSteps") <= 6, "one step of the ring a second"
    ring = page.locator("#table-turn .countdown__ring")
    transition = ring.evaluate("ring => getComputedStyle(ring).transitionDuration")
    assert transition == "0s", "each step drawn once, not eased over many frames"
    shoot(page, "turn-clock-desktop", full_page=False)
    context.close()
