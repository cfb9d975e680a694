"""The live table socket: a snapshot on (re)connect, a redraw after every change, and moves.

Thin on purpose: it parses a move, calls the service layer (which tells every screen of the
table what it saved, this one's too: game.delivery.announce, through game.live.watch.call), and
draws the table for its own viewer. Errors go only to the socket that caused them.
"""

from __future__ import annotations

import json
import logging
import time
from typing import NamedTuple

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from game import registry, services
from game import screen as render
from game.core.errors import ENGINE_MESSAGES, ServiceError
from game.core.fields import small_int
from game.core.identity import MARK_COOKIE, Traces, known_player, marks_in, tag, with_traces
from game.delivery.broadcast import LOCAL, group_name, out_groups, passed, relay, unpack
from game.live import readings, watch
from game.live.chat_socket import ChatSocket
from game.live.leaving import leaving
from game.runtime import capacity, limits, outage, stages
from game.services import presence, selectors, table_reads

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2048
LANGUAGES = {code for code, _name in settings.LANGUAGES}
NOT_UNDERSTOOD = _("That move was not understood.")
CLOSE_FLOODING, CLOSE_TOO_MANY_SOCKETS, CLOSE_NO_TABLE = 4429, 4430, 4404
CLOSE_PUT_OUT = 4403  # the person was suspended or banned (game.delivery.broadcast.put_out)
CLOSE_SIGNED_OUT = 4401  # the person logged out in another tab of this browser (services.accounts)
SIGNED_OUT = _("You logged out in another tab: reload this page to go on.")
PUT_OUT = {
    "suspended": _("Your account was suspended: it can no longer play or chat."),
    "banned": _("You were banned from tables: this table is closed to you."),
}
CLOSE_LOOKUPS = 4429  # too many requests: here, too many unknown table codes from the address
CLEANUP_SECONDS = 5  # a closing socket's last writes may not hold up a server that is stopping


def _refuse_constant(name: str):
    raise ValueError(name)  # NaN, Infinity, -Infinity are not JSON numbers a form can send


def decode(text: str) -> dict:
    """A message from the socket: a JSON object with a "kind", or one clear refusal."""
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode()) > MAX_MESSAGE_BYTES:
        raise ServiceError("too_big", _("That message is too large."))
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (TypeError, ValueError, RecursionError):
        raise ServiceError("malformed", NOT_UNDERSTOOD) from None
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise ServiceError("malformed", NOT_UNDERSTOOD)
    return data


class Move(NamedTuple):
    """A move as a screen sends it: the engine action and the table it was made on (the version,
    and the game's number, which pages send too: a rematch starts the versions anew)."""

    action: dict
    version: int
    game: int | None = None


def parse_move(text: str) -> Move:
    """A move from a submitted form: {"kind", "version", one field} into an engine action and
    the table version it was made on (required: a move without it could be applied twice).

    Form values arrive as strings; each kind's one field is converted to its engine type. Anything
    else (other types, huge or non-finite numbers, deep nesting) is refused with a ServiceError
    before it reaches the service.
    """
    return move_of(decode(text))


def move_of(data: dict) -> Move:
    """The engine action and the table version (and game) of a decoded message (see parse_move).
    Which fields an action carries, and how each arrives, is its game's (each Kind's `actions` and
    `fields`, through the registry)."""
    kind = data["kind"]
    action: dict = {"kind": kind}
    try:
        for field, convert in registry.action_fields(kind).items():
            action[field] = convert(data[field])
    except (KeyError, TypeError, ValueError):
        raise ServiceError("malformed", NOT_UNDERSTOOD) from None
    try:
        version = small_int(data.get("version"))
        game = None if data.get("game") is None else small_int(data["game"])
    except ValueError:
        raise ServiceError(
            "no_version", _("That move did not say which table it was made on: reload the page.")
        ) from None
    return Move(action, version, game)


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


