"""The Redis channel layer between processes (game.delivery.channel_layer) on a real Redis: a group send
reaches every process that follows the group once, in order, and costs three commands a message
(the group's members, the delivery script, the receiver's blocking pop); a full channel is
skipped, not waited for; a process whose membership expired gets nothing and is dropped at the
next join."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
import redis

from game.delivery.channel_layer import ServiceRedisChannelLayer
from tests.waiting import until_async

REDIS = os.environ.get("SEVN_TEST_REDIS", "redis://127.0.0.1:6379/8")
# What the delivery script runs inside Redis, and what INFO's own connection costs: not round trips.
NOT_ROUND_TRIPS = {"zadd", "zcard", "zremrangebyscore", "expire", "hello", "select", "info", "client"}


@pytest.fixture
def processes():
    """Two processes' layers (each its own client prefix), on an empty database."""
    redis.Redis.from_url(REDIS).flushdb()
    yield ServiceRedisChannelLayer(hosts=[REDIS], capacity=3), ServiceRedisChannelLayer(hosts=[REDIS], capacity=3)
    redis.Redis.from_url(REDIS).flushdb()


def commands() -> dict[str, int]:
    stats = redis.Redis.from_url(REDIS).info("commandstats")
    return {name.removeprefix("cmdstat_"): entry["calls"] for name, entry in stats.items()}


def test_a_group_send_reaches_every_process_once_in_order_in_three_round_trips(processes):
    first, second = processes

    async def scenario():
        one, two = await first.new_channel("tables."), await second.new_channel("tables.")
        await first.group_add("table.ABC", one)
        await second.group_add("table.ABC", two)
        await first.group_send("table.ABC", {"type": "table.update", "n": -1})  # connections made
        assert (await first.receive(one))["n"] == (await second.receive(two))["n"] == -1
        before = commands()
        for n in range(3):
            await first.group_send("table.ABC", {"type": "table.update", "n": n})
        got = [[(await layer.receive(channel))["n"] for _ in range(3)] for layer, channel in processes_and(one, two)]
        after = commands()
        for layer in processes:
            await layer.close_pools()
        spent = {name: calls - before.get(name, 0) for name, calls in after.items() if calls > before.get(name, 0)}
        return got, {name: calls for name, calls in spent.items() if name not in NOT_ROUND_TRIPS}

    def processes_and(one, two):
        return ((first, one), (second, two))

    got, round_trips = asyncio.run(scenario())
    assert got == [[0, 1, 2], [0, 1, 2]]
    assert round_trips == {"zrangebyscore": 3, "evalsha": 3, "bzpopmin": 6}


def test_a_full_channel_is_skipped_and_an_expired_member_gets_nothing(processes):
    first, second = processes

    async def scenario():
        full, late = await first.new_channel("tables."), await second.new_channel("tables.")
        await first.group_add("table.ABC", full)
        for n in range(5):  # capacity 3: the last two find it full and are dropped for it
            await first.group_send("table.ABC", {"type": "table.update", "n": n})
        kept = [(await first.receive(full))["n"] for _ in range(3)]
        key = first._group_key("table.ABC")
        await second.group_add("table.ABC", late)
        await first.connection(0).zadd(key, {late: 1})  # joined long ago and never renewed since
        await first.group_send("table.ABC", {"type": "table.update", "n": 9})
        waiting = await first.connection(0).zcard(second.prefix + second.non_local_name(late))
        await first.group_add("table.ABC", full)  # any join drops the expired members
        members = await first.connection(0).zrange(key, 0, -1)
        assert (await first.receive(full))["n"] == 9
        for layer in processes:
            await layer.close_pools()
        return kept, waiting, members, full

    kept, waiting, members, full = asyncio.run(scenario())
    assert kept == [0, 1, 2]
    assert waiting == 0 and members == [full.encode()]


