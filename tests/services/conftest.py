"""The push service stands on this machine (deploy/push_receiver.py): the site may post to it."""

from __future__ import annotations

import pytest

from deploy.push_receiver import Receiver


@pytest.fixture
def receiver(settings):
    settings.SEVN_PUSH_HOSTS = ["127.0.0.1"]
    settings.SEVN_PUSH_ALLOW_HTTP = True
    with Receiver() as running:
        yield running
