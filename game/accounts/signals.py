"""A log-in (a sign-up logs in too) makes the session's guest the account's; a log-out ends that
browser's table sockets acting as the account: game.services.accounts."""

from __future__ import annotations

import time

from allauth.mfa.models import Authenticator
from allauth.mfa.signals import authenticator_removed
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver

from game.accounts.adapter import LOGGED_IN_AT
from game.core.identity import ACCOUNT_KEY, SESSION_KEY, account_player
from game.services import alerts
from game.services.accounts import account_signed_in, account_signed_out, two_factor_off


@receiver(user_logged_in, dispatch_uid="sevn-account-signed-in")
def _signed_in(sender, request, user, **kwargs) -> None:
    session = getattr(request, "session", None)
    if session is None:
        return
    session[LOGGED_IN_AT] = time.time()  # a fresh log-in counts as re-authenticated (adapter)
    guest_key = session.get(SESSION_KEY)
    # the guest's open screens go on as the account's (the session's key is the new one already)
    done = account_signed_in(user=user, guest_key=guest_key, session_key=session.session_key)
    session[ACCOUNT_KEY] = [user.pk, done.key]
    session[SESSION_KEY] = done.key
    # their notices and e-mails speak the language they use the site in
    alerts.language_seen(user=user, language=getattr(request, "LANGUAGE_CODE", ""), make=False)


@receiver(user_logged_out, dispatch_uid="sevn-account-signed-out")
def _signed_out(sender, request, user, **kwargs) -> None:
    session = getattr(request, "session", None)  # sent before the session is emptied
    if session is None or user is None:
        return
    account_signed_out(player_key=account_player(session, user).key, session_key=session.session_key)


@receiver(authenticator_removed, dispatch_uid="sevn-two-factor-off")
def _authenticator_removed(sender, request, user, authenticator, **kwargs) -> None:
    """The authenticator app turned off: two-factor is off, and its recovery codes go with it
    (allauth keeps them while a passkey is left, which is no second factor here)."""
    if authenticator.type == Authenticator.Type.TOTP:
        two_factor_off(user=user)
