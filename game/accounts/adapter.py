"""allauth's adapter for SEVN: a username is also the name people read at tables."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.utils.translation import gettext_lazy as _

from game.core.errors import ServiceError
from game.core.identity import ENDED_KEY
from game.runtime.proxy import client_address
from game.services.accounts import refuse_lookalike_username, suspension_lapsed
from game.services.common import clean_nickname


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "password_throttled": _(
            "Too many wrong passwords lately: signing in with a password is paused for a few "
            "minutes. You can still sign in now with a code sent to your e-mail, or with a passkey "
            "(the buttons below)."
        ),
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

    def pre_login(self, request, user, **kwargs):
        """A suspension whose time is up ends as its person logs in again."""
        if not user.is_active and suspension_lapsed(user):
            user.refresh_from_db(fields=["is_active"])
        return super().pre_login(request, user, **kwargs)

    def respond_user_inactive(self, request, user):
        """A suspended person is told why, until when and how to appeal (game.pages.suspended)."""
        request.session[ENDED_KEY] = user.pk
        return super().respond_user_inactive(request, user)
