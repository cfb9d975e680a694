"""Shared test settings: no bot pause, fast hashing, and the in-memory channel layer."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_settings(settings):
    settings.SEVN_BOT_DELAY_MS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"},
        "local": {"BACKEND": "channels.layers.InMemoryChannelLayer"},
    }


@pytest.fixture(autouse=True)
def _fresh_limits():
    """Per-process counters of game.core.limits start empty for every test (and the cache's counts)."""
    from django.core.cache import cache

    from game.core import limits

    limits._penalised_until.clear()
    limits._sockets_by_address.clear()
    cache.clear()
    yield


@pytest.fixture
def rulebook(db):
    """The rulebook prose as the data migration writes it (a transactional test before this one
    may have flushed the tables)."""
    from rules.content.load import fill_models, fill_sevens
    from rules.models import Blurb, DemoStep, EdgeCase, GlossaryEntry, Section

    fill_models(Section, Blurb, DemoStep, EdgeCase, GlossaryEntry)
    fill_sevens(Section, Blurb)


def pytest_configure(config):
    """A test database file left by an earlier run may have its WAL files beside it; a fresh
    database next to an old WAL file reads as corrupt, so start from nothing."""
    from django.conf import settings

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    if name and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        from pathlib import Path

        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)
