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
- The index sorts apps and models by their names' code points: French "Événements" came after
  "Tables"; they are sorted as a reader would, accents aside.
- The site's own group is a row named "Moderators" (migration 0004 made it; code finds it by
  that name): its name is shown in the staff's language wherever staff pick or list groups.

`install(site)` does all of it once, from game.admin.
"""

from __future__ import annotations

import unicodedata

from django import forms
from django.contrib import admin
from django.contrib.admin import AdminSite
from django.contrib.admin.templatetags import admin_list
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q
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


def _model_name(model) -> str:
    from allauth.mfa.models import Authenticator

    if model is Authenticator:  # no verbose_name of its own: "authenticator" in every language
        return str(_("passkey or authenticator app"))
    return str(model._meta.verbose_name)


def permission_label(permission: Permission) -> str:
    """ "Tables and games | report | Can ban players from tables", in the staff's language: the
    app's and the model's names and, for Django's four permissions on each model, what it allows;
    a permission of the site's own (Meta.permissions, its name a msgid of the catalogue) by its name."""
    content_type = permission.content_type
    model = content_type.model_class()
    if model is None:
        return str(permission)
    action = permission.codename.split("_", 1)[0]
    if action in ACTIONS and permission.codename == f"{action}_{model._meta.model_name}":
        allows = str(ACTIONS[action])
    else:
        allows = gettext(permission.name)
    return f"{model._meta.app_config.verbose_name} | {_model_name(model)} | {allows}"


class PermissionsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj) -> str:
        return permission_label(obj)


DEFAULT = r"^(add|change|delete|view)_"


def admin_permissions(site: AdminSite):
    """The permissions that mean something on `site`: those of the models it shows (and of a
    person's passkeys, shown on their page), and every permission of the site's own (a
    suspension's is on a model the admin does not list). Any other would be a line of noise;
    one a group or a person already holds is listed too (keep_held), so saving drops none."""
    from allauth.mfa.models import Authenticator

    shown = ContentType.objects.get_for_models(*site._registry, Authenticator, for_concrete_models=False)
    return Permission.objects.filter(
        Q(content_type__in=list(shown.values())) | ~Q(codename__regex=DEFAULT)
    ).select_related("content_type")


# the groups the site's migrations make, by their stored names
GROUP_NAMES = {"Moderators": _("Moderators")}


def group_label(group) -> str:
    return str(GROUP_NAMES.get(group.name, group.name))


class GroupsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj) -> str:
        return group_label(obj)


class GroupFilter(admin.RelatedFieldListFilter):
    """A list's filter by group, each group by its name in the staff's language."""

    def field_choices(self, field, request, model_admin):
        from django.contrib.auth.models import Group

        names = {group.pk: group_label(group) for group in Group.objects.all()}
        return [(pk, names.get(pk, label)) for pk, label in super().field_choices(field, request, model_admin)]


def permissions_formfield(site: AdminSite, db_field, **kwargs):
    """The form field of a permissions list (a user's or a group's), labelled and narrowed."""
    return db_field.formfield(form_class=PermissionsField, queryset=admin_permissions(site), **kwargs)


def keep_held(form_class, field: str, held) -> None:
    """List in `form_class`'s `field` the permissions already `held` as well (a queryset): a
    form saved from a list without one of them would take it away unseen."""
    listed = form_class.base_fields.get(field)
    if listed is not None and held is not None:
        listed.queryset = (listed.queryset | held).distinct()


def groups_formfield(db_field, **kwargs):
    """The form field of a person's groups, each by its name in the staff's language."""
    return db_field.formfield(form_class=GroupsField, **kwargs)


def reading_order(name) -> str:
    """A name's sort key as a reader sorts: accents and case aside ("Événements" among the E's)."""
    return "".join(c for c in unicodedata.normalize("NFKD", str(name)) if not unicodedata.combining(c)).casefold()


def _sorted_apps(get_app_list):
    def sorted_apps(request, app_label=None):
        apps = sorted(get_app_list(request, app_label), key=lambda app: reading_order(app["name"]))
        for app in apps:
            app["models"].sort(key=lambda model: reading_order(model["name"]))
        return apps

    sorted_apps.sorted = True  # type: ignore[attr-defined]
    return sorted_apps


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
    if not getattr(site.get_app_list, "sorted", False):
        site.get_app_list = _sorted_apps(site.get_app_list)  # type: ignore[method-assign]
