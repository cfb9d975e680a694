"""Adding a passkey, as allauth's page does it but without turning on two-factor: allauth makes
ten recovery codes the first time any authenticator is added and shows them only if the page
after is looked at; for a passkey they were made unseen, and they meant nothing (a passkey is
no second factor on SEVN: game.accounts.mfa_adapter). Recovery codes come with the
authenticator app only (services.accounts.two_factor_off takes them away with it)."""

from __future__ import annotations

from allauth.account.adapter import get_adapter as get_account_adapter
from allauth.account.internal.flows.reauthentication import raise_if_reauthentication_required
from allauth.mfa import signals
from allauth.mfa.models import Authenticator
from allauth.mfa.webauthn.internal.auth import WebAuthn
from allauth.mfa.webauthn.views import AddWebAuthnView
from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse


class AddPasskeyView(AddWebAuthnView):
    def form_valid(self, form) -> HttpResponse:
        request = self.request
        raise_if_reauthentication_required(request, app="allauth.mfa")
        authenticator = WebAuthn.add(request.user, form.cleaned_data["name"], form.cleaned_data["credential"]).instance
        signals.authenticator_added.send(
            sender=Authenticator, request=request, user=request.user, authenticator=authenticator
        )
        adapter = get_account_adapter(request)
        adapter.add_message(request, messages.SUCCESS, "mfa/messages/webauthn_added.txt")
        adapter.send_notification_mail("mfa/email/webauthn_added", request.user)
        return HttpResponseRedirect(reverse("account_settings") + "#passkeys")


add_passkey = AddPasskeyView.as_view()
