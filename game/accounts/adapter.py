"""allauth's adapter for SEVN: a username is also the name people read at tables."""

from __future__ import annotations

import time

from allauth.account import app_settings as account_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context
from django import forms
from django.urls import reverse
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from game.core.errors import ServiceError
from game.core.identity import ENDED_KEY
from game.runtime.proxy import client_address
from game.services.accounts import refuse_lookalike_username, suspension_lapsed
from game.services.common import clean_nickname

LOGGED_IN_AT = "sevn_logged_in_at"  # in the session: when its person last logged in (or signed up)


def just_logged_in(request) -> bool:
    """Whether the session's person logged in (a password, a code, a passkey, a sign-up) within
    allauth's re-authentication time (ACCOUNT_REAUTHENTICATION_TIMEOUT, 5 minutes)."""
    session = getattr(request, "session", None)
    at = session.get(LOGGED_IN_AT) if session is not None else None
    return isinstance(at, int | float) and 0 <= time.time() - at < account_settings.REAUTHENTICATION_TIMEOUT


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "password_throttled": _(
            "Too many wrong passwords lately: signing in with a password is paused for a few "
            "minutes. You can still sign in now with a code sent to your e-mail, or with a passkey "
            "(the buttons below)."
        ),
    }

    def format_email_subject(self, subject) -> str:
        """The site's name, then the subject, with the colon spaced as the reader's language
        spaces it (French puts a narrow no-break space before it): allauth's fixed prefix
        (ACCOUNT_EMAIL_SUBJECT_PREFIX) cannot. allauth renders its subjects in the reader's
        language, so this is translated in it too."""
        return pgettext("e-mail subject: the site's name, then the subject", "SEVN: %(subject)s") % {
            "subject": force_str(subject)
        }

    def pre_authenticate(self, request, **credentials):
        """Wrong passwords from anywhere pause the password for its account (allauth's
        login_failed limit "per key"): anyone who knows a username could keep its owner out.
        The e-mailed code and the passkey count apart (allauth's request_login_code limit, and
        the passkey's own), so the owner still gets in, and the refusal says how."""
        try:
            super().pre_authenticate(request, **credentials)
        except forms.ValidationError as error:
            if error.code == "too_many_login_attempts":
                raise self.validation_error("password_throttled") from error
            raise

    def get_client_ip(self, request):
        """The address allauth's rate limits count by is the one every other limit counts by:
        behind nginx REMOTE_ADDR is the proxy's for everyone, and X-Forwarded-For is believed only
        from SEVN_TRUSTED_PROXIES (game.runtime.proxy)."""
        return client_address(request.META)

    def clean_username(self, username, shallow=False):
        """A username follows the rules of a nickname (1 to 20 visible characters, not posing as
        a computer player or staff), then allauth's own, and looks like nobody else's."""
        try:
            name = clean_nickname(username)
        except ServiceError as error:
            raise forms.ValidationError(error.message) from error
        if name != username:
            raise forms.ValidationError(_("Write the username as people will read it, without extra spaces."))
        username = super().clean_username(username, shallow=shallow)
        if not shallow:
            try:
                refuse_lookalike_username(username)
            except ServiceError as error:
                raise forms.ValidationError(error.message) from error
        return username

    def is_reauthentication_required(self, *, app: str, **kwargs) -> bool:
        """A log-in a moment ago counts as re-authenticated: allauth counted only a password typed
        again, so the person who had just logged in (or signed up) and went to add a passkey was
        asked at once who they were."""
        if not super().is_reauthentication_required(app=app, **kwargs):
            return False
        request = self.request or getattr(context, "request", None)
        return not (request is not None and just_logged_in(request))

    def get_password_change_redirect_url(self, request) -> str:
        return reverse("account_settings") + "#password"

    def pre_login(self, request, user, **kwargs):
        """A suspension whose time is up ends as its person logs in again."""
        if not user.is_active and suspension_lapsed(user):
            user.refresh_from_db(fields=["is_active"])
        return super().pre_login(request, user, **kwargs)

    def respond_user_inactive(self, request, user):
        """A suspended person is told why, until when and how to appeal (game.pages.suspended)."""
        request.session[ENDED_KEY] = user.pk
        return super().respond_user_inactive(request, user)
