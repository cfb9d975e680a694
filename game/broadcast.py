"""Telling every viewer of a room to redraw, from sync code (views, admin, timers)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def group_name(code: str) -> str:
    return f"room.{code}"


def send(code: str, message: dict) -> None:
    async_to_sync(get_channel_layer().group_send)(group_name(code), message)
