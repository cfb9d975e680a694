"""Chat in the browser: two players who don't share a language talk in quick phrases, a
spectator's chat stays in its channel, and a moderator's mute in admin refuses the player's
next line live. Screenshots: the chat on a phone, the admin's report page."""

from __future__ import annotations

import importlib

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP
from tests.browser.play import create_table, join

pytestmark = pytest.mark.django_db(transaction=True)
PHONE_CHAT = {"width": 360, "height": 740}


@pytest.fixture
def shots(shoot):
    """The conftest's `shoot`, into artifacts/screenshots/chat/, the view only unless asked."""

    def save(page, name: str, full_page: bool = False) -> None:
        shoot(page, f"chat/{name}", full_page=full_page)

    return save


def say(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-text")).to_have_value("")


def test_two_players_read_each_others_quick_phrases_in_their_own_language(browser, live_url, shots):
    ana_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    ben_ctx = browser.new_context(viewport=PHONE_CHAT, locale="de-DE", has_touch=True)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    invite = create_table(ana, live_url, "Ana", seats=2)
    join(ben, invite, "Ben")
    assert "/de/t/" in ben.url
    ana.click("text=Start the game")
    expect(ben.locator("#table")).to_have_attribute("data-status", "playing")

    ben.click('[data-phrase="good_luck"]')
    expect(ana.locator("#chat-table-list")).to_contain_text("Ben Good luck!")
    expect(ben.locator("#chat-table-list")).to_contain_text("Ben Viel Glück!")
    ana.click('[data-phrase="nice_sevn"]')
    ana.click('[data-phrase="cool"]')
    expect(ben.locator("#chat-table-list")).to_contain_text("Ana Starkes SEVN!")
    expect(ben.locator('#chat-table-list [aria-label="Lässig"]')).to_have_text("😎")
    say(ana, "<b>see</b> https://example.org")
    line = ben.locator("#chat-table-list .chat__line").last
    expect(line).to_contain_text("<b>see</b> https://example.org")
    assert line.locator("a, b").count() == 0  # plain text: no link, no markup

    # a player mutes the other for themselves only
    ben.locator("#chat-table-list .chat__line", has_text="Ana").first.locator("[data-chat-mute]").click()
    expect(ben.locator("#chat-table-list .chat__line", has_text="Ana").first).to_be_hidden()
    expect(ben.locator("[data-chat-muted]")).to_contain_text("Ana")
    ben.click("[data-chat-unmute]")
    expect(ben.locator("#chat-table-list .chat__line", has_text="Ana").first).to_be_visible()

    ben.locator("#chat").scroll_into_view_if_needed()
    shots(ben, "chat-phone-360")
    ben.evaluate("window.scrollTo(0, 0)")
    shots(ben, "table-phone-360-top")
    shots(ana, "chat-desktop")


def test_a_spectators_chat_stays_in_the_spectators_channel(browser, live_url, shots):
    ana_ctx, zoe_ctx = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE_CHAT)
    ana, zoe = ana_ctx.new_page(), zoe_ctx.new_page()
    invite = create_table(ana, live_url, "Ana", seats=3)
    zoe.goto(invite)
    zoe.fill("#chat-name", "Zoe")
    zoe.click("#chat-compose button")
    expect(zoe.locator("#chat-text")).to_have_attribute("placeholder", "Message to the spectators")
    say(zoe, "go Ana!")
    expect(zoe.locator("#chat-spectators-list")).to_contain_text("Zoe go Ana!")
    expect(ana.locator("#chat-spectators-list .chat__line")).to_have_count(1)  # there, closed by default
    expect(ana.locator("#chat-spectators-list")).to_be_hidden()
    ana.click("#chat-spectators > summary")
    expect(ana.locator("#chat-spectators-list")).to_contain_text("Zoe go Ana!")
    say(ana, "thanks Zoe")
    expect(zoe.locator("#chat-table-list")).to_contain_text("Ana thanks Zoe")
    for page in (ana, zoe):
        assert "go Ana" not in page.locator("#chat-table-list").inner_text()
        assert "thanks Zoe" not in page.locator("#chat-spectators-list").inner_text()

    ana.fill("#chat-text", "half a sentence")
    ana.click("[data-spectator-chat]")  # the host turns it off: Zoe's box goes at once
    expect(zoe.locator("#chat-compose")).to_contain_text("The host has turned the spectators' chat off.")
    expect(ana.locator("[data-spectator-chat]")).to_have_text("Let spectators chat")
    expect(ana.locator("#chat-text")).to_have_value("half a sentence")  # a redrawn composer keeps the typing
    expect(zoe.locator("#chat-text")).to_have_count(0)
    shots(zoe, "spectator-phone-360", full_page=True)
    shots(ana, "lobby-desktop", full_page=True)


