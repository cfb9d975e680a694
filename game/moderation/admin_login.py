"""Signing in to admin, throttled as the game's login is, per address and per account, and
refused cheaply: past the limit a try is answered from the shared cache's counters
(game.runtime.limits) before any password is hashed. A try that reaches Django's login is checked by
both authentication backends, two PBKDF2 hashes of 1,000,000 rounds: about 0.5 s of CPU here,
against 1-1.4 ms for a whole refused request (bench/handwritten_ab.py); unthrottled tries from
one address slowed every table of the process.

Why not allauth's own protection (allauth.account.decorators.secure_admin_login): it sends admin's
log-in to the site's, where ACCOUNT_EMAIL_VERIFICATION="mandatory" (the default here) holds staff
too: a superuser made by `createsuperuser` must confirm an e-mail address first, and one made
without an address cannot sign in at all (both are sent to /accounts/confirm-email/). allauth also
refuses before hashing (its adapter's pre_authenticate), but the rate limit it offers others,
allauth.core.ratelimit.consume, is marked for deprecation in its own docstring and counts every
try, with no way to take back one that succeeded; here only failed tries count, on the counters
every other limit of the site uses."""

from __future__ import annotations

import hashlib
from functools import wraps

from django.conf import settings
from django.contrib.admin import AdminSite
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from game.runtime.limits import client_address, is_limited, over_limit

WINDOW = 60


def _account(request: HttpRequest) -> str:
    """The account a try names, as a short digest (any text may arrive; the key stays small)."""
    name = str(request.POST.get("username", "")).strip().lower()
    return hashlib.sha256(name.encode()).hexdigest()[:20] if name else ""


def refused(request: HttpRequest) -> bool:
    """True if this address, or the account it names, failed too often in this minute."""
    limit, account = settings.SEVN_LOGINS_PER_MINUTE, _account(request)
    return is_limited("admin-login", client_address(request.META), limit, WINDOW) or bool(
        account and is_limited("admin-account", account, limit, WINDOW)
    )


def failed(request: HttpRequest) -> None:
    limit, account = settings.SEVN_LOGINS_PER_MINUTE, _account(request)
    over_limit("admin-login", client_address(request.META), limit, WINDOW)
    if account:
        over_limit("admin-account", account, limit, WINDOW)


def throttled(login):
    """Admin's login view, with failed tries counted and, past the limit, refused (429)."""

    @wraps(login)
    def view(request: HttpRequest, extra_context=None) -> HttpResponse:
        if request.method != "POST":
            return login(request, extra_context)
        if refused(request):
            response = HttpResponse(gettext("Too many failed logins: wait a minute and try again."), status=429)
            response["Retry-After"] = str(WINDOW)
            return response
        response = login(request, extra_context)
        if response.status_code != 302:  # signed in, admin redirects; anything else failed
            failed(request)
        return response

    return view


def install(site: AdminSite) -> None:
    """Put the throttle in front of `site`'s login (before its URLs are made)."""
    if not getattr(site.login, "throttled", False):
        site.login = throttled(site.login)  # type: ignore[method-assign]
        site.login.throttled = True  # type: ignore[attr-defined]
