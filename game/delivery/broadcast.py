"""Telling every viewer of a table to redraw.

Table sockets live on a process-local layer (the "local" alias: Channels' in-memory layer), so
within one process an update travels by reference to each socket of its table, at once. Across
processes (Redis) an update travels once per process, not once per socket: each process follows,
with one channel of its own, the tables it has sockets for, and relays what arrives to its local
group. A table with 200 watchers on two servers costs Redis one delivery (to the other server),
not two hundred; a table whose sockets are all in the process that made the move (the proxy
routes a table's sockets to one process) costs Redis only the look-up of who follows it.

A table whose sockets are all in one process (as the proxy arranges) costs Redis nothing at
all: a process that follows a table says so to the table's group (`relay.hello`), every other
follower answers, and a process sends its updates to Redis only while it knows of another
follower (or has just begun following and may not have heard the answers yet; or does not follow
the table itself, and knows nothing of who does). The hellos are said again with every renewal
(each heartbeat), so a process that went away without a goodbye is forgotten a few heartbeats
later. Encoding an update and asking Redis for the group's members, with nobody else in it, was
about a twentieth of a move's CPU.

What Redis loses (a restart, a failed send) the screens learn from the database (game.live.watch).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from game.delivery.channel_layer import UNREACHABLE
from game.runtime import outage, stages

logger = logging.getLogger(__name__)

LOCAL = "local"  # the alias of the process-local layer every table socket uses


class Passed:
    """A message's body within the process, passed by reference to each socket (copying it, as
    the in-memory layer does, is free). For a table update, `shared` and `log` are what the
    renderer works out from it once for every screen of the process, and `views` each distinct
    viewer's table, once for the screens that see the same (game.screen)."""

    __slots__ = ("body", "shared", "log", "variants", "views", "last_moves")

    def __init__(self, body: dict) -> None:
        self.body = body
        self.shared: object = None
        self.log: object = None
        # `shared` for viewers who may not see some seats' records (a private profile's, shown to
        # its friends only): by the seats whose records they do not see
        self.variants: dict = {}
        self.views: dict | None = None  # each distinct viewer's table, worked out once (game.screen)
        self.last_moves: dict = {}  # the "last move" strip, by the events a screen heard (game.screen)

    def __deepcopy__(self, memo: dict) -> Passed:
        return self


def group_name(code: str) -> str:
    return f"table.{code}"


def message_type(update: dict) -> str:
    """The socket handler a service's update goes to: a table update ({"snapshot", "events"}) to
    table_update, a chat update ({"chat": "line" | "notice" | "settings", "body"}) to chat_<it>."""
    return "table.update" if "snapshot" in update else f"chat.{update['chat']}"


def pack(code: str, update: dict, *, local: bool = False) -> dict:
    """The channel-layer message for a service's update: within the process the update itself,
    by reference; between processes, JSON. Nothing but the snapshot and events (or the chat
    body) goes out: the services' updates hold what every viewer may see, and tags, not keys."""
    body = update["body"] if "chat" in update else {"snapshot": update["snapshot"], "events": update["events"]}
    if local:
        return {"type": message_type(update), "passed": Passed(body)}
    return {"type": message_type(update), "code": code, "payload": json.dumps(body, separators=(",", ":"))}


def passed(message: dict) -> Passed:
    """What a socket's message carries (read it, never change it): every socket of the process
    that receives it holds the same one."""
    return message["passed"]


def unpack(message: dict) -> dict:
    """The body of a socket's message (read it, never change it)."""
    return message["passed"].body


def from_wire(message: dict) -> dict:
    """A message that came over the shared layer, as this process's sockets receive it: parsed
    once here for all of them."""
    return {"type": message["type"], "passed": Passed(json.loads(message["payload"]))}


def _shared_layer():
    """The layer between processes, or None when this process is the whole site."""
    layer = get_channel_layer()
    return None if isinstance(layer, InMemoryChannelLayer) else layer


