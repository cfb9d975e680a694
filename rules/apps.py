from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def load_rulebooks(sender, plan=None, **kwargs) -> None:
    """After `migrate` (not after a test's flush, which passes no plan), each game whose prose
    files are newer than its rows, or that has none yet, gets them (rules.content.load)."""
    apps = kwargs.get("apps")
    if plan is None or apps is None:
        return
    try:
        apps.get_model("rules", "LoadedRulebook")
    except LookupError:  # the rules app migrated back before its rulebooks were kept
        return
    from game import registry
    from rules.content.load import ensure

    ensure(registry.KINDS.values())


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = _("Rulebook")

    def ready(self) -> None:
        post_migrate.connect(load_rulebooks, sender=self)
