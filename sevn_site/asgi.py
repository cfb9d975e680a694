"""ASGI entry point: HTTP through Django, WebSockets through Channels, and the timer loop."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sevn_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from game.live import timers, transport  # noqa: E402
from game.live.admission import TurnAwayWhenFull  # noqa: E402
from game.live.nul_bytes import RefuseNul  # noqa: E402
from game.live.origins import SameOriginValidator  # noqa: E402
from game.live.routing import websocket_urlpatterns  # noqa: E402
from game.runtime import stages  # noqa: E402
from sevn_site import bodies  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # a NUL in the address is refused first (game.live.nul_bytes), then a full process turns
        # a new table socket away before anything else (game.live.admission)
        "websocket": RefuseNul(
            TurnAwayWhenFull(SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))))
        ),
    }
)

bodies.install()  # a body over its limit is refused before Daphne reads it into memory
transport.install()
stages.install()
timers.start_with_server(deadlines=os.environ.get("SEVN_TIMERS", "on") != "off")

# Everything loaded so far (Django, templates, translations) lives as long as the process: keep
# it out of the collector's full passes, which otherwise pause every table at once (a full
# pass measured 59 ms before, 15 ms after, in bench/table_latency.py's one-table games).
gc.collect()  # garbage is not frozen
gc.freeze()
# And collect less often. Every screen keeps the table it shows and drops it at the next move, so
# objects outlive a young pass at a steady rate and Python's defaults (700, 10, 10) start a pass
# about every 20 moves at 250 tables, a full one often enough to cost 0.27-0.30 ms a move. At
# (5000, 20, 100) the collector takes 0.07-0.09 ms a move and Daphne about 4 % less in all, with
# the processes' memory as it was (about 150 MB each at 250 tables; bench/README.md). Nearly all
# garbage here is freed by reference counting the moment it is dropped: only cycles wait.
GC_THRESHOLDS = (5000, 20, 100)
gc.set_threshold(*GC_THRESHOLDS)
