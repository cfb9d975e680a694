"""Moderation in admin: the reports queue and what can be done from a report, mutes and bans,
chat search, and the moderators' log (read only, for everyone)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, npgettext, pgettext, pgettext_lazy

from game import services
from game.core import phrases, staff_words
from game.core.errors import ServiceError
from game.drawkit.words import names_list
from game.models import ChatMessage, ModAction, Report, Sanction, Seat
from game.moderation import people
from game.moderation.people import AccountFilter, PeopleByTag, WhoFilter, account_of, keys_of_accounts, who_query
from game.services import moderation
from game.services.staff import Person


class StaffForm(forms.Form):
    """A moderator's form: each label starts with a capital, as the admin's own do (its labels
    are msgids in lower case, which other sentences use mid-line)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.label = capfirst(field.label)


class WarnForm(StaffForm):
    warning = forms.ChoiceField(label=_("warning"), choices=[(key, text) for key, text in phrases.WARNINGS.items()])


class MuteForm(StaffForm):
    duration = forms.ChoiceField(
        label=_("for"),
        choices=[
            ("15m", _("15 minutes")),
            ("1h", _("1 hour")),
            ("24h", _("24 hours")),
            ("permanent", _("permanently")),
        ],
    )
    scope = forms.ChoiceField(
        label=_("where"), choices=[("table", _("at this table")), ("everywhere", _("everywhere"))]
    )
    reason = forms.CharField(label=_("reason (the player reads it)"), max_length=200)


class BanForm(StaffForm):
    duration = forms.ChoiceField(
        label=_("for"),
        choices=[("24h", _("24 hours")), ("7d", _("7 days")), ("30d", _("30 days")), ("permanent", _("permanently"))],
    )
    reason = forms.CharField(label=_("reason (the player reads it)"), max_length=200)


class RenameForm(StaffForm):
    nickname = forms.CharField(label=_("new nickname"), max_length=20)


class ReasonForm(StaffForm):
    reason = forms.CharField(label=_("reason"), max_length=200, required=False)


class HandleForm(StaffForm):
    note = forms.CharField(label=_("how it was handled"), max_length=200, required=False)


# action -> (permission, form, what it does with the report's person)
ACTIONS = {
    "warn": ("game.warn_player", WarnForm, _("Warn")),
    "mute": ("game.mute_player", MuteForm, _("Mute in chat")),
    "remove": ("game.remove_player", ReasonForm, _("Remove from the table")),
    "rename": ("game.rename_player", RenameForm, _("Rename")),
    "ban": ("game.ban_player", BanForm, _("Ban from tables")),
    "close": ("game.close_table", ReasonForm, _("Close the table")),
    "handle": ("game.handle_report", HandleForm, _("Mark handled")),
}


def _seat_of(report: Report) -> Seat | None:
    return (
        Seat.objects.filter(table_id=report.table_id, player_key=report.reported_key).first()
        if report.table_id
        else None
    )


