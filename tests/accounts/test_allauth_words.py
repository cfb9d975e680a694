"""Every word allauth puts on the site's account pages and in its e-mails is the site's own: a
tour of the pages the site offers (log in, sign up, the e-mailed codes, confirming an e-mail,
password reset, set and change, e-mail addresses, passkeys and two-factor, log out) notes each
msgid rendered, and every one allauth's own catalogue would answer must be in the site's
catalogue, where it is written in the site's register (de "du", nl "je", fr "vous", Polish forms
that fit anyone) and terms. allauth's catalogues do not: they say "Sie", "pseudo", "Clé de
sécurité", "Zapomniałeś"."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import allauth
import polib
import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import (
    TOTP,
    format_hotp_value,
    generate_totp_secret,
    hotp_value,
    yield_hotp_counters_from_time,
)
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import translation

from tests.accounts.helpers import PASSWORD, code_in, sign_up

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
LANGS = ("de", "nl", "pl", "fr")
ALLAUTH_LOCALE = Path(allauth.__file__).parent / "locale"


def _keys(path: Path) -> set[tuple[str | None, str]]:
    return {(entry.msgctxt, entry.msgid) for entry in polib.pofile(str(path)) if entry.msgstr or entry.msgstr_plural}


def allauth_answers(language: str) -> set[tuple[str | None, str]]:
    """What allauth's own catalogue translates in `language`."""
    return _keys(ALLAUTH_LOCALE / language / "LC_MESSAGES" / "django.po")


def site_answers(language: str) -> set[tuple[str | None, str]]:
    return _keys(ROOT / "locale" / language / "LC_MESSAGES" / "django.po")


@pytest.fixture
def heard(monkeypatch):
    """Every (context, msgid) looked up while the test runs: templates' {% translate %} and
    {% blocktranslate %}, forms' and messages' gettext, lazy strings as they are rendered."""
    from django.utils.translation import _trans

    keys: set[tuple[str | None, str]] = set()
    translation.gettext("")  # _trans fetches its functions on first use
    for name in ("gettext", "ngettext", "pgettext", "npgettext"):
        real = getattr(_trans, name)

        def noting(*args, _real=real, _name=name):
            context = args[0] if _name.startswith("p") or _name.startswith("np") else None
            msgid = args[1] if context is not None else args[0]
            keys.add((context, msgid))
            return _real(*args)

        monkeypatch.setattr(_trans, name, noting)
    return keys


def _get(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url, follow=True)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def _post(client: Client, url: str, data: dict) -> str:
    response = client.post(url, data, follow=True)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def _totp_code(secret: str) -> str:
    return format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))


