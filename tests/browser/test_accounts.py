"""Accounts in the browser: signing up (with the e-mailed code), a passkey made at sign-up and
used to sign in again (Chromium's virtual authenticator), and a guest who signs up in the
middle of a game and plays on in the same seat, then finds the table from a second browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accounts import PASSWORD, address, enter_code, sign_up
from tests.browser.conftest import DESKTOP
from tests.browser.play import create_table, deciding, join, play_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def base(live_url):
    """The site on localhost: a passkey belongs to a domain, and an address like 127.0.0.1 is none."""
    return live_url.replace("127.0.0.1", "localhost")


def virtual_authenticator(context, page) -> None:
    """A platform authenticator that keeps passkeys and says the user was verified."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
        "automaticPresenceSimulation": True,
    }
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
    return cdp


def test_sign_up_log_out_and_log_in_again_in_german(browser, base, shoot):
    context = browser.new_context(viewport=DESKTOP, locale="de-DE")
    page = context.new_page()
    page.goto(f"{base}/de/")
    page.get_by_role("link", name="Registrieren").click()
    expect(page.locator("h1")).to_have_text("Registrieren")
    shoot(page, "accounts-signup-de")
    page.fill('input[name="username"]', "Klara")
    page.fill('input[name="email"]', "klara@example.com")
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    enter_code(page, "klara@example.com")
    expect(page.locator(".site-account__name")).to_contain_text("Klara")
    page.get_by_role("button", name="Abmelden").first.click()
    expect(page.locator(".site-account")).to_contain_text("Anmelden")
    page.goto(f"{base}/de/accounts/login/")
    shoot(page, "accounts-login-de")
    page.fill('input[name="login"]', "Klara")
    page.fill('input[name="password"]', PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    expect(page.locator(".site-account__name")).to_contain_text("Klara")
    context.close()


def sign_up_with_a_passkey(page, base: str, name: str, shoot=None) -> None:
    """Sign up with a passkey (the browser's virtual authenticator makes it), the e-mail's code
    confirmed: the page ends signed in."""
    page.goto(f"{base}/en/accounts/signup/")
    page.get_by_role("link", name="Sign up using a passkey").click()
    page.fill('input[name="username"]', name)
    email = address(name)
    page.fill('input[name="email"]', email)
    page.locator("form.account-form button[type=submit]").click()
    enter_code(page, email)
    expect(page.locator("#mfa_webauthn_signup")).to_be_visible()
    if shoot:
        shoot(page, "accounts-passkey-create")
    page.wait_for_load_state("load")  # allauth's passkey script bound to the button
    page.click("#mfa_webauthn_signup")
    expect(page.locator(".site-account__name")).to_contain_text(name)


def test_sign_up_with_a_passkey_then_sign_in_with_it(browser, base, shoot):
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    virtual_authenticator(context, page)
    sign_up_with_a_passkey(page, base, "Pia", shoot)

    page.get_by_role("button", name="Log out").first.click()
    expect(page.locator(".site-account")).to_contain_text("Log in")
    page.goto(f"{base}/en/accounts/login/")
    page.click("#passkey_login")
    expect(page.locator(".site-account__name")).to_contain_text("Pia")
    context.close()


def test_wrong_passwords_from_someone_else_leave_the_owner_their_passkey(browser, base):
    """Five wrong passwords for an account pause its password (allauth's login_failed per
    account); its owner, told so on the log-in page, still signs in with their passkey."""
    owner_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    owner = owner_ctx.new_page()
    virtual_authenticator(owner_ctx, owner)
    sign_up_with_a_passkey(owner, base, "Rita")
    owner.goto(f"{base}/en/accounts/password/set/")  # a password too, which others can guess at
    owner.fill('input[name="password1"]', PASSWORD)
    owner.fill('input[name="password2"]', PASSWORD)
    owner.locator("form.account-form button[type=submit]").click()
    expect(owner.locator(".flash")).to_contain_text("Password successfully set.")
    owner.get_by_role("button", name="Log out").first.click()
    expect(owner.locator(".site-account")).to_contain_text("Log in")

    guesser_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    guesser = guesser_ctx.new_page()
    for n in range(5):
        guesser.goto(f"{base}/en/accounts/login/")
        guesser.fill('input[name="login"]', "Rita")
        guesser.fill('input[name="password"]', f"wrong-guess-{n}")
        guesser.locator("form.account-form button[type=submit]").click()
        expect(guesser.locator("form.account-form")).to_contain_text("not correct")

    owner.goto(f"{base}/en/accounts/login/")
    owner.fill('input[name="login"]', "Rita")
    owner.fill('input[name="password"]', PASSWORD)  # the right one, refused while paused
    owner.locator("form.account-form button[type=submit]").click()
    expect(owner.locator("form.account-form")).to_contain_text("signing in with a password is paused")
    expect(owner.locator("form.account-form")).to_contain_text("passkey")
    expect(owner.locator(".site-account")).to_contain_text("Log in")
    owner.click("#passkey_login")
    expect(owner.locator(".site-account__name")).to_contain_text("Rita")
    for ctx in (owner_ctx, guesser_ctx):
        ctx.close()


@pytest.mark.parametrize(
    ("language", "note"),
    [("en", "Passkeys cannot be used at this address"), ("de", "An dieser Adresse funktionieren Passkeys nicht")],
)
def test_an_address_that_cannot_use_passkeys_says_so_instead_of_offering_them(browser, live_url, base, language, note):
    """WebAuthn refuses an IP address: at 127.0.0.1 the passkey buttons would do nothing when
    pressed, so the log-in and sign-up pages hide them and say why, in the page's language; at
    localhost they are there and nothing is said."""
    context = browser.new_context(viewport=DESKTOP, locale="de-DE" if language == "de" else "en-GB")
    page = context.new_page()
    page.goto(f"{live_url}/{language}/accounts/login/")
    expect(page.locator("[data-passkeys-unavailable]")).to_contain_text(note)
    expect(page.locator("#passkey_login")).to_be_hidden()
    expect(page.locator('input[name="password"]')).to_be_visible()  # the password still works
    page.goto(f"{live_url}/{language}/accounts/signup/")
    expect(page.locator("[data-passkeys-unavailable]")).to_contain_text(note)
    expect(page.locator('a[href*="/accounts/signup/passkey/"]')).to_be_hidden()
    page.goto(f"{base}/{language}/accounts/login/")
    expect(page.locator("#passkey_login")).to_be_visible()
    expect(page.locator("[data-passkeys-unavailable]")).to_have_count(0)
    page.goto(f"{base}/{language}/accounts/signup/")
    expect(page.locator('a[href*="/accounts/signup/passkey/"]')).to_be_visible()
    expect(page.locator("[data-passkeys-unavailable]")).to_have_count(0)
    context.close()


def test_a_guest_signs_up_mid_game_plays_on_and_finds_the_table_on_another_browser(browser, base, shoot):
    gus_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    ben_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    gus, ben = gus_ctx.new_page(), ben_ctx.new_page()
    invite = create_table(gus, base, "Gus", seats=2)
    join(ben, invite, "Ben")
    gus.click("text=Start the game")
    expect(gus.locator("#table")).to_have_attribute("data-status", "playing")
    code = invite.rstrip("/").rsplit("/", 1)[-1]

    # Gus signs up in another tab of the same browser, the table's tab stays open
    tab = gus_ctx.new_page()
    sign_up(tab, base, "Gus")
    tab.close()

    # the open table plays on, unreloaded: Gus's next move goes through on the socket opened as a guest
    gus.evaluate("window.__kept = true")  # gone if the page reloads
    mine = gus.locator("#controls.controls--active button:enabled")
    # Ben decides until it is Gus's turn: within the first round, or at the second's start (Gus is
    # left of its dealer), as Ben passes once his row holds three values, unless Ben freezes Gus
    # in the deal of both (8 deals in 5,000 reach round 3); no round can end a game to 250 (one
    # round scores 227 at most), so Gus's turn always comes
    play_until([ben], lambda: deciding([gus, ben]) is gus)
    version = int(gus.locator("#table-meta").get_attribute("data-version"))
    mine.first.click()
    expect(gus.locator("#table-meta")).not_to_have_attribute("data-version", str(version))
    expect(ben.locator("#table-meta")).not_to_have_attribute("data-version", str(version))
    assert gus.evaluate("window.__kept === true")
    expect(gus.locator("#controls")).not_to_contain_text("You are watching this game.")

    # a second browser logs in and finds the table under "your tables", seated in it
    other_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    other = other_ctx.new_page()
    other.goto(f"{base}/en/accounts/login/")
    other.fill('input[name="login"]', "Gus")
    other.fill('input[name="password"]', PASSWORD)
    other.locator("form.account-form button[type=submit]").click()
    expect(other.locator(".site-account__name")).to_contain_text("Gus")
    other.goto(f"{base}/en/")
    expect(other.locator(".my-tables")).to_contain_text(code)
    other.locator(".my-tables a", has_text=code).click()
    expect(other.locator("#controls")).not_to_contain_text("You are watching this game.")
    shoot(other, "accounts-second-browser-table")
    other.goto(f"{base}/en/")
    shoot(other, "accounts-home-signed-in")
    other.locator(".site-account__name").click()  # the header's name leads to the profile
    expect(other.locator("h1")).to_have_text("Gus")
    expect(other.locator("#results-title")).to_have_text("Games played and won")
    shoot(other, "accounts-profile")
    for ctx in (gus_ctx, ben_ctx, other_ctx):
        ctx.close()


def test_a_friend_request_and_a_live_invitation_between_two_browsers(browser, base, shoot):
    ana_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    ben_ctx = browser.new_context(viewport=DESKTOP, locale="de-DE")
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    sign_up(ana, base, "Ana")
    sign_up(ben, base, "Ben", language="de")

    # Ana asks Ben by name; Ben accepts on his friends page
    ana.goto(f"{base}/en/friends/")
    ana.fill("#friend-name", "Ben")
    ana.get_by_role("button", name="Send request").click()
    expect(ana.locator(".flash")).to_contain_text("Friend request sent.")
    ben.goto(f"{base}/de/friends/")
    expect(ben.locator("#incoming-title")).to_have_text("Freundschaftsanfragen")
    ben.get_by_role("button", name="Annehmen").click()
    expect(ben.locator(".friend-list")).to_contain_text("Ana")

    # Ben goes on with his home page open; Ana opens a table and invites him from it
    ben.goto(f"{base}/de/")
    expect(ben.locator("#invitations[data-live]")).to_have_count(1)
    ana.goto(f"{base}/en/")
    ana.click(".panel--create button.button--primary")
    ana.wait_for_url("**/t/**")
    code = ana.url.rstrip("/").rsplit("/", 1)[-1]
    ana.locator('[data-invite-friend="Ben"]').click()
    expect(ana.locator("#invite-friends")).to_contain_text("Invitation sent to Ben.")

    toast = ben.locator(".invite-toast")
    expect(toast).to_contain_text(f"Ana lädt dich zu einer Partie SEVN an Tisch {code} ein.")
    shoot(ben, "accounts-invitation-toast")
    toast.get_by_role("button", name="Beitreten").click()
    ben.wait_for_url(f"**/de/t/{code}/")
    expect(ben.locator(".lobby-seat--you")).to_contain_text("Ben")
    expect(ana.locator("#table")).to_contain_text("Ben")  # Ana's table shows him seated, live
    shoot(ana, "accounts-table-people")
    for ctx in (ana_ctx, ben_ctx):
        ctx.close()


def test_a_ban_on_an_account_follows_it_to_a_second_browser(browser, base, no_console_errors):
    from django.contrib.auth.models import User

    from game.models import Profile
    from game.services import moderation
    from game.services.staff import Person

    first_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    first = first_ctx.new_page()
    sign_up(first, base, "Zoe")
    zoe = User.objects.get(username="Zoe")
    key = Profile.objects.get(user=zoe).player_key
    moderation.player_ban(by=None, person=Person(key, "Zoe", zoe.pk), duration="24h", reason="cheating")
    first.goto(f"{base}/en/")  # the ban logged Zoe out of the browser she was signed in to
    expect(first.locator(".site-account")).to_contain_text("Log in")

    second_ctx = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    second = second_ctx.new_page()
    second.goto(f"{base}/fr/accounts/login/")
    second.fill('input[name="login"]', zoe.email)
    second.fill('input[name="password"]', PASSWORD)
    second.locator("form.account-form button[type=submit]").click()
    expect(second.locator(".site-account__name")).to_contain_text("Zoe")
    second.goto(f"{base}/fr/")
    second.click(".panel--create button.button--primary")
    expect(second.locator(".panel--create .form__errors")).to_contain_text("cheating")
    assert "/t/" not in second.url
    # the refusal is the form again with status 400, which the browser logs: that one is expected
    no_console_errors.errors[:] = [e for e in no_console_errors.errors if "/tables/new/" not in e]
    for ctx in (first_ctx, second_ctx):
        ctx.close()


def test_a_suspended_player_is_put_out_of_their_table_at_once_and_reads_why(browser, base, no_console_errors):
    """Admin's Suspend (how long, why) closes the player's open table at once with the reason
    on it; reloading, they read why, until when and how to appeal."""
    from django.contrib.auth.models import User
    from django.test import Client

    sam_ctx, root_ctx = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)
    sam = sam_ctx.new_page()
    sign_up(sam, base, "Sam")
    sam.goto(f"{base}/en/")
    sam.select_option("#id_seat_count", "2")
    sam.click(".panel--create button.button--primary")
    sam.wait_for_url("**/t/**")
    expect(sam.locator('body[data-socket="live"]')).to_have_count(1)

    root = User.objects.create_superuser("root", "root@example.com", "unused-here")
    client = Client()
    client.force_login(root)
    root_ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}])
    admin = root_ctx.new_page()
    admin.goto(f"{base}/admin/auth/user/?q=Sam")
    admin.locator(f'input[name="_selected_action"][value="{User.objects.get(username="Sam").pk}"]').check()
    admin.select_option('select[name="action"]', "suspend")
    admin.locator('button[name="index"]').click()
    admin.select_option('select[name="duration"]', "7d")
    admin.fill('input[name="reason"]', "abuse of other players")
    admin.locator('input[name="apply"]').click()
    expect(admin.locator(".messagelist")).to_contain_text("1 account suspended.")

    note = sam.locator("#connection")
    expect(note).to_be_visible(timeout=3000)
    expect(note).to_contain_text("Your account was suspended")
    sam.reload()
    expect(sam.locator("h1")).to_have_text("Account suspended")
    expect(sam.locator("main")).to_contain_text("abuse of other players")
    expect(sam.locator("main")).to_contain_text("appeals@localhost")
    for ctx in (sam_ctx, root_ctx):
        ctx.close()
