"""Signing up and logging in as people do, through allauth's pages (with the e-mailed code)."""

from __future__ import annotations

import re

from django.core import mail
from django.test import Client

PASSWORD = "a-long-password-1"


def code_in(message) -> str:
    """The verification code of an e-mail allauth sent."""
    return re.search(r"^\s*([A-Z0-9]{3,}(?:-[A-Z0-9]{3,})*)\s*$", message.body, re.M).group(1)


def sign_up(client: Client, name: str, *, language: str = "en") -> None:
    """Sign up with a password and confirm the e-mail with its code (ACCOUNT_EMAIL_VERIFICATION
    "mandatory", the default): the client ends logged in."""
    sent = len(mail.outbox)
    response = client.post(
        f"/{language}/accounts/signup/",
        {"username": name, "email": f"{name.lower()}@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    response = client.post(f"/{language}/accounts/confirm-email/", {"code": code_in(mail.outbox[sent])})
    assert response.status_code == 302, response.content.decode()[:2000]


def log_in(client: Client, login: str, password: str = PASSWORD, *, language: str = "en"):
    return client.post(f"/{language}/accounts/login/", {"login": login, "password": password})
