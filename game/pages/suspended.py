"""The page a suspended person reads, instead of allauth's "This account is inactive": why,
until when, and how to appeal. It answers at allauth's own address for it (sevn_site.urls puts it first),
where allauth sends a suspended person who tries to log in (AccountAdapter remembers who), and
where a session the suspension ended is sent (game.core.identity.forget_ended_account remembers
whose)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve

from game.core.identity import ENDED_KEY, ENDED_UNREAD_KEY, forget_ended_account, known_player
from game.services import accounts


def account_suspended(request: HttpRequest) -> HttpResponse:
    known_player(request.session, request.user)  # a session held by the account forgets it here
    request.session.pop(ENDED_UNREAD_KEY, None)  # read: later pages are the site's own again
    suspension = accounts.suspension_of(request.session.get(ENDED_KEY))
    return render(
        request,
        "accounts/suspended.html",
        {"suspension": suspension, "appeal_email": settings.SEVN_APPEAL_EMAIL},
    )


class EndedAccountMiddleware:
    """A session whose account was suspended while it was signed in: on its first request after,
    the account's player key leaves it (whatever the request), and the next page it opens is
    this one, once, so that its person learns why. Only a page the browser navigates to is sent
    there: a fetch, an htmx swap or a socket that came first (the table's socket closing with
    the suspension, then its page's requests) does not use the "once" up."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        session = getattr(request, "session", None)
        user = getattr(request, "user", None)
        if session is not None and not (user is not None and user.is_authenticated):
            forget_ended_account(session)
            if session.get(ENDED_UNREAD_KEY) and _is_navigation(request):
                if accounts.suspension_of(session.get(ENDED_KEY)) is not None:
                    return redirect("account_suspended")
                session.pop(ENDED_UNREAD_KEY, None)  # reinstated meanwhile: nothing to read
        return self.get_response(request)


def _is_navigation(request: HttpRequest) -> bool:
    """A page opened as a page: a GET that is not htmx's and, where the browser says
    (Sec-Fetch-Mode), a navigation rather than a script's fetch."""
    if request.method != "GET" or request.headers.get("HX-Request"):
        return False
    try:
        if resolve(request.path_info).url_name == "account_suspended":
            return False
    except Resolver404:
        pass
    return request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate"


def no_such_page(request: HttpRequest) -> HttpResponse:
    """A page of allauth's the site does not offer (sevn_site.urls says which, and why)."""
    raise Http404
