"""Alerts that reach people who are not on the site: each person's choices (which notices, quiet
hours, the daily e-mail), their devices' push subscriptions, and the outbox every notice goes
out through (written in the transaction of the change it tells of; game.services.alerts)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# A notice to a person (a push, an e-mail), apart from a player's report (Dutch says "melding" for
# both); and the moments of its sending, apart from a turn's deadline or an analysis being done.
NOTICE = "a notice sent to a person: a push or an e-mail"
SENDING = "a notice: when it is to go out, and when it went out or was given up"


class AlertSettings(models.Model):
    """What one person wants to be told off the site, and when not. A person without a row has
    the defaults (every push on, no quiet hours, no daily e-mail)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="alert_settings", verbose_name=_("user")
    )
    push_turn = models.BooleanField(_("your move"), default=True)
    push_reminder = models.BooleanField(_("time running out"), default=True)
    push_invitation = models.BooleanField(_("invitations"), default=True)
    push_friend_request = models.BooleanField(_("friend requests"), default=True)
    push_game_over = models.BooleanField(_("game over"), default=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    # the language notices and e-mails are written in: the page's when the person last chose
    language = models.CharField(_("language"), max_length=8, default=settings.LANGUAGE_CODE)
    quiet_from = models.TimeField(_("quiet from"), null=True, blank=True)
    quiet_until = models.TimeField(_("quiet until"), null=True, blank=True)
    email_digest = models.BooleanField(_("daily e-mail"), default=False)
    digest_hour = models.PositiveSmallIntegerField(_("daily e-mail at"), default=8)
    email_urgent = models.BooleanField(_("e-mail when time is short"), default=True)
    # when the next daily e-mail is due (UTC), worked out from the hour and the time zone
    next_digest = models.DateTimeField(_("next daily e-mail"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return str(self.user)


class PushSubscription(models.Model):
    """One device's (one browser's) Web Push subscription: where its push service takes notices
    and the keys they are encrypted with. The newest few per person are kept; one the push
    service says is gone (404, 410) is removed."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions", verbose_name=_("user")
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("device key"), max_length=200)
    auth = models.CharField(_("auth secret"), max_length=64)
    created = models.DateTimeField(_("subscribed"), auto_now_add=True, db_index=True)
    last_pushed = models.DateTimeField(_("last pushed"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user}: {self.endpoint[:40]}…"


class Notice(models.Model):
    """One notice in the outbox: written in the same transaction as what it tells of, under a key
    unique to that event (so never two for one event), and sent by whichever process claims it
    first once it is due (game.services.outbox)."""

    class Kind(models.TextChoices):
        TURN = "turn", _("Your move")
        REMINDER = "reminder", _("Time running out")
        URGENT_EMAIL = "urgent", _("E-mail when time is short")
        INVITATION = "invitation", _("Invitation")
        FRIEND_REQUEST = "friend", _("Friend request")
        GAME_OVER = "over", _("Game over")
        DIGEST = "digest", _("Daily e-mail")

    key = models.CharField(_("event"), max_length=120, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices", verbose_name=_("user")
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    table_code = models.CharField(_("table"), max_length=8, blank=True)
    # a turn's notices share it (game id:version the turn began at): the e-mail asks whether a push of it arrived
    topic = models.CharField(_("turn"), max_length=40, blank=True, db_index=True)
    data = models.JSONField(_("data"), default=dict)
    created = models.DateTimeField(_("written"), auto_now_add=True)
    due = models.DateTimeField(pgettext_lazy(SENDING, "due"))
    expires = models.DateTimeField(_("expires"), null=True, blank=True)
    claimed_until = models.DateTimeField(_("claimed until"), null=True, blank=True)
    claim = models.CharField(_("claimed by"), max_length=32, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    done = models.DateTimeField(pgettext_lazy(SENDING, "done"), null=True, blank=True, db_index=True)
    outcome = models.CharField(_("outcome"), max_length=20, blank=True)

    class Meta:
        verbose_name = pgettext_lazy(NOTICE, "notice")
        verbose_name_plural = pgettext_lazy(NOTICE, "notices")
        indexes = [models.Index(fields=["due"], condition=Q(done__isnull=True), name="notice_pending_due")]

    def __str__(self) -> str:
        return self.key
