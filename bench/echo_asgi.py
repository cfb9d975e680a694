"""The server the latency benchmark runs: the site's ASGI app plus two echo sockets, the floors
the table is measured against. They are the benchmark's, never the production routing's.

    daphne bench.echo_asgi:application
"""

from __future__ import annotations

from sevn_site.asgi import application as site  # first: it sets Django up

from sevn_site.asgi import django_asgi_app  # isort: skip

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from game.live.consumers import QuickDispatch  # noqa: E402


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


echo_routes = URLRouter(
    [
        path("ws/echo/<str:group>/", EchoConsumer.as_asgi()),
        path("ws/echo-lean/<str:group>/", LeanEchoConsumer.as_asgi()),
    ]
)


async def _websocket(scope, receive, send):
    """Echo paths to the echo consumers, everything else to the site's sockets."""
    if scope["path"].startswith("/ws/echo"):
        return await echo_routes(scope, receive, send)
    return await site(scope, receive, send)


application = ProtocolTypeRouter({"http": django_asgi_app, "websocket": _websocket})
