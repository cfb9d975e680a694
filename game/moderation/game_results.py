"""How each account's games ended, in admin: the record behind "finished 28 of the last 30" and
behind a pause for leaving (game.moderation.leave_pauses). One row per person per game: its
outcome (finished, left, timed out, aborted), the excuse that kept a leave as finished, and
whether the table was public, each game linked to its replay. Read only: services.reliability
writes them when a game ends; a moderator's remedy is clearing a pause, not rewriting history."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from game.models import GameResult
from game.moderation import game_names
from game.moderation.review import ReadOnly


@admin.register(GameResult)
class GameResultAdmin(ReadOnly):
    list_display = ("finished", "user", "game_name", "replay", "place", "outcome_words", "excuse_words", "public")
    list_filter = ("outcome", "excuse", "public", game_names.game_filter("kind"))
    search_fields = ("user__username",)
    list_select_related = ("user", "game")
    date_hierarchy = "finished"
    readonly_fields = (
        "user",
        "game_name",
        "replay",
        "seat",
        "place",
        "points",
        "outcome",
        "excuse",
        "public",
        "finished",
    )
    fields = readonly_fields

    @admin.display(description=game_names.GAME, ordering="kind")
    def game_name(self, result: GameResult) -> str:
        return game_names.game_name(result.kind)

    @admin.display(description=_("replay"))
    def replay(self, result: GameResult) -> str:
        return format_html('<a href="{}">{}</a>', reverse("game_replay", args=[result.game.public_id]), result.game_id)

    # A column's values start with a capital, as the filters' do ("Uitgespeeld", not "uitgespeeld"):
    # the choices' words are lower case for the sentences that use them.
    @admin.display(description=GameResult._meta.get_field("outcome").verbose_name, ordering="outcome")
    def outcome_words(self, result: GameResult) -> str:
        return capfirst(result.get_outcome_display())

    @admin.display(description=GameResult._meta.get_field("excuse").verbose_name, ordering="excuse")
    def excuse_words(self, result: GameResult) -> str:
        return capfirst(result.get_excuse_display()) if result.excuse else self.get_empty_value_display()
