"""allauth's passkey forms with the key's name labelled in the site's words: allauth leaves that
field without a label, so Django showed its English field name ("Name") on the passkey pages in
every language (settings.MFA_FORMS)."""

from __future__ import annotations

from allauth.mfa.webauthn.forms import AddWebAuthnForm, EditWebAuthnForm, SignupWebAuthnForm
from django.utils.translation import gettext_lazy as _

KEY_NAME = _("Name of the key")


class AddPasskeyForm(AddWebAuthnForm):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].label = KEY_NAME


class SignupPasskeyForm(SignupWebAuthnForm):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].label = KEY_NAME


class EditPasskeyForm(EditWebAuthnForm):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].label = KEY_NAME
