"""The channel layers as a service needs them. The process-local one the table sockets meet on
(LocalChannelLayer) sweeps for expired messages once a second, not on every message. The Redis
one is bounded, patient, and never the reason a socket closes.

channels-redis on redis-py 8 out of the box: every connection gets redis-py's 5 s read timeout,
the same length as the layer's blocking read (BZPOPMIN, 5 s), so an idle socket's read times
out and its consumer dies with 1011; the pool has a hard cap that raises MaxConnectionsError
when a crowd connects at once; and an error while Redis restarts propagates into whichever
consumer happened to be reading. Here:

- the read timeout is longer than the blocking read (a dead connection is still noticed);
- connections come from a blocking pool: a burst waits its turn instead of failing;
- idle pooled connections are checked before use and failed commands retried, so a stale
  connection left over from a Redis restart costs one reconnect, not a lost broadcast;
- `receive` waits out an unreachable Redis instead of raising into the consumer. What a
  screen missed meanwhile it learns from the database (game.live.watch);
- fewer round trips per message (its only traffic is one update per move, to each process that
  follows the table): a group send reads the group and hands the message to its channels in a
  cached script (2 round trips, not 4 and the script's text every time), and a receive is one
  blocking pop, without channels-redis' backup queue (3 more round trips for every message): a
  message lost to a receive cancelled at the wrong moment is a screen game.live.watch brings up to
  date, as for any other lost message.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from game.runtime import outage

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)

# A group send's delivery to the channels of one connection: drop each channel's expired
# messages, then queue the message where there is room. KEYS: the channels; ARGV: a message per
# channel, a capacity per channel, the time, the expiry. Returns how many channels were full.
DELIVER = """
local count = #KEYS
local now = tonumber(ARGV[2 * count + 1])
local expiry = tonumber(ARGV[2 * count + 2])
local over = 0
for i = 1, count do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, now - expiry)
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[count + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over = over + 1
    end
end
return over
"""


class LocalChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, for this process's table sockets. Out of the box it sweeps
    every channel and group for expired messages on every receive: with a few hundred sockets in
    a process that sweep was the largest single cost of delivering a move to its screens. Here
    it runs at most once every SWEEP_SECONDS (an expired message lingers that much longer).

    And a message is handed to each channel of a group as it is, by reference, in one pass:
    Channels' copies it for every channel and starts a task per channel to queue it, and a move
    at a table of four paid for four copies, four tasks and the waits on them. Within the process
    messages are read, never changed (game.delivery.broadcast packs a fresh one per update and
    its body is shared on purpose), so the copy protected nothing."""

    SWEEP_SECONDS = 1.0
    _swept = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept >= self.SWEEP_SECONDS:
            self._swept = now
            super()._clean_expired()

    def _queue(self, channel: str, message: dict) -> None:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            queue.put_nowait((time.time() + self.expiry, message))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._queue(channel, message)

    async def group_send(self, group: str, message: dict) -> None:
        """To every channel of the group now, without waiting: a full channel misses it, as
        with Channels' own (its screen reads the table at the next check, game.live.watch)."""
        assert isinstance(message, dict), "Message is not a dict"
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            try:
                self._queue(channel, message)
            except ChannelFull:
                logger.info("a socket's queue is full; it misses an update of %s", group)


class ServiceRedisChannelLayer(RedisChannelLayer):
    """channels-redis with the settings above; CONFIG takes `pool_size` (connections per process
    and event loop) and `pool_timeout` (seconds a command waits for a free connection)."""

    brpop_timeout = 5
    read_timeout = 15  # > brpop_timeout: a blocking read that returns nothing is not a timeout
    retry_wait_max = 2.0

    def __init__(self, hosts=None, pool_size: int = 50, pool_timeout: float = 10, **kwargs) -> None:
        super().__init__(hosts=hosts, **kwargs)
        self.pool_size, self.pool_timeout = pool_size, pool_timeout

    def create_pool(self, index):
        host = dict(self.hosts[index])
        address = host.pop("address", None)
        options = {
            "max_connections": self.pool_size,
            "timeout": self.pool_timeout,
            "socket_timeout": self.read_timeout,
            "socket_connect_timeout": 5,
            "health_check_interval": 10,
            "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), retries=3),
            "retry_on_error": [RedisConnectionError, RedisTimeoutError],
            **host,
        }
        if address:
            return BlockingConnectionPool.from_url(address, **options)
        return BlockingConnectionPool(**options)

    async def group_send(self, group: str, message: dict, exclude: str | None = None) -> None:
        """To every member of the group but `exclude` (the sending process's own follower, whose
        screens had the message already: game.delivery.broadcast)."""
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        members = await connection.zrangebyscore(key, int(time.time()) - self.group_expiry, "+inf")
        channels = [name for name in (member.decode() for member in members) if name != exclude]
        if not channels:
            return
        by_connection, messages, capacities = self._map_channel_keys_to_connection(channels, message)
        for index, keys in by_connection.items():
            client = self.connection(index)
            args = [messages[key] for key in keys] + [capacities[key] for key in keys] + [time.time(), self.expiry]
            over = await self._deliver_script(client)(keys=keys, args=args, client=client)
            if over:
                logger.info("%s of %s channels over capacity in group %s", over, len(members), group)

    def _deliver_script(self, client):
        if getattr(self, "_deliver", None) is None:
            self._deliver = client.register_script(DELIVER)
        return self._deliver

    async def group_add(self, group: str, channel: str) -> None:
        """Join (or renew, game.delivery.broadcast does every heartbeat), dropping expired members:
        one round trip."""
        key = self._group_key(group)
        now = time.time()
        async with self.connection(self.consistent_hash(group)).pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, 0, int(now) - self.group_expiry)
            pipe.zadd(key, {channel: now})
            pipe.expire(key, self.group_expiry)
            await pipe.execute()

    async def ping(self) -> bool:
        """Every Redis of the layer answers, on the pool its sends use (the health check)."""
        for index in range(self.ring_size):
            await self.connection(index).ping()
        return True

    async def _brpop_with_clean(self, index, channel, timeout):
        result = await self.connection(index).bzpopmin(channel, timeout=timeout)
        return None if result is None else result[1]

    async def _clean_receive_backup(self, index, channel) -> None:
        """No backup queue to clean (see the module's note)."""

    async def receive(self, channel: str) -> dict:
        wait = 0.1
        while True:
            try:
                message = await super().receive(channel)
            except UNREACHABLE as error:  # said once (game.runtime.outage), then waited out quietly
                outage.down("the channel layer", error)
                await asyncio.sleep(wait)
                wait = min(wait * 2, self.retry_wait_max)
                continue
            outage.up("the channel layer")
            return message
