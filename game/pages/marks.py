"""The browser's mark: a long-lived signed cookie with the tags of the player keys the browser
played under, which a log-out (that empties the session) does not clear.

A person banned from tables who logs out, or whose guest session ends, comes back from the same
browser as a new guest; the mark still names the key that was banned, and the ban holds for
them (game.services.chat.active_sanction). The cookie holds tags, never keys (a tag names a
key and is useless to act as it: game.core.identity.tag), signed so that it cannot be made to
name someone else. Clearing cookies, another browser or another device: README, "What a ban can
and cannot stop".

The same middleware remembers the address each player last came from (the shared cache, for
ADDRESS_KEPT), so that a ban can hold for that address while it lasts (services.moderation).
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from game.core.identity import MARK_AGE, MARK_COOKIE, SESSION_KEY, Traces, mark_cookie, marks_in, tag, with_traces
from game.runtime.proxy import client_address
from game.services.moderation import ADDRESS_KEPT, seen_address_key

MARKS_KEPT = 8  # the most recent keys a browser played under (a family's shared computer)
SEEN_ADDRESS = "sevn_seen_address"  # in the session: [its key, the address last recorded for it]


def read_marks(request) -> list[str]:
    """The tags the browser's mark names, oldest first ([] if it has none, or a forged one)."""
    return marks_in(request.COOKIES.get(MARK_COOKIE))[-MARKS_KEPT:]


class BrowserMarkMiddleware:
    """After the session and auth middleware: the traces on the request's session for the
    identity layer (every page's Player carries them), and afterwards the mark made to name the
    key the session plays under."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        marks = read_marks(request)
        address = client_address(request.META)
        session = getattr(request, "session", None)
        with_traces(session, Traces(frozenset(marks), address))
        response = self.get_response(request)
        key = session.get(SESSION_KEY) if session is not None else None
        if not key:
            return response
        if session.get(SEEN_ADDRESS) != [key, address]:  # written when either changes, not every page
            session[SEEN_ADDRESS] = [key, address]
            cache.set(seen_address_key(key), address, ADDRESS_KEPT)
        mine = tag(key)
        if not marks or marks[-1] != mine:
            marks = [mark for mark in marks if mark != mine][-(MARKS_KEPT - 1) :] + [mine]
            response.set_cookie(
                MARK_COOKIE,
                mark_cookie(marks),
                max_age=MARK_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
