"""The page a suspended person reads, instead of allauth's "This account is inactive": why,
until when, and how to appeal. It answers at allauth's own address for it (sevn_site.urls puts it first),
where allauth sends a suspended person who tries to log in (AccountAdapter remembers who), and
where a session the suspension ended is sent (game.core.identity.forget_ended_account remembers
whose)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from game.core.identity import ENDED_KEY, forget_ended_account, known_player
from game.services import accounts


def account_suspended(request: HttpRequest) -> HttpResponse:
    known_player(request.session, request.user)  # a session held by the account forgets it here
    suspension = accounts.suspension_of(request.session.get(ENDED_KEY))
    return render(
        request,
        "accounts/suspended.html",
        {"suspension": suspension, "appeal_email": settings.SEVN_APPEAL_EMAIL},
    )


class EndedAccountMiddleware:
    """A session whose account was suspended while it was signed in: on its first request after,
    the account's player key leaves it (whatever the page), and a page it opens is this one,
    once, so that its person learns why."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        session = getattr(request, "session", None)
        user = getattr(request, "user", None)
        if session is not None and not (user is not None and user.is_authenticated):
            if forget_ended_account(session) and request.method == "GET" and not request.headers.get("HX-Request"):
                if accounts.suspension_of(session.get(ENDED_KEY)) is not None:
                    return redirect("account_suspended")
        return self.get_response(request)


def no_such_page(request: HttpRequest) -> HttpResponse:
    """A page of allauth's the site does not offer (sevn_site.urls says which, and why)."""
    raise Http404
