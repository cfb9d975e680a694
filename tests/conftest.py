"""Shared test settings: no bot pause, fast hashing, and the in-memory channel layer; how the
suite is shared between pytest-xdist's workers."""

from __future__ import annotations

import pytest

# Folders whose tests run on one xdist worker, one after another: the scale-out tests share the
# PostgreSQL and Redis on their usual ports (test_redis_layer counts the whole Redis server's
# commands) and build module-scoped stacks that a split module would build twice.
ONE_WORKER = ("tests/scaleout/",)


@pytest.fixture(autouse=True)
def _fast_settings(settings):
    settings.SEVN_BOT_DELAY_MS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"},
        "local": {"BACKEND": "game.delivery.channel_layer.LocalChannelLayer"},
    }


@pytest.fixture(autouse=True)
def _fresh_limits():
    """Per-process counters of game.core.limits and game.core.capacity start empty for every test
    (and the cache's counts)."""
    from django.core.cache import cache

    from game.core import capacity, limits

    limits._penalised_until.clear()
    limits._sockets_by_address.clear()
    limits._person_sockets.clear()
    capacity._open, capacity._connecting, capacity._delay = 0, 0, 0.0
    capacity._turned_away, capacity._full_said = 0, False
    cache.clear()
    yield


@pytest.fixture
def rulebook(db):
    """The rulebook prose as the data migration writes it (a transactional test before this one
    may have flushed the tables)."""
    from rules.content.load import fill_models
    from rules.models import Blurb, DemoStep, EdgeCase, GlossaryEntry, Section

    fill_models(Section, Blurb, DemoStep, EdgeCase, GlossaryEntry)


def pytest_configure(config):
    """A test database file left by an earlier run may have its WAL files beside it; a fresh
    database next to an old WAL file reads as corrupt, so start from nothing. Each xdist worker
    has its own file (pytest-django appends the worker's id, test-db.sqlite3_gw0) and clears it."""
    from django.conf import settings

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    worker = getattr(config, "workerinput", {}).get("workerid")
    if name and worker:
        name = f"{name}_{worker}"
    if name and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        from pathlib import Path

        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup` (pyproject.toml) with each ONE_WORKER folder as one group. pytest-xdist
    3.8 names a test's group in its node id, which pytest 9.2 no longer lets it change, so an
    xdist_group mark is lost (pytest-xdist issue 1386): the scheduler groups by path instead.
    Every other test is scheduled alone, in collection order, so each worker still runs its
    browser tests after all its others (tests/browser/conftest.py sorts them last)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class FolderGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            folder = next((folder for folder in ONE_WORKER if nodeid.startswith(folder)), None)
            return folder or super()._split_scope(nodeid)

    return FolderGroups(config, log)


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts and ends in the site's default language. A page asked for through the
    test client leaves its language active on the thread (LocaleMiddleware activates it; nothing
    resets it), and the next test on that worker read its messages in German or Polish: which
    test came next depended on how xdist shared them out."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
