"""People on staff pages: a guest's key is what their session holds (whoever read it could act
as them), so admin never shows one. A guest is named by a short tag of their key
(identity.staff_tag, "guest·3f9a1c"), the same on every page; a tag typed in the search box
finds them, and `?who=<tag>` lists one person's rows (their chat, their mutes and bans).

A person with an account is named by the account (a link to its page), also on rows written
while they were still a guest: the key they played under then is their account's now (its
profile's key, or one of its linked guest keys). `?account=<id>` lists an account's rows under
every key it ever had, and its name typed in the search box finds them."""

from __future__ import annotations

from functools import reduce
from operator import or_

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Model, OuterRef, Q, QuerySet, Subquery
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from game.core.identity import staff_tag, tag, tag_prefix
from game.models import GuestKey, Profile


def keys_tagged(model: type[Model], fields: tuple[str, ...], prefix: str) -> set[str]:
    """The keys in these fields whose tag starts with `prefix` (tags are not stored: each key
    of the table is tagged, which is quick for the few thousand people a site sees)."""
    keys: set[str] = set()
    for field in fields:
        for key in model._default_manager.exclude(**{field: ""}).values_list(field, flat=True).distinct():
            if tag(key).startswith(prefix):
                keys.add(key)
    return keys


def keys_of_accounts(accounts: Q) -> set[str]:
    """Every key the accounts matching `accounts` (a Q on the user) played under: their
    profile's, and the guest keys that became theirs."""
    profiles = Profile.objects.filter(**{"user__in": get_user_model().objects.filter(accounts)})
    guests = GuestKey.objects.filter(**{"user__in": get_user_model().objects.filter(accounts)})
    return set(profiles.values_list("player_key", flat=True)) | set(guests.values_list("key", flat=True))


def of_people(fields: tuple[str, ...], keys: set[str]) -> Q:
    return reduce(or_, (Q(**{f"{field}__in": keys}) for field in fields))


def who_query(key: str, account_id: int | None = None) -> str:
    """A list's query string for one person's rows: an account's under all its keys."""
    return "?" + urlencode({"account": account_id} if account_id else {"who": staff_tag(key)})


def account_of_key(key: str) -> tuple[int, str] | None:
    """The account (id, name) behind one key, if it is an account's (see account_fields)."""
    if not key:
        return None
    found = get_user_model().objects.filter(Q(sevn_profile__player_key=key) | Q(guest_keys__key=key))
    return found.values_list("pk", "username").first()


def account_fields(field: str, user_field: str | None = None) -> dict:
    """Annotations naming the account behind the key kept in `field` (`<field>_account`, its
    id, and `<field>_account_name`): the row's own user (`user_field`) if it has one, else the
    account whose profile plays under the key or to which the key, a guest's, was linked when
    its person signed up or logged in."""
    match = Q(sevn_profile__player_key=OuterRef(field)) | Q(guest_keys__key=OuterRef(field))
    if user_field:
        match = Q(pk=OuterRef(f"{user_field}_id")) | match
    accounts = get_user_model().objects.filter(match).order_by("pk")
    return {
        f"{field}_account": Subquery(accounts.values("pk")[:1]),
        f"{field}_account_name": Subquery(accounts.values("username")[:1]),
    }


def account_link(account_id: int, name: str) -> str:
    return format_html('<a href="{}">{}</a>', reverse("admin:auth_user_change", args=[account_id]), name)


def account_of(row: Model, field: str) -> tuple[int, str] | None:
    """The account behind the key in a row's `field`: from the annotations of account_fields
    when the row was read with them, else looked up."""
    if hasattr(row, f"{field}_account"):
        account = getattr(row, f"{field}_account")
        return (account, getattr(row, f"{field}_account_name")) if account else None
    return account_of_key(getattr(row, field))


def person(row: Model, field: str) -> str:
    """How staff pages name the person whose key a row keeps in `field`: their account (a
    link), or a guest's tag."""
    account = account_of(row, field)
    return account_link(*account) if account else staff_tag(getattr(row, field))


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


class AccountFilter(admin.SimpleListFilter):
    """`?account=<id>`: an account's rows, under every key it played under (shown as a filter
    only while it is in use)."""

    title = _("account")
    parameter_name = "account"

    def __init__(self, request, params, model, model_admin) -> None:
        super().__init__(request, params, model, model_admin)
        self.fields, self.user_fields = model_admin.key_fields, model_admin.user_fields

    def _account(self):
        value = self.value()
        return get_user_model().objects.filter(pk=value).first() if value and value.isdigit() else None

    def lookups(self, request, model_admin):
        account = self._account()
        return [(str(account.pk), account.get_username())] if account else []

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        if not self.value():
            return queryset
        account = self._account()
        if account is None:
            return queryset.none()
        keys = keys_of_accounts(Q(pk=account.pk))
        rows = of_people(self.fields, keys) if keys else Q(pk__in=[])
        for field in self.user_fields.values():
            rows |= Q(**{field: account})
        return queryset.filter(rows)


class PeopleByTag:
    """Mixed into a ModelAdmin whose model keeps player keys in `key_fields` (and, for some, the
    account beside them: `user_fields`, key field -> user field): each row is read with the
    accounts behind its keys (person() names them), and the search box finds a person by
    their tag, or by their account's name, as well."""

    key_fields: tuple[str, ...] = ()
    user_fields: dict[str, str] = {}

    def get_queryset(self, request):
        queryset = super().get_queryset(request)  # type: ignore[misc]
        for field in self.key_fields:
            queryset = queryset.annotate(**account_fields(field, self.user_fields.get(field)))
        return queryset

    def get_search_results(self, request, queryset, search_term):
        found, duplicates = super().get_search_results(request, queryset, search_term)  # type: ignore[misc]
        term = search_term.strip() if search_term else ""
        if term and self.key_fields:
            prefix = tag_prefix(term)
            keys = keys_tagged(queryset.model, self.key_fields, prefix) if prefix else set()
            keys |= keys_of_accounts(Q(username__icontains=term))
            if keys:
                found = found | queryset.filter(of_people(self.key_fields, keys))
        return found, duplicates
