"""Alerts in the browser: a push reaches the other person's service worker and shows a notice
with the table's tag; the rulebook (the tutorial among it) opens with no network in every
language; Chromium finds the site installable; the notification settings as people see them.

The push goes the whole way but one step: the server sends it, encrypted for the device, to a
push service on this machine (deploy/push_receiver.py), which decrypts it with the keys the
test made as a browser makes them; headless Chromium has no push service of its own (its
subscribe asks Google's), so DevTools' ServiceWorker.deliverPushMessage hands the decrypted
message to the real service worker of the person's browser, as their push service would."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from deploy.push_receiver import Receiver
from game.live import timers
from game.models import Notice
from game.services import alerts
from sevn_site.installable import offline_pages
from tests.accounts.test_home import account
from tests.browser.test_accessibility import check

from ..waiting import POLL_MS, until
from .conftest import CHROMIUM_ARGS, DESKTOP, FULL_CHROMIUM, PHONE

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.service_worker]


@pytest.fixture(scope="module")
def browser(playwright):
    """The full Chromium for these tests (not the session's headless shell, tests/browser/
    conftest.py): the shell denies every page's notification permission from the start, so a
    page could neither ask for it nor show a push."""
    launched = playwright.chromium.launch(executable_path=FULL_CHROMIUM, args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@pytest.fixture
def receiver(settings):
    settings.SEVN_PUSH_HOSTS = ["127.0.0.1"]
    settings.SEVN_PUSH_ALLOW_HTTP = True
    with Receiver() as running:
        yield running


def signed_in(browser, live_url: str, user, **options):
    context = browser.new_context(**options)
    client = Client()
    client.force_login(user, backend="allauth.account.auth_backends.AuthenticationBackend")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_url}])
    return context


def worker_ready(page) -> None:
    """The page's service worker is installed (its offline copy made) and active."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def test_a_push_reaches_the_other_persons_service_worker_as_the_tables_notice(browser, live_url, receiver, shoot):
    from tests.services.test_alerts_outbox import a_table_of_two

    table, (ana, _ana_p), (ben, _ben_p) = a_table_of_two(turn_seconds=0)
    ana_ctx = signed_in(browser, live_url, ana, viewport=DESKTOP)
    ben_ctx = signed_in(browser, live_url, ben, viewport=DESKTOP, permissions=["notifications"])
    ana_page, ben_page = ana_ctx.new_page(), ben_ctx.new_page()
    # Ben is elsewhere on the site (his settings), not at the table; his browser's worker runs
    ben_page.goto(f"{live_url}/en/settings/notifications/")
    worker_ready(ben_page)
    device = receiver.device()  # the keys Ben's browser would make when it subscribes
    alerts.subscribe(
        user=ben,
        endpoint=device["endpoint"],
        p256dh=device["keys"]["p256dh"],
        auth=device["keys"]["auth"],
        language="en",
    )
    # Ana passes at the table: the turn is Ben's
    ana_page.goto(f"{live_url}/en/t/{table.code}/")
    ana_page.locator('[data-action="pass"]').click()
    expect(ana_page.locator("#controls")).to_contain_text("Waiting for")
    until(lambda: Notice.objects.filter(user=ben, kind=Notice.Kind.TURN).exists(), "Ben's notice in the outbox")
    # the deadline loop's own entry point, its clock past the grace a quick reply would have had
    timers.send_alerts(timezone.now() + timedelta(seconds=django_settings.SEVN_PUSH_GRACE_SECONDS + 1))
    pushed = receiver.wait_for(1)
    assert len(pushed) == 1 and receiver.refused == []
    message = pushed[0].payload
    assert message["tag"] == table.code and message["title"] == "Your move"

    # Ben's push service hands it to his browser's service worker
    cdp = ben_ctx.new_cdp_session(ben_page)
    registrations: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    # (Playwright hands the session's events over only while it is called: `page` lets it.)
    registration = until(
        lambda: next((r for r in registrations if r["scopeURL"] == f"{live_url}/" and not r.get("isDeleted")), None),
        "the worker's registration, as the browser reports it",
        page=ben_page,
    )
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_url, "registrationId": registration["registrationId"], "data": json.dumps(message)},
    )
    shown = ben_page.wait_for_function(
        """async (tag) => {
            const registration = await navigator.serviceWorker.ready;
            const found = await registration.getNotifications({ tag });
            const shown = found.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }));
            return shown.length ? shown : null;
        }""",
        arg=table.code,
        polling=POLL_MS,
    ).json_value()
    assert shown == [{"title": "Your move", "body": message["body"], "tag": table.code, "url": f"/en/t/{table.code}/"}]
    assert table.code in shown[0]["body"]
    # a newer notice of the same table replaces it: still one with that tag
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_url,
            "registrationId": registration["registrationId"],
            "data": json.dumps({**message, "title": "Time is running out"}),
        },
    )
    ben_page.wait_for_function(
        """async (tag) => {
            const found = await (await navigator.serviceWorker.ready).getNotifications({ tag });
            return found.length === 1 && found[0].title === "Time is running out";
        }""",
        arg=table.code,
        polling=POLL_MS,
    )


