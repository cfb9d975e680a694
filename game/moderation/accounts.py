"""Accounts in admin: each account's reports and mutes and bans on its page (those of the guest
it was before it signed up too), and suspending an
account (for how long and why, which its person reads) or reinstating it, logged in the
moderators' log. A suspension puts the account out at once: every socket it has open closes
(game.delivery.broadcast.put_out), and its sessions act as it nowhere (game.core.identity)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import display_for_value
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.forms.models import BaseInlineFormSet
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from game.core import staff_words
from game.core.errors import ServiceError
from game.models import Report, Sanction
from game.moderation.admin_language import GroupFilter, group_label, groups_formfield, keep_held, permissions_formfield
from game.moderation.people import keys_of_accounts
from game.moderation.review import StaffForm
from game.services import accounts

User = get_user_model()


class _OfEveryKey(BaseInlineFormSet):
    """An account's rows: those that name it, and those kept under a key it played under (a
    report made while its person was still a guest names the guest key, now the account's)."""

    key_field = ""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.instance is not None and self.instance.pk is not None:
            keys = keys_of_accounts(Q(pk=self.instance.pk))
            rows = Q(**{self.fk.name: self.instance}) | Q(**{f"{self.key_field}__in": keys})
            self.queryset = self.model._default_manager.filter(rows)


class _History(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True
    key_field = ""

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, formset=_OfEveryKey, **kwargs)
        formset.key_field = self.key_field
        return formset

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class ReportsAbout(_History):
    model = Report
    fk_name = "reported_user"
    key_field = "reported_key"
    fields = ("created", "table_code", "reported_name", "reason", "message_text", "comment", "status", "how_handled")
    readonly_fields = fields
    verbose_name = _("report about this account")
    verbose_name_plural = _("reports about this account")

    @admin.display(description=_("how it was handled"))
    def how_handled(self, report: Report) -> str:
        return staff_words.say(report.resolution)


class SanctionsOf(_History):
    model = Sanction
    fk_name = "user"
    key_field = "player_key"
    fields = ("created", "kind", "table", "reason", "expires", "lifted", "by")
    readonly_fields = fields
    verbose_name_plural = _("mutes and bans of this account")


class _NoLookalike:
    """A username given in admin (a new account, or a rename) looks like nobody else's, as at
    sign-up (services.accounts.refuse_lookalike_username)."""

    def clean_username(self):
        own = getattr(super(), "clean_username", None)  # the creation form's: no other letter case
        name = own() if own is not None else self.cleaned_data.get("username")  # type: ignore[attr-defined]
        if name:
            try:
                accounts.refuse_lookalike_username(name, self.instance.pk)  # type: ignore[attr-defined]
            except ServiceError as error:
                raise ValidationError(error.message) from error
        return name


class AccountChangeForm(_NoLookalike, UserChangeForm):
    pass


class AccountCreationForm(_NoLookalike, AdminUserCreationForm):
    """Django's admin form (a password may be left unusable: the person signs in by passkey or a
    reset link), with the site's check for names that look like another's."""


class SuspendForm(StaffForm):
    duration = forms.ChoiceField(
        label=_("for"),
        choices=[
            ("24h", _("24 hours")),
            ("7d", _("7 days")),
            ("30d", _("30 days")),
            ("permanent", _("until reinstated")),
        ],
    )
    reason = forms.CharField(label=_("reason (the player reads it)"), max_length=300)


class AuthenticatorsOf(admin.TabularInline):
    """A person's passkeys, authenticator app and recovery codes: what kind and when made and last
    used, never their secret data; staff remove a lost one (the person then adds a new one)."""

    from allauth.mfa.models import Authenticator as model

    verbose_name = _("passkey or authenticator app")
    verbose_name_plural = _("passkeys and authenticator apps")
    fields = readonly_fields = ("kind", "created", "last_used")
    extra = 0
    can_delete = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # a person adds their own, signed in

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("kind"))
    def kind(self, authenticator) -> str:
        return authenticator.get_type_display()

    # a method's value is shown as it is: the admin's own date format is asked for here
    @admin.display(description=_("created"))
    def created(self, authenticator) -> str:
        return display_for_value(authenticator.created_at, self.get_empty_value_display())

    @admin.display(description=_("last used"))
    def last_used(self, authenticator) -> str:
        return display_for_value(authenticator.last_used_at, self.get_empty_value_display())


admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    form = AccountChangeForm
    add_form = AccountCreationForm
    inlines = [SanctionsOf, ReportsAbout, AuthenticatorsOf]
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_staff", "is_superuser", "is_active", ("groups", GroupFilter))
    actions = ["suspend", "reinstate"]

    def formfield_for_manytomany(self, db_field, request=None, **kwargs):
        if db_field.name == "user_permissions":
            return permissions_formfield(self.admin_site, db_field, **kwargs)
        if db_field.name == "groups":
            return groups_formfield(db_field, **kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        keep_held(form, "user_permissions", obj.user_permissions.all() if obj is not None else None)
        return form

    def has_view_permission(self, request, obj=None) -> bool:
        """Moderators (who handle reports) see accounts, their reports and sanctions; changing
        one stays Django's own permission."""
        return super().has_view_permission(request, obj) or request.user.has_perm("game.handle_report")

    def has_module_permission(self, request) -> bool:
        return super().has_module_permission(request) or request.user.has_perm("game.handle_report")

    def has_suspend_permission(self, request) -> bool:
        return request.user.has_perm("game.suspend_account")

    def _set(self, request, queryset, suspend: bool, duration: str = "permanent", reason: str = "") -> int:
        done = 0
        for user in queryset.exclude(pk=request.user.pk).filter(is_superuser=False):
            accounts.account_suspend(by=request.user, user=user, reason=reason, suspend=suspend, duration=duration)
            done += 1
        return done

    @admin.action(description=_("Suspend the selected accounts"), permissions=["suspend"])
    def suspend(self, request, queryset):
        """A form first (for how long, and why: the person reads both), then the suspension."""
        form = SuspendForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return TemplateResponse(
                request,
                "admin/game/suspend_accounts.html",
                {
                    **self.admin_site.each_context(request),
                    "title": _("Suspend the selected accounts"),
                    "form": form,
                    "accounts": queryset,
                    "selected": request.POST.getlist(helpers.ACTION_CHECKBOX_NAME),
                    "opts": self.model._meta,
                },
            )
        done = self._set(request, queryset, True, form.cleaned_data["duration"], form.cleaned_data["reason"])
        self.message_user(
            request,
            ngettext("%(n)d account suspended.", "%(n)d accounts suspended.", done) % {"n": done},
            messages.SUCCESS,
        )
        return None

    @admin.action(description=_("Reinstate the selected accounts"), permissions=["suspend"])
    def reinstate(self, request, queryset) -> None:
        done = self._set(request, queryset, False)
        self.message_user(
            request,
            ngettext("%(n)d account reinstated.", "%(n)d accounts reinstated.", done) % {"n": done},
            messages.SUCCESS,
        )


admin.site.unregister(Group)


@admin.register(Group)
class StaffGroupAdmin(GroupAdmin):
    """Django's groups, their names and permissions in the staff's language (admin_language)."""

    list_display = ("shown_name",)

    @admin.display(description=_("name"), ordering="name")
    def shown_name(self, group: Group) -> str:
        return group_label(group)

    def action_checkbox(self, group: Group):
        """Django's row checkbox, its label read aloud naming the group as the row shows it (Django
        names it by its stored name, "Moderators", in every language)."""
        attrs = {
            "class": "action-select",
            "aria-label": format_html(gettext("Select this object for an action - {}"), group_label(group)),
        }
        return forms.CheckboxInput(attrs, lambda value: False).render(helpers.ACTION_CHECKBOX_NAME, str(group.pk))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The page's title and trail name the group in the staff's language, not by its stored name."""
        group = self.get_object(request, object_id)
        shown = {"subtitle": group_label(group)} if group is not None else {}
        return super().change_view(request, object_id, form_url, {**shown, **(extra_context or {})})

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        keep_held(form, "permissions", obj.permissions.all() if obj is not None else None)
        return form

    def formfield_for_manytomany(self, db_field, request=None, **kwargs):
        if db_field.name == "permissions":
            return permissions_formfield(self.admin_site, db_field, **kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)
