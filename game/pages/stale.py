"""A page that outlived the session it was drawn for: its person signed up, logged in or logged
out in another tab. Its forms and htmx requests then carry an old CSRF token (Django rotates the
token at a log-in), or were drawn for an account the browser is no longer signed in to.

The page's script (static/sevn/js/csrf.js) sends the browser's current token with every request,
so the first case is rare; when a request is still refused for its token, `csrf_failure`
(settings.CSRF_FAILURE_VIEW) tells an htmx request so in a header the script reads, with a note
in the page's language; the script then asks `csrf_token` for the current token and sends the
request once more, and shows the note if that fails too. A plain form gets a page that says what
happened, with the way back. `StalePageMiddleware` refuses an htmx request from a page drawn
for another account than the one signed in now (logged out, or into another, elsewhere):
nothing is done as someone else, and the note says to reload. A page drawn for a guest who has
signed up since goes on: the account plays under the guest's key (game.services.accounts)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

PAGE_USER_HEADER = "X-SEVN-Page-User"  # base.html's hx-headers: whom the page was drawn for ("" a guest)


def _note(message: str, reason: str) -> str:
    return render_to_string("table/_stale_note.html", {"message": message, "reason": reason})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Refused for its CSRF token: an htmx request is told so (X-SEVN-CSRF) with a note to show
    if asking again does not help; a plain form's person reads a page saying what happened."""
    message = gettext(
        "This page was out of date (you signed up, logged in or logged out in another tab), so nothing was done: "
        "reload it and try again."
    )
    if request.headers.get("HX-Request"):
        return HttpResponse(_note(message, "csrf"), status=403, headers={"X-SEVN-CSRF": "refused"})
    back = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = ""
    return render(request, "stale_page.html", {"message": message, "back": back}, status=403)


@never_cache
@require_GET
def csrf_token(request: HttpRequest) -> JsonResponse:
    """The browser's current CSRF token (its cookie is set again with it): for a page whose copy
    was refused. Another site's page cannot read the answer (no CORS), so it learns nothing."""
    return JsonResponse({"token": get_token(request)})


class StalePageMiddleware:
    """An htmx request from a page drawn for an account the browser is no longer signed in to."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        drawn_for = request.headers.get(PAGE_USER_HEADER, "")
        if drawn_for and request.method == "POST" and request.headers.get("HX-Request"):
            user = getattr(request, "user", None)
            now = str(user.pk) if user is not None and user.is_authenticated else ""
            if now != drawn_for:
                message = gettext(
                    "You logged out or changed accounts in another tab, so nothing was done: reload this page to go on."
                )
                return HttpResponse(_note(message, "stale_page"), status=403, headers={"X-SEVN-Stale": "account"})
        return self.get_response(request)
