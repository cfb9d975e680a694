"""A log-in (a sign-up logs in too) makes the session's guest the account's: game.services.accounts."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from game.core.identity import ACCOUNT_KEY, SESSION_KEY
from game.services.accounts import account_signed_in


@receiver(user_logged_in, dispatch_uid="sevn-account-signed-in")
def _signed_in(sender, request, user, **kwargs) -> None:
    session = getattr(request, "session", None)
    if session is None:
        return
    guest_key = session.get(SESSION_KEY)
    done = account_signed_in(user=user, guest_key=guest_key)  # the guest's open screens go on as the account's
    session[ACCOUNT_KEY] = [user.pk, done.key]
    session[SESSION_KEY] = done.key
