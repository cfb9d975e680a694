"""What is said at tables and what staff do about it: chat lines, reports, sanctions (mutes and
bans), the moderators' log, and rating patterns flagged for a look."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from game.core import staff_words
from game.models.tables import Table


def titled(what, detail) -> str:
    """A row's name in admin's titles and lists, "what: detail", with the colon as the reader's
    language writes it (French "KTXW4U : Mia")."""
    return pgettext("an admin title: what, then its detail", "%(what)s: %(detail)s") % {"what": what, "detail": detail}


class ChatMessage(models.Model):
    """One line of a table's chat: free text, or a quick phrase kept as its key (each viewer
    reads it in their own language). A table keeps its last CHAT_KEPT lines."""

    class Channel(models.TextChoices):
        TABLE = "table", _("Table")
        SPECTATORS = "spectators", _("Spectators")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat", verbose_name=_("table"))
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices, default=Channel.TABLE)
    author_key = models.CharField(_("player key"), max_length=64, db_index=True)
    author_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("user")
    )
    nickname = models.CharField(_("nickname"), max_length=20)
    text = models.CharField(_("text"), max_length=200, blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=20, blank=True)
    created = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["-id"]
        indexes = [models.Index(fields=["table", "-id"], name="chat_of_table")]

    def __str__(self) -> str:
        return titled(self.nickname, self.text or self.phrase)


class HandledByStaff(models.Model):
    """What staff look at and then mark handled (a report, a flagged rating pattern): who did, and
    when (their "handled" status is each one's own)."""

    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("handled by"),
    )
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)

    class Meta:
        abstract = True


class Report(HandledByStaff):
    """A player's report of a chat message or of a seated player, with the chat as it was."""

    class Reason(models.TextChoices):
        INSULTS = "insults", _("Insults")
        SPAM = "spam", _("Spam")
        CHEATING = "cheating", _("Cheating or collusion")
        NICKNAME = "nickname", _("Offensive nickname")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        HANDLED = "handled", _("Handled")

    table = models.ForeignKey(
        Table, null=True, on_delete=models.SET_NULL, related_name="reports", verbose_name=_("table")
    )
    table_code = models.CharField(_("table code"), max_length=8)
    reporter_key = models.CharField(_("reporter key"), max_length=64, db_index=True)
    reporter_name = models.CharField(_("reported by"), max_length=20)
    reported_key = models.CharField(_("reported player key"), max_length=64, db_index=True)
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("reported user"),
    )
    reported_name = models.CharField(_("reported player"), max_length=20)
    message = models.ForeignKey(
        ChatMessage,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports",
        verbose_name=_("chat message"),
    )
    message_text = models.CharField(_("reported message"), max_length=200, blank=True)
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    comment = models.CharField(_("comment"), max_length=200, blank=True)
    evidence = models.JSONField(_("last chat lines"), default=list)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    created = models.DateTimeField(
        pgettext_lazy("when a report was made", "reported"), auto_now_add=True, db_index=True
    )
    # Reports of the same person at the same table while one is open fold into it: how many
    # came, and when the last one did (services.reports).
    count = models.PositiveIntegerField(_("times reported"), default=1)
    last_reported = models.DateTimeField(_("last reported"), null=True, blank=True)
    more = models.JSONField(_("further reports"), default=list, blank=True)  # who, why, when (the first 100)
    resolution = models.CharField(_("how it was handled"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-status", "-created"]  # "open" sorts after "handled": open reports first
        permissions = [
            ("handle_report", _("Can handle reports")),
            ("warn_player", _("Can warn players")),
            ("mute_player", _("Can mute players in chat")),
            ("remove_player", _("Can remove players from tables")),
            ("rename_player", _("Can rename offensive nicknames")),
            ("ban_player", _("Can ban players from tables")),
            ("close_table", _("Can close tables")),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter_key", "message"],
                condition=models.Q(message__isnull=False),
                name="one_report_per_message_and_reporter",
            ),
            models.UniqueConstraint(
                fields=["reporter_key", "table", "reported_key"],
                condition=models.Q(message__isnull=True, table__isnull=False),
                name="one_report_per_seat_and_reporter",
            ),
        ]

    def __str__(self) -> str:
        return titled(self.table_code, f"{self.reported_name} ({staff_words.bracketed(self.get_reason_display())})")


class Sanction(models.Model):
    """A mute (in chat, at one table or everywhere) or a ban (from creating and joining tables),
    of a guest key and, for a signed-in user, of the account. It ends on its own at `expires`
    (never, when empty) or when lifted."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("Muted in chat")
        BAN = "ban", _("Banned from tables")

    kind = models.CharField(_("kind"), max_length=4, choices=Kind.choices, db_index=True)
    player_key = models.CharField(_("player key"), max_length=64, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("user"),
    )
    nickname = models.CharField(_("nickname"), max_length=20)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("only at table")
    )
    reason = models.CharField(_("reason"), max_length=200)
    # A ban's: the address the person last came from, refused tables while the ban lasts
    # (whoever comes back from it with a new guest key; game.services.chat.active_sanction).
    address = models.GenericIPAddressField(_("address"), null=True, blank=True, db_index=True)
    created = models.DateTimeField(_("from"), auto_now_add=True)
    expires = models.DateTimeField(_("until"), null=True, blank=True, db_index=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("by")
    )
    lifted = models.DateTimeField(_("lifted"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("lifted by"),
    )

    class Meta:
        verbose_name = _("mute or ban")
        verbose_name_plural = _("mutes and bans")
        ordering = ["-created"]

    def __str__(self) -> str:
        return titled(self.get_kind_display(), self.nickname)


class ModAction(models.Model):
    """One line of the moderators' log: who did what to whom, when and why. Never changed."""

    class Action(models.TextChoices):
        WARN = "warn", _("Warned")
        # the log's own words (a list of what was done: Polish "Wyciszono", not the mute's noun)
        MUTE = "mute", pgettext_lazy("the moderators' log: what staff did", "Muted in chat")
        BAN = "ban", pgettext_lazy("the moderators' log: what staff did", "Banned from tables")
        LIFT = "lift", _("Lifted a mute or ban")
        SUSPEND = "suspend", _("Suspended an account")
        REINSTATE = "restore", _("Reinstated an account")
        REMOVE = "remove", _("Removed from a table")
        RENAME = "rename", _("Renamed")
        CLOSE = "close", _("Closed a table")
        HANDLE = "handle", _("Marked a report handled")

    created = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("who")
    )
    actor_name = models.CharField(_("staff member"), max_length=150)
    action = models.CharField(_("what"), max_length=8, choices=Action.choices, db_index=True)
    target_key = models.CharField(_("player key"), max_length=64, blank=True, db_index=True)
    target_name = models.CharField(_("whom"), max_length=20, blank=True)
    table_code = models.CharField(_("table"), max_length=8, blank=True, db_index=True)
    detail = models.CharField(_("details"), max_length=200, blank=True)
    reason = models.CharField(_("why"), max_length=300, blank=True)
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions", verbose_name=_("report")
    )

    class Meta:
        verbose_name = _("moderators' log entry")
        verbose_name_plural = _("moderators' log")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        """ "root: Banned from tables – Ben": who acted, what they did, and to whom or which table,
        through the catalogue (French puts its narrow space before the colon)."""
        entry = pgettext("a moderators' log entry: who acted, what they did, to whom", "%(who)s: %(what)s – %(whom)s")
        return entry % {
            "who": self.actor_name,
            "what": self.get_action_display(),
            "whom": self.target_name or self.table_code,
        }


