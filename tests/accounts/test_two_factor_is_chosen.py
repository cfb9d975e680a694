"""A passkey does not turn on two-factor (issue 38.3): a password log-in after adding one asks
for no code, and no recovery codes are made for it; two-factor is the authenticator app, turned
on knowingly (its recovery codes shown once) and off again (they go with it); a fresh log-in
counts as re-authenticated; the account's settings are one page with every section."""

from __future__ import annotations

import time

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value, yield_hotp_counters_from_time
from django.contrib.auth.models import User
from django.test import Client

from game.accounts.adapter import LOGGED_IN_AT
from tests.accounts.helpers import log_in, sign_up

pytestmark = pytest.mark.django_db
Type = Authenticator.Type


def _passkey(user) -> Authenticator:
    return Authenticator.objects.create(
        user=user,
        type=Type.WEBAUTHN,
        data={"name": "Laptop", "credential": {"clientExtensionResults": {"credProps": {"rk": True}}}},
    )


def _code(secret: str) -> str:
    return format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))


def _turn_on_the_app(client: Client) -> str:
    """Turn the authenticator app on through allauth's page; returns its secret."""
    page = client.get("/en/accounts/2fa/totp/activate/")
    assert page.status_code == 200, page.status_code
    secret = page.context["form"].secret
    response = client.post("/en/accounts/2fa/totp/activate/", {"code": _code(secret)})
    assert response.status_code == 302, response.content.decode()[:1500]
    assert response["Location"] == "/en/accounts/2fa/recovery-codes/"
    return secret


def test_a_password_log_in_after_adding_a_passkey_asks_for_no_code(client):
    sign_up(client, "Pia")
    pia = User.objects.get(username="Pia")
    _passkey(pia)
    client.post("/en/accounts/logout/")
    response = log_in(client, "Pia")
    assert response.status_code == 302 and response["Location"] == "/en/", response.get("Location")
    assert client.get("/en/").context["user"].username == "Pia"
    assert not Authenticator.objects.filter(user=pia, type=Type.RECOVERY_CODES).exists()
    assert "Two-factor" not in client.get("/en/accounts/login/").content.decode()


def test_adding_a_passkey_makes_no_recovery_codes(client, monkeypatch):
    """allauth's page made ten recovery codes, unseen, for the first passkey; the site's makes
    none. (The browser's WebAuthn ceremony is the browser test's; here the credential is taken
    as checked.)"""
    from allauth.mfa.webauthn import forms

    sign_up(client, "Pia")
    pia = User.objects.get(username="Pia")
    monkeypatch.setattr(forms.auth, "parse_registration_response", lambda credential: credential)
    monkeypatch.setattr(forms.auth, "complete_registration", lambda credential: credential)
    monkeypatch.setattr(
        "allauth.mfa.webauthn.internal.auth.WebAuthn.add",
        classmethod(lambda cls, user, name, credential: cls(_passkey(user))),
    )
    assert client.get("/en/accounts/2fa/webauthn/add/").status_code == 200  # no password asked again
    response = client.post("/en/accounts/2fa/webauthn/add/", {"name": "Laptop", "credential": '{"id": "key"}'})
    assert response.status_code == 302 and response["Location"] == "/en/settings/#passkeys"
    assert Authenticator.objects.filter(user=pia, type=Type.WEBAUTHN).count() == 1
    assert not Authenticator.objects.filter(user=pia, type=Type.RECOVERY_CODES).exists()


def test_two_factor_turned_on_shows_its_recovery_codes_once_and_asks_a_code_at_log_in(client):
    sign_up(client, "Tom")
    tom = User.objects.get(username="Tom")
    secret = _turn_on_the_app(client)
    codes = RecoveryCodes(Authenticator.objects.get(user=tom, type=Type.RECOVERY_CODES)).generate_codes()
    first = client.get("/en/accounts/2fa/recovery-codes/").content.decode()
    assert all(code in first for code in codes)
    again = client.get("/en/accounts/2fa/recovery-codes/").content.decode()
    assert not any(code in again for code in codes)
    settings_page = client.get("/en/settings/").content.decode()
    assert "Turn off two-factor authentication" in settings_page and "10 of 10 recovery codes left" in settings_page
    client.post("/en/accounts/logout/")
    response = log_in(client, "Tom")
    assert response["Location"] == "/en/accounts/2fa/authenticate/"
    response = client.post("/en/accounts/2fa/authenticate/", {"code": _code(secret)})
    assert response.status_code == 302 and client.get("/en/").context["user"].username == "Tom"


