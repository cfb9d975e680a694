"""Alerts' pages: the notification settings (a form of its own), a device's subscription posted
by the page's script, the service worker at the site's root and the app's manifest."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.conf import settings

from game.models import AlertSettings, PushSubscription
from tests.accounts.test_home import account, signed_in

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_settings_are_saved_in_the_pages_language_and_bad_input_changes_nothing(client):
    ben, _ = account("Ben")
    assert client.get("/en/settings/notifications/").status_code == 302  # signed in only
    signed_in(client, ben)
    page = client.get("/de/settings/notifications/")
    assert page.status_code == 200 and "Benachrichtigungen" in page.content.decode()
    form = {
        "push_turn": "on",
        "push_invitation": "on",
        "time_zone": "Europe/Warsaw",
        "quiet_from": "22:30",
        "quiet_until": "07:00",
        "email_digest": "on",
        "digest_hour": "7",
        "next": "/de/settings/notifications/",
    }
    response = client.post("/de/settings/notifications/", form)
    assert response.status_code == 302 and response["Location"] == "/de/settings/notifications/"
    row = AlertSettings.objects.get(user=ben)
    assert (row.push_turn, row.push_reminder, row.push_invitation, row.email_digest, row.email_urgent) == (
        True,
        False,
        True,
        True,
        False,
    )
    assert row.language == "de" and row.time_zone == "Europe/Warsaw" and row.next_digest is not None
    assert str(row.quiet_from) == "22:30:00"
    for bad in ({"quiet_until": ""}, {"time_zone": "Mars/Olympus"}, {"digest_hour": "25"}, {"quiet_until": "22:30"}):
        response = client.post("/en/settings/notifications/", {**form, **bad})
        assert response.status_code == 400
        assert 'class="errorlist' in response.content.decode() or "form__errors" in response.content.decode()
        assert AlertSettings.objects.get(user=ben).time_zone == "Europe/Warsaw"
    # a "next" elsewhere is not followed
    response = client.post("/en/settings/notifications/", {**form, "next": "https://elsewhere.example/"})
    assert response["Location"] == "/en/settings/notifications/"


def test_a_device_subscribes_and_stops(client, settings):
    ben, _ = account("Ben")
    signed_in(client, ben)
    device = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc:def",
        "keys": {"p256dh": "B" + "x" * 86, "auth": "a" * 22},
    }

    def post(body):
        return client.post("/en/alerts/push/", body if isinstance(body, str) else json.dumps(body), "application/json")

    answer = post({"action": "subscribe", **device})
    assert answer.status_code == 200 and answer.json() == {"devices": 1}
    assert AlertSettings.objects.get(user=ben).language == "en"
    assert post("not json").status_code == 400
    assert post({"action": "subscribe", **device, "endpoint": "https://evil.example/push"}).status_code == 400
    assert post({"action": "subscribe", **device, "endpoint": "http://fcm.googleapis.com/x"}).status_code == 400
    assert post({"action": "subscribe", "endpoint": device["endpoint"] + "2", "keys": {"p256dh": 5}}).status_code == 400
    assert PushSubscription.objects.filter(user=ben).count() == 1
    assert post({"action": "unsubscribe", "endpoint": device["endpoint"]}).json() == {"devices": 0}
    client.logout()
    assert post({"action": "subscribe", **device}).status_code == 302


def test_the_service_worker_is_at_the_root_with_every_rulebook_page_in_every_language(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Service-Worker-Allowed"] == "/" and response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    pages = json.loads(body.split("const PAGES = ", 1)[1].split(";\n", 1)[0])
    for code, _name in settings.LANGUAGES:
        mine = [page for page in pages if page.startswith(f"/{code}/rules/")]
        assert f"/{code}/rules/" in mine and len(mine) >= 3, mine  # the tutorial, the complete rules, Sevens'
    for page in pages:
        assert client.get(page).status_code == 200, page
    assert "showNotification" in body and "setAppBadge" in body


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "SEVN" and manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["lang"] == "fr" and "\u202f" not in manifest["description"] and manifest["description"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        side = int(icon["sizes"].split("x")[0])
        assert png_size(ROOT / "static" / icon["src"].removeprefix("/static/")) == (side, side)
    page = client.get("/en/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_notices_follow_the_language_a_person_logs_in_with(client, rf):
    from django.contrib.auth.signals import user_logged_in
    from django.contrib.sessions.backends.db import SessionStore

    ben, _ = account("Ben")

    def logs_in(language: str) -> None:  # as allauth's log-in does, on a page in that language
        request = rf.post(f"/{language}/accounts/login/")
        request.session, request.LANGUAGE_CODE = SessionStore(), language
        user_logged_in.send(sender=type(ben), request=request, user=ben)

    logs_in("pl")
    assert not AlertSettings.objects.filter(user=ben).exists()  # never chose: nothing to follow
    signed_in(client, ben)
    client.post("/en/settings/notifications/", {"push_turn": "on", "time_zone": "UTC", "digest_hour": "8"})
    assert AlertSettings.objects.get(user=ben).language == "en"
    logs_in("pl")
    assert AlertSettings.objects.get(user=ben).language == "pl"
