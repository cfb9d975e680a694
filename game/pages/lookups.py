"""Table codes are the only key to a table: every answer that tells whether a code exists (the
table page, the find form, any form posted to a table, the table socket: game.live.consumers)
counts against one limit per address (game.runtime.limits.lookups_exhausted), and past it every such
answer is refused alike, whether the code exists or not."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from game.core.errors import ServiceError
from game.runtime import limits


def lookups_exhausted(request: HttpRequest) -> HttpResponse | None:
    """A 429 if this address asked about too many unknown codes this minute, else None."""
    if limits.lookups_exhausted(limits.client_address(request.META)):
        response = HttpResponse(gettext("Too many tables looked up: wait a minute and try again."), status=429)
        response["Retry-After"] = "60"
        return response
    return None


def lookup_missed(request: HttpRequest) -> None:
    limits.lookup_missed(limits.client_address(request.META))


def count_refusal(request: HttpRequest, error: ServiceError) -> None:
    """A form posted to a table was refused; if because the code exists not, that was a look-up."""
    if error.code == "unknown_table":
        lookup_missed(request)


TABLE_PAGES = ("game.pages.",)  # the modules whose views answer under a table's code


class TableLookupMiddleware:
    """Every page under a table's code (/t/<code>/…: the page, its forms, the fair-deal seed,
    inviting a friend, playing again, the invite link) is
    refused past the look-up limit, before the view can tell whether the table exists."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if "code" not in view_kwargs or not view_func.__module__.startswith(TABLE_PAGES):
            return None
        return lookups_exhausted(request)
