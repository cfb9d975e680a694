"""What every service shares: the broadcast message, locking a room, checking requests."""

from __future__ import annotations

import secrets

from django.utils.translation import gettext_lazy as _

from .. import selectors
from ..errors import ServiceError
from ..identity import Player
from ..models import Game, Room, Seat

NICKNAME_MAX = 20


def update_message(room: Room, seats: list[Seat], game: Game | None, state: dict | None = None,
                   events: list[dict] | None = None) -> dict:
    """The channel-layer message that tells every viewer of the room to redraw."""
    return {
        "type": "table.update",
        "id": secrets.token_hex(8),  # names this update, so viewers can share its rendering
        "snapshot": selectors.snapshot(room, seats, game, state),
        "events": events or [],
    }


def locked_room(code: str) -> Room:
    room = Room.objects.select_for_update().filter(code=str(code).upper()).first()
    if room is None:
        raise ServiceError("unknown_room", _("There is no table with that code."))
    if room.status == Room.Status.CLOSED:
        raise ServiceError("closed", _("This table was closed by staff."))
    return room


def require_host(room: Room, player: Player) -> None:
    if room.host_key != player.key:
        raise ServiceError("not_host", _("Only the host can do that."))


def require_lobby(room: Room) -> None:
    if room.status != Room.Status.LOBBY:
        raise ServiceError("started", _("The game has already started."))


def clean_nickname(raw: object) -> str:
    words = str(raw or "").split()  # any run of white space (tabs, newlines) becomes one space
    name = " ".join("".join(ch for ch in word if ch.isprintable()) for word in words).strip()
    if not 1 <= len(name) <= NICKNAME_MAX:
        raise ServiceError("bad_nickname", _("A nickname has 1 to 20 characters."))
    return name


def choose_int(raw: object, allowed, code: str, message: str) -> int:
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise ServiceError(code, message) from None
    if value not in allowed:
        raise ServiceError(code, message)
    return value


