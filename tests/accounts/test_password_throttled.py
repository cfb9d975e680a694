"""Wrong passwords from anywhere pause an account's password (allauth's login_failed limit per
account), but do not lock its owner out: the page says so, and the owner signs in by a code sent
to their e-mail (allauth's login by code), which counts apart."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from tests.accounts.helpers import PASSWORD, code_in, log_in, sign_up

pytestmark = pytest.mark.django_db
PAUSED = "signing in with a password is paused"


def test_ten_wrong_passwords_from_anywhere_leave_the_owner_a_code_by_e_mail():
    sign_up(Client(), "Ana")
    for n in range(10):  # someone who knows the name, from ten addresses
        log_in(Client(REMOTE_ADDR=f"198.51.100.{n + 1}"), "Ana", "wrong-password")

    owner = Client(REMOTE_ADDR="203.0.113.5")
    refused = log_in(owner, "Ana", PASSWORD).content.decode()
    assert PAUSED in refused and "a code sent to your e-mail" in refused and "passkey" in refused
    assert "/en/accounts/login/code/" in refused  # the way in the page offers
    assert "Signed in as" not in owner.get("/en/").content.decode()

    sent = len(mail.outbox)
    asked = owner.post("/en/accounts/login/code/", {"email": "ana@example.com"})
    assert asked.status_code == 302 and len(mail.outbox) == sent + 1
    confirmed = owner.post(asked["Location"], {"code": code_in(mail.outbox[sent])})
    assert confirmed.status_code == 302
    assert "Signed in as Ana" in owner.get("/en/").content.decode()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "Die Anmeldung mit Passwort ist für ein paar Minuten gesperrt"),
        ("nl", "inloggen met een wachtwoord kan een paar minuten niet"),
        ("pl", "logowanie hasłem jest wstrzymane na kilka minut"),
        ("fr", "la connexion par mot de passe est suspendue pendant quelques minutes"),
    ],
)
def test_the_pause_is_said_in_each_language(language, said):
    User.objects.create_user("Ben", "ben@example.com", PASSWORD)
    for n in range(5):
        log_in(Client(REMOTE_ADDR=f"198.51.100.{n + 1}"), "Ben", "wrong-password", language=language)
    page = log_in(Client(REMOTE_ADDR="203.0.113.5"), "Ben", PASSWORD, language=language).content.decode()
    assert said in page


@pytest.mark.parametrize(
    ("language", "said", "mixed"),
    [
        ("de", ["Du bekommst einen Code per E-Mail", "Anmeldecode senden"], ["Sie erhalten"]),
        ("nl", ["Je krijgt een code per e-mail", "Andere manieren om in te loggen"], ["aanmeld-opties", "Aanmeld"]),
        ("pl", ["Poproś o kod", "Wyślij mi kod logowania"], ["Kod żądania"]),
        ("fr", ["Demander un code", "Envoyez-moi un code de connexion"], ["d&#x27;"]),
    ],
)
def test_the_sign_in_code_page_speaks_the_site_s_words(client, language, said, mixed):
    html = client.get(f"/{language}/accounts/login/code/").content.decode()
    for words in said:
        assert words in html, words
    for words in mixed:
        assert words not in html, words


def test_a_wrong_password_is_hashed_once(monkeypatch):
    """One backend checks a password (allauth's, which is Django's ModelBackend too): a wrong
    one costs one hash, not one per backend, to whoever floods the log-in with guesses."""
    from django.contrib.auth import base_user as hashers  # where User.check_password finds it

    sign_up(Client(), "Ana")
    checked = []
    real = hashers.check_password
    monkeypatch.setattr(hashers, "check_password", lambda *args, **kwargs: checked.append(1) or real(*args, **kwargs))
    log_in(Client(), "Ana", "wrong-password")
    assert len(checked) == 1
    log_in(Client(), "Ana", PASSWORD)  # the right one signs in, staff's by name in the admin alike
    assert len(checked) == 2
