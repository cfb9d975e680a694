"""The chat side of the table socket (game.live.consumers.TableConsumer): a line said, the panel as it
is when the socket opens, and the chat's own channel-layer messages (a line, a moderator's
notice, the host's switch). Kept apart from the table's drawing: a move redraws no chat."""

from __future__ import annotations

import logging

from channels.db import database_sync_to_async
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from game import screen as render
from game import services
from game.core.errors import ServiceError
from game.core.identity import NICKNAME_KEY, tag
from game.delivery.broadcast import unpack
from game.live import watch
from game.screen import chat as chat_render
from game.services.chat import author_token
from game.services.friends import blocks
from game.services.moderation import pending_warning_key

logger = logging.getLogger(__name__)
NOT_UNDERSTOOD = _("That message was not understood.")


class ChatSocket:
    """Mixed into the table's consumer, which has code, player, viewer_key, language, screen
    and send."""

    def chat_opened(self) -> None:
        session = self.scope.get("session")
        self.nickname = (session.get(NICKNAME_KEY, "") if session is not None else "") or ""
        self.chat_token: str | None = None
        self.chat_frame: tuple | None = None
        self.spectator_chat = True
        self.chat_refusal: dict | None = None  # why this person may not write (services.chat.chat_refusal)
        # the lines the chat was last drawn whole with: one of them said while this socket was
        # joining (its message on the way as the chat was read) is not added a second time
        self.chat_drawn: frozenset[int] = frozenset()

    async def chat_follow(self, snapshot: dict) -> None:
        """After a table update: the composer and people list again only if someone sat down,
        left or was renamed, or the table closed (a tuple of the seats compared, nothing drawn
        otherwise); a rename draws the lists again too (the lines show the new name)."""
        if self.chat_frame is None:
            return
        before = self.chat_frame
        if chat_render.frame(snapshot, self.viewer_key) != before:
            parts = self._chat_parts(snapshot)
            if chat_render.renamed(before, self.chat_frame):
                parts = await self._chat_lists() + parts
            await self.send(parts)

    async def chat_say(self, data: dict) -> None:
        """A chat line, said to every screen of the table (chat_post announces it); a refusal to
        this socket only."""
        text, phrase = data.get("text", ""), data.get("phrase", "")
        try:
            if not isinstance(text, str) or not isinstance(phrase, str):
                raise ServiceError("malformed", NOT_UNDERSTOOD)
            await watch.call(
                services.chat_post, code=self.code, player=self.player, text=text, phrase=phrase, nickname=self.nickname
            )
        except ServiceError as error:
            refusal = await self._refused_now(error.code)
            await self.send(render.render_error(error.message, self.language, error.code) + refusal)
            return
        except Exception:
            logger.exception("chat failed at table %s", self.code)
            await self.send(render.render_error(_("Something went wrong: try again."), self.language, "server_error"))

    async def _refused_now(self, code: str) -> str:
        """The composer again when a refusal may have changed (a line refused for a mute or a ban
        this screen did not know of, a mute lifted): it says why, or takes lines again."""
        if code not in ("mute", "ban", "closed") or self.screen.snapshot is None:
            return ""
        recent = await database_sync_to_async(services.chat_recent)(self.code, self.player)
        self.chat_refusal = recent["refusal"]
        return self._chat_parts(self.screen.snapshot)

    async def chat_panel(self, snapshot: dict) -> str:
        """The chat as it is now (on connect: lines missed while away come with it)."""
        try:
            recent = await database_sync_to_async(services.chat_recent)(self.code, self.player)
        except Exception:
            logger.warning("reading the chat failed at table %s", self.code, exc_info=True)
            return ""
        self.spectator_chat = recent["spectator_chat"]
        self.chat_refusal = recent["refusal"]
        if self.viewer_key:
            self.chat_token = author_token(self.code, tag(self.viewer_key))
        self._drew(recent["lines"])
        lists = chat_render.lists(recent["lines"], self.language, self.chat_token, oob=True)
        return "".join(lists.values()) + self._chat_parts(snapshot) + await self._warning_waiting()

    def _drew(self, lines: dict[str, list[dict]]) -> None:
        self.chat_drawn = frozenset(line["id"] for channel in lines.values() for line in channel)

    async def _chat_lists(self) -> str:
        """Both channels' lines drawn again (a renamed person's lines show their new name)."""
        try:
            recent = await database_sync_to_async(services.chat_recent)(self.code, self.player)
        except Exception:
            logger.warning("reading the chat failed at table %s", self.code, exc_info=True)
            return ""
        self._drew(recent["lines"])
        return "".join(chat_render.lists(recent["lines"], self.language, self.chat_token, oob=True).values())

    async def _blocked_author(self, line: dict) -> bool:
        """Whether this viewer blocked the line's author (asked as each line comes: a block made
        on another page holds at once)."""
        author, player = line.get("user"), self.player
        if not author or player is None or player.user_id is None or author == player.user_id:
            return False
        return await database_sync_to_async(blocks)(player.user_id, author)

    async def _warning_waiting(self) -> str:
        """A moderator's warning given while this person had no table open: shown now, once."""
        if self.player is None:
            return ""
        waiting = pending_warning_key(self.player.key)
        warning = await cache.aget(waiting)
        if warning is None:
            return ""
        await cache.adelete(waiting)
        return chat_render.notice({"kind": "warning", "warning": warning}, self.language)

    def _chat_parts(self, snapshot: dict) -> str:
        self.chat_frame = chat_render.frame(snapshot, self.viewer_key)
        return chat_render.parts(
            code=self.code,
            chat_frame=self.chat_frame,
            viewer_key=self.viewer_key,
            has_name=bool(self.player and (self.player.is_user or self.nickname)),
            spectator_chat=self.spectator_chat,
            language=self.language,
            refusal=self.chat_refusal,
            oob=True,
        )

    async def chat_line(self, message: dict) -> None:
        line = unpack(message)["line"]
        if line["id"] in self.chat_drawn or await self._blocked_author(line):
            return
        await self.send(chat_render.appended(line, self.language, self.chat_token))

    async def chat_notice(self, message: dict) -> None:
        """A moderator's word for one person: drawn on their screens only."""
        body = unpack(message)
        player = self.player
        if player is not None and (
            body["to"] == tag(player.key) or (body["user_id"] and body["user_id"] == player.user_id)
        ):
            notice = body["notice"]
            if notice["kind"] == "lifted":  # no word of its own: the chat box opens (if nothing else holds it)
                await self.send(await self._refused_now("mute"))
                return
            drawn = chat_render.notice(notice, self.language)
            if notice["kind"] in ("mute", "ban") and notice.get("table") in (None, self.code):
                self.chat_refusal = {"kind": notice["kind"], "until": notice["expires"], "reason": notice["reason"]}
                if self.screen.snapshot is not None:
                    drawn += self._chat_parts(self.screen.snapshot)
            await self.send(drawn)
            if notice["kind"] == "warning":
                await cache.adelete(pending_warning_key(player.key))  # shown: it waits no more

    async def chat_settings(self, message: dict) -> None:
        self.spectator_chat = unpack(message)["spectator_chat"]
        if self.screen.snapshot is not None:
            await self.send(self._chat_parts(self.screen.snapshot))
