"""Staff run tables here: find tables, close them, remove players, read a game's event log.
Moderation (reports, mutes and bans, chat, the moderators' log) is in game.moderation.review."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count
from django.db.models.constants import LOOKUP_SEP
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from game import services
from game.core import staff_words
from game.models import Event, Game, Presence, Seat, Table
from game.moderation import people
from game.moderation.people import AccountFilter, PeopleByTag, WhoFilter


class FiltersOnly(admin.ModelAdmin):
    """Lookups in the list's URL only through the list's own filters and date hierarchy.

    Django's admin takes any lookup on the model's own fields from the query string, so
    `?seed=…` or `?state__contains=…` would let anyone who may view games test guesses about a
    running game's seed and deck order one URL at a time, although neither field is shown."""

    def lookup_allowed(self, lookup: str, value, request=None) -> bool:
        allowed = set()
        for item in (*self.list_filter, self.date_hierarchy):
            name = item if isinstance(item, str) else (item[0] if isinstance(item, tuple) else None)
            if name:
                allowed.add(name)
        field = lookup.split(LOOKUP_SEP)
        return (
            any(lookup == name or lookup.startswith(name + LOOKUP_SEP) for name in allowed)
            and not set(field) & SECRET_FIELDS
        )


SECRET_FIELDS = {"state", "seed", "player_key", "host_key"}


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "nickname", "bot_level", "away", "user", "last_seen")
    readonly_fields = fields
    can_delete = False
    show_change_link = True


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ("number", "version", "over", "winner", "created", "finished")
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Table)
class TableAdmin(PeopleByTag, FiltersOnly):
    key_fields = ("host_key",)
    list_display = (
        "code",
        "kind",
        "status",
        "host_name",
        "players",
        "seat_count",
        "pace",
        "turn_seconds",
        "created",
    )
    list_filter = ("kind", "status", "pace", "created", "turn_seconds", WhoFilter, AccountFilter)
    search_fields = ("code", "host_name", "seats__nickname")
    date_hierarchy = "created"
    exclude = ("host_key", "closed_reason")  # a key is never shown; the reason is a code, drawn below
    readonly_fields = ("code", "host", "closed_because", "created", "updated")
    inlines = [SeatInline, GameInline]
    actions = ["close_tables"]

    def has_close_table_permission(self, request) -> bool:
        return request.user.has_perm("game.close_table")

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats").annotate(seated=Count("seats"))

    @admin.display(description=_("host"))
    def host(self, table: Table) -> str:
        return people.person(table, "host_key")

    @admin.display(description=_("closed because"))
    def closed_because(self, table: Table) -> str:
        return staff_words.say(table.closed_reason)

    @admin.display(description=_("players"))
    def players(self, table: Table) -> str:
        return ", ".join(seat.nickname for seat in table.seats.all())

    @admin.action(
        description=_("Close the selected tables (viewers see “closed by staff”)"), permissions=["close_table"]
    )
    def close_tables(self, request, queryset) -> None:
        closed = 0
        for table in queryset.exclude(status=Table.Status.CLOSED):
            services.table_close(code=table.code, reason="", by=request.user)
            closed += 1
        self.message_user(
            request, ngettext("%(n)d table closed.", "%(n)d tables closed.", closed) % {"n": closed}, messages.SUCCESS
        )


@admin.register(Seat)
class SeatAdmin(PeopleByTag, FiltersOnly):
    key_fields = ("player_key",)
    user_fields = {"player_key": "user"}
    list_display = ("nickname", "person", "table", "index", "bot_level", "away", "last_seen")
    list_filter = ("bot_level", "away", "table__status", WhoFilter, AccountFilter)
    search_fields = ("nickname", "table__code", "user__username")
    exclude = ("player_key",)
    readonly_fields = ("table", "index", "person", "joined", "last_seen", "timeouts_in_row")

    @admin.display(description=_("person"))
    def person(self, seat: Seat) -> str:
        return people.person(seat, "player_key")

    actions = ["remove_players"]

    def has_remove_player_permission(self, request) -> bool:
        return request.user.has_perm("game.remove_player")

    @admin.action(description=_("Remove the selected players from their tables"), permissions=["remove_player"])
    def remove_players(self, request, queryset) -> None:
        for seat in queryset:
            services.seat_remove_by_staff(seat_id=seat.id, by=request.user)
        self.message_user(request, _("Players removed."), messages.SUCCESS)


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    fields = ("seq", "version", "kind", "data", "created")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(FiltersOnly):
    list_display = ("table", "number", "version", "over", "winner_name", "created", "finished")
    list_filter = ("over", "created")
    search_fields = ("table__code", "players")
    readonly_fields = (
        "table",
        "number",
        "version",
        "players",
        "over",
        "winner",
        "created",
        "finished",
        "deadline",
        "event_count",
    )
    exclude = ("state", "seed")  # the deck order and the seed stay secret, even from staff pages
    inlines = [EventInline]

    @admin.display(description=_("winner"))
    def winner_name(self, game: Game) -> str:
        return game.players[game.winner] if game.winner is not None else ""

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Event)
class EventAdmin(FiltersOnly):
    list_display = ("game", "seq", "version", "kind", "created")
    list_filter = ("kind",)
    search_fields = ("game__table__code", "kind")
    readonly_fields = ("game", "seq", "version", "kind", "data", "created")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Presence)
class PresenceAdmin(FiltersOnly):
    list_display = ("table", "seen")
    fields = ("table", "seen")
    readonly_fields = fields
