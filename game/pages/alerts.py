"""Alerts' pages: a person's notification settings (a form of its own, drawn by the partial
accounts/notification_settings.html wherever the account's settings place it), a device's push
subscription (the page's script posts it), and the daily e-mail's one-click unsubscribe."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from game.core.errors import ServiceError
from game.delivery import webpush
from game.pages.forms import ZoneSelect
from game.services import alerts

HOURS = [(hour, f"{hour:02d}:00") for hour in range(24)]


class NotificationSettingsForm(forms.Form):
    push_turn = forms.BooleanField(label=_("It is your move"), required=False)
    push_reminder = forms.BooleanField(
        label=_("Your time is running out"),
        required=False,
        help_text=_("When four fifths of the time for a move have passed, and in its last hour."),
    )
    push_invitation = forms.BooleanField(label=_("An invitation to a table"), required=False)
    push_friend_request = forms.BooleanField(label=_("A friend request"), required=False)
    push_game_over = forms.BooleanField(label=_("A game you played is over"), required=False)
    time_zone = forms.ChoiceField(label=_("Your time zone"), widget=ZoneSelect)
    quiet_from = forms.TimeField(
        label=_("Quiet from"), required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    quiet_until = forms.TimeField(
        label=pgettext_lazy("quiet hours", "until"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    email_digest = forms.BooleanField(
        label=_("A daily e-mail of the tables waiting for your move"),
        required=False,
        help_text=_("Sent only on days when a table waits for you."),
    )
    digest_hour = forms.TypedChoiceField(label=_("Send it at"), choices=HOURS, coerce=int)
    email_urgent = forms.BooleanField(
        label=_("An e-mail when less than two hours are left for your move"),
        required=False,
        help_text=_("Only when no notice reached any of your devices."),
    )

    PUSH_FIELDS = ("push_turn", "push_reminder", "push_invitation", "push_friend_request", "push_game_over")
    EMAIL_FIELDS = ("email_digest", "email_urgent")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(name, name.replace("_", " ")) for name in alerts.time_zones()]

    def clean(self):
        cleaned = super().clean()
        if (cleaned.get("quiet_from") is None) != (cleaned.get("quiet_until") is None):
            raise forms.ValidationError(gettext("Give both ends of your quiet hours, or neither."))
        if cleaned.get("quiet_from") is not None and cleaned["quiet_from"] == cleaned.get("quiet_until"):
            raise forms.ValidationError(gettext("Quiet hours must start and end at different times."))
        return cleaned

    def push_fields(self):
        return [self[name] for name in self.PUSH_FIELDS]

    def email_fields(self):
        return [self[name] for name in self.EMAIL_FIELDS]


def _initial(row) -> dict:
    names = [*NotificationSettingsForm.PUSH_FIELDS, *NotificationSettingsForm.EMAIL_FIELDS]
    initial = {name: getattr(row, name) for name in names}
    initial.update(time_zone=row.time_zone, quiet_from=row.quiet_from, quiet_until=row.quiet_until)
    initial["digest_hour"] = row.digest_hour
    return initial


def notification_context(request: HttpRequest, form: NotificationSettingsForm | None = None) -> dict:
    """What the partial accounts/notification_settings.html needs (the account's settings page
    that places it calls this too)."""
    row = alerts.settings_of(request.user)
    return {
        "notification_form": form or NotificationSettingsForm(initial=_initial(row)),
        "notification_saved": row.pk is not None,
        "push_key": webpush.public_key(),
        "push_devices": alerts.devices(request.user),
    }


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    form = None
    if request.method == "POST":
        form = NotificationSettingsForm(request.POST)
        if form.is_valid():
            alerts.settings_save(user=request.user, language=request.LANGUAGE_CODE, **form.cleaned_data)
            messages.success(request, gettext("Saved."))
            back = request.POST.get("next", "")
            safe = url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure())
            return redirect(back if back and safe else "account_notification_settings")
    status = 400 if form is not None else 200
    return render(
        request, "accounts/notification_settings_page.html", notification_context(request, form), status=status
    )


@login_required
@require_POST
def push_subscription(request: HttpRequest) -> JsonResponse:
    """A device subscribes (or stops): {"action": "subscribe", "endpoint", "keys": {"p256dh",
    "auth"}} or {"action": "unsubscribe", "endpoint"}, as the browser's PushSubscription says."""
    try:
        sent = json.loads(request.body or b"{}")
    except ValueError:
        sent = None
    if not isinstance(sent, dict):
        return JsonResponse({"error": gettext("This browser sent a subscription the site cannot read.")}, status=400)
    if sent.get("action") == "unsubscribe":
        alerts.unsubscribe(user=request.user, endpoint=sent.get("endpoint"))
        return JsonResponse({"devices": alerts.devices(request.user)})
    keys = sent.get("keys") if isinstance(sent.get("keys"), dict) else {}
    try:
        alerts.subscribe(
            user=request.user,
            endpoint=sent.get("endpoint"),
            p256dh=keys.get("p256dh"),
            auth=keys.get("auth"),
            language=request.LANGUAGE_CODE,
        )
    except ServiceError:
        return JsonResponse(
            {"error": gettext("This browser's push service is not one the site sends notices to.")}, status=400
        )
    return JsonResponse({"devices": alerts.devices(request.user)})


@csrf_exempt  # a mail program's one-click unsubscribe (RFC 8058) posts with no session: the signed token is the proof
def digest_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The daily e-mail's unsubscribe link: a page with one button (a link opened by a mail
    scanner changes nothing), and the mail program's one-click POST."""
    if request.method == "POST":
        done = alerts.digest_unsubscribe(token=token)
        return render(request, "alerts/unsubscribed.html", {"done": done}, status=200 if done else 400)
    return render(request, "alerts/unsubscribe.html", {"token": token})
