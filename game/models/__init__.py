"""What the server keeps, one module per concern: tables and their games (tables), chat and
moderation (moderation), accounts and friends (accounts), results and ratings (ratings). Every
model is importable from here, as Django and the rest of the code expect."""

from __future__ import annotations

from game.models.accounts import Friendship, GuestKey, Invitation, Profile, SitePresence
from game.models.alerts import AlertSettings, Notice, PushSubscription
from game.models.analysis import GameAnalysis
from game.models.moderation import ChatMessage, ModAction, RatingFlag, Report, Sanction
from game.models.ratings import Excuse, GameResult, LeavePause, Outcome, Rating, RatingChange
from game.models.tables import (
    PUBLIC_ID_BYTES,
    Event,
    Game,
    MissedTurn,
    Presence,
    Seat,
    Table,
    default_bot_delay_ms,
    default_kind,
    new_public_id,
)

__all__ = [
    "AlertSettings",
    "Notice",
    "PushSubscription",
    "PUBLIC_ID_BYTES",
    "ChatMessage",
    "Event",
    "Excuse",
    "Friendship",
    "Game",
    "GameAnalysis",
    "GameResult",
    "GuestKey",
    "Invitation",
    "LeavePause",
    "MissedTurn",
    "ModAction",
    "Outcome",
    "Presence",
    "Profile",
    "Rating",
    "RatingChange",
    "RatingFlag",
    "Report",
    "Sanction",
    "Seat",
    "SitePresence",
    "Table",
    "default_bot_delay_ms",
    "default_kind",
    "new_public_id",
]
