"""Telling every viewer of a room to redraw.

Across processes (Redis) an update travels as one JSON string, parsed once per process
whatever the number of its sockets. Inside one process (the in-memory layer, which deep-copies
every message for every socket) it travels by reference, in a wrapper that copies as itself:
nobody changes an update once it is sent.
"""

from __future__ import annotations

import json
from collections import OrderedDict

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

_parsed: OrderedDict[str, dict] = OrderedDict()
PARSED_KEPT = 256


class Shared:
    """An update passed within the process: copying it (as the in-memory layer does) is free."""

    __slots__ = ("update",)

    def __init__(self, update: dict) -> None:
        self.update = update

    def __deepcopy__(self, memo: dict) -> Shared:
        return self


def group_name(code: str) -> str:
    return f"room.{code}"


def pack(update: dict, *, local: bool = False) -> dict:
    """The channel-layer message for a service's update ({"type", "id", "snapshot", "events"})."""
    body = {"snapshot": update["snapshot"], "events": update["events"]}
    if local:
        return {"type": update["type"], "id": update["id"], "shared": Shared(body)}
    return {"type": update["type"], "id": update["id"], "payload": json.dumps(body, separators=(",", ":"))}


def unpack(message: dict) -> dict:
    """The update inside a message (read it, never change it)."""
    if "shared" in message:
        return message["shared"].update
    update = _parsed.get(message["id"])
    if update is None:
        update = _parsed[message["id"]] = json.loads(message["payload"])
        if len(_parsed) > PARSED_KEPT:
            _parsed.popitem(last=False)
    return update


async def send_async(code: str, update: dict) -> None:
    layer = get_channel_layer()
    await layer.group_send(group_name(code), pack(update, local=isinstance(layer, InMemoryChannelLayer)))


def send(code: str, update: dict) -> None:
    async_to_sync(send_async)(code, update)
