"""How games ended for signed-in people, and their ratings per game with every change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from game.models.tables import Game


class Outcome(models.TextChoices):
    """How one person's part in a game ended."""

    FINISHED = "finished", pgettext_lazy("how a person's part in a game ended", "finished")
    LEFT = "left", _("left (a bot finished the seat)")
    TIMED_OUT = "timedout", _("timed out (a bot played the missed turns)")
    ABORTED = "aborted", _("aborted (ended before it was under way)")


class Excuse(models.TextChoices):
    """Why an absence counts as finished."""

    COVERED = "covered", _("back after a bot covered at most two turns")
    AGREED = "agreed", _("the others at the table let them go")
    AWAY = "away", _("inside the away dates they had set")


class GameResult(models.Model):
    """How one signed-in person's game ended: their place, points and the game's own figures
    (its Kind's `seat_figures`), written once when the game is over (the profile's stats)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results", verbose_name=_("game"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_results", verbose_name=_("user")
    )
    kind = models.CharField(pgettext_lazy("which game: SEVN or Sevens", "game"), max_length=8, db_index=True)
    seat = models.PositiveSmallIntegerField(_("seat"))
    place = models.PositiveSmallIntegerField(_("place"))
    won = models.BooleanField(_("won"), default=False)
    away = models.BooleanField(_("left (a bot played)"), default=False)
    points = models.IntegerField(_("points"))
    figures = models.JSONField(_("figures"), default=dict)
    rated = models.BooleanField(_("rated"), default=False)
    finished = models.DateTimeField(_("finished"), db_index=True)
    # How the person's part in the game ended (services.reliability): the profile's "finished 28 of
    # the last 30 games" counts these. An excused absence is kept as finished, with its excuse.
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices, default=Outcome.FINISHED)
    excuse = models.CharField(_("excused because"), max_length=8, choices=Excuse.choices, blank=True)
    # Whether the table was public (anyone with its link could sit: not friends only): only leaves
    # at public tables count towards a pause (services.reliability).
    public = models.BooleanField(_("public table"), default=True)

    class Meta:
        verbose_name = _("game result")
        verbose_name_plural = _("game results")
        ordering = ["-finished"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_result_per_game_and_user")]
        indexes = [models.Index(fields=["user", "kind"], name="results_of_user")]

    def __str__(self) -> str:
        return f"{self.game} {self.user}: {self.place}"


class Rating(models.Model):
    """A person's rating in one game (openskill's Plackett-Luce: mu and sigma); `value` is what
    the leaderboard shows and sorts by (services.ratings.shown)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("user")
    )
    kind = models.CharField(pgettext_lazy("which game: SEVN or Sevens", "game"), max_length=8)
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    value = models.IntegerField(_("rating"), db_index=True)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["kind", "-value"]
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_user_and_game")]

    def __str__(self) -> str:
        return f"{self.user} ({self.kind}): {self.value}"


class RatingChange(models.Model):
    """A person's rating after one rated game (the profile draws them over time)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("user")
    )
    kind = models.CharField(pgettext_lazy("which game: SEVN or Sevens", "game"), max_length=8)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("game"))
    before = models.IntegerField(_("rating before"))
    value = models.IntegerField(_("rating"))
    created = models.DateTimeField(_("when"), db_index=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["created", "id"]
        indexes = [models.Index(fields=["user", "kind", "created"], name="rating_changes_of_user")]

    def __str__(self) -> str:
        return f"{self.user} ({self.kind}): {self.before} → {self.value}"


class LeavePause(models.Model):
    """A pause on joining public tables after LEAVES_PAUSED leaves at public tables within a
    week (services.reliability): each pause twice as long as the one before, up to a day, and
    shorter again after days of clean play. Moderators see them in admin and may clear one."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="leave_pauses", verbose_name=_("account")
    )
    level = models.PositiveSmallIntegerField(_("level"))  # the pause lasts PAUSE_FIRST * 2**level, at most a day
    games = models.JSONField(_("games left"), default=list)  # the ids of the games whose leaves made it
    started = models.DateTimeField(_("from"), db_index=True)
    until = models.DateTimeField(_("until"), db_index=True)
    cleared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("cleared by"),
    )
    cleared_at = models.DateTimeField(_("cleared"), null=True, blank=True)

    class Meta:
        verbose_name = _("pause for leaving")
        verbose_name_plural = _("pauses for leaving")
        ordering = ["-started"]
        indexes = [models.Index(fields=["user", "started"], name="leave_pause_user")]

    def __str__(self) -> str:
        return f"{self.user} {self.started:%Y-%m-%d %H:%M}-{self.until:%H:%M}"
