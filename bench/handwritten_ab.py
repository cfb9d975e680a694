"""The hand-written pieces against what their library alone would do, A and B in turns in one run.

Each piece the README's "Hand-written, and why" keeps is measured here beside the library's own
way of doing the same, in blocks that take turns (A B, B A, ...; the machine is shared and its
speed drifts, so only figures from one run side by side compare), and the median of the blocks
is printed:

- store: a move's reads and writes through game/services/store.py (SQL composed once) against
  the same reads and writes through the ORM's querysets (the same fields, `.only()`), CPU and
  wall time per move, on SQLite and (shared services on) PostgreSQL;
- layer: one group_send to 8 and to 50 sockets of a process on the local layer
  (game/delivery/channel_layer.LocalChannelLayer, the message by reference) against Channels'
  InMemoryChannelLayer with the same message and with the plain update (which it deep-copies
  for every socket), until every socket has it; alone in the process and beside 200 other
  sockets;
- relay: a table watched by N sockets across two processes (two worker processes of this
  script, on Redis): the relay (game/delivery/broadcast.py, one Redis message to each other
  process that follows the table) against every socket on the Redis layer itself, channels-redis
  out of the box and the site's own ServiceRedisChannelLayer; Redis round trips (counted in the
  client), CPU of each process and of Redis, and the time until every socket has it;
- admin: a log-in try that admin's throttle refuses against one it lets through to Django's
  log-in, with the production password hasher: time per try and password hashes per try.

Shared services: PostgreSQL (a scratch database, dropped after) and Redis (db 14, keys with this
run's prefix, deleted after), used only under /tmp/sevn-scaleout.lock. `--no-shared` runs what
needs neither (the store on SQLite, the layer, the admin log-in with the in-memory cache).

The last line printed is one JSON object of the medians, keys named after what they measure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.set_up import in_turns, schema_from_models, scratch_postgresql, shared_lock  # noqa: E402

REDIS = "redis://127.0.0.1:6379/14"
SEATS = 4
LOST_AFTER = 30  # seconds a socket's message may take before it counts as lost


def median(values) -> float:
    return round(statistics.median(values), 1)


def setup_django(database_url: str, redis_url: str = "") -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "sevn_site.settings"
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = redis_url
    os.environ.setdefault("SEVN_TIMERS", "off")
    import django

    django.setup()


def sample_table(code: str, *, saved: bool):
    """A playing table of four with a dealt SEVN game: (table, seats, game, state)."""
    from game import registry
    from game.models import Game, Seat, Table

    table = Table(code=code, host_key="h" * 64, host_name="Ada", seat_count=SEATS, kind="sevn", status="playing")
    if saved:
        table.save()
    seats = [Seat(table=table, index=i, player_key=f"{i}" * 64, nickname=f"Player {i}") for i in range(SEATS)]
    kind = registry.of(table)
    state = kind.new(table, SEATS, 1234567, [])
    game = Game(table=table, number=1, state=kind.to_json(state), seed=1234567, players=[s.nickname for s in seats])
    if saved:
        for seat in seats:
            seat.save()
        game.save()
    else:
        table.id, game.id = 1, 1
        for number, seat in enumerate(seats, 1):
            seat.id = number
    return table, seats, game, state


def sample_update() -> dict:
    """A real table update of a table of four (what a move broadcasts), without a database."""
    from game.services.common import table_update

    table, seats, game, state = sample_table("HWAB0000", saved=False)
    return table_update(table, seats, game, state, [{"seq": 9, "type": "dealt", "seat": 1, "card": "4"}])


# --- the store: SQL composed once, or the ORM's querysets ------------------------------------


def _records(seat: int) -> list[dict]:
    return [{"type": "action", "seat": seat, "action": "draw"}, {"type": "dealt", "seat": seat, "card": "4"}]


def move_by_store(code: str) -> tuple:
    """A move's reads and writes as services.play makes them (game.services.store)."""
    from django.db import transaction
    from django.utils import timezone

    from game.services import store

    with transaction.atomic():
        table, game, seats = store.locked_table_game_and_seats(code)
        records, first = _records(game.version % SEATS), game.event_count
        game.version += 1
        game.event_count = first + len(records)
        store.save_move(game, first, records, timezone.now())
    return table, game, seats


