from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameConfig(AppConfig):
    name = "game"
    verbose_name = _("Tables and games")

    def ready(self) -> None:
        from django.core import checks

        from game.registry.checks import kinds_complete

        checks.register(kinds_complete)

        import game.accounts.signals  # noqa: F401 (a log-in makes the session's guest the account's)
