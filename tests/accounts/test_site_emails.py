"""The e-mails people get at sign-up and for a password reset come from SEVN, in the language
they used the site in: allauth greets and signs with the request's host ("Hello from
127.0.0.1:8150!"), which the site's templates (templates/account/email/) replace with the
site's name. The host appears only inside a link the e-mail must carry."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from tests.accounts.helpers import PASSWORD, code_in

pytestmark = pytest.mark.django_db
HOST = "127.0.0.1:8150"


def _words(language: str) -> tuple[str, str]:
    with translation.override(language):
        return gettext("Hello from %(site_name)s!") % {"site_name": "SEVN"}, gettext(
            "Thank you for using %(site_name)s!"
        ) % {"site_name": "SEVN"}


def _lines_without_links(body: str) -> list[str]:
    return [line for line in body.splitlines() if line.strip() and not re.match(r"https?://", line.strip())]


@pytest.mark.parametrize("language", ["en", "de", "nl", "pl", "fr"])
def test_sign_up_and_reset_e_mails_come_from_sevn_in_the_person_s_language(language):
    hello, thanks = _words(language)
    if language != "en":
        assert (hello, thanks) != _words("en")  # translated, not left in English
    client = Client(HTTP_HOST=HOST)
    client.post(
        f"/{language}/accounts/signup/",
        {"username": "Dora", "email": "dora@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    client.post(f"/{language}/accounts/confirm-email/", {"code": code_in(mail.outbox[-1])})
    Client(HTTP_HOST=HOST).post(f"/{language}/accounts/password/reset/", {"email": "dora@example.com"})
    signup, reset = mail.outbox
    assert "http" in reset.body and HOST in reset.body  # the reset link, to this site
    for message in (signup, reset):
        # the site's name first, its colon spaced as the language spaces it
        assert message.subject.startswith("SEVN\u202f: " if language == "fr" else "SEVN: "), message.subject
        lines = _lines_without_links(message.body)
        assert lines[0] == hello and lines[-1] == thanks, message.body
        assert not any(HOST in line or "127.0.0.1" in line for line in lines), message.body
    with translation.override(language):
        assert gettext("This mail can be safely ignored if you did not initiate this action.") in signup.body
        assert "SEVN" in gettext(
            "You are receiving this e-mail because someone signed up on %(site_name)s as %(name)s with this address."
        ) % {"site_name": "SEVN", "name": "Dora"}


def test_an_address_added_later_is_confirmed_by_an_e_mail_from_sevn_too():
    client = Client(HTTP_HOST=HOST)
    client.post(
        "/de/accounts/signup/",
        {"username": "Dora", "email": "dora@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    client.post("/de/accounts/confirm-email/", {"code": code_in(mail.outbox[-1])})
    client.post("/de/accounts/email/", {"action_add": "", "email": "dora2@example.com"})
    added = mail.outbox[-1]
    assert added.to == ["dora2@example.com"]
    assert "Konto Dora bei SEVN hinzugefügt" in added.body and HOST not in added.body
    assert _lines_without_links(added.body)[0] == "Hallo, hier ist SEVN!"
