"""People with accounts: their profile and the player key they play under, the guest keys that
became accounts, friendships and invitations to tables."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from game.models.tables import Table


class Profile(models.Model):
    """A person with an account: the player key they play under on every device (the guest key
    they signed up with, so their open seats never change hands) and what others may see."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sevn_profile", verbose_name=_("user")
    )
    player_key = models.CharField(_("player key"), max_length=64, unique=True)
    private = models.BooleanField(
        _("private profile"), default=False, help_text=_("Only you and your friends see your games and results.")
    )
    hide_online = models.BooleanField(
        _("hide where I play"), default=False, help_text=_("Friends do not see you online or at which table.")
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # While the account is suspended (its user inactive): what its person reads when they try to
    # come back (game.pages.suspended), and when it ends (empty: until staff reinstate it).
    suspension_reason = models.CharField(_("reason for the suspension"), max_length=300, blank=True)
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True)
    # Away dates set in advance (a holiday): turns that run out at turn-based tables between them,
    # both days included, do not count against the person (services.reliability).
    away_from = models.DateField(_("away from"), null=True, blank=True)
    away_until = models.DateField(_("away until"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
        permissions = [("suspend_account", _("Can suspend and reinstate accounts"))]

    def __str__(self) -> str:
        return str(self.user)


class GuestKey(models.Model):
    """A guest key that became an account's: its seats, games and chat moved to the account, and
    a mute or ban of the account holds for the key (and one of the key for the account)."""

    key = models.CharField(_("guest key"), max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guest_keys", verbose_name=_("user")
    )
    linked = models.DateTimeField(_("linked"), auto_now_add=True)

    class Meta:
        verbose_name = _("guest key")
        verbose_name_plural = _("guest keys")

    def __str__(self) -> str:
        return f"{self.user}: {self.key[:10]}…"


class Friendship(models.Model):
    """One person's relation to another: a request sent, a friendship (both ways: accepted sets
    the pair), or a block (one way: the blocked person can neither invite, see nor ask)."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("Request sent")
        FRIENDS = "friends", _("Friends")
        BLOCKED = "blocked", pgettext_lazy("friendship status", "Blocked")

    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="relations_out", verbose_name=_("sender")
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="relations_in", verbose_name=_("recipient")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, db_index=True)
    created = models.DateTimeField(_("since"), auto_now_add=True)
    # when a request was shown to the person asked (a notice on a page, or their friends page):
    # each request is announced once (game.services.waiting)
    noticed = models.DateTimeField(_("noticed"), null=True, blank=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [models.UniqueConstraint(fields=["from_user", "to_user"], name="one_relation_per_pair")]

    def __str__(self) -> str:
        return f"{self.from_user} → {self.to_user}: {self.status}"


class Invitation(models.Model):
    """An invitation to a table: shown live on every page the invited person has open and kept
    in their inbox until they answer it or the table closes (it goes with its table)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("table"))
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent", verbose_name=_("sender")
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("recipient")
    )
    created = models.DateTimeField(_("sent"), auto_now_add=True, db_index=True)
    answered = models.DateTimeField(_("answered"), null=True, blank=True)
    # when it was shown to the invited person (a toast, a notice on a page, their inbox): each
    # invitation is announced once (game.services.waiting)
    noticed = models.DateTimeField(_("noticed"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created"]
        constraints = [models.UniqueConstraint(fields=["table", "to_user"], name="one_invitation_per_table")]

    def __str__(self) -> str:
        return f"{self.from_user} → {self.to_user} ({self.table.code})"


class SitePresence(models.Model):
    """One open page of a signed-in person (its socket, game.live.people): a person with a row
    seen lately is on the site, which their friends see unless they hide where they play. Rows
    go when their sockets close, or go stale when a server process dies (the heartbeat renews
    the living ones)."""

    channel = models.CharField(_("channel"), max_length=200, primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="open_pages", verbose_name=_("person")
    )
    seen = models.DateTimeField(_("last heartbeat"), db_index=True)

    class Meta:
        verbose_name = _("open page")
        verbose_name_plural = _("open pages")
