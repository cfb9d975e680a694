"""Reliability shown (#39) in the browser: an account's record beside its name at a seat while a
game is played, in both games, at both sizes (a guest's seat shows none); the home page's open
tables, each with its people's records, and a row that says why the viewer cannot sit in place
of Join; a table opened meanwhile appears by the page's own polling."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from game import services
from game.core.identity import Player
from game.models import Presence
from game.pages import home
from tests.browser import scenes
from tests.browser.conftest import _serving
from tests.browser.test_ratings import log_in, person
from tests.services.test_reliability_shown import history

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def snap(page, shoot, name: str) -> None:
    shoot(page, name, full_page=False)


@pytest.mark.parametrize("kind", ["sevn", "sevens"])
def test_an_account_s_record_is_beside_its_name_at_a_seat_during_the_game(browser, live_url, shoot, kind):
    mia_user, mia = person("Mia")
    history(mia_user, "f" * 27 + "lff")  # 29 of the last 30, 2 games since the last leave
    gus = Player(key="guest:gus-" + kind)
    table = services.table_create(player=mia, nickname="", seat_count=3, kind=kind)
    services.seat_take(code=table.code, player=gus, nickname="Gus")
    services.bot_add(code=table.code, player=mia, level="easy")
    services.game_start(code=table.code, player=mia)
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(viewport=size, reduced_motion="reduce")
        scenes.seat_as(context, live_url, gus)  # the guest at the table sees Mia's record
        page = context.new_page()
        page.goto(f"{live_url}/en/t/{table.code}/")
        expect(page.locator("#table-presence[data-known]")).to_have_count(1)
        record = page.locator("#seat-0 [data-reliable]")
        expect(record).to_be_visible()
        expect(record.locator(".reliable__shown")).to_have_text("finished 29 of 30")
        # a screen reader hears it in words (the short form is hidden from it)
        expect(record.locator(".sr-only")).to_have_text(
            "finished 29 of the last 30 games, 2 games since the last leave"
        )
        expect(record.locator(".reliable__shown")).to_have_attribute("aria-hidden", "true")
        expect(page.locator("[data-reliable]")).to_have_count(1)  # none beside the guest nor the bot
        box = record.bounding_box()
        assert box is not None and box["x"] + box["width"] <= size["width"]  # no sideways scrolling
        record.scroll_into_view_if_needed()
        snap(page, shoot, f"seat-record-{kind}-{name}")
        context.close()


@pytest.fixture
def quick_poll_url(django_db_blocker, monkeypatch):
    """A server whose home page polls its open tables every second (20 s on the site)."""
    monkeypatch.setattr(home, "POLL_SECONDS", 1)
    with _serving(django_db_blocker) as url:
        yield url


def waiting(host: Player, **options):
    table = services.table_create(player=host, nickname="" if host.is_user else "Host", seat_count=4, **options)
    Presence.objects.create(channel=f"c-{table.code}", table=table, player_key=host.key, seen=timezone.now())
    return table


def test_the_open_tables_show_records_and_say_why_one_cannot_sit(browser, quick_poll_url, shoot):
    url = quick_poll_url
    mia_user, mia = person("Mia")
    noa_user, _noa = person("Noa")
    history(mia_user, "f" * 28 + "ll")
    history(noa_user, "fffll")  # 60 %: below Mia's minimum
    demanding = waiting(mia, min_reliability=80, kind="sevens")
    services.bot_add(code=demanding.code, player=mia, level="medium")
    open_to_all = waiting(Player(key="guest:ola"))
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(viewport=size, reduced_motion="reduce")
        page = context.new_page()
        log_in(page, url, "Noa")
        page.goto(f"{url}/en/")
        row = page.locator(f'[data-open-table="{demanding.code}"]')
        expect(row.locator(".open-table__game")).to_have_text("Sevens")
        expect(row.locator(".open-table__seats")).to_have_text("2 of 4 seats taken")
        expect(row.locator("[data-reliable] .reliable__shown")).to_have_text("finished 28 of 30")
        expect(row.locator("[data-min-reliability]")).to_have_text(
            "for players who finished at least 80% of their last games"
        )
        expect(row.locator("[data-cannot-sit]")).to_have_text(
            "You cannot sit here: you finished 60% of your last games, and this table asks for 80%."
        )
        expect(row.get_by_role("link", name="Join")).to_have_count(0)
        other = page.locator(f'[data-open-table="{open_to_all.code}"]')
        expect(other.locator("[data-cannot-sit]")).to_have_count(0)
        expect(other.get_by_role("link", name=f"Join SEVN {open_to_all.code}")).to_be_visible()
        page.locator("#open-tables").scroll_into_view_if_needed()
        snap(page, shoot, f"open-tables-{name}")
        # in French too: the why in its words (a narrow no-break space before the colon), no sideways scrolling
        page.goto(f"{url}/fr/")
        expect(row.locator("[data-cannot-sit]")).to_contain_text("Vous ne pouvez pas vous asseoir ici\u202f:")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.locator("#open-tables").scroll_into_view_if_needed()
        snap(page, shoot, f"open-tables-{name}-fr")
        context.close()
    # a table opened while the page is open appears by the page's polling; Join leads to its lobby
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    log_in(page, url, "Noa")
    page.goto(f"{url}/en/")
    expect(page.locator("[data-open-table]")).to_have_count(2)
    later = waiting(Player(key="guest:pia"))
    expect(page.locator(f'[data-open-table="{later.code}"]')).to_be_visible(timeout=15_000)
    page.locator(f'[data-open-table="{later.code}"] .open-table__join').click()
    expect(page).to_have_url(f"{url}/en/t/{later.code}/")
    context.close()