def test_two_factor_can_be_turned_off_and_its_codes_go_with_it(client):
    sign_up(client, "Tom")
    tom = User.objects.get(username="Tom")
    _passkey(tom)  # a passkey stays; it is no second factor
    _turn_on_the_app(client)
    response = client.post("/en/accounts/2fa/totp/deactivate/")
    assert response.status_code == 302
    assert client.get(response["Location"], follow=True).redirect_chain[-1][0] == "/en/settings/#two-factor"
    kinds = set(Authenticator.objects.filter(user=tom).values_list("type", flat=True))
    assert kinds == {Type.WEBAUTHN}
    assert "Turn on two-factor authentication" in client.get("/en/settings/").content.decode()
    client.post("/en/accounts/logout/")
    assert log_in(client, "Tom")["Location"] == "/en/"


def test_a_fresh_log_in_counts_as_re_authenticated_for_five_minutes(client):
    sign_up(client, "Ida")
    client.post("/en/accounts/logout/")
    assert log_in(client, "Ida")["Location"] == "/en/"
    assert client.get("/en/accounts/2fa/totp/activate/").status_code == 200  # no password asked again
    session = client.session
    session[LOGGED_IN_AT] = time.time() - 301
    session.save()
    response = client.get("/en/accounts/2fa/totp/activate/")
    assert response.status_code == 302 and response["Location"].startswith("/en/accounts/reauthenticate/")


SECTIONS = {
    "en": ("Account settings", "Name", "E-mail", "Password", "Passkeys", "Two-factor authentication", "Privacy"),
    "de": ("Kontoeinstellungen", "Name", "E-Mail", "Passwort", "Passkeys", "Zwei-Faktor-Authentifizierung"),
}


@pytest.mark.parametrize("language", ["en", "de", "nl", "pl", "fr"])
def test_the_settings_page_shows_every_section_in_every_language(client, language):
    sign_up(client, "Ola", language=language)
    html = client.get(f"/{language}/settings/").content.decode()
    for anchor in ("name", "email", "password", "passkeys", "two-factor", "privacy", "language"):
        assert f'id="{anchor}"' in html and f'href="#{anchor}"' in html
    for title in SECTIONS.get(language, ()):
        assert f">{title}<" in html, title
    assert "Ola" in html and "ola@example.com" in html
    # allauth's overview pages lead to the sections; the old privacy page too
    assert client.get(f"/{language}/accounts/2fa/")["Location"] == f"/{language}/settings/#two-factor"
    assert client.get(f"/{language}/accounts/2fa/webauthn/")["Location"] == f"/{language}/settings/#passkeys"
    assert client.get(f"/{language}/settings/profile/")["Location"] == f"/{language}/settings/#privacy"


def test_the_privacy_section_saves(client):
    sign_up(client, "Ola")
    response = client.post("/en/settings/profile/", {"hide_online": "on"})
    assert response["Location"] == "/en/settings/#privacy"
    form = client.get("/en/settings/").context["privacy_form"]
    assert form["hide_online"].initial is True and not form["private"].initial


def test_settings_need_an_account(client):
    response = client.get("/en/settings/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_recovery_codes_made_unseen_for_a_passkey_are_taken_away_by_the_migration():
    import importlib

    from django.apps import apps
    from django.contrib.auth.models import User

    drop = importlib.import_module("game.migrations.0018_site_presence_and_notices").drop_unseen_recovery_codes
    pia = User.objects.create_user("Pia")
    tom = User.objects.create_user("Tom")
    for user in (pia, tom):
        _passkey(user)
        RecoveryCodes.activate(user)
    Authenticator.objects.create(user=tom, type=Type.TOTP, data={"secret": "x"})
    drop(apps, None)
    assert set(Authenticator.objects.filter(user=pia).values_list("type", flat=True)) == {Type.WEBAUTHN}
    assert set(Authenticator.objects.filter(user=tom).values_list("type", flat=True)) == {
        Type.WEBAUTHN,
        Type.RECOVERY_CODES,
        Type.TOTP,
    }
