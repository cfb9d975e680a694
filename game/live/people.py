"""The small socket every page of a signed-in person opens (static/sevn/js/invitations.js,
through htmx's WebSocket extension): it joins the person's group
(game.delivery.broadcast.person_group) and shows each invitation that arrives as a toast with a
Join button, and each friend request made to the person as one with Accept, in the page's
language: a message htmx adds to the page's toasts (out of band), with the header's counts of
what waits (services.waiting). So many may be open at once per
address and per account (game.runtime.limits.person_socket_opened).

While it is open its person is on the site: a row of theirs (services.online) their friends'
list reads, renewed by this process's heartbeat (game.live.watch) and gone when it closes."""

from __future__ import annotations

import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from game import registry
from game.delivery.broadcast import person_group
from game.live import watch
from game.runtime import limits
from game.services import online, waiting

logger = logging.getLogger(__name__)
LANGUAGES = {code for code, _name in settings.LANGUAGES}


CLOSE_SIGNED_OUT, CLOSE_TOO_MANY_SOCKETS = 4401, 4430  # the page stops at the first, waits longer after the second


class PersonConsumer(AsyncWebsocketConsumer):
    group: str | None = None
    counted: tuple[str, str] | None = None  # (address, account) while this socket counts as open
    user_id: int | None = None  # while its person counts as on the site (services.online)
    account_id: int | None = None  # its person's, once let in

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # however it ended (a crash in connect too), it no longer counts as open
            self._uncount()
            await self._offline()

    async def _offline(self) -> None:
        if self.user_id is not None:
            self.user_id = None
            watch.person_closed(self)
            try:
                await database_sync_to_async(online.page_closed)(channel=self.channel_name)
            except Exception:  # the database away: the row goes stale (services.online)
                logger.warning("could not note a page closed", exc_info=True)

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
        self.user_id = self.account_id = user.pk
        watch.person_opened(self)
        await database_sync_to_async(online.page_opened)(channel=self.channel_name, user_id=user.pk)

    async def disconnect(self, close_code: int) -> None:
        self._uncount()
        await self._offline()
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
        """A toast of it, and the header's counts; it is shown now (no notice of it on the
        person's next page)."""
        invitation = message["invitation"]
        counts = await database_sync_to_async(waiting.invitation_shown)(
            user_id=self.account_id, invitation_id=invitation["id"]
        )
        await self.send(toast(invitation, self.language, counts))

    async def friend_request(self, message: dict) -> None:
        """A friend request made to this person: a toast with Accept, and the header's counts;
        it is shown now (no notice of it on the person's next page)."""
        request = message["request"]
        counts = await database_sync_to_async(waiting.friend_request_shown)(
            user_id=self.account_id, from_id=request["user_id"]
        )
        with translation.override(self.language):
            await self.send(
                render_to_string("friends/_friend_request_toast.html", {"notice": request, "counts": counts})
            )

    async def your_move(self, message: dict) -> None:
        """How many turn-based tables wait for this person's move now: the page's tab title
        shows it (static/sevn/js/your_move.js reads the element swapped in)."""
        await self.send(render_to_string("game/_your_move_count.html", {"your_move_count": message["told"]["count"]}))


def toast(invitation: dict, language: str, counts: dict[str, int]) -> str:
    kind = registry.KINDS.get(invitation["kind"])
    with translation.override(language):
        return render_to_string(
            "friends/_invitation_toast.html",
            {"invitation": invitation, "game": kind.label if kind else invitation["kind"], "counts": counts},
        )
