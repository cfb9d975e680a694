"""Telling every viewer of a room to redraw.

An update crosses the channel layer as one JSON string: the in-memory layer deep-copies
every message for every socket and Redis serialises it, and a string is the cheapest thing
for both. Each process parses an update once, whatever the number of its sockets.
"""

from __future__ import annotations

import json
from collections import OrderedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

_parsed: OrderedDict[str, dict] = OrderedDict()
PARSED_KEPT = 256


def group_name(code: str) -> str:
    return f"room.{code}"


def pack(update: dict) -> dict:
    """The channel-layer message for a service's update ({"type", "id", "snapshot", "events"})."""
    body = {"snapshot": update["snapshot"], "events": update["events"]}
    return {"type": update["type"], "id": update["id"], "payload": json.dumps(body, separators=(",", ":"))}


def unpack(message: dict) -> dict:
    """The update inside a message, parsed once per process (read it, never change it)."""
    update = _parsed.get(message["id"])
    if update is None:
        update = _parsed[message["id"]] = json.loads(message["payload"])
        if len(_parsed) > PARSED_KEPT:
            _parsed.popitem(last=False)
    return update


async def send_async(code: str, update: dict) -> None:
    await get_channel_layer().group_send(group_name(code), pack(update))


def send(code: str, update: dict) -> None:
    async_to_sync(send_async)(code, update)
