"""Django's admin in the staff's language where Django and allauth leave English on its pages.

- allauth's user sessions and authenticators have no translatable model names ("User sessions",
  "Authenticators" in every language's sidebar), and their own admin pages show what staff have
  no use for: the addresses and browsers people sign in from, and each authenticator's secret
  data. Both leave the admin. A person's sessions end when staff suspend or ban them; a person's
  passkeys and authenticator apps are listed on their account's page (AuthenticatorsOf, in
  game.moderation.accounts), where a lost one can be removed.
- Permission names are stored in English when the tables are made ("Can add email address"),
  so the lists of permissions say each one's model (translated) and what it allows, in words
  of the catalogue; and list only the models the admin shows.
- The yes/no icons of a list are described to screen readers as "True"/"False", in English.
- The site's own group is a row named "Moderators" (migration 0004 made it; code finds it by
  that name): its name is shown in the staff's language wherever staff pick or list groups.

`install(site)` does all of it once, from game.admin.
"""

from __future__ import annotations

from django import forms
from django.contrib.admin import AdminSite
from django.contrib.admin.templatetags import admin_list
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

_ALLOWS = "a permission: what it allows staff to do with a kind of row"
# worded as the site's own permissions are ("Can ban players from tables"): one list, one style
ACTIONS = {
    "add": pgettext_lazy(_ALLOWS, "Can add"),
    "change": pgettext_lazy(_ALLOWS, "Can change"),
    "delete": pgettext_lazy(_ALLOWS, "Can delete"),
    "view": pgettext_lazy(_ALLOWS, "Can view"),
}
YES_NO = {True: _("Yes"), False: _("No"), None: _("Unknown")}
ICONS = {True: "yes", False: "no", None: "unknown"}


def permission_label(permission: Permission) -> str:
    """ "Tables and games | report | Can ban players from tables", in the staff's language: the
    model's verbose name and, for Django's four permissions on each model, what it allows; a
    permission of the site's own (Meta.permissions, its name a msgid of the catalogue) by its name."""
    content_type = permission.content_type
    model = content_type.model_class()
    action = permission.codename.split("_", 1)[0]
    if model is not None and action in ACTIONS and permission.codename == f"{action}_{model._meta.model_name}":
        allows = str(ACTIONS[action])
    else:
        allows = gettext(permission.name)
    return f"{content_type} | {allows}"


# the groups the site's migrations make, by their stored names
GROUP_NAMES = {"Moderators": _("Moderators")}


def group_label(group) -> str:
    return str(GROUP_NAMES.get(group.name, group.name))


class GroupsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj) -> str:
        return group_label(obj)


class PermissionsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj) -> str:
        return permission_label(obj)


def admin_permissions(site: AdminSite):
    """The permissions of the models `site` shows (others' permissions give staff nothing)."""
    shown = ContentType.objects.get_for_models(*site._registry, for_concrete_models=False).values()
    return Permission.objects.filter(content_type__in=list(shown)).select_related("content_type")


def permissions_formfield(site: AdminSite, db_field, **kwargs):
    """The form field of a permissions list (a user's or a group's), labelled and narrowed."""
    return db_field.formfield(form_class=PermissionsField, queryset=admin_permissions(site), **kwargs)


def groups_formfield(db_field, **kwargs):
    """The form field of a person's groups, each by its name in the staff's language."""
    return db_field.formfield(form_class=GroupsField, **kwargs)


def _boolean_icon(value) -> str:
    icon = static(f"admin/img/icon-{ICONS[value]}.svg")
    return format_html('<img src="{}" alt="{}">', icon, YES_NO[value])


def install(site: AdminSite) -> None:
    """Take allauth's sessions and authenticators off `site`; describe yes/no icons in words."""
    from allauth.mfa.models import Authenticator
    from allauth.usersessions.models import UserSession

    for model in (UserSession, Authenticator):
        if site.is_registered(model):
            site.unregister(model)
    admin_list._boolean_icon = _boolean_icon  # display_for_field looks it up there on each call
