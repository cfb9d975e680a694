"""The small socket every page of a signed-in person opens (static/sevn/js/invitations.js,
through htmx's WebSocket extension): it joins the person's group
(game.delivery.broadcast.person_group) and shows each invitation that arrives as a toast with a
Join button, in the page's language: a message htmx adds to the page's toasts (out of band). So
many may be open at once per address and per account (game.runtime.limits.person_socket_opened)."""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from game import registry
from game.delivery.broadcast import person_group
from game.runtime import limits

LANGUAGES = {code for code, _name in settings.LANGUAGES}


CLOSE_SIGNED_OUT, CLOSE_TOO_MANY_SOCKETS = 4401, 4430  # the page stops at the first, waits longer after the second


class PersonConsumer(AsyncWebsocketConsumer):
    group: str | None = None
    counted: tuple[str, str] | None = None  # (address, account) while this socket counts as open

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # however it ended (a crash in connect too), it no longer counts as open
            self._uncount()

    def _uncount(self) -> None:
        if self.counted is not None:
            limits.person_socket_closed(*self.counted)
            self.counted = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # Accepted to be closed, so that the page hears 4401 and stops (closed before the
            # handshake, the browser would hear only "failed", 1006, and try again forever:
            # htmx's extension every few seconds, a page signed out in another tab).
            await self.accept()
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        # Capped per address and per account like table sockets (game.runtime.limits), before it
        # joins anything: one account had opened 3,000 of them.
        counted = (limits.client_address(self.scope), str(user.pk))
        if not limits.person_socket_opened(*counted):
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return
        self.counted = counted
        query = dict(
            part.split("=", 1) for part in self.scope.get("query_string", b"").decode().split("&") if "=" in part
        )
        self.language = query.get("lang") if query.get("lang") in LANGUAGES else settings.LANGUAGE_CODE
        self.group = person_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, close_code: int) -> None:
        self._uncount()
        if self.group is not None:
            group, self.group = self.group, None
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is asked on this socket: it only listens."""

    async def person_out(self, message: dict) -> None:
        """The account was suspended (or banned): no more invitations here. 4401, as for a
        person signed out: the page does not open the socket again (invitations.js)."""
        await self.close(code=4401)

    async def invitation(self, message: dict) -> None:
        await self.send(toast(message["invitation"], self.language))


def toast(invitation: dict, language: str) -> str:
    kind = registry.KINDS.get(invitation["kind"])
    with translation.override(language):
        return render_to_string(
            "friends/_invitation_toast.html",
            {"invitation": invitation, "game": kind.label if kind else invitation["kind"]},
        )