async def send_async(code: str, update: dict) -> None:
    """An update to every screen of the table: this process's at once, by reference; every
    other process that follows the table through the shared layer (once per process; none when
    the table's sockets are all here, as the proxy arranges). With Redis down only this
    process's screens get it (at once, as always); the others' read it from the database
    (game.live.watch), and nothing here waits for Redis or raises."""
    with stages.timed("broadcast here"):  # the in-memory layer queues it without waiting
        await get_channel_layer(LOCAL).group_send(group_name(code), pack(code, update, local=True))
    shared = _shared_layer()
    if shared is None or outage.skipping() or not relay.others_follow(code):
        return
    with stages.timed("broadcast encode"):
        message = {**pack(code, update), "sender": relay.channel}
    try:
        await shared.group_send(group_name(code), message, exclude=relay.channel)
    except UNREACHABLE as error:
        outage.down("a broadcast", error)
        relay.stale = True
    else:
        outage.up("a broadcast")


def send(code: str, update: dict) -> None:
    """From a thread (a service's announcement at its commit, game.delivery.announce): a failure
    is logged, not raised (the change is committed, and every screen finds out from its check of
    the database, game.live.watch)."""
    try:
        async_to_sync(send_async)(code, update)
    except Exception:
        logger.warning("broadcast failed for %s; screens will read the table", code, exc_info=True)


HELLO, HERE, BYE = "relay.hello", "relay.here", "relay.bye"  # between the processes' relays only
OUT = "person.out"  # a person's sockets to close (put_out)
OUT_GROUP = "people.out"  # on the shared layer: every process's relay, to hear put_out
HEARD_FOR = 35.0  # seconds a follower's hello counts (its renewals say it again each heartbeat, 10 s)
ANSWERS_WITHIN = 2.0  # seconds after its own hello a process sends regardless (the answers on their way)


