"""What the server keeps, one module per concern: tables and their games (tables), chat and
moderation (moderation), accounts and friends (accounts), results and ratings (ratings). Every
model is importable from here, as Django and the rest of the code expect."""

from __future__ import annotations

from game.models.accounts import Friendship, GuestKey, Invitation, Profile
from game.models.moderation import ChatMessage, ModAction, RatingFlag, Report, Sanction
from game.models.ratings import GameResult, Rating, RatingChange
from game.models.tables import (
    PUBLIC_ID_BYTES,
    Event,
    Game,
    Presence,
    Seat,
    Table,
    default_bot_delay_ms,
    default_kind,
    new_public_id,
)

__all__ = [
    "PUBLIC_ID_BYTES",
    "ChatMessage",
    "Event",
    "Friendship",
    "Game",
    "GameResult",
    "GuestKey",
    "Invitation",
    "ModAction",
    "Presence",
    "Profile",
    "Rating",
    "RatingChange",
    "RatingFlag",
    "Report",
    "Sanction",
    "Seat",
    "Table",
    "default_bot_delay_ms",
    "default_kind",
    "new_public_id",
]
