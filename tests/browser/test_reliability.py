"""Show up or say so (#39) in the browser: a tab closed mid-game is taken over by a bot after the
away time and counts as one leave ("Let Ben go" offered to the one still playing); a tab reopened
within the grace leaves no mark; after a third leave at public tables the person cannot sit at a
public table and reads why, until when and where to appeal, while a friends' table seats them; a
public table's minimum keeps a person out with the reason shown; the profile and the seats show
each account's record."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from game import services
from game.models import GameResult, Outcome, Seat
from game.services import presence, reliability
from tests.accounts.test_fair_ratings import leaves_at_once
from tests.accounts.test_ratings import play_out, rated_table
from tests.browser import scenes
from tests.browser.test_ratings import log_in, person
from tests.services.test_reliability import befriend

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def at_table(browser, url: str, table, player, size=DESKTOP):
    """A tab of this person at the table, its socket live."""
    context = browser.new_context(viewport=size, reduced_motion="reduce")
    scenes.seat_as(context, url, player)
    page = context.new_page()
    page.goto(f"{url}/en/t/{table.code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)
    return context, page


def test_a_tab_closed_mid_game_is_taken_over_after_the_away_time_and_counts_one_leave(
    browser, quick_presence_url, shoot
):
    ana_user, ana = person("Ana")
    ben_user, ben = person("Ben")
    table = rated_table([ana, ben], rated=False, turn_seconds=0)
    ana_context, ana_page = at_table(browser, quick_presence_url, table, ana)
    ben_context, _ben_page = at_table(browser, quick_presence_url, table, ben, PHONE)
    ben_context.close()  # Ben closes his tab mid-game
    closed = time.monotonic()
    # the bot takes his seat after the away time (the sweep runs every second; a loaded machine adds more)
    expect(ana_page.locator("#seat-1 .badge--away")).to_have_count(1, timeout=40_000)
    assert time.monotonic() - closed >= presence.AWAY_AFTER.total_seconds() - 1
    # Ana, still playing, may agree that Ben's leave is excused; she does not, here
    expect(ana_page.locator('[data-let-go-seat="1"] [data-action="let-go"]')).to_have_text("Let Ben go")
    shoot(ana_page, "reliability-let-go-desktop", full_page=False)
    ana_page.set_viewport_size(PHONE)
    expect(ana_page.locator('[data-let-go-seat="1"] [data-action="let-go"]')).to_be_visible()
    shoot(ana_page, "reliability-let-go-phone", full_page=False)
    game = play_out(table, [ana])
    assert GameResult.objects.get(game=game, user=ben_user).outcome == Outcome.LEFT
    assert GameResult.objects.get(game=game, user=ana_user).outcome == Outcome.FINISHED
    assert reliability.of([ben_user.pk])[ben_user.pk] == reliability.Reliability(0, 1, 0, ever_left=True)
    ana_context.close()


def test_a_tab_reopened_within_the_grace_leaves_no_mark(browser, quick_presence_url):
    _ana_user, ana = person("Ana")
    ben_user, ben = person("Ben")
    table = rated_table([ana, ben], rated=False, turn_seconds=0)
    ana_context, ana_page = at_table(browser, quick_presence_url, table, ana)
    ben_context, _ben_page = at_table(browser, quick_presence_url, table, ben)
    # beside it, Dan at a table of his own closes his tab for good: his seat turning away is
    # the sign that the sweep has looked past the away time of everyone who closed before him
    _cleo_user, cleo = person("Cleo")
    _dan_user, dan = person("Dan")
    other = rated_table([cleo, dan], rated=False, turn_seconds=0)
    cleo_context, cleo_page = at_table(browser, quick_presence_url, other, cleo)
    dan_context, _dan_page = at_table(browser, quick_presence_url, other, dan)
    ben_context.close()
    dan_context.close()
    ben_context, _ben_page = at_table(browser, quick_presence_url, table, ben)  # back at once
    expect(cleo_page.locator("#seat-1 .badge--away")).to_have_count(1, timeout=40_000)
    # past the away time, Ben is still his own seat's player
    assert not Seat.objects.get(table=table, index=1).away
    expect(ana_page.locator("#seat-1 .badge--away")).to_have_count(0)
    game = play_out(table, [ana, ben])
    assert (
        GameResult.objects.get(game=game, user=ben_user).outcome,
        GameResult.objects.get(game=game, user=ben_user).excuse,
    ) == (Outcome.FINISHED, "")
    assert not reliability.of([ben_user.pk])[ben_user.pk].ever_left
    for context in (ana_context, ben_context, cleo_context):
        context.close()


def test_a_third_public_leave_pauses_public_tables_but_not_a_friends_table(browser, live_url, shoot):
    mia_user, mia = person("Mia")
    noa_user, noa = person("Noa")
    befriend(mia_user, noa_user)
    public = services.table_create(player=mia, nickname="", seat_count=3)
    for count in range(reliability.LEAVES_PAUSED):
        table = rated_table([mia, noa], rated=False, turn_seconds=0)
        leaves_at_once(table, 1)
        play_out(table, [mia])
        if count < reliability.LEAVES_PAUSED - 1:
            assert reliability.active_pause(noa_user.pk) is None  # not before the third
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(viewport=size, locale="en-GB", reduced_motion="reduce")
        page = context.new_page()
        log_in(page, live_url, "Noa")
        page.goto(f"{live_url}/en/t/{public.code}/")
        expect(page.locator('body[data-socket="live"]')).to_have_count(1)
        page.click(".join-form button")
        toast = page.locator("#toast")
        expect(toast).to_contain_text("You left 3 games at public tables within a week, so until")
        expect(toast).to_contain_text(settings.SEVN_APPEAL_EMAIL)
        expect(page.locator(".lobby-seat--you")).to_have_count(0)
        shoot(page, f"reliability-paused-{name}", full_page=False)
        # her own profile says it too
        page.goto(f"{live_url}/en/u/Noa/")
        expect(page.locator("[data-leave-pause]")).to_contain_text(settings.SEVN_APPEAL_EMAIL)
        expect(page.locator("[data-reliability]")).to_contain_text("finished 0 of the last 3 games")
        shoot(page, f"reliability-profile-paused-{name}")
        context.close()
    friends = services.table_create(player=mia, nickname="", seat_count=2, pace="none")
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    log_in(page, live_url, "Noa")
    page.goto(f"{live_url}/en/t/{friends.code}/")
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    page.click(".join-form button")
    expect(page.locator(".lobby-seat--you")).to_contain_text("Noa")  # friends' tables stay open
    context.close()


def test_a_minimum_keeps_a_person_out_of_a_public_table_with_the_reason_shown(browser, live_url, shoot):
    mia_user, mia = person("Mia")
    _noa_user, noa = person("Noa")
    play_out(rated_table([mia, noa], rated=False, turn_seconds=0), [mia, noa])
    table = rated_table([noa, mia], rated=False, turn_seconds=0)
    leaves_at_once(table, 0)  # Noa left this one: 1 of her last 2 finished
    play_out(table, [mia])
    # Mia hosts from the home page, asking for 80 %
    host = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = host.new_page()
    log_in(page, live_url, "Mia")
    page.goto(f"{live_url}/en/")
    page.select_option("#id_min_reliability", label="Finished at least 80% of their last games")
    page.click(".panel--create button.button--primary")
    page.wait_for_url("**/t/**")
    expect(page.locator("[data-min-reliability]")).to_have_text(
        "for players who finished at least 80% of their last games"
    )
    expect(page.locator(".lobby-seat--you [data-reliable] .reliable__shown")).to_have_text("finished 2 of 2")
    invite = page.locator("#invite-link").input_value()
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(viewport=size, locale="en-GB", reduced_motion="reduce")
        guest = context.new_page()
        log_in(guest, live_url, "Noa")
        guest.goto(invite)
        expect(guest.locator('body[data-socket="live"]')).to_have_count(1)
        mias = guest.locator("[data-reliable] .reliable__shown").first  # Mia's, beside her name
        expect(mias).to_have_text("finished 2 of 2")
        shoot(guest, f"reliability-seat-{name}", full_page=False)
        guest.click(".join-form button")
        expect(guest.locator("#toast")).to_contain_text(
            "This table asks for players who finished at least 80% of their last games; you finished 1 of your "
            "last 2 (50%)."
        )
        expect(guest.locator(".lobby-seat--you")).to_have_count(0)
        shoot(guest, f"reliability-refused-{name}", full_page=False)
        guest.goto(f"{live_url}/en/u/Mia/")
        expect(guest.locator("[data-reliability]")).to_contain_text("finished 2 of the last 2 games")
        shoot(guest, f"reliability-profile-{name}")
        context.close()
    host.close()