def _moderator(context, live_url: str, username: str = "mod") -> None:
    """A member of the Moderators group, signed in in this browser context (the session is made
    here: the log-in form is tested elsewhere)."""
    from django.contrib.auth.models import Group, Permission, User
    from django.test import Client

    group_migration = importlib.import_module("game.migrations.0004_moderators_group")
    group, _ = Group.objects.get_or_create(name="Moderators")  # a flushed database keeps no data rows
    group.permissions.set(
        Permission.objects.filter(content_type__app_label="game", codename__in=group_migration.PERMISSIONS)
    )
    user = User.objects.create_user(username, is_staff=True)
    user.groups.add(group)
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_url}])


def test_a_moderator_mutes_a_player_in_admin_and_the_next_line_is_refused_live(browser, live_url, shots):
    ana_ctx, ben_ctx, mod_ctx = (browser.new_context(viewport=DESKTOP) for _ in range(3))
    _moderator(mod_ctx, live_url)
    ana, ben, mod = ana_ctx.new_page(), ben_ctx.new_page(), mod_ctx.new_page()
    invite = create_table(ana, live_url, "Ana", seats=2)
    join(ben, invite, "Ben")
    say(ana, "hi Ben, good luck")
    say(ben, "you will lose, idiot")
    expect(ana.locator("#chat-table-list")).to_contain_text("idiot")

    # Ana reports Ben's line from the chat
    line = ana.locator("#chat-table-list .chat__line", has_text="idiot")
    line.hover()
    line.locator("[data-report-message]").click()
    dialog = ana.locator("#report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("[data-report-who] strong")).to_have_text("Ben")  # the name as the chat draws it,
    expect(dialog).to_contain_text("Ben you will lose, idiot")  # no colon (French spaces it otherwise)
    dialog.get_by_label("Insults").check()
    dialog.locator("textarea").fill("rude from the start")
    dialog.get_by_role("button", name="Send report").click()
    expect(ana.locator("#toast")).to_contain_text("Thank you: staff will look at your report.")
    expect(dialog).to_be_hidden()

    mod.goto(f"{live_url}/admin/game/report/")
    mod.locator("#result_list tr", has_text="you will lose, idiot").locator("a").first.click()
    expect(mod.locator(".moderation__evidence")).to_contain_text("hi Ben, good luck")
    expect(mod.locator("[data-moderation=ban]")).to_have_count(0)  # a moderator cannot ban
    shots(mod, "admin-report-page", full_page=True)
    form = mod.locator(".moderation__form--mute")
    form.locator("select[name=mute-duration]").select_option("1h")
    form.locator("select[name=mute-scope]").select_option("everywhere")
    form.locator("input[name=mute-reason]").fill("insulting Ana")
    form.locator("[data-moderation=mute]").click()
    expect(mod.locator(".messagelist")).to_contain_text("Done")

    expect(ben.locator("#notice")).to_contain_text("You are muted in chat for")  # told at once, above the table
    ben.click("[data-close-notice]")
    expect(ben.locator("#notice .notice-banner")).to_have_count(0)
    # the composer says why at once, before Ben types, and takes nothing
    expect(ben.locator("#chat-refused")).to_contain_text("You are muted in chat for 59")
    expect(ben.locator("#chat-refused")).to_contain_text("Reason: insulting Ana")
    expect(ben.locator("#chat-text")).to_be_disabled()
    expect(ben.locator('[data-phrase="good_luck"]')).to_be_hidden()
    mod.reload()
    expect(mod.locator(".field-status")).to_contain_text("Handled")
    expect(mod.locator(".field-handled_by")).to_contain_text("mod")

    # the mute lifted in admin: Ben's box opens again at once
    mod.goto(f"{live_url}/admin/game/sanction/")
    mod.locator("#result_list input.action-select").first.check()
    mod.select_option("select[name=action]", "lift")
    mod.locator("button[name=index]").click()
    expect(mod.locator(".messagelist")).to_contain_text("1 lifted.")
    expect(ben.locator("#chat-text")).to_be_enabled()
    expect(ben.locator("#chat-refused")).to_have_count(0)
    say(ben, "sorry Ana")
    expect(ana.locator("#chat-table-list")).to_contain_text("Ben sorry Ana")
    # nothing of Ben's came to Ana while he was muted: his lines are the one before and this one
    expect(ana.locator('#chat-table-list .chat__line[data-nickname="Ben"]')).to_have_count(2)


@pytest.mark.parametrize("game", ["sevn", "sevens"])
def test_a_player_is_reported_from_their_seat_and_never_from_your_own(browser, live_url, game):
    from game.models import Report
    from tests.browser.scenes import seat_as
    from tests.factories import open_table
    from tests.games.sevens.tables import sevens_table

    if game == "sevens":
        table, (ana, ben, _cleo) = sevens_table(turn_seconds=0)
    else:
        table, (ana, ben) = open_table(turn_seconds=0)
    context = browser.new_context(viewport=DESKTOP)
    seat_as(context, live_url, ana)
    page = context.new_page()
    page.goto(f"{live_url}/en/t/{table.code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)
    expect(page.locator("#seat-0 .seat__report")).to_be_hidden()
    page.locator("#seat-1 .seat__report").click()
    dialog = page.locator("#report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Ben")
    dialog.get_by_label("Offensive nickname").check()
    dialog.get_by_role("button", name="Send report").click()
    expect(page.locator("#toast")).to_contain_text("Thank you: staff will look at your report.")
    report = Report.objects.get()
    assert (report.reporter_name, report.reported_name, report.reported_key, report.table_code) == (
        "Ana",
        "Ben",
        ben.key,
        table.code,
    )
    context.close()


def _sanction(player_key: str, kind: str = "mute", **fields):
    from datetime import timedelta

    from django.utils import timezone

    from game.models import Sanction

    return Sanction.objects.create(
        kind=kind,
        player_key=player_key,
        nickname="Ben",
        reason=fields.pop("reason", "spam"),
        expires=fields.pop("expires", timezone.now() + timedelta(minutes=30)),
        **fields,
    )


def test_a_refused_line_stays_in_the_field_with_the_reason(browser, live_url):
    from game.models import Seat

    ana_ctx, ben_ctx = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    invite = create_table(ana, live_url, "Ana", seats=2)
    join(ben, invite, "Ben")
    for n in range(5):  # the allowance: five lines in ten seconds
        say(ben, f"line {n}")
    ben.fill("#chat-text", "a sixth line, too fast")
    ben.press("#chat-text", "Enter")
    expect(ben.locator("#toast")).to_contain_text("Slow down")
    expect(ben.locator("#chat-text")).to_have_value("a sixth line, too fast")  # kept, to send again
    expect(ben.locator("#chat-text")).to_be_enabled()

    # muted meanwhile (no notice reached this screen): the next line is refused, kept, and the
    # composer now says why. Still over the allowance: a mute is said before the allowance is
    # (services.chat.chat_post), so what it says is the mute, with no wait for the allowance.
    _sanction(Seat.objects.get(nickname="Ben").player_key, reason="flooding")
    ben.press("#chat-text", "Enter")
    expect(ben.locator("#toast")).to_contain_text("You are muted in chat for")
    expect(ben.locator("#chat-text")).to_have_value("a sixth line, too fast")
    expect(ben.locator("#chat-refused")).to_contain_text("Reason: flooding")
    expect(ben.locator("#chat-text")).to_be_disabled()
    assert "sixth" not in ana.locator("#chat-table-list").inner_text()


@pytest.mark.parametrize("why", ["mute", "ban", "closed"])
def test_who_cannot_write_sees_why_before_typing(browser, live_url, why):
    from game.models import Table
    from tests.browser.scenes import seat_as
    from tests.factories import open_table

    table, (ana, ben) = open_table(turn_seconds=0)
    if why == "closed":
        Table.objects.filter(id=table.id).update(status=Table.Status.CLOSED)
    else:
        _sanction(ben.key, kind=why, reason="rude", expires=None)
    context = browser.new_context(viewport=DESKTOP, locale="de-DE")
    seat_as(context, live_url, ben)
    page = context.new_page()
    page.goto(f"{live_url}/de/t/{table.code}/")
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    words = {
        "mute": "Du bist im Chat stummgeschaltet. Grund: rude",
        "ban": "Du bist von Tischen gesperrt. Grund: rude",
        "closed": "Dieser Tisch wurde vom Team geschlossen.",
    }
    expect(page.locator("#chat-refused")).to_have_text(words[why])
    expect(page.locator("#chat-text")).to_be_disabled()
    assert page.locator("#chat-text").get_attribute("aria-describedby").startswith("chat-refused")
    context.close()


def test_the_counter_and_a_paste_cut_to_the_cap(browser, live_url):
    context = browser.new_context(viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    create_table(page, live_url, "Ana", seats=2)
    counter = page.locator("#chat-count")
    expect(counter).to_have_text("0/200")
    page.fill("#chat-text", "x" * 37)
    expect(counter).to_have_text("37/200")
    expect(page.locator("[data-chat-limit]")).to_have_text("")
    page.fill("#chat-text", "")
    page.evaluate("text => navigator.clipboard.writeText(text)", "y" * 260)
    page.focus("#chat-text")
    page.keyboard.press("Control+V")
    expect(page.locator("#chat-text")).to_have_value("y" * 200)
    expect(counter).to_have_text("200/200")
    expect(page.locator("[data-chat-limit]")).to_have_text("Only the first 200 characters fit: the rest was cut.")
    page.keyboard.press("Backspace")
    expect(counter).to_have_text("199/200")
    expect(page.locator("[data-chat-limit]")).to_have_text("")
    page.keyboard.type("z")
    expect(page.locator("[data-chat-limit]")).to_have_text("A chat message has at most 200 characters.")
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-text")).to_have_value("")  # said: the field and the counter start again
    expect(counter).to_have_text("0/200")
    context.close()


def test_a_players_folded_spectators_chat_counts_what_came(browser, live_url):
    ana_ctx, zoe_ctx = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)
    ana, zoe = ana_ctx.new_page(), zoe_ctx.new_page()
    invite = create_table(ana, live_url, "Ana", seats=3)
    zoe.goto(invite)
    zoe.fill("#chat-name", "Zoe")
    zoe.click("#chat-compose button")
    expect(zoe.locator("#chat-text")).to_have_attribute("placeholder", "Message to the spectators")
    badge = ana.locator("[data-spectators-unread]")
    expect(badge).to_be_hidden()
    say(zoe, "go Ana!")
    say(zoe, "nice one")
    expect(badge).to_have_text("2")
    expect(badge).to_be_visible()
    ana.click("#chat-spectators > summary")
    expect(badge).to_be_hidden()
    ana.click("#chat-spectators > summary")
    say(zoe, "again")
    expect(badge).to_have_text("1")


def test_a_rename_shows_in_open_chat_lists_at_once(browser, live_url):
    from game.models import Report, Seat, Table

    ana_ctx, ben_ctx, mod_ctx = (browser.new_context(viewport=DESKTOP) for _ in range(3))
    _moderator(mod_ctx, live_url)
    ana, ben, mod = ana_ctx.new_page(), ben_ctx.new_page(), mod_ctx.new_page()
    invite = create_table(ana, live_url, "Ana", seats=2)
    join(ben, invite, "Badname")
    say(ben, "hello all")
    expect(ana.locator("#chat-table-list")).to_contain_text("Badname hello all")
    seat = Seat.objects.get(nickname="Badname")
    table = Table.objects.get(id=seat.table_id)
    report = Report.objects.create(
        table=table,
        table_code=table.code,
        reporter_key="guest:someone",
        reporter_name="Ana",
        reported_key=seat.player_key,
        reported_name="Badname",
        reason=Report.Reason.NICKNAME,
    )
    mod.goto(f"{live_url}/admin/game/report/{report.id}/change/")
    form = mod.locator(".moderation__form--rename")
    form.locator("input[name=rename-nickname]").fill("Player2")
    form.locator("[data-moderation=rename]").click()
    expect(mod.locator(".messagelist")).to_contain_text("Done")
    for page in (ana, ben):  # no reload: the lines show the new name
        expect(page.locator("#chat-table-list .chat__line").first).to_contain_text("Player2 hello all")
        assert "Badname" not in page.locator("#chat").inner_text()


def test_a_mute_that_ends_opens_the_box_again_without_a_reload(browser, live_url):
    from datetime import timedelta

    from django.utils import timezone

    from tests.browser.scenes import seat_as
    from tests.factories import open_table

    table, (_ana, ben) = open_table(turn_seconds=0)
    _sanction(ben.key, reason="cool down", expires=timezone.now() + timedelta(seconds=6))
    context = browser.new_context(viewport=DESKTOP)
    seat_as(context, live_url, ben)
    page = context.new_page()
    page.goto(f"{live_url}/en/t/{table.code}/")
    expect(page.locator("#chat-refused")).to_contain_text("Reason: cool down")
    expect(page.locator("#chat-text")).to_be_disabled()
    expect(page.locator("#chat-text")).to_be_enabled(timeout=12_000)
    expect(page.locator("#chat-refused")).to_have_count(0)
    expect(page.locator('[data-phrase="good_luck"]')).to_be_visible()
    say(page, "back again")
    expect(page.locator("#chat-table-list")).to_contain_text("Ben back again")
    context.close()
