"""Django's PostgreSQL backend, with the pool's check of a connection before it is handed out
skipped for one that was in use a moment ago (settings.py names this backend).

psycopg's own check is a round trip to PostgreSQL on every hand-out: on a busy server that is one
more round trip for every move, for connections that answered a few milliseconds before. A
connection that has been idle RECHECK_AFTER or longer (the only kind a PostgreSQL restart leaves
dead without anybody noticing) is still checked, and so is one whose socket has something to
read (PostgreSQL ending it says so, and a closed socket reads its end): a look at the socket, no
round trip.
"""

from __future__ import annotations

import select
import time
import weakref

from django.db.backends.postgresql import base

RECHECK_AFTER = 2.0  # seconds

_returned: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def returned(connection) -> None:
    """The pool's `reset` callback: the moment the connection came back."""
    _returned[connection] = time.monotonic()


def check(connection) -> None:
    """The pool's `check` callback: psycopg's check, unless the connection was in use just now."""
    from psycopg_pool import ConnectionPool

    came_back = _returned.get(connection)
    if came_back is not None and time.monotonic() - came_back < RECHECK_AFTER and not _said_something(connection):
        return
    ConnectionPool.check_connection(connection)


def _said_something(connection) -> bool:
    """Whether an idle connection's socket has anything to read (no round trip): PostgreSQL says
    nothing to an idle connection unless it is ending it (a restart, an administrator ending it)
    or the connection is gone (end of file)."""
    try:
        readable, _, _ = select.select([connection.fileno()], [], [], 0)
    except (OSError, ValueError):  # closed already
        return True
    return bool(readable)


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's, but its pool (when OPTIONS has one) checks connections with `check` above and
    notes their return with `returned` (Django passes psycopg's check, or none, itself)."""

    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        if options and self.alias not in self._connection_pools:
            from psycopg_pool import ConnectionPool

            connect = self.get_connection_params()
            connect["autocommit"] = True  # as Django's: it sets the mode itself later on
            pool = ConnectionPool(
                kwargs=connect,
                open=False,
                configure=self._configure_connection,
                check=check,
                reset=returned,
                **({} if options is True else options),
            )
            self._connection_pools.setdefault(self.alias, pool)
        return super().pool
