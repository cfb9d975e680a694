"""Every write to a table goes through these services (views, sockets, timers and admin call
them; nothing else changes rooms, seats or games)."""
from __future__ import annotations

from ..errors import ServiceError
from .common import clean_nickname
from .lobby import bot_add, room_create, seat_leave, seat_remove, seat_take
from .play import game_act, game_expire, game_start, refresh_deadline
from .staff import room_close, seat_remove_by_staff

__all__ = [
    "ServiceError", "bot_add", "clean_nickname", "game_act", "game_expire", "game_start", "refresh_deadline",
    "room_close", "room_create", "seat_leave", "seat_remove", "seat_remove_by_staff", "seat_take",
]
