"""Per-viewer HTML of a table, drawn from a snapshot (selectors.snapshot) and the new events.

The same snapshot is drawn differently for each viewer: your own seat at the bottom, controls
only for the seat that must decide, none for spectators. Player keys are used to find "you"
and never reach the HTML.
"""

from __future__ import annotations

from .panels import log_entries, step_label
from .screen import Screen, log_lines, render_error, render_notice, render_table, table_context, table_view

__all__ = [
    "Screen",
    "log_entries",
    "log_lines",
    "render_error",
    "render_notice",
    "render_table",
    "step_label",
    "table_context",
    "table_view",
]
