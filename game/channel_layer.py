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
  screen missed meanwhile it learns from the database (game.watch).
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)


class LocalChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, for this process's table sockets. Out of the box it sweeps
    every channel and group for expired messages on every receive: with a few hundred sockets in
    a process that sweep was the largest single cost of delivering a move to its screens. Here
    it runs at most once every SWEEP_SECONDS (an expired message lingers that much longer)."""

    SWEEP_SECONDS = 1.0
    _swept = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept >= self.SWEEP_SECONDS:
            self._swept = now
            super()._clean_expired()


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

    async def receive(self, channel: str) -> dict:
        wait = 0.1
        while True:
            try:
                return await super().receive(channel)
            except UNREACHABLE as error:
                logger.warning("channel layer unreachable (%s); retrying in %.1f s", error, wait)
                await asyncio.sleep(wait)
                wait = min(wait * 2, self.retry_wait_max)
