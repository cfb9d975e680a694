"""The table screen: per-viewer HTML of a table, drawn from a snapshot (services.table_reads.snapshot)
and the new events, with its log and its chat.

The same snapshot is drawn differently for each viewer: your own seat at the bottom, controls
only for the seat that must decide, none for spectators. Player keys are used to find "you"
and never reach the HTML. What a game draws is its Kind's (game.registry); what every table
has around it (the lobby, the log, the chat, the notices) is drawn here.
"""

from __future__ import annotations

from game.screen.log import log_entries, log_lines
from game.screen.table import Screen, render_error, render_notice, render_table, table_context, table_view

__all__ = [
    "Screen",
    "log_entries",
    "log_lines",
    "render_error",
    "render_notice",
    "render_table",
    "table_context",
    "table_view",
]
