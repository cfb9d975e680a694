"""Pauses for leaving in admin: who may not join public tables, since when and until when, and the
games whose leaves made each pause (each links to its replay); the history of an account is its
list here. Moderators clear a pause (an appeal that holds, a leave that was no fault of theirs);
services.reliability makes them, and a cleared one's leaves count towards no later pause."""

from __future__ import annotations

from django.contrib import admin, messages
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from game.models import Game, LeavePause
from game.moderation.review import ReadOnly
from game.services import reliability


@admin.register(LeavePause)
class LeavePauseAdmin(ReadOnly):
    list_display = ("user", "started", "until", "level", "holds", "cleared_by", "cleared_at")
    list_filter = ("level",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "level", "started", "until", "game_links", "cleared_by", "cleared_at")
    fields = readonly_fields
    actions = ["clear"]

    def has_clear_permission(self, request) -> bool:
        return request.user.has_perm("game.handle_report")

    @admin.display(description=_("holds now"), boolean=True)
    def holds(self, pause: LeavePause) -> bool:
        return pause.cleared_at is None and pause.until > timezone.now()

    @admin.display(description=_("games left"))
    def game_links(self, pause: LeavePause) -> str:
        public = dict(Game.objects.filter(id__in=pause.games).values_list("id", "public_id"))
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            ((reverse("game_replay", args=[public[game]]), game) for game in pause.games if game in public),
        )

    @admin.action(description=_("Clear the selected pauses"), permissions=["clear"])
    def clear(self, request, queryset) -> None:
        cleared = reliability.clear_pauses(pause_ids=list(queryset.values_list("id", flat=True)), by=request.user)
        self.message_user(
            request, ngettext("%(n)d cleared.", "%(n)d cleared.", cleared) % {"n": cleared}, messages.SUCCESS
        )