class TableConsumer(QuickDispatch, ChatSocket, AsyncWebsocketConsumer):
    """One viewer's socket. It starts no task of its own (this process's heartbeat for all its
    sockets is game.live.watch's), and whatever happens to it (a clean close, a crash in a handler,
    the server shutting down), `__call__`'s cleanup forgets it everywhere."""

    channel_layer_alias = LOCAL  # this process's sockets; game.delivery.broadcast relays what other processes send
    present = False  # a seated viewer's presence row exists
    following = False  # this socket counts in its process's following of the table (broadcast.relay)
    code: str | None = None
    address: str | None = None
    out_listened: tuple[str, ...] = ()  # the local groups this socket closes on (its person put out)

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._cleanup()

    async def connect(self) -> None:
        query = dict(
            part.split("=", 1) for part in self.scope.get("query_string", b"").decode().split("&") if "=" in part
        )
        self.language = query.get("lang") if query.get("lang") in LANGUAGES else settings.LANGUAGE_CODE
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        session = self.scope.get("session")
        marks = marks_in(self.scope.get("cookies", {}).get(MARK_COOKIE))  # a ban holds for the browser
        with_traces(session, Traces(frozenset(marks), limits.client_address(self.scope)))
        self.player = known_player(session, self.scope.get("user"))
        self.viewer_key = self.player.key if self.player else None
        self.session_tag = tag(getattr(session, "session_key", None))  # which browser: a log-out there ends it
        self.screen = render.Screen(self.viewer_key, self.language)
        self.budget = limits.message_budget()
        self.chat_opened()
        self.behind_since: object = None
        self.resyncing = False
        address = limits.client_address(self.scope)
        # The handshake is done at once and the table follows when it is read and drawn: a busy
        # process answers late, it does not leave the handshake hanging until a proxy or
        # Daphne's own handshake timeout gives up on it (nginx then takes the process for dead).
        await self.accept()
        if not limits.socket_opened(address):
            await self._close_with(
                _("Too many open tables from your address: close some tabs."),
                CLOSE_TOO_MANY_SOCKETS,
                "too_many_sockets",
            )
            return
        self.address = address
        capacity.socket_opened()
        # Whether a code exists is what guessing codes asks: past the address's look-up limit
        # (the same as pages and forms count) no socket is told, whether the table exists or not.
        if await sync_to_async(limits.lookups_exhausted, thread_sensitive=False)(address):
            await self._close_with(
                _("Too many tables looked up: wait a minute and try again."), CLOSE_LOOKUPS, "lookups"
            )
            return
        # The person is here before their table is read: one coming back after they were counted
        # gone or away (a full server kept turning them away, say) is shown the table with them
        # back and their decision theirs again, not one a timeout or a bot is about to take from
        # them while they answer it (their move would be refused as stale). The other screens
        # are told at once (presence.arrived says so); this one reads it with its table.
        if self.viewer_key:
            await self._listen_for_out()
            await watch.call(presence.arrived, code=self.code, player_key=self.viewer_key, channel=self.channel_name)
            self.present = True
        # The table's messages first, its reading next: whatever changes after the reading
        # reaches this screen. (Read first, a move or an arrival broadcast between the reading
        # and the joining was lost to it: a seat shown offline while its person sat there.) The
        # messages sent meanwhile wait until the table is drawn, and what it shows already of
        # them is left as it is (Screen: presence counts, the log's versions).
        await self.channel_layer.group_add(group_name(self.code), self.channel_name)
        watch.add(self.code, self)
        self.following = True
        await relay.follow(self.code)  # Redis away: skipped, the screens' check keeps this one current
        await self._know_friends()
        snapshot, log, online, told = await self._snapshot_and_log()
        if snapshot is None:
            await sync_to_async(limits.lookup_missed, thread_sensitive=False)(address)
            await self._close_with(_("There is no table with that code."), CLOSE_NO_TABLE, "no_table")
            return
        await self.send(self.screen.full(snapshot, log, online, told) + await self.chat_panel(snapshot))

    async def disconnect(self, close_code: int) -> None:
        await self._cleanup()

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        """What this viewer sees; nothing if they have gone meanwhile (a browser that closed while
        its table was being drawn is not a crash: its disconnect follows and cleans up)."""
        try:
            await super().send(text_data, bytes_data, close)
        except RuntimeError as error:
            if "closed protocol" not in str(error):
                raise
            logger.info("socket at %s closed before it was sent its table", self.code)

    async def _cleanup(self) -> None:
        """Forget the socket here (so no heartbeat refreshes it), in its group and in presence;
        each step on its own, so one failing skips none."""
        present, self.present = self.present, False
        if self.address is not None:
            limits.socket_closed(self.address)
            capacity.socket_closed()
            self.address = None
        if self.code is None:
            return
        code, self.code = self.code, None
        watch.remove(code, self)
        try:
            listened, self.out_listened = self.out_listened, ()
            for group in listened:
                await self.channel_layer.group_discard(group, self.channel_name)
            await self.channel_layer.group_discard(group_name(code), self.channel_name)
            if self.following:
                self.following = False
                await relay.unfollow(code)
        except Exception:  # Redis away: the membership expires on its own
            logger.warning("group_discard failed for %s", code, exc_info=True)
        if present:  # with the other sockets closing meanwhile (game.live.leaving)
            await leaving.left(self.channel_name, watch.call, CLEANUP_SECONDS)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.code is None:
            return
        if not self.budget.take():
            await self._over_budget()
            return
        try:
            with stages.timed("parse"):
                if text_data is None:
                    raise ServiceError("malformed", NOT_UNDERSTOOD)
                data = decode(text_data)
            if data["kind"] == "chat":
                await self.chat_say(data)
                return
            with stages.timed("parse"):
                if self.player is None:
                    raise ServiceError("spectator", _("You are watching this table: only seated players can play."))
                move = move_of(data)
                self._precheck(move)
            await watch.call(
                services.game_act,
                code=self.code,
                player=self.player,
                action=move.action,
                version=move.version,
                game=move.game,
            )
        except ServiceError as error:
            await self._refuse(error)
            return
        except Exception:  # the database restarting, or a bug: this socket hears it, nothing closes
            logger.exception("move failed at table %s", self.code)
            await self.send(render.render_error(_("Something went wrong: try again."), self.language, "server_error"))

    def _precheck(self, move: Move) -> None:
        """Refuse without the database what this screen already knows to be wrong: a move on
        another game, or on a version older than the one shown when the game moved since (or the
        move did not say its game), or when the table shown waits for someone else. A move on an
        older version of the same game whose later versions, as far as this screen saw, only
        changed who plays a seat goes to the database, which knows (services.play._stale)."""
        shown, version = self.screen.version, move.version
        if shown is None:
            return
        if not self.screen.seated(self.viewer_key):
            raise ServiceError("spectator", _("You are watching this table: only seated players can play."))
        if (move.game is not None and move.game != self.screen.game_number) or (
            version < shown[1] and (move.game is None or self.screen.moved_since(version))
        ):
            raise ServiceError("stale", _("The table changed before your move arrived. Here it is again."))
        if version == shown[1] and not self.screen.decides(self.viewer_key):
            raise ServiceError("not_your_turn", ENGINE_MESSAGES["not_your_turn"])

    async def _listen_for_out(self) -> None:
        """This socket closes when its person is put out (the local layer: nothing leaves the
        process; other processes' word comes through the relay)."""
        groups = tuple(out_groups(tag(self.player.key), self.player.user_id)) if self.player else ()
        if groups == self.out_listened:
            return
        for group in self.out_listened:
            await self.channel_layer.group_discard(group, self.channel_name)
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.out_listened = groups

    async def person_out(self, message: dict) -> None:
        """Its person was suspended or banned: the socket closes with why, at once; the seat is
        theirs no more than after any other leaving (presence: a bot takes it over as for anyone
        absent), and whatever this session opens next is not that player (game.core.identity)."""
        player = self.player
        if self.code is None or player is None:
            return
        if message["to"] != tag(player.key) and not (message["user_id"] and message["user_id"] == player.user_id):
            return
        why = PUT_OUT.get(message["why"], PUT_OUT["suspended"])
        self.player, self.viewer_key = None, None  # nothing more is done as them meanwhile
        await self._close_with(why, CLOSE_PUT_OUT, "put_out")

    async def _over_budget(self) -> None:
        if self.budget.flooding:
            limits.penalise(limits.client_address(self.scope))
            await self._close_with(
                _("This connection sent too many messages and was closed."), CLOSE_FLOODING, "flooding"
            )
        elif self.budget.notice_due():
            await self.send(
                render.render_error(_("Slow down: you are sending too many messages."), self.language, "slow_down")
            )

    async def _close_with(self, message: str | Promise, code: int, reason: str) -> None:
        """The reason in the page's language (its toast names it: `reason`), then the close (a
        close frame's reason holds 123 bytes)."""
        await self.send(render.render_error(message, self.language, reason))
        with translation.override(self.language):
            said = str(message).encode()[:120].decode(errors="ignore")
        await self.close(code=code, reason=said)
        await self._cleanup()

    async def table_update(self, message: dict) -> None:
        """Redraw what changed on this viewer's table, from the broadcast snapshot (no database query)."""
        try:
            delivered = passed(message)
            update = delivered.body
            if self.screen.misses_lines_before(update["snapshot"], update["events"]):
                await self.resync()  # a version gap: a lost update's log lines come with the whole log
                return
            with stages.timed("render"):
                html = self.screen.update(update["snapshot"], update["events"], delivered)
        except Exception:
            logger.exception("drawing an update failed at table %s", self.code)
            html = None
        if html is None:  # overtaken by a newer update: the whole table and log, as they are now
            await self.resync()
            return
        self.behind_since = None
        if html:
            with stages.timed("frames out"):  # Daphne writes the frame before send returns
                await self.send(html)
        await self.chat_follow(update["snapshot"])

    def behind(self, held: object) -> bool:
        """True if the database holds another table than this screen shows and no update has
        reached the screen for RESYNC_AFTER seconds (updates in flight on a busy server are
        not a loss: a screen that moves on is left to move on). A socket still reading its table
        to draw it first is not behind: it joined the table's messages before that reading."""
        shown = self.screen.fingerprint
        if held is None or held == shown or self.screen.snapshot is None:
            self.behind_since = None
            return False
        now = time.monotonic()
        if self.behind_since is None or self.behind_since[1] != shown:
            self.behind_since = (now, shown)
            return outage.is_down()  # no update can come through Redis: read the table now
        return now - self.behind_since[0] >= watch.RESYNC_AFTER

    async def resync(self) -> None:
        """The whole table and log again, read from the database."""
        if self.resyncing or self.code is None:
            return
        self.resyncing = True
        try:
            # the table as the database holds it, at once: nothing here waits for Redis (the
            # relay rejoins the table's group by itself once Redis answers: game.live.watch)
            snapshot, log, online, told = await self._snapshot_and_log()
            self.behind_since = None
            if snapshot is not None:
                await self.send(self.screen.full(snapshot, log, online, told))
        except Exception:
            logger.warning("resync failed at table %s", self.code, exc_info=True)
        finally:
            self.resyncing = False

    async def chat_account(self, message: dict) -> None:
        """A guest at this table logged in to their account elsewhere (another tab): this screen
        goes on as the account, in the seat that moved to it, without a reload."""
        body = unpack(message)
        if self.player is None or tag(self.player.key) not in body["to"]:
            return
        account = await database_sync_to_async(selectors.account_player)(body["user_id"])
        if account is None:
            return
        if self.player.user_id is None and body.get("session"):  # a guest's key is one browser's
            self.session_tag = body["session"]  # its session's new key: a log-out there ends this one
        self.player, self.viewer_key = account, account.key
        await self._listen_for_out()
        self.screen = render.Screen(self.viewer_key, self.language)
        await self._know_friends()
        snapshot, log, online, told = await self._snapshot_and_log()
        if snapshot is not None:
            await self.send(self.screen.full(snapshot, log, online, told) + await self.chat_panel(snapshot))

    async def _know_friends(self) -> None:
        """A signed-in viewer's friends, whom this screen shows a private profile's record
        (read as the socket opens: a friendship made meanwhile shows from the next page)."""
        if self.player is not None and self.player.is_user:
            self.screen.friends = await database_sync_to_async(selectors.friend_tags)(self.player.user_id)

    async def chat_signed_out(self, message: dict) -> None:
        """Its person logged out in another tab of this browser (this session, not another
        device's): nothing more is done as them here, and the page says so, with Reload."""
        if self.player is None or not self.session_tag or unpack(message)["session"] != self.session_tag:
            return
        self.player, self.viewer_key = None, None
        await self._close_with(SIGNED_OUT, CLOSE_SIGNED_OUT, "signed_out")

    async def _refuse(self, error: ServiceError) -> None:
        """The reason, to this socket only. A redraw only when this screen is behind the table
        (the refusal says so); anything else it shows is already the table as it is."""
        html = render.render_error(error.message, self.language, error.code)  # translated as it is drawn
        if error.code == "closed" or (
            error.code == "stale"
            and error.version is not None
            and (self.screen.version is None or self.screen.version[1] < error.version)
        ):
            snapshot, log, online, told = await self._snapshot_and_log()
            if snapshot is not None:
                html += self.screen.full(snapshot, log, online, told)
        await self.send(html)

    async def _snapshot_and_log(self) -> tuple[dict | None, list[dict], list[int], int]:
        """The table and its log as the database holds them, read after this call (a reading
        already under way may be older than this socket's joining of the table's messages).
        Sockets of one table that ask at the same moment (a crowd arriving, every screen after
        a restart) share one read (game.live.readings)."""
        code = self.code
        return await readings.fresh(code, lambda: _read_table(code))


@database_sync_to_async
def _read_table(code: str) -> tuple[dict | None, list[dict], list[int], int]:
    """The table, its log and whose sockets are open (so that every new screen, a spectator's
    without a session too, marks who is here at once), with the count of presence messages the
    table had when it was read (before who is here: the reading is as new as that message)."""
    table = table_reads.table_by_code(code)
    if table is None:
        return None, [], [], 0
    game = table_reads.current_game(table)
    return (
        table_reads.snapshot(table, game=game),
        table_reads.log_events(game),
        presence.online(table.id),
        table.presence_told,
    )
