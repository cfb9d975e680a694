"""Who is asking: a guest key kept in the session, or a logged-in user."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field
from functools import lru_cache

from django.conf import settings
from django.contrib import auth
from django.core import signing

SESSION_KEY = "sevn_player"
NICKNAME_KEY = "sevn_nickname"
ACCOUNT_KEY = "sevn_account"  # [user id, the account's player key], set at log-in (game.accounts.signals)
ENDED_KEY = "sevn_account_ended"  # the user id of the account this session held until it was suspended
# Set with ENDED_KEY; the page that says why clears it (game.pages.suspended): until then, the
# next page this browser opens is that one, whatever requests (a fetch, htmx, a socket) came first.
ENDED_UNREAD_KEY = "sevn_account_ended_unread"
TRACES_ATTRIBUTE = "sevn_traces"  # on a page's session: the browser's Traces (game.pages.marks)


@dataclass(frozen=True)
class Traces:
    """What a browser shows of who used it, beyond its session: the tags of the player keys it
    played under (its long-lived signed mark, which a log-out does not clear) and the address it
    comes from. A ban refuses tables to whoever comes back with these (services.chat)."""

    marks: frozenset[str] = frozenset()
    address: str | None = None


NO_TRACES = Traces()
MARK_COOKIE = "sevn_mark"  # the browser's mark: the tags of the keys it played under (game.pages.marks)
MARK_SALT = "sevn.browser-mark"
MARK_AGE = 2 * 365 * 24 * 3600  # seconds: as long as a browser keeps it


def marks_in(cookie: str | None) -> list[str]:
    """The tags a browser's mark names, oldest first ([] for none, or for one not signed here:
    a mark cannot be made to name someone else)."""
    if not cookie:
        return []
    try:
        value = signing.TimestampSigner(salt=MARK_SALT).unsign(cookie, max_age=MARK_AGE)
    except signing.BadSignature:
        return []
    return [part for part in value.split("-") if part]


def mark_cookie(tags: list[str]) -> str:
    """The browser's mark naming these tags, signed (marks_in reads it)."""
    return signing.TimestampSigner(salt=MARK_SALT).sign("-".join(tags))  # hex tags: nothing to quote


def with_traces(session, traces: Traces) -> None:
    """What the browser shows of who used it, for every Player made from this session."""
    if session is not None:
        setattr(session, TRACES_ATTRIBUTE, traces)


@dataclass(frozen=True)
class Player:
    """The person behind a request or a socket. `key` is server-side only, never rendered."""

    key: str
    user_id: int | None = None
    username: str = ""
    traces: Traces = field(default=NO_TRACES, compare=False, repr=False)

    @property
    def is_user(self) -> bool:
        return self.user_id is not None


@lru_cache(maxsize=4096)
def tag(key: str | None) -> str:
    """A player key as snapshots and broadcasts carry it: an HMAC of the key, enough to tell
    who is who at a table and useless to act as them ("" for nobody)."""
    if not key:
        return ""
    return hmac.new(settings.SECRET_KEY.encode(), key.encode(), hashlib.sha256).hexdigest()[:24]


def _traces(session) -> Traces:
    return getattr(session, TRACES_ATTRIBUTE, None) or NO_TRACES


def account_player(session, user) -> Player:
    """A signed-in person: the player key of their account (the guest key they signed up with,
    which the session learnt when they logged in), else one made of their id."""
    kept = session.get(ACCOUNT_KEY) if session is not None else None
    key = kept[1] if isinstance(kept, list) and len(kept) == 2 and kept[0] == user.pk else f"user:{user.pk}"
    return Player(key=key, user_id=user.pk, username=user.get_username()[:20], traces=_traces(session))


def forget_ended_account(session) -> bool:
    """A session that held an account its user is no longer signed in to (Django's auth lets no
    suspended account in, and a log-out empties the session): the account's player key goes from
    it, so that it acts as that player nowhere (a page makes it a new guest, a socket a
    spectator); the account is remembered only to say why (game.pages.suspended). True if
    the session held one."""
    kept = session.get(ACCOUNT_KEY) if session is not None else None
    if not kept:
        return False
    del session[ACCOUNT_KEY]
    for signed_in in (auth.SESSION_KEY, auth.BACKEND_SESSION_KEY, auth.HASH_SESSION_KEY):
        session.pop(signed_in, None)  # ended for good: a reinstatement does not sign it in again
    if isinstance(kept, list) and len(kept) == 2:
        if session.get(SESSION_KEY) == kept[1]:
            del session[SESSION_KEY]
        session[ENDED_KEY] = kept[0]
        session[ENDED_UNREAD_KEY] = True
    return True


def player_for(session, user) -> Player:
    """The player of this session, creating the guest key on first use."""
    if user is not None and user.is_authenticated:
        return account_player(session, user)
    forget_ended_account(session)
    key = session.get(SESSION_KEY)
    if not key:
        key = "guest:" + secrets.token_urlsafe(18)
        session[SESSION_KEY] = key
    return Player(key=key, traces=_traces(session))


def known_player(session, user) -> Player | None:
    """The player of this session if it has one already (sockets never create sessions)."""
    if user is not None and user.is_authenticated:
        return account_player(session, user)
    forget_ended_account(session)
    key = session.get(SESSION_KEY) if session is not None else None
    return Player(key=key, traces=_traces(session)) if key else None


STAFF_TAG_LENGTH = 6


def staff_tag(key: str | None) -> str:
    """How staff pages name a person: a short tag of their key ("guest·3f9a1c", "user·07b2e4"),
    the same everywhere in admin and searchable, never the key itself (a guest's key is what
    their session holds: whoever read it could act as them)."""
    if not key:
        return ""
    kind = "user" if key.startswith("user:") else "guest"
    return f"{kind}·{tag(key)[:STAFF_TAG_LENGTH]}"


def tag_prefix(text: str) -> str | None:
    """The hex part of a staff tag someone typed ("guest·3f9a1c", "3f9a1c", "user-07b2e4"), or
    None if it is not one."""
    found = re.fullmatch(rf"(?:(?:guest|user)\W?)?([0-9a-f]{{{STAFF_TAG_LENGTH},24}})", text.strip().lower())
    return found.group(1) if found else None
