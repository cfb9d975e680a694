"""Rating flags in admin: accounts that keep leaving rated games, and pairs of accounts whose
rated games always end the same way (services.rating_flags finds them). Moderators read the
games a flag lists (each links to its replay) and mark it handled; what they then do to an
account (a ban, a suspension) is done where it always is."""

from __future__ import annotations

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from game.models import Game, RatingFlag
from game.moderation import game_names
from game.moderation.review import ReadOnly
from game.services import rating_flags


@admin.register(RatingFlag)
class RatingFlagAdmin(ReadOnly):
    list_display = ("kind", "user", "other", "game_name", "count", "status", "created", "updated")
    list_filter = ("status", "kind", game_names.game_filter("game_kind"))
    search_fields = ("user__username", "other__username")
    readonly_fields = (
        "kind",
        "game_name",
        "user",
        "other",
        "count",
        "game_links",
        "status",
        "created",
        "updated",
        "handled_by",
        "handled_at",
    )
    fields = readonly_fields
    actions = ["handle"]

    def has_handle_permission(self, request) -> bool:
        return request.user.has_perm("game.handle_report")

    @admin.display(description=game_names.GAME, ordering="game_kind")
    def game_name(self, flag: RatingFlag) -> str:
        return game_names.game_name(flag.game_kind)

    @admin.display(description=_("games"))
    def game_links(self, flag: RatingFlag) -> str:
        """Each game's replay (a finished game's, public), by the game's number in admin."""
        public = dict(Game.objects.filter(id__in=flag.games).values_list("id", "public_id"))
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            ((reverse("game_replay", args=[public[game]]), game) for game in flag.games if game in public),
        )

    @admin.action(description=_("Mark the selected flags handled"), permissions=["handle"])
    def handle(self, request, queryset) -> None:
        handled = rating_flags.flags_handle(flag_ids=list(queryset.values_list("id", flat=True)), by=request.user)
        self.message_user(
            request, ngettext("%(n)d handled.", "%(n)d handled.", handled) % {"n": handled}, messages.SUCCESS
        )
