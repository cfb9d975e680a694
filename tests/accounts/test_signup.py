"""Accounts through allauth: sign up (with the e-mailed code), log in, log out, the rate limit
on failed logins, the site's look and languages; staff still log in to admin."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from game.models import Profile
from tests.accounts.helpers import PASSWORD, log_in, sign_up

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_sign_up_sends_a_code_and_logs_in_once_it_is_entered(client):
    sign_up(client, "Dora")
    user = User.objects.get(username="Dora")
    assert user.emailaddress_set.get().verified
    assert "Signed in as Dora" in client.get("/en/").content.decode()
    assert Profile.objects.get(user=user).player_key == f"user:{user.pk}"  # no guest before


def test_a_wrong_code_logs_nobody_in(client):
    client.post(
        "/en/accounts/signup/",
        {"username": "Ed", "email": "ed@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert len(mail.outbox) == 1
    response = client.post("/en/accounts/confirm-email/", {"code": "AAAAAA"})
    assert response.status_code == 200 and "Signed in as" not in client.get("/en/").content.decode()


def test_log_in_by_name_or_e_mail_and_log_out(client):
    sign_up(Client(), "Flo")
    assert log_in(client, "Flo").status_code == 302
    assert "Signed in as Flo" in client.get("/en/").content.decode()
    client.post("/en/accounts/logout/")
    assert "Signed in as" not in client.get("/en/").content.decode()
    assert log_in(client, "flo@example.com").status_code == 302
    assert "Signed in as Flo" in client.get("/en/").content.decode()


def test_usernames_follow_the_nickname_rules(client):
    response = client.post(
        "/en/accounts/signup/",
        {"username": "Moderator", "email": "m@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200 and "kept for computer players and staff" in response.content.decode()
    assert not User.objects.exists()


def test_failed_logins_are_rate_limited_per_address(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "3/m/ip"}
    User.objects.create_user("ana", password="right-password-1")
    pages = [log_in(client, "ana", "wrong").content.decode() for _ in range(4)]
    assert all("signing in with a password is paused" not in page for page in pages[:3])
    assert "signing in with a password is paused" in pages[3]
    refused = log_in(client, "ana", "right-password-1")  # the right password waits too
    assert refused.status_code == 200 and "signing in with a password is paused" in refused.content.decode()
    assert "Signed in as" not in client.get("/en/").content.decode()


def test_failed_logins_count_by_the_address_the_proxy_names_and_a_forged_one_changes_nothing(settings):
    """Behind nginx every request comes from 127.0.0.1: allauth's limit counts the client the trusted
    proxy names (one person's wrong tries don't lock everyone out), and a header from anyone else
    is not believed (it doesn't escape the limit either)."""
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "2/m/ip"}
    User.objects.create_user("ana", password="right-password-1")

    def tries(forwarded: str, remote: str = "127.0.0.1") -> list[bool]:
        client = Client(REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
        return [
            "signing in with a password is paused" in log_in(client, "ana", "wrong").content.decode() for _ in range(3)
        ]

    assert tries("198.51.100.7") == [False, False, True]
    assert tries("198.51.100.8") == [False, False, True]  # another person behind the same proxy
    assert tries("203.0.113.1", remote="192.0.2.9") == [False, False, True]  # straight to Daphne
    assert tries("203.0.113.2", remote="192.0.2.9") == [True, True, True]  # a new forged name: same address


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Sign In", "Forgot your password?"]),
        ("de", ["Anmelden", "Passwort vergessen?"]),
        ("fr", ["Se connecter", "Mot de passe oublié"]),
        ("nl", ["Inloggen"]),
        ("pl", ["Zaloguj się"]),
    ],
)
def test_the_login_page_is_the_site_s_page_in_each_language(client, language, words):
    html = client.get(f"/{language}/accounts/login/").content.decode()
    assert 'class="site-header"' in html and "sevn/sevn.css" in html  # the site's frame and look
    assert 'class="button button--primary"' in html
    for word in words:
        assert word in html, word
    assert "passkey_login" in html  # signing in with a passkey is offered


def test_sign_ups_are_rate_limited_per_address(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "2/h/ip"}
    statuses = [
        Client()
        .post(  # three browsers behind one address
            "/en/accounts/signup/",
            {"username": f"New{i}", "email": f"n{i}@example.com", "password1": PASSWORD, "password2": PASSWORD},
        )
        .status_code
        for i in range(3)
    ]
    assert statuses[-1] == 429 and User.objects.count() == 2


