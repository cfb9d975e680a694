"""axe-core in the browser on every kind of page people use, in two languages: the home page,
a lobby, both games' tables while playing and at game over, the rulebook's pages, and admin's
moderation pages. No serious or critical violation anywhere."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.scenes import seat_as

pytestmark = pytest.mark.django_db(transaction=True)
LANGUAGES = ("en", "de")
BLOCKING = ("serious", "critical")
AXE = Axe()


def violations(page) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now, one line each."""
    # preload off: axe would fetch each stylesheet's imports again, resolved against the page
    found = AXE.run(page, options={"resultTypes": ["violations"], "preload": False}).response["violations"]
    lines = []
    for rule in found:
        if rule["impact"] in BLOCKING:
            where = ", ".join(str(node["target"]) for node in rule["nodes"][:5])
            lines.append(f"{rule['id']} ({rule['impact']}): {rule['help']} at {where}")
    return lines


def check(page, where: str) -> None:
    found = violations(page)
    assert not found, f"{where}:\n" + "\n".join(found)


def table_page(browser, live_url, table, player, language: str, size=DESKTOP):
    context = browser.new_context(viewport=size, locale=language, reduced_motion="reduce")
    if player is not None:
        seat_as(context, live_url, player)
    page = context.new_page()
    page.goto(f"{live_url}/{language}/t/{table.code}/")
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    return context, page


@pytest.mark.parametrize("language", ["en", "de", "nl", "pl", "fr"])
def test_the_home_page_and_the_rulebook(browser, live_url, language):
    context = browser.new_context(viewport=DESKTOP, locale=language)
    page = context.new_page()
    for path in ("", "rules/", "rules/full/", "rules/sevens/"):
        page.goto(f"{live_url}/{language}/{path}")
        check(page, f"/{language}/{path}")
    page.set_viewport_size(PHONE)
    page.goto(f"{live_url}/{language}/")
    check(page, f"/{language}/ on a phone")
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_lobby_and_a_sevn_table_playing_and_at_game_over(browser, live_url, language):
    from game.models import Sanction
    from tests.browser.scenes import game_over, two_players
    from tests.factories import open_table

    lobby, (host, guest) = open_table(start=False)
    context, page = table_page(browser, live_url, lobby, host, language)
    page.fill("#chat-text", "x" * 200)  # the counter and its notice at the cap
    expect(page.locator("[data-chat-limit]")).not_to_be_empty()
    check(page, "a lobby, as its host")
    context.close()
    Sanction.objects.create(kind="mute", player_key=guest.key, nickname="Ben", reason="insults")
    context, page = table_page(browser, live_url, lobby, guest, language, PHONE)
    expect(page.locator("#chat-refused")).to_be_visible()
    check(page, "a lobby, muted, on a phone")
    context.close()

    table, (ana, _ben) = two_players()
    for size in (DESKTOP, PHONE):
        context, page = table_page(browser, live_url, table, ana, language, size)
        expect(page.locator("#controls.controls--active")).to_have_count(0)  # Ben decides first
        check(page, f"a SEVN table playing ({size['width']} px)")
        context.close()
    context, page = table_page(browser, live_url, table, None, language)
    check(page, "a SEVN table, as a spectator")
    context.close()

    over, (_ana, ben, *_rest) = game_over()
    context, page = table_page(browser, live_url, over, ben, language)
    expect(page.locator("#table")).to_have_attribute("data-status", "finished")
    check(page, "a SEVN table at game over")
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_sevens_table_playing_and_at_game_over(browser, live_url, language):
    from game.games.sevens.engine import playable
    from tests.games.sevens.tables import play, sevens_table, state_of

    table, (ana, _ben, _cleo) = sevens_table(turn_seconds=0)
    for size in (DESKTOP, PHONE):
        context, page = table_page(browser, live_url, table, ana, language, size)
        expect(page.locator("#sevens-layout")).to_be_visible()
        check(page, f"a Sevens table playing ({size['width']} px)")
        context.close()

    over, (mia,) = sevens_table(names=("Mia",), bots=("easy", "medium"), rounds=1, turn_seconds=0)
    for _ in range(100):
        state = state_of(over)
        if state["over"]:
            break
        play(over, mia, playable(state["seats"][0]["hand"], state["layout"])[0])
    assert state_of(over)["over"]
    context, page = table_page(browser, live_url, over, mia, language)
    expect(page.locator("#standings")).to_be_visible()
    check(page, "a Sevens table at game over")
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_admins_moderation_pages(browser, live_url, language):
    from game import services
    from game.models import ModAction, Sanction
    from tests.browser.test_chat import _moderator
    from tests.factories import open_table

    table, (ana, ben) = open_table()
    services.chat_post(code=table.code, player=ana, text="good luck all")
    line = services.chat_post(code=table.code, player=ben, text="you are all idiots")["body"]["line"]
    report = services.report_create(code=table.code, player=ana, reason="insults", message_id=line["id"])
    ModAction.objects.create(actor_name="mod", action="warn", target_key=ben.key, target_name="Ben")
    Sanction.objects.create(kind="mute", player_key=ben.key, nickname="Ben", reason="insults")
    context = browser.new_context(viewport=DESKTOP, locale=language, extra_http_headers={"Accept-Language": language})
    _moderator(context, live_url, username=f"mod-{language}")
    page = context.new_page()
    for path in (
        "report/",
        f"report/{report.id}/change/",
        "modaction/",
        "sanction/",
        "chatmessage/",
    ):
        page.goto(f"{live_url}/admin/game/{path}")
        expect(page.locator("#content")).to_be_visible()
        check(page, f"admin {path}")
    context.close()