def test_the_rulebook_opens_with_no_network_in_every_language(browser, live_url):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_url}/en/")
    worker_ready(page)
    page.reload()  # now the worker controls the page
    context.set_offline(True)
    pages = offline_pages()
    assert len(pages) >= 15
    for path in pages:
        page.goto(f"{live_url}{path}")
        language = path.split("/")[1]
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("main h1").first).to_be_visible()
        # the look came from the copy too: the site's stylesheet applies
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(246, 244, 238)"
    page.goto(f"{live_url}/de/rules/")
    expect(page.locator("main")).to_contain_text("SEVN")
    context.set_offline(False)
    context.close()


def test_chromium_finds_the_site_installable(playwright, live_url, tmp_path):
    """Chromium's own installability checks (the ones Lighthouse's "installable" audit reads):
    a profile on disk, as a person's is (an incognito context is never installable)."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=FULL_CHROMIUM, args=CHROMIUM_ARGS, viewport=DESKTOP
    )
    page = context.new_page()
    page.goto(f"{live_url}/en/")
    worker_ready(page)
    page.reload()
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and not manifest.get("errors")
    context.close()


def test_the_notification_settings_as_people_see_them(browser, live_url, shoot):
    ben, _ = account("Ben")
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = signed_in(browser, live_url, ben, viewport=viewport, timezone_id="Asia/Tokyo")
        page = context.new_page()
        page.goto(f"{live_url}/de/settings/notifications/")
        check(page, f"the notification settings ({name})")
        if name == "desktop":  # never saved: the device's time zone is offered
            expect(page.locator("#id_time_zone")).to_have_value("Asia/Tokyo")
        # headless Chromium has a push manager but no permission yet: the button to turn notices on
        expect(page.locator("[data-push-on]")).to_be_visible()
        expect(page.locator("[data-push-status]")).to_have_text("Dieses Gerät erhält noch keine Benachrichtigungen.")
        page.check("#id_email_digest")
        page.select_option("#id_digest_hour", "7")
        page.select_option("#id_time_zone", "Europe/Berlin")
        page.fill("#id_quiet_from", "22:00")
        page.fill("#id_quiet_until", "07:30")
        shoot(page, f"notification-settings-{name}")
        page.locator(".notification-form button.button--primary").click()
        expect(page.locator(".flash")).to_contain_text("Gespeichert")
        expect(page.locator("#id_quiet_until")).to_have_value("07:30")
        # the same section on the account's one settings page, saved from there back to it
        page.goto(f"{live_url}/de/settings/")
        section = page.locator("#notifications")
        expect(section.locator("h2")).to_have_text("Benachrichtigungen")
        expect(section.locator("#id_quiet_until")).to_have_value("07:30")
        section.locator("#id_push_game_over").uncheck()
        section.locator(".notification-form button.button--primary").click()
        expect(page).to_have_url(f"{live_url}/de/settings/#notifications")
        expect(page.locator("#notifications #id_push_game_over")).not_to_be_checked()
        if name == "phone":
            section.scroll_into_view_if_needed()
            shoot(page, "account-settings-notifications-phone", full_page=False)
        context.close()


def test_the_daily_emails_unsubscribe_page(browser, live_url, shoot):
    ben, _ = account("Ben")
    alerts.settings_save(user=ben, language="fr", email_digest=True)
    context = browser.new_context(viewport=PHONE)  # a mail program's browser: not signed in
    page = context.new_page()
    page.goto(f"{live_url}/fr/alerts/unsubscribe/{alerts.unsubscribe_token(ben.pk)}/")
    expect(page.locator("h1")).to_have_text("Arrêter l’e-mail quotidien\u202f?")
    check(page, "the unsubscribe page")
    page.get_by_role("button", name="Arrêter l’e-mail quotidien").click()
    expect(page.locator("h1")).to_have_text("Plus d’e-mail quotidien")
    shoot(page, "digest-unsubscribed-phone")
    assert not alerts.settings_of(ben).email_digest
    context.close()
