"""What an operator gets out of the box: no public secret key, a clean `check --deploy`, strict
headers, no sessions for visitors who only look, same-origin sockets, readable nicknames, an
admin that keeps a running game's secrets, throttled lookups and logins, and a health check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission, User
from django.contrib.sessions.models import Session

from game import services
from game.core.errors import ServiceError
from game.live.origins import origin_allowed
from tests.factories import game_of, open_table, people

ROOT = Path(__file__).resolve().parents[2]
PUBLIC_DEVELOPMENT_KEY = "sevn-local-development-key-not-for-production"


def test_the_secret_key_is_never_a_public_one(settings):
    assert settings.SECRET_KEY != PUBLIC_DEVELOPMENT_KEY and len(settings.SECRET_KEY) >= 50


def _message_cookie(text: str) -> str:
    from django.contrib.messages import constants
    from django.contrib.messages.storage.base import Message
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.test import RequestFactory

    return CookieStorage(RequestFactory().get("/"))._encode([Message(constants.ERROR, text)])


@pytest.mark.django_db
def test_a_message_cookie_signed_with_the_old_public_key_is_ignored(client, settings):
    from django.contrib.messages.storage.cookie import CookieStorage

    real_key = settings.SECRET_KEY
    settings.SECRET_KEY = PUBLIC_DEVELOPMENT_KEY
    forged = _message_cookie("Staff: send your password to evil@example.com")
    settings.SECRET_KEY = real_key
    client.cookies[CookieStorage.cookie_name] = forged
    assert "evil@example.com" not in client.get("/en/").content.decode()
    client.cookies[CookieStorage.cookie_name] = _message_cookie("A message the server signed")
    assert "A message the server signed" in client.get("/en/").content.decode()  # the test can see one


def test_check_deploy_is_clean_with_the_production_environment(tmp_path):
    env = {
        **os.environ,
        "SECRET_KEY": "p" * 30 + "-Zq8#kW3!x9vB2@nL5$rT7%yU4^mH6&jC1*",
        "HTTPS": "true",
        "SECURE_HSTS_SECONDS": "31536000",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
        "SECURE_HSTS_PRELOAD": "true",
        "ALLOWED_HOSTS": "sevn.example.org",
        "DEBUG": "false",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the browser tests' own switch, never a deployment's
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.django_db
def test_pages_send_a_strict_content_security_policy(client):
    response = client.get("/en/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_looking_creates_no_session(client):
    table, _ = open_table()
    for path in ("/en/", f"/en/t/{table.code}/", "/en/rules/", f"/t/{table.code}/"):
        client.get(path, follow=True)
    assert Session.objects.count() == 0


@pytest.mark.django_db
def test_a_newcomer_who_takes_a_seat_gets_the_page_again_with_their_session(client):
    table, _ = open_table(start=False)
    client.get(f"/en/t/{table.code}/")
    response = client.post(f"/en/t/{table.code}/join/", {"nickname": "Zoë"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Refresh"] == "true"
    assert Session.objects.count() == 1


@pytest.mark.parametrize(
    "origin, host, allowed",
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("http://localhost", "localhost", True),
        ("https://localhost", "localhost:443", True),
        ("http://127.0.0.1:9999", "127.0.0.1:8000", False),  # another port of an allowed host
        ("http://evil.example", "evil.example", False),  # a host that is not allowed
        ("null", "127.0.0.1:8000", False),
        ("", "127.0.0.1:8000", False),
        ("http://127.0.0.1:8000", "", False),
        ("http://127.0.0.1:notaport", "127.0.0.1:8000", False),
    ],
)
def test_sockets_come_only_from_the_sites_own_origin(origin, host, allowed):
    assert origin_allowed(origin, host) is allowed


@pytest.mark.django_db
@pytest.mark.parametrize(
    "nickname",
    ["\u3164", "\u2800\u2800", "\u115f", "\u200b\u200d", "  ", "Bot Ana", "bot", "[BOT] x", "Admin", "CPU 2"],
)
def test_blank_looking_and_impostor_nicknames_are_refused(nickname):
    table, _ = open_table(start=False)
    with pytest.raises(ServiceError):
        services.seat_take(code=table.code, player=people("Zed")[0], nickname=nickname)


@pytest.mark.django_db
@pytest.mark.parametrize("nickname", ["Zoë", "李雷", "Robotnik", "Botanist", "Ana 🙂"])
def test_real_names_in_any_script_are_welcome(nickname):
    table, _ = open_table(start=False)
    services.seat_take(code=table.code, player=people("Zed")[0], nickname=nickname)


@pytest.fixture
def viewer(client):
    user = User.objects.create_user("viewer", password="secret-pass-1", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__startswith="view_"))
    client.login(username="viewer", password="secret-pass-1")
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("lookup", ["seed", "seed__gt", "state__contains", "state__startswith", "table__games__seed"])
def test_view_only_staff_cannot_probe_a_running_games_secrets_through_the_url(viewer, lookup):
    table, _ = open_table()
    game = game_of(table)
    value = str(game.seed) if "seed" in lookup else '{"'
    response = viewer.get("/admin/game/game/", {lookup: value})
    assert response.status_code == 400
    for path in ("/admin/game/event/", "/admin/game/table/", "/admin/game/seat/"):
        assert viewer.get(path, {"game__seed": value, "table__games__seed": value}).status_code in (400, 302)
    assert viewer.get("/admin/game/game/", {"over__exact": "0"}).status_code == 200  # its own filters work


@pytest.mark.django_db
def test_guessing_table_codes_is_throttled(client, settings):
    settings.SEVN_LOOKUPS_PER_MINUTE = 5
    table, _ = open_table()
    statuses = [client.get(f"/en/t/ZZZZ{i:02d}/").status_code for i in range(8)]
    assert statuses[:6] == [404] * 6 and statuses[-1] == 429
    assert client.get(f"/en/t/{table.code}/").status_code == 429  # until the minute is over
    assert client.get("/en/tables/find/", {"code": "QQQQQQ"}).status_code == 429


@pytest.mark.django_db
def test_health_check_reports_database_and_channel_layer(client, monkeypatch):
    response = client.get("/healthz")
    assert response.status_code == 200 and json.loads(response.content) | {"ms": 0} == {
        "status": "ok",
        "database": True,
        "channel_layer": True,
        "ms": 0,
        "full": None,  # game.runtime.capacity: room for new table sockets
        "table_sockets": 0,
        "connecting": 0,
        "delay_ms": 0.0,
        "turned_away": 0,
    }
    from game.pages import middleware

    monkeypatch.setattr(middleware, "database_ok", lambda: False)
    response = client.get("/healthz")
    assert response.status_code == 503 and json.loads(response.content)["status"] == "unavailable"


@pytest.mark.django_db
def test_health_check_reports_a_redis_layer_that_does_not_answer(client, settings):
    """The scale-out layer is checked with a command on its own pool (a receive would wait behind
    the relay's blocking read: game.pages.middleware); a Redis that is not there is a 503."""
    from deploy.local_stack import free_port

    settings.CHANNEL_LAYERS = {
        **settings.CHANNEL_LAYERS,
        "default": {
            "BACKEND": "game.delivery.channel_layer.ServiceRedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"], "pool_size": 2, "pool_timeout": 1},
        },
    }
    response = client.get("/healthz")
    body = json.loads(response.content)
    assert response.status_code == 503 and body["status"] == "unavailable"
    assert body["database"] is True and body["channel_layer"] is False
