"""Limits on what one client may ask of the server, so that nobody can slow other tables.

- A socket's messages: a token bucket (a steady rate with a short burst). Messages over it are
  dropped unread, with one "slow down" notice; a socket that keeps flooding is closed.
- A client's sockets: at most so many at once per address, per process; a signed-in page's own
  socket (/ws/me/) per address and per account too.
- Lookups, logins and new tables over HTTP: a count per address (and per person) in a window,
  kept in the shared cache so that every process counts together.
"""

from __future__ import annotations

import time
from collections import Counter

from django.conf import settings
from django.core.cache import cache

from game.core import identity
from game.runtime import outage, proxy
from game.runtime.outage import CACHE_DOWN


class MessageBudget:
    """One socket's allowance: `rate` messages a second, up to `burst` at once. A socket that
    has `close_after` messages dropped within FLOOD_WINDOW seconds is flooding."""

    FLOOD_WINDOW = 10.0

    def __init__(self, rate: float, burst: int, close_after: int, clock=time.monotonic) -> None:
        self.rate, self.burst, self.close_after, self.clock = rate, burst, close_after, clock
        self.tokens = float(burst)
        self.stamp = clock()
        self.window, self.dropped = self.stamp, 0  # drops since the window began
        self.noticed = -1.0

    def take(self) -> bool:
        """True if this message may be handled; False if it is over the allowance (dropped)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refuse(now)
        return False

    def refuse(self, now: float | None = None) -> None:
        """Count a message dropped for another reason than the allowance (its queue is full)."""
        now = self.clock() if now is None else now
        if now - self.window > self.FLOOD_WINDOW:
            self.window, self.dropped = now, 0
        self.dropped += 1

    @property
    def flooding(self) -> bool:
        """So many dropped lately that the socket is closed (a steady flood lets some through
        as the allowance refills: it is the drops that count, not whether they came in a row)."""
        return self.dropped >= self.close_after

    def notice_due(self) -> bool:
        """At most one "slow down" notice a second."""
        now = self.clock()
        if now - self.noticed >= 1.0:
            self.noticed = now
            return True
        return False


def message_budget() -> MessageBudget:
    return MessageBudget(settings.SEVN_SOCKET_RATE, settings.SEVN_SOCKET_BURST, settings.SEVN_SOCKET_CLOSE_AFTER)


_sockets_by_address: Counter[str] = Counter()  # table sockets, by client address
_person_sockets: Counter[tuple[str, str]] = Counter()  # /ws/me/ sockets, by ("address"|"account", key)
_penalised_until: dict[str, float] = {}
PENALTY_SECONDS = 30


def penalise(address: str) -> None:
    """This address flooded a socket: it gets no new socket for a while (this process)."""
    _penalised_until[address] = time.monotonic() + PENALTY_SECONDS
    if len(_penalised_until) > 10_000:
        now = time.monotonic()
        for key in [key for key, until in _penalised_until.items() if until < now]:
            del _penalised_until[key]


def penalised(address: str) -> bool:
    until = _penalised_until.get(address)
    return until is not None and until > time.monotonic()


def socket_opened(address: str) -> bool:
    """Count a new table socket from `address`; False (and not counted) if it has too many already."""
    if _sockets_by_address[address] >= settings.SEVN_MAX_SOCKETS_PER_ADDRESS:
        return False
    _sockets_by_address[address] += 1
    return True


def socket_closed(address: str) -> None:
    _sockets_by_address[address] -= 1
    if _sockets_by_address[address] <= 0:
        del _sockets_by_address[address]


def person_socket_opened(address: str, account: str) -> bool:
    """Count a signed-in page's own socket (/ws/me/, game.live.people) from `address` for
    `account`; False (and not counted) if either has too many open already. Each costs its
    process a consumer and a group membership for as long as it stays open: without a cap one
    account opened thousands, and one address could as well through many accounts."""
    by_address, by_account = ("address", address), ("account", account)
    if (
        _person_sockets[by_address] >= settings.SEVN_MAX_SOCKETS_PER_ADDRESS
        or _person_sockets[by_account] >= settings.SEVN_MAX_PERSON_SOCKETS
    ):
        return False
    _person_sockets[by_address] += 1
    _person_sockets[by_account] += 1
    return True


def person_socket_closed(address: str, account: str) -> None:
    for key in (("address", address), ("account", account)):
        _person_sockets[key] -= 1
        if _person_sockets[key] <= 0:
            del _person_sockets[key]


def client_address(scope_or_meta: dict) -> str:
    """The client's address, from a socket's scope or a page's META (game.runtime.proxy: a forwarded
    address counts only from a trusted proxy)."""
    return proxy.client_address(scope_or_meta)


def _keys(kind: str, address: str, window: int) -> tuple[str, str, float]:
    """This window's and the previous window's counter, and how far into this window we are."""
    now = time.time()
    number = int(now) // window
    key = f"sevn:limit:{kind}:{address}:"
    return f"{key}{number}", f"{key}{number - 1}", (now - number * window) / window


def _estimate(current: int, previous: int, into: float) -> float:
    """Requests in the last `window` seconds (a sliding window from two fixed ones: the previous
    window's count weighs what is left of it), so that a window's edge lets no double burst through."""
    return current + previous * (1.0 - into)


def over_limit(kind: str, address: str, limit: int, window: int) -> bool:
    """Count one `kind` request from `address`; True once more than `limit` came in the last
    `window` s. With the shared cache away (Redis down) nothing is counted and nothing refused."""
    key, before, into = _keys(kind, address, window)
    if outage.skipping():
        return False
    try:
        if cache.add(key, 1, timeout=2 * window + 1):
            count = 1
        else:
            try:
                count = cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.add(key, 1, timeout=2 * window + 1)
                count = 1
        previous = cache.get(before) or 0
    except CACHE_DOWN as error:
        outage.down("the shared cache", error)
        return False
    outage.up("the shared cache")
    return _estimate(count, previous, into) > limit


def is_limited(kind: str, address: str, limit: int, window: int) -> bool:
    """True if `address` already made more than `limit` `kind` requests in the last `window` s
    (nothing counted)."""
    key, before, into = _keys(kind, address, window)
    if outage.skipping():
        return False
    try:
        counts = cache.get_many([key, before])
    except CACHE_DOWN as error:
        outage.down("the shared cache", error)
        return False
    outage.up("the shared cache")
    return _estimate(counts.get(key) or 0, counts.get(before) or 0, into) > limit


def lookups_exhausted(address: str) -> bool:
    """True if `address` asked about too many table codes that do not exist this minute: every
    answer that tells whether a code exists (a page, a form, a socket) is refused until then."""
    return is_limited("lookup", address, settings.SEVN_LOOKUPS_PER_MINUTE, 60)


def lookup_missed(address: str) -> None:
    """`address` was told that a table code does not exist."""
    over_limit("lookup", address, settings.SEVN_LOOKUPS_PER_MINUTE, 60)


def tables_exhausted(person: str, address: str | None) -> bool:
    """Count one new table for `person` (and the client `address`, when a page asks); True once
    either opened more than its allowance this hour (SEVN_TABLES_PER_HOUR per person,
    SEVN_TABLES_PER_HOUR_PER_ADDRESS per address, 0: no limit). Every table is rows, a code
    taken and a lobby in every list: one client made 200 in 2.5 s."""
    # counted under the key's tag: a player key is a credential, never written into a cache's key names
    counted = identity.tag(person)
    refused = 0 < settings.SEVN_TABLES_PER_HOUR and over_limit("table", counted, settings.SEVN_TABLES_PER_HOUR, 3600)
    limit = settings.SEVN_TABLES_PER_HOUR_PER_ADDRESS
    if address and limit > 0 and over_limit("table-address", address, limit, 3600):
        refused = True
    return refused


CHAT_MESSAGES, CHAT_WINDOW = 5, 10.0  # a person's chat lines in any CHAT_WINDOW seconds, at every table


def chat_wait(person: str, now: float | None = None) -> float:
    """0 if `person` may send a chat line now (and it is counted), else the seconds until they
    may. Kept in the shared cache: one allowance per person whatever sockets and processes
    their lines arrive on. The allowance is CHAT_MESSAGES slots that each expire CHAT_WINDOW
    seconds after a line took it; a line takes a free one with one atomic add (SET NX), so that
    checking and counting are one step and lines sent at once cannot all find room."""
    now = time.time() if now is None else now
    keys = [f"sevn:chat:{person}:{slot}" for slot in range(CHAT_MESSAGES)]
    if outage.skipping():
        return 0.0
    try:
        for key in keys:
            if cache.add(key, now, timeout=int(CHAT_WINDOW)):
                outage.up("the shared cache")
                return 0.0
        taken = [stamp for stamp in cache.get_many(keys).values() if isinstance(stamp, (int, float))]
    except CACHE_DOWN as error:
        outage.down("the shared cache", error)
        return 0.0
    return max(0.5, min(taken, default=now) + CHAT_WINDOW - now)