def _act(action: str, report: Report, data: dict, by) -> None:
    """Run one action on the report's person (each service tells the screens it concerns)."""
    person = Person.reported_in(report)
    if action == "warn":
        moderation.player_warn(
            by=by, person=person, warning=data["warning"], report=report, table_code=report.table_code
        )
    elif action == "mute":
        table = report.table if data["scope"] == "table" else None
        moderation.player_mute(
            by=by, person=person, duration=data["duration"], reason=data["reason"], table=table, report=report
        )
    elif action == "ban":
        moderation.player_ban(by=by, person=person, duration=data["duration"], reason=data["reason"], report=report)
    elif action == "handle":
        moderation.report_handle(by=by, report_id=report.id, note=data["note"])
    elif report.table_id is None:
        raise ServiceError("unknown_table", _("There is no table with that code."))
    elif action == "close":
        services.table_close(code=report.table_code, reason=data["reason"], by=by, report=report)
    elif (seat := _seat_of(report)) is None:
        raise ServiceError("not_seated", _("That player no longer sits at this table."))
    elif action == "remove":
        services.seat_remove_by_staff(seat_id=seat.id, by=by, reason=data["reason"], report=report)
    else:
        moderation.player_rename(
            by=by, table_id=report.table_id, person=person, nickname=data["nickname"], report=report
        )


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(PeopleByTag, ReadOnly):
    key_fields = ("reported_key", "reporter_key")
    user_fields = {"reported_key": "reported_user"}
    list_display = (
        "created",
        "status",
        "reason",
        "count",
        "last_reported",
        "reported",
        "message_text",
        "reporter",
        "table_code",
        "handled_by",
    )
    list_display_links = ("created",)
    list_filter = ("status", "reason", "created", WhoFilter, AccountFilter)
    search_fields = ("reported_name", "reporter_name", "table_code", "message_text", "comment")
    date_hierarchy = "created"
    fields = (
        "status",
        "created",
        "count",
        "last_reported",
        "further",
        "table_code",
        "reason",
        "reported",
        "message_text",
        "comment",
        "reporter",
        "handled_by",
        "handled_at",
        "how_handled",
    )
    readonly_fields = fields
    change_form_template = "admin/game/report/change_form.html"

    @admin.display(description=_("further reports"))
    def further(self, report: Report) -> str:
        """Who else reported this person here while the report was open, why and when."""
        rows = ((item["time"], item["by"], item["reason"], item["comment"] or item["text"]) for item in report.more)
        return format_html_join(mark_safe("<br>"), "{} · {} · {} · {}", rows) or "–"

    @admin.display(description=_("reported player"), ordering="reported_name")
    def reported(self, report: Report) -> str:
        """The nickname they had at the table, and who they are: their account, or a guest's tag."""
        return format_html("{} ({})", report.reported_name, people.person(report, "reported_key"))

    @admin.display(description=_("reported by"), ordering="reporter_name")
    def reporter(self, report: Report) -> str:
        return format_html("{} ({})", report.reporter_name, people.person(report, "reporter_key"))

    @admin.display(description=_("how it was handled"))
    def how_handled(self, report: Report) -> str:
        return staff_words.say(report.resolution)

    def get_urls(self):
        return [
            path(
                "<int:report_id>/act/<str:action>/", self.admin_site.admin_view(self.act_view), name="game_report_act"
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        report = self.get_object(request, unquote(object_id))
        if report is None:  # admin's own answer to an unknown or malformed id (not a 500)
            return super().change_view(request, object_id, form_url, extra_context)
        return super().change_view(
            request, object_id, form_url, {**(extra_context or {}), **self._moderation(request, report)}
        )

    def _moderation(self, request: HttpRequest, report: Report) -> dict:
        account = account_of(report, "reported_key")
        account_id = account[0] if account else None
        keys = keys_of_accounts(Q(pk=account_id)) | {report.reported_key} if account_id else {report.reported_key}
        about = Q(reported_key__in=keys) | (Q(reported_user_id=account_id) if account_id else Q(pk__in=[]))
        sanctioned = Q(player_key__in=keys) | (Q(user_id=account_id) if account_id else Q(pk__in=[]))
        seats = Seat.objects.filter(player_key__in=keys).select_related("table").order_by("-table__created")
        chatted = reverse("admin:game_chatmessage_changelist") + who_query(report.reported_key, account_id)
        forms_shown = [
            (name, label, form_class(prefix=name), reverse("admin:game_report_act", args=[report.id, name]))
            for name, (permission, form_class, label) in ACTIONS.items()
            if request.user.has_perm(permission)
        ]
        return {
            "evidence": [
                {
                    **line,
                    "said": line["text"] or phrases.phrase_label(line["phrase"]),
                    "at": line["time"][11:19],
                    "where": ChatMessage.Channel(line["channel"]).label,
                    "reported": line["id"] == report.message_id,
                }
                for line in report.evidence
            ],
            "other_reports": Report.objects.filter(about).exclude(id=report.id)[:50],
            "tables": seats[:50],
            "chat_history_url": chatted,
            "action_forms": forms_shown,
            "sanctions": Sanction.objects.filter(sanctioned).select_related("table")[:20],
            "sanctions_url": reverse("admin:game_sanction_changelist") + who_query(report.reported_key, account_id),
            # the name and who it is, in one: a language whose verb comes last ("Dan heeft Cleo
            # (guest·7638a5) gemeld") keeps the person beside their name
            "reported_who": self.reported(report),
            "resolution": staff_words.say(report.resolution),
            "still_seated": _seat_of(report) is not None,
            "title": _("Report about %(name)s") % {"name": report.reported_name},
        }

    def act_view(self, request: HttpRequest, report_id: int, action: str):
        report = get_object_or_404(Report, pk=report_id)
        back = HttpResponseRedirect(reverse("admin:game_report_change", args=[report.id]))
        if action not in ACTIONS or request.method != "POST":
            return back
        permission, form_class, label = ACTIONS[action]
        if not request.user.has_perm(permission):
            raise PermissionDenied
        form = form_class(request.POST, prefix=action)
        if not form.is_valid():
            self.message_user(request, _said(form), messages.ERROR)
            return back
        try:
            _act(action, report, form.cleaned_data, request.user)
        except ServiceError as error:
            self.message_user(request, error.message, messages.ERROR)
            return back
        self.message_user(request, _("Done: %(action)s.") % {"action": label}, messages.SUCCESS)
        return back


class ActiveFilter(admin.SimpleListFilter):
    title = _("in force")
    parameter_name = "active"

    def lookups(self, request, model_admin):
        return [("yes", pgettext_lazy("a mute or ban, as a filter's choice", "in force")), ("no", _("ended"))]

    def queryset(self, request, queryset):
        now = timezone.now()
        active = Q(lifted__isnull=True) & (Q(expires__isnull=True) | Q(expires__gt=now))
        if self.value() == "yes":
            return queryset.filter(active)
        if self.value() == "no":
            return queryset.exclude(active)
        return queryset


@admin.register(Sanction)
class SanctionAdmin(PeopleByTag, ReadOnly):
    key_fields = ("player_key",)
    user_fields = {"player_key": "user"}
    list_display = ("kind", "nickname", "person", "table", "reason", "created", "expires", "in_force", "by", "lifted")
    list_filter = ("kind", ActiveFilter, "created", WhoFilter, AccountFilter)
    search_fields = ("nickname", "reason")
    readonly_fields = (
        "kind",
        "nickname",
        "person",
        "table",
        "reason",
        "created",
        "expires",
        "by",
        "lifted",
        "lifted_by",
    )
    fields = readonly_fields
    actions = ["lift"]

    @admin.display(description=_("person"))
    def person(self, sanction: Sanction) -> str:
        return people.person(sanction, "player_key")

    @admin.display(description=_("in force"), boolean=True)
    def in_force(self, sanction: Sanction) -> bool:
        return sanction.lifted is None and (sanction.expires is None or sanction.expires > timezone.now())

    def has_lift_permission(self, request) -> bool:
        return request.user.has_perm("game.mute_player") or request.user.has_perm("game.ban_player")

    @admin.action(description=_("Lift the selected mutes and bans now"), permissions=["lift"])
    def lift(self, request, queryset) -> None:
        may = {
            Sanction.Kind.MUTE: request.user.has_perm("game.mute_player"),
            Sanction.Kind.BAN: request.user.has_perm("game.ban_player"),
        }
        lifted = 0
        for sanction in queryset.filter(lifted__isnull=True):
            if may[sanction.kind]:
                moderation.sanction_lift(by=request.user, sanction_id=sanction.id)
                lifted += 1
        self.message_user(request, ngettext("%(n)d lifted.", "%(n)d lifted.", lifted) % {"n": lifted}, messages.SUCCESS)


@admin.register(ChatMessage)
class ChatMessageAdmin(PeopleByTag, ReadOnly):
    """Chat search across tables; `?who=<tag>` is one person's chat history."""

    key_fields = ("author_key",)
    user_fields = {"author_key": "author_user"}
    list_display = ("created", "table", "channel", "nickname", "person", "said", "history")
    list_filter = ("channel", "created", WhoFilter, AccountFilter)
    search_fields = ("text", "nickname", "table__code", "phrase")
    date_hierarchy = "created"
    fields = ("table", "channel", "nickname", "text", "phrase", "person", "created")
    readonly_fields = fields
    list_select_related = ("table",)

    @admin.display(description=_("message"))
    def said(self, line: ChatMessage) -> str:
        return line.text or phrases.phrase_label(line.phrase)

    @admin.display(description=_("person"))
    def person(self, line: ChatMessage) -> str:
        return people.person(line, "author_key")

    @admin.display(description=_("their chat"))
    def history(self, line: ChatMessage) -> str:
        account = account_of(line, "author_key")
        url = reverse("admin:game_chatmessage_changelist") + who_query(line.author_key, account and account[0])
        return format_html('<a href="{}">{}</a>', url, _("all tables"))


@admin.register(ModAction)
class ModActionAdmin(PeopleByTag, ReadOnly):
    """The moderators' log: nobody adds, changes or deletes a line here, superusers neither.
    Its details and reasons are codes drawn in the reader's language (game.core.staff_words),
    except the reasons staff typed themselves."""

    key_fields = ("target_key",)
    list_display = (
        "created",
        "actor_name",
        "action",
        "target_name",
        "person",
        "table_code",
        "details",
        "why",
        "report",
    )
    list_filter = ("action", "created", WhoFilter, AccountFilter)
    search_fields = ("actor_name", "target_name", "table_code", "reason", "detail")
    date_hierarchy = "created"
    fields = (
        "created",
        "actor",
        "actor_name",
        "action",
        "target_name",
        "person",
        "table_code",
        "details",
        "why",
        "report",
    )
    readonly_fields = fields

    @admin.display(description=_("person"))
    def person(self, row: ModAction) -> str:
        return people.person(row, "target_key")

    @admin.display(description=_("details"))
    def details(self, row: ModAction) -> str:
        return staff_words.say(row.detail)

    @admin.display(description=_("why"))
    def why(self, row: ModAction) -> str:
        return staff_words.say(row.reason)


def _said(form) -> str:
    """A form's errors as the moderator reads them, by each field's label in their language, never
    the field's name in the code: the fields left empty in one sentence ("Fill in “Duration” and
    “Reason”."), quoted as the language quotes (a sentence of "Duration: This field is required."
    three times read badly, and French would write no capital after its colon), then any other
    error under its field's label."""
    empty, said = [], []
    for name, errors in form.errors.as_data().items():
        if name != NON_FIELD_ERRORS and all(error.code == "required" for error in errors):
            label = form.fields[name].label
            empty.append(
                pgettext("a form field's label, quoted as the language quotes", "“%(label)s”") % {"label": label}
            )
        elif name == NON_FIELD_ERRORS:
            said.extend(form.errors[name])
        else:
            said.append(
                pgettext("a form's field and what is wrong with it", "%(label)s: %(errors)s")
                % {"label": form.fields[name].label, "errors": " ".join(form.errors[name])}
            )
    if empty:
        fill_in = npgettext(
            "a staff form sent with fields left empty", "Fill in %(fields)s.", "Fill in %(fields)s.", len(empty)
        )
        said.insert(0, fill_in % {"fields": names_list(empty)})
    return " ".join(said)
