"""Every write goes through these services (pages, sockets, timers and the moderators' admin call
them; nothing else changes tables, seats, games, presence, chat, reports or sanctions), and the
reads the others need come from `selectors`. Each module is one concern: the lobby, play, the
store under them, presence, chat, reports, staff actions and moderation's sanctions."""

from __future__ import annotations

from game.core.errors import ServiceError
from game.services.chat import chat_post, chat_recent, spectator_chat_set
from game.services.common import clean_nickname
from game.services.fair import client_seed_set
from game.services.lobby import TIMER_LABELS, bot_add, seat_leave, seat_remove, seat_take, table_create
from game.services.play import game_act, game_expire, game_start, refresh_deadline, seat_reclaim
from game.services.reports import REPORT_REASONS, report_create
from game.services.staff import seat_remove_by_staff, table_close

__all__ = [
    "REPORT_REASONS",
    "TIMER_LABELS",
    "ServiceError",
    "bot_add",
    "chat_post",
    "chat_recent",
    "clean_nickname",
    "client_seed_set",
    "game_act",
    "game_expire",
    "game_start",
    "refresh_deadline",
    "report_create",
    "table_close",
    "table_create",
    "seat_leave",
    "seat_reclaim",
    "seat_remove",
    "seat_remove_by_staff",
    "seat_take",
    "spectator_chat_set",
]
