"""The pool's check before handing out a connection: a round trip only for one that sat idle."""

from __future__ import annotations

import os

import pytest

psycopg_pool = pytest.importorskip("psycopg_pool")

from sevn_site.postgresql import base  # noqa: E402


class Connection:
    """Stands for a psycopg connection: hashable, weakly held, with a socket (a pipe here) that
    the server may have written to."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()

    def fileno(self) -> int:
        return self.read_end

    def ended_by_the_server(self) -> None:
        os.write(self.write_end, b"E")


def test_a_connection_back_a_moment_ago_is_handed_out_unchecked_and_an_idle_one_is_checked(monkeypatch):
    checked = []
    monkeypatch.setattr(psycopg_pool.ConnectionPool, "check_connection", staticmethod(checked.append))
    clock = [100.0]
    monkeypatch.setattr(base.time, "monotonic", lambda: clock[0])
    fresh, idle, new, ended = Connection(), Connection(), Connection(), Connection()
    base.returned(fresh)
    base.returned(idle)
    clock[0] += 1.0
    base.returned(fresh)  # in use again, back now
    base.returned(ended)
    ended.ended_by_the_server()  # PostgreSQL restarting: it says so to every connection
    clock[0] += base.RECHECK_AFTER - 0.5
    for connection in (fresh, idle, new, ended):
        base.check(connection)
    # idle for RECHECK_AFTER and more, never seen back, or told something by the server
    assert checked == [idle, new, ended]


def test_the_backend_s_pool_uses_the_check(settings):
    wrapper = base.DatabaseWrapper(
        {
            **settings.DATABASES["default"],
            "ENGINE": "sevn_site.postgresql",
            "NAME": "nowhere",
            "USER": "",
            "PASSWORD": "",
            "HOST": "127.0.0.1",
            "PORT": "1",
            "OPTIONS": {"pool": {"min_size": 0, "max_size": 1}},
            "CONN_MAX_AGE": 0,
            "CONN_HEALTH_CHECKS": False,
            "TIME_ZONE": None,
            "AUTOCOMMIT": True,
            "ATOMIC_REQUESTS": False,
        },
        alias="pool-check-test",
    )
    pool = wrapper.pool  # not opened: nothing connects
    assert pool._check is base.check and pool._reset is base.returned
    wrapper._connection_pools.pop("pool-check-test", None)
