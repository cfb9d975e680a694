"""Redis away (a restart, a crash): said once in the log, not traced at every attempt.

Every caller of Redis (the shared cache's counters, the channel layer, the relay of table
updates) reports here what happened to its call. The first failure logs one warning, "Redis is
down", and later ones nothing until a call succeeds again, which logs "Redis is back" (with how
long it was away). Meanwhile `skipping()` tells callers that may go without Redis (the limits'
counters, the relay's re-joins) to skip it, trying again at most every RETRY_SECONDS, so that
nothing waits on connection timeouts while the tables go on from the database.
"""

from __future__ import annotations

import logging
import threading
import time

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("game.redis")

# What a call to an unreachable Redis raises (redis-py's own errors, and the socket's).
CACHE_DOWN = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)
RETRY_SECONDS = 1.0

_lock = threading.Lock()
_down_since: float | None = None
_last_try = 0.0


def down(what: str, error: BaseException | None = None) -> None:
    """A call to Redis failed because Redis is unreachable."""
    global _down_since, _last_try
    with _lock:
        _last_try = time.monotonic()
        if _down_since is not None:
            return
        _down_since = _last_try
    logger.warning("Redis is down (%s: %s); tables go on from the database until it is back", what, error)


def up(what: str = "") -> None:
    """A call to Redis succeeded."""
    global _down_since
    if _down_since is None:  # the usual case: no lock
        return
    with _lock:
        since, _down_since = _down_since, None
    if since is not None:
        logger.warning("Redis is back (%s) after %.1f s", what, time.monotonic() - since)


def is_down() -> bool:
    return _down_since is not None


def skipping() -> bool:
    """True while Redis is down and it was tried less than RETRY_SECONDS ago (then the caller
    goes without it); False when it is up or due another try."""
    global _last_try
    if _down_since is None:
        return False
    with _lock:
        now = time.monotonic()
        if now - _last_try < RETRY_SECONDS:
            return True
        _last_try = now
        return False


def reset() -> None:
    """Forget any outage (tests)."""
    global _down_since, _last_try
    with _lock:
        _down_since, _last_try = None, 0.0
