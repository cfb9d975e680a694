"""What every page's template may read: how many turn-based tables wait for the viewer's move
(the tab's title shows it: "(2) SEVN"). Looking creates no session."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from game.core.identity import known_player
from game.services import your_move


def your_move_count(request: HttpRequest) -> dict:
    def count() -> int:
        player = known_player(request.session, request.user) if hasattr(request, "session") else None
        return your_move.waiting_count(player.key) if player else 0

    return {"your_move_count": SimpleLazyObject(count)}
