"""Two people on two browser contexts at one turn-based table, as they would use it: each sees
every seat's time left in words and on the clock; the clock stepped forward (the deadline
loop's own entry point, game.live.timers.fire_due, with a given time) has a bot play the late
person's turn on both screens; outside the playing hours nothing happens; after two missed turns
"Take my seat back" gives the seat back; the home page lists the tables waiting for your move
first, the least time left first, with the count in the tab's title."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db.models import F
from playwright.sync_api import expect

from game.live import timers
from game.models import Game, Seat
from tests.services.turn_based_tables import acting, game_of, person, turn_of, turn_table
from tests.waiting import until

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _signed_in(context, live_url: str, player) -> None:
    """The browser context is this person, signed in to their account (their pages open the
    person socket that tells them whose move it is)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    user = User.objects.get(pk=player.user_id)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "allauth.account.auth_backends.AuthenticationBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_url}])


def _moves(messages: list[dict]) -> list[dict]:
    """What the deadline loop changed in games. (The clock is stepped with the absence sweep
    off: hours ahead it would find the test's own live sockets stale, which says nothing of the
    game; tests/turn_based/test_turn_based_services.py runs the sweep at a turn-based table.)"""
    return [m for m in messages if any(event["type"] != "presence" for event in m["events"])]


def _open(browser, live_url: str, player, path: str, size: str = "desktop"):
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce", has_touch=size == "phone")
    _signed_in(context, live_url, player)
    page = context.new_page()
    page.goto(f"{live_url}/en{path}")
    return context, page


def _at_table(browser, live_url, table, player, size="desktop"):
    context, page = _open(browser, live_url, player, f"/t/{table.code}/", size)
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)  # the socket is live
    return context, page


def _names(table, players):
    seat = {s.player_key: s.index for s in Seat.objects.filter(table=table)}
    return {seat[p.key]: p for p in players}


def test_a_clock_run_out_has_the_bot_play_that_turn_on_both_screens(browser, live_url, shoot):
    table, (ana, ben) = turn_table("move-12h", names=("Ana", "Ben"))
    by_seat = _names(table, [ana, ben])
    late = acting(table)
    late_name, other_name = ("Ana", "Ben") if by_seat[late] is ana else ("Ben", "Ana")
    contexts, pages = [], []
    for player in (ana, ben):
        context, page = _at_table(browser, live_url, table, player)
        contexts.append(context)
        pages.append(page)
    for page in pages:
        clocks = page.locator("#table-clocks")
        expect(clocks).to_contain_text("12 hours a move")
        # the deciding seat's time left in words (a started minute counts: "12 hours" for the
        # first minute, as the page's own count says it too); the other's whole move
        expect(clocks.locator(".clocks__seat--deciding")).to_contain_text(late_name)
        expect(clocks.locator(".clocks__seat--deciding .clocks__left")).to_have_text(
            re.compile(r"^(12 hours|11 hours 5\d minutes) left$")
        )
        expect(clocks.locator(".clocks__seat:not(.clocks__seat--deciding) .clocks__left")).to_have_text("12 hours left")
    late_page = pages[0] if by_seat[late] is ana else pages[1]
    # on the clock: the ring counts the hours in the page's language, as the words count them (a
    # started minute counts): "12h" beside "12 hours left", "11h" beside "11 hours 59 minutes left"
    ring = late_page.locator("#table-turn .countdown__text")
    expect(ring).to_have_text(re.compile(r"^1[12]h$"))
    said = late_page.locator("#table-clocks .clocks__seat--deciding .clocks__left")

    def agree():
        hours = re.match(r"^(\d+) hours", said.inner_text())
        return hours is not None and ring.inner_text() == f"{hours.group(1)}h"

    until(agree, "the ring and the words saying the same hours", page=late_page)
    shown = late_page.evaluate(
        """async () => {
            const { shown } = await import('/static/sevn/js/turn.js');
            return [43200, 43195, 43141, 43140, 86400 + 3 * 3600 + 1, 3601, 3541, 3540, 100, 99].map(s => shown(s));
        }"""
    )
    assert shown == ["12h", "12h", "12h", "11h", "1d", "1h", "1h", "59min", "2min", "99"]
    shoot(late_page, "turn-based-table-desktop", full_page=False)

    version = game_of(table).version
    deadline = game_of(table).deadline
    assert _moves(timers.fire_due(deadline - timedelta(seconds=1), check_absent=False)) == []  # not yet
    assert game_of(table).version == version
    timers.fire_due(deadline + timedelta(seconds=1), check_absent=False)  # the clock stepped past it
    for page in pages:  # the server's screens find the change in the database by themselves
        expect(page.locator("#log")).to_contain_text(f"Time ran out for {late_name}: a bot played the turn.")
        expect(page.locator("#table-clocks .clocks__seat--deciding")).to_contain_text(other_name)
    for context in contexts:
        context.close()