@pytest.mark.parametrize(
    ("path", "said", "mixed"),
    [
        ("/de/accounts/login/", ["Benutzername oder E-Mail"], ["Anmeldename", "Anmeldung"]),
        ("/de/accounts/reauthenticate/", ["Gib dein Passwort ein:"], ["Sie sich", "Ihr Konto", "Geben Sie"]),
        ("/nl/accounts/login/", ["Inloggen met een passkey", "Gebruikersnaam of e-mail"], ["Aanmelden", "Meld je aan"]),
        ("/nl/accounts/signup/", ["Het wachtwoord moet minstens 8 tekens bevatten.", "Log dan in"], ["Uw ", "aanmeld"]),
        ("/nl/accounts/logout/", ["Weet je zeker dat je wilt uitloggen?"], ["Afmelden", "afmelden"]),
        ("/pl/accounts/login/", ["Nie pamiętasz hasła?", "Nazwa użytkownika lub e-mail"], ["Zapomniałeś", "to proszę"]),
        ("/pl/accounts/reauthenticate/", ["Wpisz hasło:"], ["Wprowadż"]),
        ("/fr/accounts/login/", ["Mot de passe oublié\u202f?", "Créez-en un"], ["oublié ?", "d&#x27;accès"]),
        ("/fr/accounts/signup/passkey/", ["Création de compte avec une clé d’accès"], ["clé de sécurité", "Courriel"]),
    ],
)
def test_allauth_pages_speak_the_site_s_words_and_register(client, path, said, mixed):
    """allauth's own catalogue words its pages; ours overrides the few words that mixed with the
    site's header (log in / sign in), its register (du, je, vous) or its spelling."""
    if "reauthenticate" in path or "logout" in path:
        client.force_login(User.objects.create_user("Mia", "mia@example.com", PASSWORD))
    html = client.get(path).content.decode()
    for words in said:
        assert words in html, words
    for words in mixed:
        assert words not in html, words


@pytest.mark.parametrize("language", ["en", "de", "nl", "pl", "fr"])
def test_the_passkey_list_opens(client, language):
    """allauth's list of passkeys is the settings page's section (it loads Django's humanize tags)."""
    client.force_login(User.objects.create_user("Mia", "mia@example.com", PASSWORD))
    response = client.get(f"/{language}/accounts/2fa/webauthn/", follow=True)
    html = response.content.decode()
    assert response.status_code == 200 and 'class="site-header"' in html and 'id="passkeys"' in html


def test_staff_log_in_to_admin(client):
    User.objects.create_superuser("root", "root@example.com", "pw-123456")
    response = client.post("/admin/login/?next=/admin/", {"username": "root", "password": "pw-123456"})
    assert response.status_code == 302 and client.get("/admin/").status_code == 200


def test_a_forgotten_password_is_reset_by_e_mail(client):
    sign_up(Client(), "Gil")
    response = client.post("/en/accounts/password/reset/", {"email": "gil@example.com"})
    assert response.status_code == 302
    link = re.search(r"https?://\S+/accounts/password/reset/key/\S+", mail.outbox[-1].body).group(0)
    form = client.get(link, follow=True)
    action = form.redirect_chain[-1][0] if form.redirect_chain else link
    done = client.post(action, {"password1": "a-new-password-2", "password2": "a-new-password-2"})
    assert done.status_code == 302
    assert log_in(Client(), "Gil", "a-new-password-2").status_code == 302


def settings_in(env: dict) -> dict:
    """EMAIL_* and the e-mail verification as a process started with this environment sees them."""
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        "print(json.dumps({k: str(getattr(settings, k, '')) for k in "
        "('EMAIL_BACKEND', 'EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_USE_TLS', 'ACCOUNT_EMAIL_VERIFICATION', "
        "'MFA_PASSKEY_SIGNUP_ENABLED')}))"
    )
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "sevn_site.settings", **env}
    for name in ("EMAIL_HOST", "EMAIL_VERIFICATION"):
        if name not in env:
            environment.pop(name, None)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_e_mail_goes_to_the_console_unless_the_environment_names_an_smtp_server():
    default = settings_in({})
    assert default["EMAIL_BACKEND"].endswith("console.EmailBackend")
    assert default["ACCOUNT_EMAIL_VERIFICATION"] == "mandatory" and default["MFA_PASSKEY_SIGNUP_ENABLED"] == "True"
    smtp = settings_in({"EMAIL_HOST": "smtp.example.org", "EMAIL_VERIFICATION": "optional"})
    assert smtp["EMAIL_BACKEND"].endswith("smtp.EmailBackend") and smtp["EMAIL_HOST"] == "smtp.example.org"
    assert smtp["EMAIL_PORT"] == "587" and smtp["EMAIL_USE_TLS"] == "True"
    assert smtp["ACCOUNT_EMAIL_VERIFICATION"] == "optional" and smtp["MFA_PASSKEY_SIGNUP_ENABLED"] == "False"