def test_the_cache_has_one_bounded_pool_per_process_whatever_the_threads():
    """Django's Redis cache made a pool per cache object, one per thread and task (637 of 641
    connections at peak on the stack): here every cache object of the process shares one."""
    import threading

    from django.core.cache.backends.redis import RedisCache

    from game.delivery.redis_pools import SharedCachePool

    options = {"pool_class": "game.delivery.redis_pools.SharedCachePool", "max_connections": 3, "timeout": 5}
    url = REDIS.rsplit("/", 1)[0] + "/9"
    pools = set()

    def one_thread() -> None:
        cache = RedisCache(url, {"OPTIONS": options})  # what each thread's and task's cache object is
        for n in range(20):
            cache.set(f"k{n}", n)
            assert cache.get(f"k{n}") == n
        pools.add(id(cache._cache._get_connection_pool(write=True)))

    threads = [threading.Thread(target=one_thread) for _ in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(pools) == 1 and SharedCachePool.connections() <= 3


def test_a_process_alone_at_a_table_sends_redis_nothing_and_learns_of_a_second_at_once(processes, monkeypatch):
    """Relays say hello on a table's group when they start following it and answer a newcomer's
    hello: a process sends a table's updates to Redis only while another follows the table (or
    while the answers to its own hello may still be on their way)."""
    from game.delivery import broadcast

    monkeypatch.setattr(broadcast, "ANSWERS_WITHIN", 0.3)
    first, second = (broadcast.Relay(layer) for layer in processes)

    async def until(condition) -> bool:
        return await until_async(condition, "the relays heard each other", seconds=3)

    async def scenario():
        assert first.others_follow("ABC")  # not followed here: who else does is not known
        await first.follow("ABC")
        assert first.others_follow("ABC")  # just said hello: answers may be on their way
        await asyncio.sleep(0.35)  # time under test: ANSWERS_WITHIN (0.3 s) passes with no answer
        alone = first.others_follow("ABC")
        await second.follow("ABC")  # its hello reaches the first, whose answer reaches it
        both = await until(lambda: first.others_follow("ABC")) and await until(
            lambda: second.others.get("ABC", {}).keys() == {first.channel}
        )
        await asyncio.sleep(0.35)  # time under test: past ANSWERS_WITHIN, what was heard counts
        second_knows = second.others_follow("ABC")
        await second.unfollow("ABC")  # its goodbye
        gone = await until(lambda: not first.others_follow("ABC"))
        await second.follow("ABC")
        await until(lambda: first.others_follow("ABC"))
        first.others["ABC"][second.channel] = time.monotonic() - 1  # a process that went silent
        lapsed = not first.others_follow("ABC")
        first.stale = True  # a join missed while Redis was away: send, whatever was heard
        stale = first.others_follow("ABC")
        for relay in (first, second):
            relay.task.cancel()
        for layer in processes:
            await layer.close_pools()
        return alone, both, second_knows, gone, lapsed, stale

    assert asyncio.run(scenario()) == (False, True, True, True, True, True)


def test_an_update_goes_to_redis_only_while_another_process_follows_its_table(monkeypatch):
    from game.delivery import broadcast

    class Shared:
        sent: list = []

        async def group_send(self, group, message, exclude=None):
            self.sent.append((group, message["type"], exclude))

    shared = Shared()
    relay = broadcast.Relay(shared)
    relay.channel, relay.followed["ABC"], relay.said_hello["ABC"] = "tables.me", 1, time.monotonic() - 60
    monkeypatch.setattr(broadcast, "relay", relay)
    monkeypatch.setattr(broadcast, "_shared_layer", lambda: shared)
    update = {"snapshot": {"table": {}}, "events": []}
    asyncio.run(broadcast.send_async("ABC", update))
    assert shared.sent == []  # nobody else follows the table
    relay.others["ABC"] = {"tables.other": time.monotonic() + 30}
    asyncio.run(broadcast.send_async("ABC", update))
    asyncio.run(broadcast.send_async("XYZ", update))  # not followed here: who does is not known
    assert shared.sent == [("table.ABC", "table.update", "tables.me"), ("table.XYZ", "table.update", "tables.me")]


def test_after_an_outage_a_renewal_waits_for_the_answers_to_its_hellos(monkeypatch):
    """Joins missed while Redis was away: the renewal that makes them good says hello on each
    table, and the process sends its updates meanwhile (the answers are on their way)."""
    from game.delivery import broadcast

    class Shared:
        async def group_add(self, group, channel):
            pass

        async def group_send(self, group, message, exclude=None):
            pass

    relay = broadcast.Relay(Shared())
    relay.channel, relay.followed["ABC"], relay.stale = "tables.me", 1, True
    asyncio.run(relay.renew())
    assert not relay.stale and relay.others_follow("ABC")
    monkeypatch.setattr(broadcast, "ANSWERS_WITHIN", 0)
    assert not relay.others_follow("ABC")  # and once they could have come, only what was heard counts


def test_the_relay_and_a_page_socket_of_one_process_do_not_wait_behind_each_other(processes):
    """Every receiver a process has on the layer (its relay of tables; the socket of each page a
    signed-in person has open, game.live.people) reads one Redis list. channels-redis lets one
    receive of a process wait on Redis at a time, and that one pops its own channel's list only:
    on lists of their own, a table's update from another process waited behind a page socket's
    5-second wait, and an invitation behind the relay's (seen as a health check timing out)."""
    from channels.layers import get_channel_layer

    from game.delivery import broadcast

    here, there = processes
    server = redis.Redis.from_url(REDIS)

    def waiting_on_redis() -> int:
        """Clients blocked in a pop (a receive waiting on Redis)."""
        return sum("b" in client["flags"] for client in server.client_list())

    def receiving(task: asyncio.Task) -> bool:
        """The relay's task is waiting in the layer's receive (on Redis, or behind another): what
        it awaits, and what that awaits, down to where it is suspended."""
        awaited = task.get_coro()
        while awaited is not None:
            frame = getattr(awaited, "cr_frame", None)
            if frame is not None and frame.f_code.co_name == "receive":
                return True
            awaited = getattr(awaited, "cr_await", None)
        return False

    async def delivered(send, receive) -> float:
        started = time.monotonic()
        await send()
        await asyncio.wait_for(receive(), 10)
        return time.monotonic() - started

    async def scenario():
        relay = broadcast.Relay(here)
        page = await here.new_channel()  # named as Channels names every consumer's channel
        local = get_channel_layer(broadcast.LOCAL)
        screen = await local.new_channel()
        await local.group_add(broadcast.group_name("ABC"), screen)
        waiting = asyncio.ensure_future(here.receive(page))  # a page's socket, waiting on Redis
        await until_async(lambda: waiting_on_redis() >= 1, "the page's receive waiting on Redis")
        await relay.follow("ABC")  # the relay's receive, waiting behind it
        await until_async(lambda: receiving(relay.task), "the relay's receive under way")
        update = {**broadcast.pack("ABC", {"snapshot": {"table": {}}, "events": []}), "sender": "elsewhere"}
        to_the_relay = await delivered(
            lambda: there.group_send(broadcast.group_name("ABC"), update), lambda: local.receive(screen)
        )
        # now the relay's receive may be the one waiting on Redis
        await until_async(lambda: waiting_on_redis() >= 1, "a receive waiting on Redis again")
        to_the_page = await delivered(lambda: there.send(page, {"type": "invitation"}), lambda: waiting)
        relay.task.cancel()
        for layer in processes:
            await layer.close_pools()
        return to_the_relay, to_the_page

    to_the_relay, to_the_page = asyncio.run(scenario())
    assert to_the_relay < 1.0 and to_the_page < 1.0, (to_the_relay, to_the_page)


def test_a_person_put_out_in_one_process_has_their_table_sockets_closed_in_another(processes, monkeypatch):
    """A suspension or a ban made in one process (admin) closes the person's table sockets in
    every other: each process's relay listens on one shared group (broadcast.OUT_GROUP) from its
    first table on, and hands the word to the person's local group, whatever table they are at."""
    from channels.layers import get_channel_layer

    from game.delivery import broadcast
    from game.delivery.channel_layer import LocalChannelLayer

    here, there = processes

    async def scenario():
        relay = broadcast.Relay(here)
        local = get_channel_layer(broadcast.LOCAL)  # this process's sockets
        socket = await local.new_channel()
        await local.group_add(broadcast.out_groups("tagofsam")[0], socket)
        # a table socket of this process (not necessarily Sam's table): once follow returns, the
        # relay's channel is in the people-out group, so what is said there waits for it
        await relay.follow("ABC")
        admins_sockets = LocalChannelLayer()  # the admin's process: none of Sam's sockets
        monkeypatch.setattr(broadcast, "_shared_layer", lambda: there)
        monkeypatch.setattr(broadcast, "relay", broadcast.Relay(there))  # following no table
        monkeypatch.setattr(
            broadcast, "get_channel_layer", lambda alias="default": admins_sockets if alias == "local" else there
        )
        started = time.monotonic()
        await broadcast.put_out_async("tagofsam", None, "suspended")
        got = await asyncio.wait_for(local.receive(socket), 5)
        took = time.monotonic() - started
        relay.task.cancel()
        for layer in processes:
            await layer.close_pools()
        return got, took

    got, took = asyncio.run(scenario())
    assert (got["type"], got["to"], got["why"]) == ("person.out", "tagofsam", "suspended") and took < 1.0
