from __future__ import annotations

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english():
    """Refusals are read in English here (another test may have left its language active)."""
    with translation.override("en"):
        yield