class RatingFlag(HandledByStaff):
    """A pattern in rated games for moderators to look at (services.rating_flags finds them when a
    rated game ends): an account that keeps leaving rated games, or two accounts whose rated games
    against each other always end with the same one ahead (losing on purpose to lift the other).
    Nothing is done to anyone by a flag: a moderator reads the games it lists and decides."""

    class Kind(models.TextChoices):
        LEAVING = "leaving", _("Leaves rated games again and again")
        ONE_SIDED = "onesided", _("Always loses rated games to the same account")
        LOSING = "losing", _("Left a game in last place, late in it")

    class Status(models.TextChoices):  # a flag's own words: in French an alerte is "ouverte"
        OPEN = "open", pgettext_lazy("a rating flag's status", "Open")
        HANDLED = "handled", pgettext_lazy("a rating flag's status", "Handled")

    kind = models.CharField(_("pattern"), max_length=8, choices=Kind.choices, db_index=True)
    game_kind = models.CharField(pgettext_lazy("which game: SEVN or Sevens", "game"), max_length=8)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_flags", verbose_name=_("account")
    )
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("always behind this account"),
    )
    games = models.JSONField(_("games"), default=list)  # the ids of the games that make the pattern
    count = models.PositiveIntegerField(_("number of games"), default=0)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    created = models.DateTimeField(_("flagged"), auto_now_add=True, db_index=True)
    updated = models.DateTimeField(_("last game"), auto_now=True)

    class Meta:
        verbose_name = _("rating flag")
        verbose_name_plural = _("rating flags")
        ordering = ["-status", "-updated"]  # "open" sorts after "handled": open flags first

    def __str__(self) -> str:
        return f"{self.user} ({self.get_kind_display()})"