def tour(lang: str) -> None:
    """The account pages and e-mails as people meet them, right and wrong, in `lang`."""
    base = f"/{lang}/accounts"
    anonymous = Client()
    # log in: the page, a wrong password by name and by e-mail, a sign-in code asked for and mistyped
    User.objects.create_user("Olaf", "olaf@example.com", PASSWORD)
    _get(anonymous, f"{base}/login/")
    _post(anonymous, f"{base}/login/", {"login": "Olaf", "password": "wrong-password-1"})
    _post(anonymous, f"{base}/login/", {"login": "olaf@example.com", "password": "wrong-password-1"})
    _get(anonymous, f"{base}/login/code/")
    _post(anonymous, f"{base}/login/code/", {"email": "olaf@example.com"})
    _post(anonymous, f"{base}/login/code/confirm/", {"code": "WRONG1"})
    anonymous = Client()
    # sign up: the page, its mistakes, an address already taken, the code mistyped, then right
    _get(anonymous, f"{base}/signup/")
    _post(
        anonymous,
        f"{base}/signup/",
        {"username": "Olaf", "email": "not-an-address", "password1": PASSWORD, "password2": "other-password-1"},
    )
    _post(
        anonymous,
        f"{base}/signup/",
        {"username": "Olga", "email": "olaf@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    dora = Client()
    sent = len(mail.outbox)
    _post(
        dora,
        f"{base}/signup/",
        {"username": "Dora", "email": "dora@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    _post(dora, f"{base}/confirm-email/", {"code": "WRONG1"})
    _post(dora, f"{base}/confirm-email/", {"code": code_in(mail.outbox[sent])})
    # signed in: e-mail addresses (one added, its code asked for), passwords, passkeys, two-factor
    _get(dora, f"{base}/email/")
    sent = len(mail.outbox)
    _post(dora, f"{base}/email/", {"action_add": "", "email": "dora2@example.com"})
    _post(dora, f"{base}/email/", {"action_primary": "", "email": "dora2@example.com"})
    _post(dora, f"{base}/email/", {"action_send": "", "email": "dora2@example.com"})
    _post(dora, f"{base}/confirm-email/", {"code": code_in(mail.outbox[sent])})
    _post(dora, f"{base}/email/", {"action_primary": "", "email": "dora2@example.com"})
    _post(dora, f"{base}/email/", {"action_remove": "", "email": "dora2@example.com"})
    _post(dora, f"{base}/email/", {"action_primary": "", "email": "dora@example.com"})
    _post(dora, f"{base}/email/", {"action_remove": "", "email": "dora2@example.com"})
    _get(dora, f"{base}/password/change/")
    _post(dora, f"{base}/password/change/", {"oldpassword": "wrong", "password1": "x", "password2": "y"})
    _post(
        dora,
        f"{base}/password/change/",
        {"oldpassword": PASSWORD, "password1": "a-new-password-2", "password2": "a-new-password-2"},
    )
    _get(dora, f"{base}/2fa/totp/activate/")  # asks for the password again first
    _post(dora, f"{base}/reauthenticate/", {"password": "wrong-password-1"})
    _post(dora, f"{base}/reauthenticate/", {"password": "a-new-password-2"})
    _get(dora, f"{base}/2fa/")
    _get(dora, f"{base}/2fa/webauthn/")
    _get(dora, f"{base}/2fa/webauthn/add/")
    _get(dora, f"{base}/2fa/totp/activate/")
    _post(dora, f"{base}/2fa/totp/activate/", {"code": "000000"})
    user = User.objects.get(username="Dora")
    key = Authenticator.objects.create(
        user=user,
        type=Authenticator.Type.WEBAUTHN,
        data={"name": "Laptop", "credential": {"clientExtensionResults": {"credProps": {"rk": True}}}},
    )
    _get(dora, f"{base}/2fa/")
    _get(dora, f"{base}/2fa/webauthn/")
    _get(dora, f"{base}/2fa/webauthn/keys/{key.pk}/edit/")
    _get(dora, f"{base}/2fa/webauthn/keys/{key.pk}/remove/")
    key.delete()
    secret = generate_totp_secret()
    TOTP.activate(user, secret)
    RecoveryCodes.activate(user)
    _get(dora, f"{base}/2fa/")
    _get(dora, f"{base}/2fa/recovery-codes/")
    _get(dora, f"{base}/2fa/recovery-codes/generate/")
    _get(dora, f"{base}/2fa/totp/deactivate/")
    _get(dora, f"{base}/logout/")
    _post(dora, f"{base}/logout/", {})
    # two-factor at log-in: the code asked for, mistyped, then right
    _post(dora, f"{base}/login/", {"login": "Dora", "password": "a-new-password-2"})
    _post(dora, f"{base}/2fa/authenticate/", {"code": "000000"})
    _post(dora, f"{base}/2fa/authenticate/", {"code": _totp_code(secret)})
    _get(dora, f"{base}/2fa/reauthenticate/")
    # password reset: for an account, for an address with none, a link used, a link gone bad
    anonymous = Client()
    _get(anonymous, f"{base}/password/reset/")
    sent = len(mail.outbox)
    _post(anonymous, f"{base}/password/reset/", {"email": "olaf@example.com"})
    _post(anonymous, f"{base}/password/reset/", {"email": "nobody@example.com"})
    link = re.search(r"https?://\S+/password/reset/key/\S+", mail.outbox[sent].body).group(0)
    _get(anonymous, link)
    page = anonymous.get(link, follow=True)
    _post(anonymous, page.request["PATH_INFO"], {"password1": "x", "password2": "y"})
    _post(anonymous, page.request["PATH_INFO"], {"password1": "a-new-password-3", "password2": "a-new-password-3"})
    _get(anonymous, f"{base}/password/reset/key/1-bad-token/")
    # a passkey sign-up (its code, then the page that makes the passkey), and its password set later
    pia = Client()
    sent = len(mail.outbox)
    _get(pia, f"{base}/signup/passkey/")
    _post(pia, f"{base}/signup/passkey/", {"username": "Pia", "email": "pia@example.com"})
    _post(pia, f"{base}/confirm-email/", {"code": code_in(mail.outbox[sent])})
    _get(pia, f"{base}/2fa/webauthn/signup/")
    piauser = User.objects.get(username="Pia")
    piauser.emailaddress_set.update(verified=True)
    pia.force_login(piauser, backend="allauth.account.auth_backends.AuthenticationBackend")
    _get(pia, f"{base}/password/set/")


@pytest.fixture
def links_by_mail(settings):
    """EMAIL_VERIFICATION=optional (README): the e-mail carries a link to confirm the address, and
    allauth's URLs, chosen when they are first imported, include the link's page."""
    import allauth.account.urls
    import allauth.urls
    from django.urls import clear_url_caches

    import sevn_site.urls

    def rebuild() -> None:
        for module in (allauth.account.urls, allauth.urls, sevn_site.urls):
            importlib.reload(module)
        clear_url_caches()

    before = settings.ACCOUNT_EMAIL_VERIFICATION, settings.ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED
    settings.ACCOUNT_EMAIL_VERIFICATION, settings.ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = "optional", False
    rebuild()
    yield
    settings.ACCOUNT_EMAIL_VERIFICATION, settings.ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = before
    rebuild()


def tour_with_links(lang: str) -> None:
    """Signing up and adding an address when the e-mail carries a link to confirm it."""
    base = f"/{lang}/accounts"
    ed = Client()
    sent = len(mail.outbox)
    _post(
        ed,
        f"{base}/signup/",
        {"username": "Ed", "email": "ed@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    link = re.search(r"https?://\S+/confirm-email/\S+", mail.outbox[sent].body).group(0)
    _get(ed, link)
    _post(ed, link, {})
    _get(ed, f"{base}/confirm-email/bad-key/")
    _post(ed, f"{base}/email/", {"action_add": "", "email": "ed2@example.com"})
    _get(ed, f"{base}/email/")


def _assert_all_in_the_site_s_catalogue(heard: set[tuple[str | None, str]]) -> None:
    assert len(heard) > 50  # the tour saw the pages
    for language in LANGS:
        missing = sorted((heard & allauth_answers(language)) - site_answers(language), key=str)
        assert not missing, f"{language}: allauth's words not in the site's catalogue: {missing}"


def test_every_allauth_word_on_the_site_is_the_site_s_own(heard):
    tour("de")
    _assert_all_in_the_site_s_catalogue(heard)


def test_every_allauth_word_when_e_mails_carry_links_is_the_site_s_own(links_by_mail, heard):
    tour_with_links("de")
    _assert_all_in_the_site_s_catalogue(heard)


def test_the_passkey_pages_leave_no_english_word(client):
    """Two words on allauth's passkey pages are in no catalogue at all: the key's field name,
    which Django labels "Name" from the field, and "Not used." written into the list's template.
    The site labels the one (settings.MFA_FORMS); the list is the settings page's, in its words."""
    sign_up(client, "Dora", language="de")
    client.post("/de/accounts/reauthenticate/", {"password": PASSWORD})
    add = client.get("/de/accounts/2fa/webauthn/add/").content.decode()
    assert '<label for="id_name">Name des Schlüssels</label>' in add
    Authenticator.objects.create(
        user=User.objects.get(username="Dora"),
        type=Authenticator.Type.WEBAUTHN,
        data={"name": "Laptop", "credential": {"clientExtensionResults": {"credProps": {"rk": True}}}},
    )
    listed = client.get("/de/accounts/2fa/webauthn/", follow=True).content.decode()  # the settings' section
    assert "Noch nicht benutzt" in listed and "Not used" not in listed and "Laptop" in listed