def move_by_orm(code: str) -> tuple:
    """The same reads and writes through the ORM's querysets: the same fields, the same lock."""
    from django.db import transaction
    from django.utils import timezone

    from game.models import Event, Game, Seat, Table
    from game.services import store

    with transaction.atomic():
        table = Table.objects.select_for_update(of=("self",)).only(*store.TABLE_FIELDS).get(code=code)
        game = Game.objects.only(*store.GAME_FIELDS).filter(table_id=table.id).order_by("-number").first()
        seats = list(Seat.objects.only(*store.SEAT_FIELDS).filter(table_id=table.id).order_by("index"))
        records, first, now = _records(game.version % SEATS), game.event_count, timezone.now()
        game.version += 1
        game.event_count = first + len(records)
        Event.objects.bulk_create(
            Event(game_id=game.id, seq=first + i, version=game.version, kind=record["type"], data=record, created=now)
            for i, record in enumerate(records)
        )
        game.save(update_fields=store.SAVED_FIELDS)
    return table, game, seats


def _read_alike(by_store: tuple, by_orm: tuple) -> None:
    """Both ways read the same rows (a move later: the version each wrote)."""
    from game.services import store

    (table_a, game_a, seats_a), (table_b, game_b, seats_b) = by_store, by_orm
    for fields, a, b in ((store.TABLE_FIELDS, table_a, table_b), (store.GAME_FIELDS, game_a, game_b)):
        differ = [
            name for name in fields if name not in ("version", "event_count") and getattr(a, name) != getattr(b, name)
        ]
        assert not differ, f"the two reads differ in {differ}"
    assert [(s.index, s.player_key) for s in seats_a] == [(s.index, s.player_key) for s in seats_b]


