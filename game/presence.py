"""Who is at the table right now: sockets of seated people, and taking over for the absent.

A person whose last socket closed more than AWAY_AFTER ago is marked away (a bot plays for
them); when they come back, the away mark goes and the game (paused if only bots were left)
goes on.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import selectors, services
from .models import Presence, Room, Seat
from .services.rows import locked_room_and_game

AWAY_AFTER = timedelta(seconds=60)
HEARTBEAT = timedelta(seconds=20)
STALE_AFTER = HEARTBEAT * 3


def arrived(*, code: str, player_key: str, channel: str) -> dict | None:
    """A socket opened; a seated person who was away is back. Returns a message to broadcast."""
    room = selectors.room_by_code(code)
    if room is None:
        return None
    now = timezone.now()
    Presence.objects.update_or_create(channel=channel, defaults={"room": room, "player_key": player_key,
                                                                 "seen": now})
    seat = room.seats.filter(player_key=player_key).first()
    if seat is None:
        return None
    Seat.objects.filter(id=seat.id).update(last_seen=now)
    if not seat.away:
        return None
    return _back(room.id, seat.id)


@transaction.atomic
def _back(room_id: int, seat_id: int) -> dict | None:
    room, _game = locked_room_and_game(room_id=room_id)
    seat = Seat.objects.get(id=seat_id)
    if not seat.away or room.status == Room.Status.CLOSED:
        return None
    seat.away, seat.timeouts_in_row = False, 0
    seat.save(update_fields=["away", "timeouts_in_row"])
    return services.refresh_deadline(room, events=[{"type": "back", "seat": seat.index}])


def left(*, channel: str) -> None:
    """A socket closed; the seat remembers when its person was last here."""
    presence = Presence.objects.filter(channel=channel).first()
    if presence is None:
        return
    presence.delete()
    Seat.objects.filter(room_id=presence.room_id, player_key=presence.player_key).update(last_seen=timezone.now())


def heartbeat(*, channels: list[str]) -> None:
    """This process's sockets are alive: one statement for all of them."""
    if channels:
        Presence.objects.filter(channel__in=channels).update(seen=timezone.now())


def mark_absent(now=None) -> list[dict]:
    """Seated people in running games with no live socket for AWAY_AFTER become away."""
    now = now or timezone.now()
    Presence.objects.filter(seen__lt=now - STALE_AFTER).delete()
    live = Presence.objects.values("room_id", "player_key")
    long_ago = now - AWAY_AFTER
    gone = (Seat.objects.filter(room__status=Room.Status.PLAYING, away=False, bot_level="")
            .exclude(player_key="")
            .filter(Q(last_seen__lt=long_ago) | Q(last_seen__isnull=True, joined__lt=long_ago)))
    live_keys = {(row["room_id"], row["player_key"]) for row in live}
    messages = []
    for seat in gone:
        if (seat.room_id, seat.player_key) in live_keys:
            continue
        message = _away(seat.room_id, seat.id, now)
        if message:
            messages.append(message)
    return messages


@transaction.atomic
def _away(room_id: int, seat_id: int, now) -> dict | None:
    room, _game = locked_room_and_game(room_id=room_id)
    seat = Seat.objects.get(id=seat_id)
    if seat.away or room.status != Room.Status.PLAYING:
        return None
    if Presence.objects.filter(room_id=room_id, player_key=seat.player_key).exists():
        return None
    seat.away = True
    seat.save(update_fields=["away"])
    return services.refresh_deadline(room, events=[{"type": "away", "seat": seat.index}])

