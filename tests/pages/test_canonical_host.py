"""`make run` serves at localhost, where passkeys work, and a page asked for at 127.0.0.1 goes
there (WebAuthn refuses an IP address: "This is an invalid domain"). The redirect is opt-in
(SEVN_CANONICAL_HOST, which `make run` sets): the tests' live servers stay on 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_without_the_setting_an_address_is_served_as_it_is():
    assert Client(HTTP_HOST="127.0.0.1:8000").get("/en/rules/").status_code == 200


def test_a_page_asked_for_by_address_is_sent_to_the_canonical_host(settings):
    settings.SEVN_CANONICAL_HOST = "localhost:8000"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "[::1]", "sevn.test"]
    for host in ("127.0.0.1:8000", "[::1]:8000"):
        for method in ("get", "head"):
            response = getattr(Client(HTTP_HOST=host), method)("/de/accounts/login/?next=/de/friends/")
            assert response.status_code == 302
            assert response["Location"] == "http://localhost:8000/de/accounts/login/?next=/de/friends/"
    assert Client(HTTP_HOST="localhost:8000").get("/de/accounts/login/").status_code == 200
    assert Client(HTTP_HOST="sevn.test").get("/en/rules/").status_code == 200  # another name: left alone
    posted = Client(HTTP_HOST="127.0.0.1:8000").post("/en/accounts/login/", {"login": "x", "password": "y"})
    assert posted.status_code == 200  # nothing posted is lost to a redirect
    assert Client(HTTP_HOST="127.0.0.1:8000").get("/healthz").status_code == 200  # the probe answers in place


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(
    ("args", "url", "canonical"),
    [
        ([], "http://localhost:8000/", "localhost:8000"),
        (["PORT=8080"], "http://localhost:8080/", "localhost:8080"),
        (["HOST=0.0.0.0", "PORT=8080"], "http://0.0.0.0:8080/", ""),
    ],
)
def test_make_run_prints_and_serves_the_address_passkeys_work_at(args, url, canonical):
    env = {key: value for key, value in os.environ.items() if key != "SEVN_CANONICAL_HOST"}
    done = subprocess.run(
        ["make", "-n", "-o", "migrate", "run", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert f"SEVN is at {url}" in done.stdout
    assert f"SEVN_CANONICAL_HOST={canonical} " in done.stdout
