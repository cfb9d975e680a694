"""The table sockets of this process, and the check that none of them falls behind.

A committed move normally reaches every screen through the channel layer. When the layer
loses one (Redis restarting, a failed broadcast, a group membership Redis forgot), nothing
else would ever tell that screen. So every process compares, once a second, what each of its
sockets shows with what the database holds, in three queries for all its tables; a socket that
shows an older table and has received nothing for RESYNC_AFTER seconds (not merely waiting for
an update in flight) reads its table again and rejoins its group. A socket that receives an
update after a gap in versions reads the table too (consumers), so no log line goes missing.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Hashable

from channels.db import database_sync_to_async

from game.delivery import announce
from game.delivery.broadcast import relay, send_async
from game.runtime import outage, stages
from game.services import online, presence, table_reads

logger = logging.getLogger(__name__)

CHECK_SECONDS = 1.0
RESYNC_AFTER = 2.5  # seconds a screen may show an older table without any update arriving
# (while Redis is down no update from another process can be on its way: a screen behind the
# database reads it at the first check that finds it behind, so it is at most ~1 s behind)

_sockets: dict[str, weakref.WeakSet] = {}
_person_sockets: weakref.WeakSet = weakref.WeakSet()  # signed-in pages' own sockets (game.live.people)


def person_opened(consumer) -> None:
    _person_sockets.add(consumer)


def person_closed(consumer) -> None:
    _person_sockets.discard(consumer)


def add(code: str, consumer) -> None:
    _sockets.setdefault(code, weakref.WeakSet()).add(consumer)


def remove(code: str, consumer) -> None:
    sockets = _sockets.get(code)
    if sockets is not None:
        sockets.discard(consumer)
        if not sockets:
            del _sockets[code]


def sockets_of(code: str) -> list:
    return list(_sockets.get(code, ()))


def count() -> int:
    return sum(len(sockets) for sockets in _sockets.values())


async def tell(code: str, message: dict) -> None:
    """A committed change to every screen of its table. If the layer fails, this process's
    screens read the table at once and the others find out from their own check."""
    try:
        await send_async(code, message)
    except Exception:
        logger.warning("broadcast failed for %s; local screens read again", code, exc_info=True)
        await resync_table(code)


async def call(service, /, *args, **kwargs):
    """A service called from the event loop (a socket, the timers): run in the database thread,
    and what it announced at its commits (game.delivery.announce) sent from here once it returns,
    in order, through `tell`; what committed before a failure is sent too. Nothing else
    broadcasts what a service changed."""
    said: list = []
    try:
        with announce.held() as said:
            return await database_sync_to_async(service)(*args, **kwargs)
    finally:
        for announcement in said:
            await announce.send_async(announcement, tell)


async def resync_table(code: str) -> None:
    """Every socket of this process at this table reads it again (a broadcast just failed)."""
    await asyncio.gather(*(consumer.resync() for consumer in sockets_of(code)), return_exceptions=True)


async def check_once() -> int:
    """One comparison of every local socket with the database; returns how many resynced."""
    codes = [code for code, sockets in _sockets.items() if sockets]
    if not codes:
        return 0
    held: dict[str, Hashable] = await database_sync_to_async(_fingerprints)(codes)
    behind = []
    for code in codes:
        for consumer in sockets_of(code):
            if consumer.behind(held.get(code)):
                behind.append(consumer.resync())
    if behind:
        logger.warning("%d screens were behind their table; read again", len(behind))
        await asyncio.gather(*behind, return_exceptions=True)
    return len(behind)


def _fingerprints(codes: list[str]) -> dict:
    with stages.timed("screens' check"):
        return table_reads.fingerprints(codes)


def _heartbeat(sockets: dict[str, tuple[str, str]], pages: dict[str, int]) -> list[dict]:
    with stages.timed("clocks and presence"):
        online.heartbeat(pages=pages)
        return presence.heartbeat(sockets=sockets)


async def heartbeat() -> None:
    """Every live socket of this process is present (one statement), every signed-in page's
    person on the site (services.online), and this process follows
    its tables on Redis again (a restart forgets groups). A socket gone is gone from the
    registry, so nothing here can outlive it."""
    live = {
        consumer.channel_name: (consumer.code, consumer.viewer_key)
        for code in list(_sockets)
        for consumer in sockets_of(code)
        if consumer.present
    }
    pages = {consumer.channel_name: consumer.user_id for consumer in list(_person_sockets) if consumer.user_id}
    await call(_heartbeat, live, pages)  # people a sweep took for gone while their sockets lived: here again
    relay.renew_soon()


def rejoin_when_redis_is_back() -> None:
    """While Redis is away the relay's joins are skipped; once it answers (tried at most once a
    second, in the background: no screen waits), every followed table is joined anew."""
    if outage.is_down():
        relay.stale = True
    if relay.stale and not outage.skipping():
        relay.renew_soon()


async def run_forever() -> None:
    """The screens' check every second, the heartbeat every HEARTBEAT, until the server stops.
    The heartbeat goes by the clock, not by counting checks: on a loaded process each check
    waits its turn on the database thread (and for the screens it reads again): at twice the
    capacity knee ten of them took up to 22 s, near presence.STALE_AFTER (30 s), past which the
    people sitting at their screens count as gone (their turn hurried, then played for them)."""
    beaten = time.monotonic()
    while True:
        await asyncio.sleep(CHECK_SECONDS)
        try:
            rejoin_when_redis_is_back()
            await check_once()
            if time.monotonic() - beaten >= presence.HEARTBEAT.total_seconds():
                beaten = time.monotonic()
                await heartbeat()
        except asyncio.CancelledError:
            raise
        except Exception:  # the database restarting: try again next time
            logger.exception("screen check failed; retrying")
