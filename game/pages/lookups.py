"""Table codes are the only key to a table: every look-up that tells whether a code exists counts here."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from game.core.limits import client_address, is_limited, over_limit


def lookups_exhausted(request: HttpRequest) -> HttpResponse | None:
    """Table codes are the only key to a table: guessing them is throttled per address."""
    if is_limited("lookup", client_address(request.META), settings.SEVN_LOOKUPS_PER_MINUTE, 60):
        response = HttpResponse(gettext("Too many tables looked up: wait a minute and try again."), status=429)
        response["Retry-After"] = "60"
        return response
    return None


def lookup_missed(request: HttpRequest) -> None:
    over_limit("lookup", client_address(request.META), settings.SEVN_LOOKUPS_PER_MINUTE, 60)
