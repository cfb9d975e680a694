"""Every write to a table goes through these services (views, sockets, timers and admin call
them; nothing else changes tables, seats or games)."""

from __future__ import annotations

from ..errors import ServiceError
from .chat import chat_post, chat_recent, spectator_chat_set
from .common import clean_nickname
from .lobby import bot_add, seat_leave, seat_remove, seat_take, table_create
from .play import game_act, game_expire, game_start, refresh_deadline
from .reports import report_create
from .staff import seat_remove_by_staff, table_close

__all__ = [
    "ServiceError",
    "bot_add",
    "chat_post",
    "chat_recent",
    "clean_nickname",
    "game_act",
    "game_expire",
    "game_start",
    "refresh_deadline",
    "report_create",
    "table_close",
    "table_create",
    "seat_leave",
    "seat_remove",
    "seat_remove_by_staff",
    "seat_take",
    "spectator_chat_set",
]