def test_outside_the_playing_hours_nothing_happens(browser, live_url):
    # A one-hour window starting two hours from now (UTC): the clocks are stopped now, and a
    # twelve-hour move takes twelve of those windows
    now = datetime.now(UTC)
    start, end = (now + timedelta(hours=2)).strftime("%H:00"), (now + timedelta(hours=3)).strftime("%H:00")
    table, (ana, ben) = turn_table("move-12h", window=(start, end), zone="UTC")
    context, page = _at_table(browser, live_url, table, ana)
    expect(page.locator("#table-clocks .clocks__stopped")).to_have_text(
        f"Outside the playing hours: the clocks are stopped until {start}."
    )
    expect(page.locator("#table-clocks")).to_contain_text(f"Clocks run {start}–{end} (UTC)")
    game = game_of(table)
    assert game.deadline > now + timedelta(days=10)
    # thirteen hours on (past a clock that ran day and night) and all night long: nothing
    for hours in (1, 13, 30):
        assert _moves(timers.fire_due(now + timedelta(hours=hours), check_absent=False)) == []
    assert game_of(table).version == game.version
    assert timers.fire_due(game.deadline + timedelta(seconds=1), check_absent=False)
    expect(page.locator("#log")).to_contain_text("a bot played the turn.")
    context.close()


def test_two_missed_turns_and_take_my_seat_back(browser, live_url):
    table, (ana, ben) = turn_table("move-24h", names=("Ana", "Ben"))
    by_seat = _names(table, [ana, ben])
    first = acting(table)
    for _miss in range(3):  # the first person's, the other's, the first person's second
        timers.fire_due(game_of(table).deadline + timedelta(seconds=1), check_absent=False)
    assert Seat.objects.get(table=table, index=first).away
    context, page = _at_table(browser, live_url, table, by_seat[first], "phone")
    button = page.locator("#table-clocks [data-action=reclaim]")
    expect(button).to_have_text("Take my seat back")
    expect(page.locator("#table-clocks .clocks__reclaim")).to_contain_text("You missed two turns in a row")
    button.click()
    expect(page.locator("#table-clocks [data-action=reclaim]")).to_have_count(0)
    expect(page.locator("#log")).to_contain_text("is back.")
    assert not Seat.objects.get(table=table, index=first).away
    context.close()


def test_the_home_page_lists_your_moves_by_time_left(browser, live_url, shoot):
    ana, ben = person("Ana"), person("Ben")
    codes = {}
    for pace in ("move-3d", "move-12h", "move-24h", "bank-3d"):
        table, _ = turn_table(pace, players=[ana, ben])
        # Ana's move, but at the time bank's: that one waits for Ben
        # (at the 12-hour one with Ben still in the round: her pass there hands the turn to him)
        turn_of(table, ben if pace == "bank-3d" else ana, [ana, ben], others_in=pace == "move-12h")
        codes[pace] = table.code
    # one of Ben's turns has been running for a day already
    Game.objects.filter(table__code=codes["move-24h"]).update(deadline=F("deadline") - timedelta(hours=13))
    context, page = _open(browser, live_url, ana, "/")
    rows = page.locator(".your-move__row")
    expect(rows).to_have_count(4)
    order = [rows.nth(i).get_attribute("data-your-move") for i in range(4)]
    # 24 h started 13 h ago (11 h left), then 12 h, then 3 days; the table waiting for Ben last
    assert order == [codes["move-24h"], codes["move-12h"], codes["move-3d"], codes["bank-3d"]]
    expect(page.locator("#your-move-title")).to_have_text("Your move at 3 tables")
    expect(rows.nth(0)).to_contain_text(re.compile(r"(10 hours 5\d minutes|11 hours) left"))
    expect(rows.nth(3)).to_contain_text("Ben to move")
    expect(page).to_have_title(re.compile(r"^\(3\) SEVN"))
    shoot(page, "your-move-home-desktop", full_page=False)
    # Ana moves at one table in another tab: the home page's title follows without a reload
    other = context.new_page()
    other.goto(f"{live_url}/en/t/{codes['move-12h']}/")
    expect(other.locator("#table-presence[data-known]")).to_have_count(1)
    pass_button = other.locator('#controls.controls--active [data-action="pass"]')
    expect(pass_button).to_be_enabled()
    pass_button.click()
    expect(other.locator("#table-clocks .clocks__seat--deciding")).to_contain_text("Ben")
    expect(page).to_have_title(re.compile(r"^\(2\) SEVN"))
    context.close()


def test_the_time_left_in_words_counts_down_between_updates(browser, live_url):
    """A turn lasts hours: the deciding seat's words follow its deadline on the page itself, in
    the page's language, between the server's updates. (The page reads its time as the server's,
    so the deadline is moved in the page rather than the page's clock.)"""
    table, (ana, ben) = turn_table("move-12h", names=("Ana", "Ben"))
    context = browser.new_context(viewport=SIZES["desktop"], reduced_motion="reduce")
    _signed_in(context, live_url, ana)
    page = context.new_page()
    page.goto(f"{live_url}/pl/t/{table.code}/")
    # the socket's first table and who is here are drawn: no redraw comes after to undo the change below
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)
    left = page.locator("#table-clocks .clocks__seat--deciding .clocks__left")
    expect(left).to_have_text(re.compile(r"^pozostało: 1[12] godzin( 5\d minut)?$"))
    # the deadline as if two hours and three minutes were left (the page says it within seconds)
    left.evaluate("(element) => { element.dataset.leftUntil = String(Date.now() + (2 * 3600 + 3 * 60 - 30) * 1000); }")
    expect(left).to_have_text("pozostało: 2 godziny 3 minuty")
    words = page.evaluate(
        "async () => (await import('/static/sevn/js/clock_words.js')).words('de', 86400 + 3 * 3600 + 1)"
    )
    assert words == "1 Tag 3 Stunden"  # the two largest units, as the server says them
    context.close()
