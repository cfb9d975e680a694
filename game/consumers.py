"""The live table socket: a snapshot on (re)connect, a redraw after every change, and moves.

Thin on purpose: it parses a move, calls the service layer, broadcasts what the service saved,
and draws the table for its own viewer. Errors go only to the socket that caused them.
"""

from __future__ import annotations

import asyncio
import json
import logging

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from . import presence, render, selectors, services
from .broadcast import group_name, send_async, unpack
from .errors import ServiceError
from .identity import known_player

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2048
LANGUAGES = {code for code, _name in settings.LANGUAGES}


def parse_move(text: str) -> tuple[dict, str | None]:
    """A move from a submitted form: {"kind", "version", one field} into an engine action.

    Form values arrive as strings; each kind's one field is converted to its engine type.
    Anything else is refused with a ServiceError, before it reaches the service.
    """
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise ServiceError("too_big", _("That message is too large."))
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        raise ServiceError("malformed", _("That move was not understood.")) from None
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise ServiceError("malformed", _("That move was not understood."))
    kind = data["kind"]
    version = data.get("version")
    action: dict = {"kind": kind}
    try:
        if kind in ("freeze", "triple_draw", "gift"):
            action["seat"] = int(data["seat"])
        elif kind == "crossroads":
            action["pick"] = int(data["pick"])
        elif kind == "ballast":
            keep = data["keep"]
            action["keep"] = keep if isinstance(keep, bool) else {"true": True, "false": False}[str(keep)]
        elif kind not in ("draw", "pass"):
            raise KeyError(kind)
    except (KeyError, TypeError, ValueError):
        raise ServiceError("malformed", _("That move was not understood.")) from None
    return action, None if version in (None, "") else str(version)


class QuickDispatch:
    """Channels closes stale database connections before every message it dispatches, a hop
    to the database thread and back each time: five per move at a table of four. The table's
    handlers reach the database only through database_sync_to_async, which closes stale
    connections itself, so they skip the hop."""

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class TableConsumer(QuickDispatch, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        query = dict(part.split("=", 1) for part in self.scope.get("query_string", b"").decode().split("&")
                     if "=" in part)
        self.language = query.get("lang") if query.get("lang") in LANGUAGES else settings.LANGUAGE_CODE
        self.player = known_player(self.scope.get("session"), self.scope.get("user"))
        self.viewer_key = self.player.key if self.player else None
        self.csrf_token = self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
        self.screen = render.Screen(self.viewer_key, self.language, self.csrf_token)
        snapshot, log = await self._snapshot_and_log()
        await self.accept()
        if snapshot is None:
            await self.send(render.render_error(str(_("There is no table with that code.")), self.language))
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(group_name(self.code), self.channel_name)
        await self.send(self.screen.full(snapshot, log))
        if self.viewer_key:
            message = await database_sync_to_async(presence.arrived)(code=self.code, player_key=self.viewer_key,
                                                                     channel=self.channel_name)
            self.heartbeat = asyncio.create_task(self._beat())
            if message:
                await send_async(self.code, message)

    async def disconnect(self, close_code: int) -> None:
        if not hasattr(self, "code"):
            return
        await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
        if getattr(self, "heartbeat", None):
            self.heartbeat.cancel()
            await database_sync_to_async(presence.left)(channel=self.channel_name)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(presence.HEARTBEAT.total_seconds())
            await database_sync_to_async(presence.heartbeat)(channel=self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if text_data is None:
                raise ServiceError("malformed", _("That move was not understood."))
            if self.player is None:
                raise ServiceError("spectator", _("You are watching this table: only seated players can play."))
            action, version = parse_move(text_data)
            message = await database_sync_to_async(services.game_act)(
                code=self.code, player=self.player, action=action, version=version)
        except ServiceError as error:
            await self._refuse(error)
            return
        await send_async(self.code, message)

    async def table_update(self, message: dict) -> None:
        """Redraw what changed on this viewer's table, from the broadcast snapshot (no database query)."""
        update = unpack(message)
        html = self.screen.update(update["snapshot"], update["events"], key=message["id"])
        if html is None:  # overtaken by a newer update: the whole table and log, as they are now
            snapshot, log = await self._snapshot_and_log()
            html = self.screen.full(snapshot, log) if snapshot is not None else ""
        if html:
            await self.send(html)

    async def _refuse(self, error: ServiceError) -> None:
        html = render.render_error(str(error.message), self.language)
        if error.code in ("stale", "not_your_turn", "game_over", "closed"):
            snapshot, log = await self._snapshot_and_log()
            if snapshot is not None:
                html += self.screen.full(snapshot, log)
        await self.send(html)

    @database_sync_to_async
    def _snapshot_and_log(self) -> tuple[dict | None, list[dict]]:
        room = selectors.room_by_code(self.code)
        if room is None:
            return None, []
        game = selectors.current_game(room)
        return selectors.snapshot(room, game=game), selectors.log_events(game)


class EchoConsumer(AsyncWebsocketConsumer):
    """A bare echo to every socket of a group: the latency floor the table is measured against
    (a plain Channels consumer, with its defaults)."""

    async def connect(self) -> None:
        self.group = "echo." + self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, close_code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo.message", "text": text_data})

    async def echo_message(self, message: dict) -> None:
        await self.send(message["text"])


class LeanEchoConsumer(QuickDispatch, EchoConsumer):
    """The same echo without Channels' database hop per message, as the table dispatches: the
    lowest floor this stack has (reported beside the bare one)."""
