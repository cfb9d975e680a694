"""Requests that carry a NUL character are refused with 400 before any view sees them.

No name, code, nickname or search a person types holds a NUL, so one can only come from a
hand-made request, and it breaks what is below: PostgreSQL refuses it in any string it is sent
(a lookup became a 500), SQLite ends the string there (`/u/ana%00/` answered as ana's profile),
and a file look-up refuses it. One check here covers every route, the admin's searches included:
the path, the query string's names and values, and a form's names and values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils import translation
from django.utils.translation import gettext

NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _holds_nul(pairs: Iterable[tuple[str, list]]) -> bool:
    return any(NUL in name or any(NUL in str(value) for value in values) for name, values in pairs)


def carries_nul(request: HttpRequest) -> bool:
    """Whether the path, the query or a posted form holds a NUL character."""
    if NUL in request.path_info or NUL in request.path or _holds_nul(request.GET.lists()):
        return True
    if request.method == "POST" and request.content_type in FORM_TYPES:
        return _holds_nul(request.POST.lists())
    return False


class RefuseNulMiddleware:
    """Answers 400, in the language the path names (the site's default otherwise), to a request
    that carries a NUL; it runs before the static files' look-up and every view."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not carries_nul(request):
            return self.get_response(request)
        language = translation.get_language_from_path(request.path_info) or settings.LANGUAGE_CODE
        with translation.override(language):
            text = gettext("This request holds a character that no address or form may hold (a NUL byte).")
        return HttpResponseBadRequest(text, content_type="text/plain; charset=utf-8")
