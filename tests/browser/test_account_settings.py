"""The account as people meet it in the browser (issues 38.3, 38.4, 37.8): a passkey added on
the settings page (Chromium's virtual authenticator) leaves the password log-in without a code
to type; what arrived meanwhile shows in the header and as a notice on the next page; a friend
with any page open shows online; the lobby's Invite friends panel is under the Start button and
inviting keeps the page where it was."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from game.services import accounts, friends, online
from tests.browser.accounts import PASSWORD
from tests.browser.conftest import DESKTOP
from tests.browser.test_accessibility import check
from tests.browser.test_accounts import virtual_authenticator
from tests.waiting import until

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 800}


@pytest.fixture
def base(live_url):
    """localhost: a passkey belongs to a domain, and 127.0.0.1 is none."""
    return live_url.replace("127.0.0.1", "localhost")


def person(name: str) -> User:
    """An account with a confirmed address, as after signing up."""
    user = User.objects.create_user(name, f"{name.lower()}@example.com", PASSWORD)  # the server knows the fast hasher
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    accounts.account_signed_in(user=user, guest_key=None)
    return user


def log_in(page: Page, base: str, name: str, language: str = "en") -> None:
    page.goto(f"{base}/{language}/accounts/login/")
    page.fill('input[name="login"]', name)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    expect(page.locator(".site-account__name")).to_contain_text(name)


def test_a_passkey_added_in_settings_asks_for_no_code_at_the_next_password_log_in(browser, base, shoot):
    person("Pia")
    context = browser.new_context(viewport=WIDE, locale="en-GB")
    page = context.new_page()
    virtual_authenticator(context, page)
    log_in(page, base, "Pia")
    page.get_by_role("link", name="Settings").click()  # the header's gear
    expect(page.locator("h1")).to_have_text("Account settings")
    for title in ("Name", "E-mail", "Password", "Passkeys", "Two-factor authentication", "Privacy", "Language"):
        expect(page.locator(".settings__section h2", has_text=title).first).to_be_visible()
    page.locator("#passkeys").get_by_role("link", name="Add a passkey").click()  # no password asked again
    page.wait_for_load_state("load")  # allauth's passkey script bound to the button
    page.click("#mfa_webauthn_add")
    page.wait_for_url("**/settings/#passkeys")
    expect(page.locator("#passkeys .settings__item")).to_have_count(1)
    expect(page.locator("#two-factor")).to_contain_text("Off")
    assert not Authenticator.objects.filter(type=Authenticator.Type.RECOVERY_CODES).exists()
    check(page, "the settings page")
    shoot(page, "settings-desktop")
    page.set_viewport_size(PHONE)
    shoot(page, "settings-phone")
    page.set_viewport_size(WIDE)

    page.get_by_role("button", name="Log out").first.click()
    expect(page.locator(".site-account")).to_contain_text("Log in")
    log_in(page, base, "Pia")  # straight in: no authenticator code asked for
    assert "/2fa/" not in page.url
    context.close()


def test_what_arrived_meanwhile_shows_in_the_header_and_once_as_a_notice(browser, base, shoot):
    ana, ben = person("Ana"), person("Ben")
    friends.friend_request(user=ana, name="Ben")
    context = browser.new_context(viewport=WIDE, locale="de-DE")
    page = context.new_page()
    log_in(page, base, "Ben", language="de")
    expect(page.locator("#friends-badge")).to_have_text("1 Freundschaftsanfrage wartet")
    assert page.locator(".site-header").bounding_box()["height"] <= 64  # still one row, in German too
    toast = page.locator("[data-friend-request]")
    expect(toast).to_contain_text("Ana möchte mit dir befreundet sein.")
    check(page, "a page with a notice and the header's badge")
    shoot(page, "header-badge-desktop", full_page=False)
    toast.get_by_role("button", name="Später").click()
    expect(toast).to_have_count(0)
    page.set_viewport_size(PHONE)  # the links are in the menu: its button counts what waits
    expect(page.locator("#menu-badge")).to_have_text("1 Anfrage oder Einladung wartet auf deine Antwort")
    shoot(page, "header-badge-phone", full_page=False)
    page.locator(".site-menu__button").click()
    expect(page.locator("#friends-badge")).to_be_visible()
    shoot(page, "header-badge-phone-menu", full_page=False)
    page.set_viewport_size(WIDE)
    page.goto(f"{base}/de/rules/")
    expect(page.locator("#friends-badge")).to_be_visible()
    expect(page.locator("[data-friend-request]")).to_have_count(0)  # once
    page.goto(f"{base}/de/")
    page.locator("#friends-badge").locator("xpath=..").click()  # the badge's link: the friends page
    page.get_by_role("button", name="Annehmen").click()
    expect(page.locator("#friends-badge")).to_be_hidden()
    assert friends.blocks(ben.pk, ana.pk) is False
    context.close()


def test_a_friend_with_any_page_open_shows_online(browser, base):
    ana, ben = person("Ana"), person("Ben")
    friends.friend_request(user=ana, name="Ben")
    friends.friend_accept(user=ben, from_id=ana.pk)
    ana_ctx, ben_ctx = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)
    ana_page, ben_page = ana_ctx.new_page(), ben_ctx.new_page()
    log_in(ana_page, base, "Ana")
    ana_page.goto(f"{base}/en/friends/")
    expect(ana_page.locator(".friend", has_text="Ben")).to_contain_text("Offline")
    log_in(ben_page, base, "Ben")
    ben_page.goto(f"{base}/en/rules/")  # a page of the site, no table
    expect(ben_page.locator("#invitations[data-live]")).to_have_count(1)
    ana_page.reload()
    expect(ana_page.locator(".friend--online", has_text="Ben")).to_contain_text("Online")
    ben_ctx.close()  # every page of Ben's closed
    # the server hears the last socket close after the browser has closed it: Ana's reload waits
    # for that (a reload before it showed Ben online still, on a machine loaded past its cores)
    until(lambda: not online.on_site([ben.pk]), "Ben's last page gone from the site's presence", seconds=30)
    ana_page.reload()
    expect(ana_page.locator(".friend", has_text="Ben")).to_contain_text("Offline")
    ana_ctx.close()


def test_the_lobby_s_invite_panel_is_under_start_and_inviting_keeps_the_page_in_place(browser, base, shoot):
    ana, ben = person("Ana"), person("Ben")
    friends.friend_request(user=ana, name="Ben")
    friends.friend_accept(user=ben, from_id=ana.pk)
    context = browser.new_context(viewport=WIDE, locale="en-GB")
    page = context.new_page()
    log_in(page, base, "Ana")
    page.goto(f"{base}/en/")  # signed in, the table is made in the account's name
    page.select_option("#id_seat_count", "4")
    page.click(".panel--create button.button--primary")
    page.wait_for_url("**/t/**")
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    start = page.locator('[data-action="start"]').bounding_box()
    panel = page.locator("#invite-friends").bounding_box()
    chat = page.locator(".table-side > .chat").bounding_box()
    assert start["y"] < panel["y"] < chat["y"], (start, panel, chat)
    check(page, "the lobby with its invite panel")
    shoot(page, "lobby-invite-desktop")
    page.locator("#invite-friends").scroll_into_view_if_needed()
    page.evaluate("window.__samePage = true")
    scrolled = page.evaluate("window.scrollY")
    page.locator('[data-invite-friend="Ben"]').click()
    expect(page.locator("#invite-friends")).to_contain_text("Invitation sent to Ben.")
    assert page.evaluate("window.__samePage === true")  # no reload
    assert abs(page.evaluate("window.scrollY") - scrolled) < 40
    page.set_viewport_size(PHONE)
    page.goto(page.url)
    expect(page.locator("#invite-friends")).to_be_visible()
    shoot(page, "lobby-invite-phone")
    context.close()


def test_two_factor_is_turned_on_knowingly_its_codes_shown_once_and_turned_off(browser, base, shoot):
    from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value, yield_hotp_counters_from_time

    person("Tom")
    context = browser.new_context(viewport=WIDE, locale="en-GB")
    page = context.new_page()
    log_in(page, base, "Tom")
    page.goto(f"{base}/en/settings/#two-factor")
    page.locator("#two-factor").get_by_role("link", name="Turn on two-factor authentication").click()
    secret = page.locator("#authenticator_secret").input_value()  # what the app would read from the QR code
    page.fill('input[name="code"]', format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time()))))
    page.locator("form.account-form button[type=submit]").click()
    codes = page.locator("#recovery_codes")
    expect(codes).to_be_visible()
    assert len(codes.input_value().split()) == 10
    shoot(page, "two-factor-recovery-codes")
    page.check("#codes_saved")  # allauth's page asks before it is left otherwise
    page.get_by_role("link", name="Back to account settings").click()
    expect(page.locator("#two-factor")).to_contain_text("10 of 10 recovery codes left")
    page.goto(f"{base}/en/accounts/2fa/recovery-codes/")
    expect(page.locator("#recovery_codes")).to_have_count(0)  # shown once
    page.goto(f"{base}/en/settings/#two-factor")
    page.locator("#two-factor").get_by_role("link", name="Turn off two-factor authentication").click()
    page.locator("form.account-form button[type=submit]").click()
    page.wait_for_url("**/settings/#two-factor")
    expect(page.locator("#two-factor")).to_contain_text("Turn on two-factor authentication")
    assert not Authenticator.objects.filter(user__username="Tom").exists()
    context.close()
