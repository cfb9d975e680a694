"""What loading the ASGI application does to the process it runs in (sevn_site.asgi)."""

from __future__ import annotations

import gc


def test_the_server_process_freezes_what_it_loaded_and_collects_less_often():
    from sevn_site import asgi

    assert gc.get_freeze_count() > 10_000  # Django, the templates, the translations: out of every pass
    assert gc.get_threshold() == asgi.GC_THRESHOLDS
    young, middle, old = asgi.GC_THRESHOLDS
    assert young > 700 and middle >= 10 and old > 10  # fewer passes than Python's (700, 10, 10)