def statements_per_move(move, code: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        move(code)
    return sum(1 for query in captured.captured_queries if query["sql"].split()[0] not in ("BEGIN", "COMMIT"))


def store_part(vendor: str, rounds: int, moves: int) -> dict:
    from game.models import Event, Game

    code = "HW" + secrets.token_hex(3).upper()
    table, _seats, game, _state = sample_table(code, saved=True)
    ways = {"store": move_by_store, "orm": move_by_orm}
    _read_alike(move_by_store(code), move_by_orm(code))
    for way in ways.values():  # warm: statements prepared, caches filled
        for _ in range(min(20, moves)):
            way(code)
    statements = {name: statements_per_move(way, code) for name, way in ways.items()}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    wall: dict[str, list[float]] = {name: [] for name in ways}
    for _round, name in in_turns(rounds, list(ways)):
        started, ticked = time.thread_time(), time.perf_counter()
        for _ in range(moves):
            ways[name](code)
        cpu[name].append((time.thread_time() - started) / moves * 1e6)
        wall[name].append((time.perf_counter() - ticked) / moves * 1e6)
    game.refresh_from_db()
    assert Event.objects.filter(game=game).count() == game.event_count == 2 * game.version, "a move was lost"
    assert Game.objects.filter(table=table).count() == 1
    figures = {
        f"store_cpu_us_per_move_{vendor}": {name: median(values) for name, values in cpu.items()},
        f"store_wall_us_per_move_{vendor}": {name: median(values) for name, values in wall.items()},
        f"store_statements_per_move_{vendor}": statements,
    }
    for name in ways:
        print(
            f"store on {vendor}, {name}: {figures[f'store_cpu_us_per_move_{vendor}'][name]} us CPU, "
            f"{figures[f'store_wall_us_per_move_{vendor}'][name]} us wall, {statements[name]} statements a move"
        )
    return figures


# --- the local layer: by reference, or Channels' in-memory layer ------------------------------


class Sockets:
    """`count` consumers on one layer, each receiving in a task of its own as a socket's does;
    `wait(n)` returns once they have had n messages in all."""

    def __init__(self, layer, group: str, count: int) -> None:
        self.layer, self.group, self.count = layer, group, count
        self.received = 0
        self.reached = asyncio.Event()
        self.target = 0
        self.tasks: list[asyncio.Task] = []

    async def start(self) -> None:
        for _ in range(self.count):
            channel = await self.layer.new_channel()
            await self.layer.group_add(self.group, channel)
            self.tasks.append(asyncio.ensure_future(self._receive(channel)))

    async def _receive(self, channel: str) -> None:
        while True:
            try:
                await self.layer.receive(channel)
            except Exception as error:  # a socket's consumer would die of it (Channels closes it)
                raise SystemExit(f"a receive on {self.layer} failed: {error!r}") from error
            self.received += 1
            if self.received >= self.target:
                self.reached.set()

    async def wait(self, total: int) -> None:
        """Until the sockets have had `total` messages in all (a message lost fails the bench)."""
        self.target = total
        if self.received < total:
            self.reached.clear()
            try:
                await asyncio.wait_for(self.reached.wait(), LOST_AFTER)
            except TimeoutError:
                raise SystemExit(f"{self.group} on {self.layer}: {self.received} of {total} messages") from None


async def _layer_blocks(size: int, others: int, rounds: int, sends: int, update: dict) -> dict[str, float]:
    from channels.layers import InMemoryChannelLayer

    from game.delivery import broadcast
    from game.delivery.channel_layer import LocalChannelLayer

    group = broadcast.group_name("HWAB0000")
    packed = broadcast.pack("HWAB0000", update, local=True)
    plain = {"type": broadcast.message_type(update), **update}
    variants = {
        "local": (LocalChannelLayer(), packed),  # as built: by reference, one pass
        "in_memory": (InMemoryChannelLayer(), packed),  # Channels' layer, the message still by reference
        "in_memory_plain": (InMemoryChannelLayer(), plain),  # Channels' layer alone: a deep copy per socket
    }
    sockets, idle = {}, []
    for name, (layer, _message) in variants.items():
        sockets[name] = Sockets(layer, group, size)
        await sockets[name].start()
        for table in range(others // SEATS):  # other tables' sockets of the process, idle
            idle.append(Sockets(layer, broadcast.group_name(f"HWIDLE{table}"), SEATS))
            await idle[-1].start()
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    for number, name in in_turns(rounds + 1, list(variants)):
        layer, message = variants[name]
        started = time.thread_time()
        for _ in range(sends):
            every = sockets[name].received + size  # (taken before: the send may deliver before it returns)
            await layer.group_send(group, message)
            await sockets[name].wait(every)
        if number:  # the first round warms
            cpu[name].append((time.thread_time() - started) / sends * 1e6)
    return {name: median(values) for name, values in cpu.items()}


def layer_part(rounds: int, sends: int) -> dict:
    update = sample_update()
    figures = {}
    for others in (0, 200):
        for size in (8, 50):
            key = f"layer_cpu_us_per_group_send_{size}" + (f"_beside_{others}" if others else "")
            figures[key] = asyncio.run(_layer_blocks(size, others, rounds, sends, update))
            print(f"{key}: {figures[key]}")
    figures["layer_update_bytes"] = len(json.dumps(update))
    return figures


# --- admin's log-in: refused before any hash, or let through ----------------------------------


class Hashes:
    """Counts the production hasher's work (check_password and set_password both encode)."""

    def __init__(self) -> None:
        from django.contrib.auth import hashers

        self.count = 0
        self.hasher = hashers.get_hasher()
        original = type(self.hasher).encode

        def encode(hasher, password, salt, *args, **kwargs):
            self.count += 1
            return original(hasher, password, salt, *args, **kwargs)

        type(self.hasher).encode = encode  # type: ignore[method-assign]


def _admin_tries(address: str, tries: int, expected: int) -> tuple[float, float]:
    from django.test import Client

    client = Client(REMOTE_ADDR=address)
    started, ticked = time.thread_time(), time.perf_counter()
    for n in range(tries):
        status = client.post(
            "/admin/login/?next=/admin/", {"username": "boss", "password": f"wrong-{n}", "next": "/admin/"}
        ).status_code
        assert status == expected, f"an admin log-in try answered {status}, not {expected}"
    return (time.thread_time() - started) / tries * 1e6, (time.perf_counter() - ticked) / tries * 1e6


def admin_part(rounds: int, tries: int) -> dict:
    from django.conf import settings
    from django.contrib.auth.models import User

    from game.runtime import limits

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    # static files as they are, as in the tests (no collectstatic's manifest here)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    User.objects.create_superuser("boss", "", "right-password-1")
    hashes = Hashes()
    refused_at = "198.51.100." + str(secrets.randbelow(250) + 1)
    cpu: dict[str, list[float]] = {"refused": [], "hashed": []}
    wall: dict[str, list[float]] = {"refused": [], "hashed": []}
    counted: dict[str, list[float]] = {"refused": [], "hashed": []}

    def past_the_limit() -> None:  # this address failed too often a moment ago
        settings.SEVN_LOGINS_PER_MINUTE = 3
        while not limits.is_limited("admin-login", refused_at, 3, 60):
            limits.over_limit("admin-login", refused_at, 3, 60)

    past_the_limit()
    _admin_tries(refused_at, 5, 429)  # warm: the first requests of a process set up Django's handler
    for _round, name in in_turns(rounds, ["refused", "hashed"]):
        before = hashes.count
        if name == "refused":
            past_the_limit()
            times = _admin_tries(refused_at, tries * 20, 429)
            made = tries * 20
        else:  # a limit nobody reaches: every try goes on to Django's log-in
            settings.SEVN_LOGINS_PER_MINUTE = 10**9
            times = _admin_tries("192.0.2.77", tries, 200)
            made = tries
        cpu[name].append(times[0])
        wall[name].append(times[1])
        counted[name].append((hashes.count - before) / made)
    figures = {
        "admin_login_cpu_us_per_try": {name: median(values) for name, values in cpu.items()},
        "admin_login_wall_us_per_try": {name: median(values) for name, values in wall.items()},
        "admin_login_hashes_per_try": {name: max(values) for name, values in counted.items()},
        "admin_login_hasher": f"{hashes.hasher.algorithm}, {getattr(hashes.hasher, 'iterations', '')} iterations",
        "admin_login_cache": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
    }
    for key, value in figures.items():
        print(f"{key}: {value}")
    return figures


# --- the relay: one Redis message per process, or every socket on Redis -----------------------

VARIANT: contextvars.ContextVar[str] = contextvars.ContextVar("variant", default="")
RELAY_VARIANTS = ["relay", "channels_redis", "service_layer"]
SCENARIOS = [(8, 2), (50, 2), (8, 1)]  # sockets, and the processes they are spread over


def scenario_name(size: int, processes: int) -> str:
    return f"{size}_over_2_processes" if processes == 2 else f"{size}_in_1_process"


def count_round_trips() -> dict[str, int]:
    """Every command (or pipeline) redis-py writes is one round trip; counted by the variant
    (a context variable) whose task wrote it."""
    from collections import Counter

    from redis.asyncio.connection import AbstractConnection

    counts: Counter[str] = Counter()
    original = AbstractConnection.send_packed_command

    async def send_packed_command(self, command, check_health=True):
        counts[VARIANT.get()] += 1
        return await original(self, command, check_health)

    AbstractConnection.send_packed_command = send_packed_command  # type: ignore[method-assign]
    return counts


def say(line: dict) -> None:
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


class Worker:
    """One of the two processes: the sender (whose move it is) or the other one. Every variant's
    sockets are set up at once, at tables of their own; only the one under test gets messages."""

    def __init__(self, role: str, tag: str) -> None:
        self.role, self.tag = role, tag
        self.sockets: dict[tuple[str, str], Sockets] = {}
        self.layers: dict[str, object] = {}

    def code(self, scenario: str) -> str:
        return f"HW{self.tag}_{scenario}".upper()

    async def setup(self) -> None:
        from channels.layers import get_channel_layer
        from channels_redis.core import RedisChannelLayer
        from django.conf import settings

        from game.delivery import broadcast
        from game.delivery.channel_layer import ServiceRedisChannelLayer

        settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"hwab{self.tag}r"
        self.layers = {
            "relay": get_channel_layer(broadcast.LOCAL),
            # as it comes, but for a read timeout longer than its blocking read (BZPOPMIN, 5 s):
            # with redis-py 8's 5 s an idle receive raised, or lost the message Redis had popped
            "channels_redis": RedisChannelLayer(
                hosts=[{"address": REDIS, "socket_timeout": 15}], prefix=f"hwab{self.tag}s"
            ),
            "service_layer": ServiceRedisChannelLayer(hosts=[REDIS], prefix=f"hwab{self.tag}d", capacity=200),
        }
        self.update = sample_update()
        for size, processes in SCENARIOS:
            scenario = scenario_name(size, processes)
            here = size // processes if processes == 2 or self.role == "sender" else 0
            for variant, layer in self.layers.items():
                VARIANT.set(variant)
                sockets = self.sockets[variant, scenario] = Sockets(
                    layer, broadcast.group_name(self.code(scenario)), here
                )
                await sockets.start()
                if variant == "relay":
                    for _ in range(here):  # as each table socket does when it opens
                        await broadcast.relay.follow(self.code(scenario))
        VARIANT.set("")

    async def send(self, variant: str, scenario: str) -> None:
        from game.delivery import broadcast

        VARIANT.set(variant)
        code, sockets = self.code(scenario), self.sockets[variant, scenario]
        every = sockets.received + sockets.count
        if variant == "relay":
            await broadcast.send_async(code, self.update)
        else:
            message = {"type": broadcast.message_type(self.update), **self.update}
            await self.layers[variant].group_send(broadcast.group_name(code), message)  # type: ignore[attr-defined]
        await sockets.wait(every)
        VARIANT.set("")

    async def watch(self, variant: str, scenario: str, count: int) -> None:
        """The other process: says "got" each time every socket of its own has the next one."""
        sockets = self.sockets[variant, scenario]
        before = sockets.received
        for number in range(1, count + 1):
            await sockets.wait(before + number * sockets.count)
            say({"got": True})


async def worker_main(role: str, tag: str) -> None:
    from game.delivery import broadcast

    counts = count_round_trips()
    worker = Worker(role, tag)
    await worker.setup()
    await asyncio.sleep(broadcast.ANSWERS_WITHIN + 0.5)  # each has heard who else follows, and its own hellos are old
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    say({"ready": True})
    started = (0.0, 0)
    while line := await reader.readline():
        order = json.loads(line)
        op = order["op"]
        if op == "renew":
            VARIANT.set("relay")
            await broadcast.relay.renew()
            VARIANT.set("")
            say({"renewed": True})
        elif op == "start":
            started = (time.process_time(), counts[order["variant"]])
            if role == "other" and worker.sockets[order["variant"], order["scenario"]].count:
                asyncio.ensure_future(worker.watch(order["variant"], order["scenario"], order["count"]))
            say({"started": True})
        elif op == "send":
            await worker.send(order["variant"], order["scenario"])
            say({"sent": True})
        elif op == "stop":
            say({"cpu_s": time.process_time() - started[0], "round_trips": counts[order["variant"]] - started[1]})
        elif op == "quit":
            break
    os._exit(0)


class Workers:
    """The orchestrator's side: two worker processes of this script, driven by lines of JSON."""

    def __init__(self, tag: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        command = [sys.executable, __file__, "--worker"]
        self.procs = {
            role: subprocess.Popen(
                [*command, role, "--tag", tag],
                cwd=ROOT,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for role in ("sender", "other")
        }
        for role in self.procs:
            self.read(role)

    def tell(self, role: str, order: dict) -> None:
        stdin = self.procs[role].stdin
        assert stdin is not None
        stdin.write(json.dumps(order) + "\n")
        stdin.flush()

    def read(self, role: str) -> dict:
        stdout = self.procs[role].stdout
        assert stdout is not None
        line = stdout.readline()
        if not line:
            raise SystemExit(f"the {role} worker stopped (its error is above)")
        return json.loads(line)

    def both(self, order: dict) -> dict[str, dict]:
        for role in self.procs:
            self.tell(role, order)
        return {role: self.read(role) for role in self.procs}

    def close(self) -> None:
        for role, proc in self.procs.items():
            self.tell(role, {"op": "quit"})
            proc.wait(timeout=30)


def redis_cpu(client) -> float:
    cpu = client.info("cpu")
    return float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])


def relay_block(workers: Workers, redis_client, variant: str, scenario: str, count: int) -> dict[str, float]:
    if variant == "relay":  # the heartbeat's renewal (a process's hellos count HEARD_FOR seconds)
        workers.both({"op": "renew"})
        time.sleep(0.3)  # the hellos arrive before the block's counts start
    other_waits = scenario.endswith("over_2_processes")
    workers.both({"op": "start", "variant": variant, "scenario": scenario, "count": count})
    redis_before = redis_cpu(redis_client)
    latencies = []
    for _ in range(count):
        ticked = time.perf_counter()
        workers.tell("sender", {"op": "send", "variant": variant, "scenario": scenario})
        workers.read("sender")
        if other_waits:
            workers.read("other")
        latencies.append((time.perf_counter() - ticked) * 1000)
    redis_used = redis_cpu(redis_client) - redis_before
    stopped = workers.both({"op": "stop", "variant": variant})
    return {
        "round_trips": sum(s["round_trips"] for s in stopped.values()) / count,
        "sender_cpu_us": stopped["sender"]["cpu_s"] / count * 1e6,
        "other_cpu_us": stopped["other"]["cpu_s"] / count * 1e6,
        "redis_cpu_us": redis_used / count * 1e6,
        "ms_to_every_socket": statistics.median(latencies),
    }


def relay_part(rounds: int, broadcasts: int, tag: str) -> dict:
    import redis

    client = redis.Redis.from_url(REDIS)
    workers = Workers(tag)
    try:
        figures: dict = {}
        for size, processes in SCENARIOS:
            scenario = scenario_name(size, processes)
            for variant in RELAY_VARIANTS:  # warm: connections made, scripts loaded
                relay_block(workers, client, variant, scenario, 20)
            blocks: dict[str, list[dict]] = {variant: [] for variant in RELAY_VARIANTS}
            for _round, variant in in_turns(rounds, RELAY_VARIANTS):
                blocks[variant].append(relay_block(workers, client, variant, scenario, broadcasts))
            for measure in ("round_trips", "sender_cpu_us", "other_cpu_us", "redis_cpu_us", "ms_to_every_socket"):
                key = (
                    f"relay_{measure}_{scenario}"
                    if measure.startswith("ms")
                    else f"relay_{measure}_per_broadcast_{scenario}"
                )
                figures[key] = {v: round(statistics.median(b[measure] for b in blocks[v]), 2) for v in blocks}
                print(f"{key}: {figures[key]}")
        return figures
    finally:
        workers.close()
        for key in client.scan_iter(f"hwab{tag}*"):
            client.delete(key)


# --- the run ---------------------------------------------------------------------------------


def child(parts: list[str], database_url: str, redis_url: str, args) -> dict:
    """Parts that need Django run in a process of their own, configured by its environment."""
    command = [sys.executable, __file__, "--child", ",".join(parts), "--database-url", database_url]
    command += ["--redis-url", redis_url, "--rounds", str(args.rounds), "--moves", str(args.moves)]
    command += ["--sends", str(args.sends), "--admin-tries", str(args.admin_tries)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{' '.join(parts)} failed:\n{done.stderr[-4000:]}")
    *lines, last = done.stdout.strip().splitlines()
    print("\n".join(lines), flush=True)
    return json.loads(last)


def child_main(args) -> None:
    setup_django(args.database_url, args.redis_url)
    from django.db import connection

    schema_from_models()
    figures: dict = {}
    parts = args.child.split(",")
    if "store" in parts:
        figures.update(store_part(connection.vendor, args.rounds, args.moves))
    if "layer" in parts:
        figures.update(layer_part(args.rounds, args.sends))
    if "admin" in parts:
        figures.update(admin_part(args.rounds, args.admin_tries))
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parts", default="store,layer,relay,admin", help="comma-separated: store,layer,relay,admin")
    parser.add_argument("--no-shared", action="store_true", help="neither PostgreSQL nor Redis (no relay)")
    parser.add_argument("--rounds", type=int, default=7, help="blocks of each variant, in turns")
    parser.add_argument("--moves", type=int, default=200, help="moves per store block")
    parser.add_argument("--sends", type=int, default=300, help="group sends per layer block")
    parser.add_argument("--broadcasts", type=int, default=200, help="broadcasts per relay block")
    parser.add_argument(
        "--admin-tries", type=int, default=2, help="let-through tries per block (refused: 20 times as many)"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--tag", help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:  # (no database: it is never touched)
        setup_django("sqlite:///" + tempfile.gettempdir() + "/sevn-handwritten-unused.sqlite3", REDIS)
        asyncio.run(worker_main(args.worker, args.tag))
        return
    if args.child:
        child_main(args)
        return
    parts, tag = args.parts.split(","), secrets.token_hex(3)
    figures: dict = {}
    # the store on SQLite, the layer, and admin's log-in when there is no Redis for its counters
    alone = [part for part in ("store", "layer") if part in parts] + (["admin"] if args.no_shared else [])
    alone = [part for part in alone if part in parts]
    if alone:
        with tempfile.TemporaryDirectory() as tmp:
            figures.update(child(alone, f"sqlite:///{tmp}/bench.sqlite3", "", args))
    if not args.no_shared and {"store", "admin", "relay"} & set(parts):
        with shared_lock():
            shared = [part for part in ("store", "admin") if part in parts]
            if shared:  # as in production: PostgreSQL, and the limits' counters on Redis
                with scratch_postgresql(f"sevn_handwritten_{tag}") as url:
                    figures.update(child(shared, url, REDIS, args))
            if "relay" in parts:
                figures.update(relay_part(args.rounds, args.broadcasts, tag))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
