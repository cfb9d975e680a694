"""Shared test settings: no bot pause, fast hashing, and the in-memory channel layer."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_settings(settings):
    settings.SEVN_BOT_DELAY_MS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
