"""After a game is over, the hard bot's judgement on each person's decisions (game.services.analysis):
stored once per game and estimate version, computed in the background."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from game.models.tables import Game


class GameAnalysis(models.Model):
    """One finished game analysed by one version of its game's estimate (`Kind.analysis.VERSION`):
    queued when the game ends, then worked on by a process's background loop, then done (or
    failed, with the reason in the log). A new version queues the game again, beside the old row."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analyses", verbose_name=_("game"))
    version = models.CharField(_("estimate version"), max_length=32)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.QUEUED, db_index=True)
    data = models.JSONField(_("analysis"), null=True, blank=True)
    cpu_seconds = models.FloatField(_("CPU seconds"), default=0.0)
    queued = models.DateTimeField(_("queued"), auto_now_add=True)
    started = models.DateTimeField(_("started"), null=True, blank=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")
        ordering = ["queued"]
        constraints = [models.UniqueConstraint(fields=["game", "version"], name="one_analysis_per_game_and_version")]

    def __str__(self) -> str:
        return f"{self.game} · {self.version} · {self.status}"
