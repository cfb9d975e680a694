"""allauth's two-factor adapter for SEVN: two-factor means an authenticator app (TOTP).

allauth counts any authenticator as two-factor: a passkey added to an account made the next
password log-in ask for "an authenticator code" the person had no app for. On SEVN a passkey is a
way to sign in without a password; two-factor is what a person turns on knowingly (with an app,
its recovery codes shown once) and may turn off. So a passkey alone turns nothing on: the log-in
asks a second step only of an account with an app, and there a passkey may answer it."""

from __future__ import annotations

from allauth.mfa.adapter import DefaultMFAAdapter
from allauth.mfa.models import Authenticator

TOTP = Authenticator.Type.TOTP


class MFAAdapter(DefaultMFAAdapter):
    def is_mfa_enabled(self, user, types=None) -> bool:
        """Whether the account has two-factor on (types None, or a set that names the app: the log-in's
        second step asks with [TOTP, WEBAUTHN]): whether it has an authenticator app. Asked of one
        other kind alone (which ways can re-authenticate: a passkey, recovery codes), whether it
        has one."""
        if types is None or TOTP in types:
            types = [TOTP]
        return super().is_mfa_enabled(user, types=types)
