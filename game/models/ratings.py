"""How games ended for signed-in people, and their ratings per game with every change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from game.models.tables import Game


class GameResult(models.Model):
    """How one signed-in person's game ended: their place, points and the game's own figures
    (its Kind's `seat_figures`), written once when the game is over (the profile's stats)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results", verbose_name=_("game"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_results", verbose_name=_("user")
    )
    kind = models.CharField(_("game"), max_length=8, db_index=True)
    seat = models.PositiveSmallIntegerField(_("seat"))
    place = models.PositiveSmallIntegerField(_("place"))
    won = models.BooleanField(_("won"), default=False)
    away = models.BooleanField(_("left (a bot played)"), default=False)
    points = models.IntegerField(_("points"))
    figures = models.JSONField(_("figures"), default=dict)
    rated = models.BooleanField(_("rated"), default=False)
    finished = models.DateTimeField(_("finished"), db_index=True)

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
    kind = models.CharField(_("game"), max_length=8)
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
    kind = models.CharField(_("game"), max_length=8)
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
