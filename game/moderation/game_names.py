"""Which game a row is about, in admin, under the game's own name in the reader's language
("Sevens", "Zevenen", "Fan-tan"), not the registry's short name a row stores ("sevens"):
the column and the filter beside it (game results, rating flags)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import pgettext_lazy

from game import registry

GAME = pgettext_lazy("which game: SEVN or Sevens", "game")


def game_name(kind: str) -> str:
    """The game's name for people; a short name no game is registered under stays as it is."""
    found = registry.KINDS.get(kind)
    return str(found.label) if found else kind


def game_filter(field: str) -> type[admin.SimpleListFilter]:
    """A list filter on `field` (a registry short name) offering the games by their names."""

    class GameFilter(admin.SimpleListFilter):
        title = GAME
        parameter_name = field

        def lookups(self, request, model_admin):
            return registry.choices()

        def queryset(self, request, queryset):
            return queryset.filter(**{field: self.value()}) if self.value() else queryset

    return GameFilter