class Relay:
    """This process's follower of tables on the shared layer: one channel, one receive loop.

    With Redis down nothing here raises or waits: joins are skipped (`stale`), and once Redis
    answers again `renew` (game.live.watch calls it) joins every followed table anew, as a
    Redis restart forgets them. `others` is who else follows each followed table, by their
    hellos (their channel and when it stops counting)."""

    def __init__(self, layer=None) -> None:
        self.layer = layer  # the shared layer (None: the site's, if it has one)
        self.channel: str | None = None
        self.followed: Counter[str] = Counter()
        self.others: dict[str, dict[str, float]] = {}
        self.said_hello: dict[str, float] = {}  # when this process last said it follows the table
        self.task: asyncio.Task | None = None
        self.renewing: asyncio.Task | None = None
        self.stale = False  # a join or leave did not reach Redis: renew when it is back

    def _shared(self):
        return self.layer if self.layer is not None else _shared_layer()

    def others_follow(self, code: str) -> bool:
        """Whether an update of this table must go to Redis: another process follows it, or may
        (this one does not follow it, has just said hello, or missed a join while Redis was away)."""
        if self.followed[code] <= 0 or self.stale:
            return True
        now = time.monotonic()
        if now - self.said_hello.get(code, float("-inf")) < ANSWERS_WITHIN:
            return True
        heard = self.others.get(code)
        if heard:
            for channel, until in list(heard.items()):
                if until <= now:
                    del heard[channel]
        return bool(heard)

    async def follow(self, code: str) -> None:
        """A socket of this process opened at this table (the first one joins the group)."""
        shared = self._shared()
        if shared is None:
            return
        self.followed[code] += 1
        if self.channel is None:
            # Named as Channels names every consumer's channel (a signed-in person's page socket,
            # game.live.people): channels-redis lets one receive of a process wait on Redis at a
            # time, and that one pops only its own channel's list, until a message comes. On a
            # list of its own ("tables."), the relay and a page socket each held the other off,
            # for as long as nothing came for the one waiting: updates from other processes, or
            # invitations, went unread. On one list, whoever waits hands on what is the other's.
            self.channel = await shared.new_channel()
            await self._call("listening for people put out", shared.group_add, OUT_GROUP, self.channel)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._relay(shared))
        if self.followed[code] == 1:
            if await self._call("following a table", shared.group_add, group_name(code), self.channel):
                await self._say(shared, HELLO, code)

    async def unfollow(self, code: str) -> None:
        shared = self._shared()
        if shared is None or self.followed[code] <= 0:
            return
        self.followed[code] -= 1
        if self.followed[code] == 0:
            del self.followed[code]
            self.others.pop(code, None)
            self.said_hello.pop(code, None)
            await self._call("leaving a table", shared.group_discard, group_name(code), self.channel)
            await self._say(shared, BYE, code)

    async def _say(self, shared, what: str, code: str, to: str | None = None) -> None:
        """A hello, an answer (to one process) or a goodbye about a table, to the other followers."""
        if what == HELLO:
            self.said_hello[code] = time.monotonic()
        message = self._about(what, code)
        if to is not None:
            await self._call("answering a hello", shared.send, to, message)
        else:
            await self._call("saying hello", shared.group_send, group_name(code), message, self.channel)

    def _about(self, what: str, code: str) -> dict:
        return {"type": what, "code": code, "sender": self.channel}

    def _heard(self, shared, message: dict) -> None:
        """A hello, an answer or a goodbye from another process's relay."""
        code, sender, what = message["code"], message["sender"], message["type"]
        if what == BYE:
            self.others.get(code, {}).pop(sender, None)
            return
        if self.followed[code] <= 0:
            return
        heard = self.others.setdefault(code, {})
        new = sender not in heard
        heard[sender] = time.monotonic() + HEARD_FOR
        if what == HELLO and new:  # a newcomer learns of this process at once
            asyncio.ensure_future(self._say(shared, HERE, code, to=sender))

    async def _call(self, what: str, method, *args) -> bool:
        """One Redis call that may fail while Redis is away (then it is said once, and made good
        by the next renew)."""
        if outage.skipping():
            self.stale = True
            return False
        try:
            await method(*args)
        except UNREACHABLE as error:
            outage.down(what, error)
            self.stale = True
            return False
        outage.up(what)
        return True

    async def renew(self) -> None:
        """Rejoin every followed table's group (Redis may have restarted and forgotten them),
        and say hello again on each (the others' record of this process would lapse)."""
        shared = self._shared()
        if shared is None or self.channel is None:
            return
        was_stale, self.stale = self.stale, False
        codes = list(self.followed)
        try:
            await asyncio.gather(
                shared.group_add(OUT_GROUP, self.channel),
                *(shared.group_add(group_name(code), self.channel) for code in codes),
            )
            hellos = (shared.group_send(group_name(code), self._about(HELLO, code), self.channel) for code in codes)
            await asyncio.gather(*hellos)
        except UNREACHABLE as error:
            outage.down("renewing the tables followed", error)
            self.stale = True
        else:
            outage.up("renewing the tables followed")
            if was_stale:  # after an outage, hellos this process could not say: their answers are on their way
                now = time.monotonic()
                self.said_hello.update(dict.fromkeys(codes, now))

    def renew_soon(self) -> None:
        """Renew in the background (one at a time): nobody waits for Redis."""
        if self.renewing is None or self.renewing.done():
            self.renewing = asyncio.ensure_future(self.renew())

    async def _relay(self, shared) -> None:
        local = get_channel_layer(LOCAL)
        while True:
            message = await shared.receive(self.channel)  # waits out an unreachable Redis itself
            if message.get("sender") == self.channel:  # this process's screens had it at once
                continue
            try:
                if message["type"] in (HELLO, HERE, BYE):
                    self._heard(shared, message)
                    continue
                if message["type"] == OUT:
                    for group in out_groups(message["to"], message["user_id"]):
                        await local.group_send(group, message)
                    continue
                await local.group_send(group_name(message["code"]), from_wire(message))
            except Exception:  # one bad message must not stop every table's updates
                logger.exception("relaying an update failed")


