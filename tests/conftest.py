"""Shared test settings: no bot pause, fast hashing, and the in-memory channel layer."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_settings(settings):
    settings.SEVN_BOT_DELAY_MS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def pytest_configure(config):
    """A test database file left by an earlier run may have its WAL files beside it; a fresh
    database next to an old WAL file reads as corrupt, so start from nothing."""
    from django.conf import settings

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    if name and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        from pathlib import Path

        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)
