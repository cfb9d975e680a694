"""People on staff pages: a guest's key is what their session holds (whoever read it could act
as them), so admin never shows one. A person is named by a short tag of their key
(identity.staff_tag, "guest·3f9a1c"), the same on every page; a tag typed in the search box
finds them, and `?who=<tag>` lists one person's rows (their chat, their mutes and bans)."""

from __future__ import annotations

from functools import reduce
from operator import or_

from django.contrib import admin
from django.db.models import Model, Q, QuerySet
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from game.core.identity import staff_tag, tag, tag_prefix


def keys_tagged(model: type[Model], fields: tuple[str, ...], prefix: str) -> set[str]:
    """The keys in these fields whose tag starts with `prefix` (tags are not stored: each key
    of the table is tagged, which is quick for the few thousand people a site sees)."""
    keys: set[str] = set()
    for field in fields:
        for key in model._default_manager.exclude(**{field: ""}).values_list(field, flat=True).distinct():
            if tag(key).startswith(prefix):
                keys.add(key)
    return keys


def of_people(fields: tuple[str, ...], keys: set[str]) -> Q:
    return reduce(or_, (Q(**{f"{field}__in": keys}) for field in fields))


def who_query(key: str) -> str:
    """A list's query string for one person's rows."""
    return "?" + urlencode({"who": staff_tag(key)})


class WhoFilter(admin.SimpleListFilter):
    """`?who=guest·3f9a1c`: one person's rows (shown as a filter only while it is in use)."""

    title = _("person")
    parameter_name = "who"

    def __init__(self, request, params, model, model_admin) -> None:
        super().__init__(request, params, model, model_admin)
        self.model, self.fields = model, model_admin.key_fields

    def lookups(self, request, model_admin):
        value = self.value()
        return [(value, value)] if value else []

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if not value:
            return queryset
        prefix = tag_prefix(value)
        keys = keys_tagged(self.model, self.fields, prefix) if prefix else set()
        return queryset.filter(of_people(self.fields, keys)) if keys else queryset.none()


class PeopleByTag:
    """Mixed into a ModelAdmin whose model keeps player keys in `key_fields`: the search box
    finds a person by their tag as well."""

    key_fields: tuple[str, ...] = ()

    def get_search_results(self, request, queryset, search_term):
        found, duplicates = super().get_search_results(request, queryset, search_term)  # type: ignore[misc]
        prefix = tag_prefix(search_term) if search_term else None
        if prefix and self.key_fields:
            keys = keys_tagged(queryset.model, self.key_fields, prefix)
            if keys:
                found = found | queryset.filter(of_people(self.key_fields, keys))
        return found, duplicates
