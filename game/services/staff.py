"""What staff do from admin: close a table, remove a player."""

from __future__ import annotations

from django.db import transaction

from .. import selectors
from ..models import Room, Seat
from .common import update_message
from .play import refresh_deadline
from .store import locked_room_and_game


@transaction.atomic
def room_close(*, code: str, reason: str = "") -> dict:
    """Staff close a table: play stops and every viewer is told."""
    room, game = locked_room_and_game(code)
    room.status = Room.Status.CLOSED
    room.closed_reason = reason[:200]
    room.save(update_fields=["status", "closed_reason", "updated"])
    if game is not None and game.deadline is not None:
        game.deadline = None
        game.save(update_fields=["deadline"])
    return update_message(room, list(room.seats.all()), game)


@transaction.atomic
def seat_remove_by_staff(*, seat_id: int) -> dict:
    """Staff remove a player: before the start the seat is freed; during a game a bot keeps
    the seat (and its score) so the game can go on, and the person can no longer act."""
    room_id = Seat.objects.values_list("room_id", flat=True).get(id=seat_id)
    room, _game = locked_room_and_game(room_id=room_id)
    seat = Seat.objects.get(id=seat_id)  # read after the lock: nobody changes it meanwhile
    if room.status != Room.Status.PLAYING:
        seat.delete()
        return update_message(room, list(room.seats.all()), selectors.current_game(room))
    seat.player_key, seat.user, seat.away = "", None, True
    seat.save(update_fields=["player_key", "user", "away"])
    return refresh_deadline(room, events=[{"type": "removed", "seat": seat.index}])
