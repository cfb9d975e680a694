"""One bounded number of Redis connections per process, REDIS_POOL_SIZE, for everything the
process asks Redis: the shared cache (the limits' counters) and the channel layer.

Django's Redis cache makes a connection pool per cache object, and it makes a cache object per
thread and per asynchronous task: a process serving sockets and pages opened hundreds of
connections (641 at peak on the scale-out stack, 637 of them the cache's), and kept them until
the collector found them. Here the cache's pool is one per process (`SharedCachePool`, named as
the cache's pool_class), bounded and blocking like the layer's (game.delivery.channel_layer):
settings give the cache `cache_share` of REDIS_POOL_SIZE and the layer the rest, so the two
together never hold more than REDIS_POOL_SIZE; a burst waits for a free connection.
"""

from __future__ import annotations

import os
import threading

from redis import BlockingConnectionPool


def cache_share(total: int) -> int:
    """The cache's part of a process's REDIS_POOL_SIZE connections (a quarter, at least 2; its
    calls are single short commands)."""
    return max(2, total // 4)


def layer_share(total: int) -> int:
    return max(2, total - cache_share(total))


class SharedCachePool:
    """Django's cache asks its pool_class for `from_url(url, **options)` for every cache object;
    this answers with the one pool of this process for that address."""

    _pools: dict[tuple[int, str], BlockingConnectionPool] = {}
    _lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **options) -> BlockingConnectionPool:
        key = (os.getpid(), url)  # a forked process makes its own
        with cls._lock:
            pool = cls._pools.get(key)
            if pool is None:
                pool = cls._pools[key] = BlockingConnectionPool.from_url(url, **options)
            return pool

    @classmethod
    def connections(cls) -> int:
        """Connections the cache's pools hold now, in use or idle (tests)."""
        with cls._lock:
            return sum(len(pool._connections) for key, pool in cls._pools.items() if key[0] == os.getpid())