relay = Relay()


def person_group(user_id: int) -> str:
    """Every page a signed-in person has open (game.live.people): one group per account."""
    return f"person.{user_id}"


async def send_to_people_async(sent: list[tuple[int, dict]]) -> None:
    """Invitations to every open page of each invited person, on the layer between processes
    (a person's pages may be on any of them). A failure is logged: the inbox keeps them."""
    layer = get_channel_layer()
    for user_id, invitation in sent:
        try:
            await layer.group_send(person_group(user_id), {"type": "invitation", "invitation": invitation})
        except Exception:
            logger.warning("sending an invitation to %s failed; it waits in the inbox", user_id, exc_info=True)


def send_to_people(sent: list[tuple[int, dict]]) -> None:
    """From a thread (send_to_people_async)."""
    try:
        async_to_sync(send_to_people_async)(sent)
    except Exception:
        logger.warning("sending invitations failed; they wait in the inbox", exc_info=True)


async def send_to_person_async(user_id: int, message: dict) -> None:
    """A message to every open page of one person (a friend request made to them), on the layer
    between processes. A failure is logged: their next page shows what it was about."""
    try:
        await get_channel_layer().group_send(person_group(user_id), message)
    except Exception:
        logger.warning("sending %s to %s failed; their next page shows it", message.get("type"), user_id, exc_info=True)


def send_to_person(user_id: int, message: dict) -> None:
    """From a thread (send_to_person_async)."""
    try:
        async_to_sync(send_to_person_async)(user_id, message)
    except Exception:
        logger.warning("sending to a person's pages failed; their next page shows it", exc_info=True)


async def send_your_move_async(user_id: int, told: dict) -> None:
    """A person's your-move count to every page they have open (game.services.your_move). A
    failure is logged: their next page shows the count anyway."""
    try:
        await get_channel_layer().group_send(person_group(user_id), {"type": "your_move", "told": told})
    except Exception:
        logger.warning("telling %s whose move it is failed", user_id, exc_info=True)


def send_your_move(user_id: int, told: dict) -> None:
    """From a thread (send_your_move_async)."""
    try:
        async_to_sync(send_your_move_async)(user_id, told)
    except Exception:
        logger.warning("telling %s whose move it is failed", user_id, exc_info=True)


def out_groups(player_tag: str, user_id: int | None = None) -> list[str]:
    """This process's table sockets of one person on the local layer: by the tag of their key,
    and a signed-in person's by their account too (whatever key a session knew them by)."""
    return [f"out.{player_tag}"] + ([f"out.user.{user_id}"] if user_id else [])


async def put_out_async(player_tag: str, user_id: int | None, why: str) -> None:
    """Every socket of a person closed, in every process, at once (a suspension, a ban): their
    table sockets (with the chat on them) by the tag of their key, in this process directly and
    in the others through their relays (which all listen to OUT_GROUP, whatever tables they
    follow); an account's page sockets (/ws/me/) through its person group."""
    message = {"type": OUT, "to": player_tag, "user_id": user_id, "why": why}
    local = get_channel_layer(LOCAL)
    for group in out_groups(player_tag, user_id):
        await local.group_send(group, message)
    layer = get_channel_layer()
    if user_id is not None:
        await layer.group_send(person_group(user_id), message)
    shared = _shared_layer()
    if shared is not None:
        await shared.group_send(OUT_GROUP, {**message, "sender": relay.channel})


def put_out(player_tag: str, user_id: int | None, why: str) -> None:
    """From a thread (a suspension or a ban, at its commit): a failure is logged, not raised (the
    person can act as that player nowhere anyway: game.core.identity, and a ban is checked at
    every seat and chat line)."""
    try:
        async_to_sync(put_out_async)(player_tag, user_id, why)
    except Exception:
        logger.warning("closing the sockets of a person put out failed", exc_info=True)
