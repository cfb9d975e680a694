"""Service load: N tables x 4 people playing through nginx across two Daphne processes on
PostgreSQL + Redis (deploy/local_stack.py, the README's scale-out set-up), on this machine.

Each person has an address of their own on the loopback range, a socket through nginx, and a
think time of about `--think` seconds before each decision (bots' pauses off). For every move it
measures the time from sending it to the moment all four sockets of the table show the new
version, the Daphne processes' CPU time per move, and the database connections held (sampled).
Then a flood: a few tables play while one socket floods its server with stale moves, against
the same tables quiet. The last line is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.local_stack import Stack  # noqa: E402
from deploy.players import Browser, Seat, address_of  # noqa: E402

PEOPLE = 4


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def prepare(stack: Stack, tables: int, first: int = 0) -> list[tuple[str, list[str]]]:
    """Started tables of four, created through the services on the stack's database; per table
    its code and the session ids its people's browsers hold."""
    os.environ.update({key: stack.env[key] for key in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY",
                                                       "DJANGO_SETTINGS_MODULE")})
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connections

    from game import services
    from game.identity import SESSION_KEY, Player

    made = []
    for n in range(first, first + tables):
        players = [Player(key=f"guest:load-{n}-{i}") for i in range(PEOPLE)]
        room = services.room_create(player=players[0], nickname=f"P{n}-0", seat_count=PEOPLE, turn_seconds=0,
                                    target=1000)
        for i, player in enumerate(players[1:], start=1):
            services.seat_take(code=room.code, player=player, nickname=f"P{n}-{i}")
        services.game_start(code=room.code, player=players[0])
        sessions = []
        for player in players:
            session = SessionStore()
            session[SESSION_KEY] = player.key
            session.create()
            sessions.append(session.session_key)
        made.append((room.code, sessions))
    connections.close_all()
    return made


class Table:
    """Four people at one table, and the moves measured at it."""

    def __init__(self, port: int, code: str, sessions: list[str], n: int, think: float) -> None:
        self.seats = []
        for i, session in enumerate(sessions):
            browser = Browser(port, address_of(n * PEOPLE + i))
            browser.cookies["sessionid"] = session
            seat = Seat(browser, code, think=think, seed=n * 10 + i)
            seat.on_version = self.arrived
            self.seats.append(seat)
        self.latencies: list[float] = []

    def arrived(self, seat: Seat, version: tuple[int, int], when: float) -> None:
        answered = (version[0], version[1] - 1)
        if all(other.screen.version >= version for other in self.seats):
            for mover in self.seats:
                sent = mover.sent.pop(answered, None)
                if sent is not None:
                    self.latencies.append((when - sent) * 1000)

    @property
    def errors(self) -> int:
        return sum(len(seat.screen.toasts) for seat in self.seats) + sum(
            1 for seat in self.seats for code in seat.closed_codes if code != 1000)


class Sampler(threading.Thread):
    """The database connections held, sampled while the load runs."""

    def __init__(self, stack: Stack) -> None:
        super().__init__(daemon=True)
        self.stack, self.peak, self.samples = stack, 0, []
        self.running = True

    def run(self) -> None:
        while self.running:
            count = self.stack.postgres.connections()
            self.samples.append(count)
            self.peak = max(self.peak, count)
            time.sleep(0.5)


async def play(tables: list[Table], seconds: float, flood=None) -> float:
    until = time.monotonic() + seconds
    started = time.monotonic()
    work = [seat.run(until) for table in tables for seat in table.seats]
    if flood is not None:
        work.append(flood(until))
    await asyncio.gather(*work)
    return time.monotonic() - started


def flooder(port: int, code: str, session: str, address: str):
    """One socket sending stale moves as fast as it can, reconnecting whenever it is closed."""

    async def flood(until: float) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        stale = json.dumps({"kind": "draw", "version": 0})
        while time.monotonic() < until:
            try:
                async with connect(f"ws://127.0.0.1:{port}/ws/t/{code}/?lang=en", origin=f"http://127.0.0.1:{port}",
                                   additional_headers={"Cookie": f"sessionid={session}"},
                                   local_addr=(address, 0), max_size=2**22) as sock:
                    while time.monotonic() < until:
                        await sock.send(stale)
                        flood.sent += 1
                        if flood.sent % 50 == 0:
                            await asyncio.sleep(0)
            except (ConnectionClosed, OSError):
                flood.closed += 1
                await asyncio.sleep(0.05)

    flood.sent = flood.closed = 0
    return flood


def summarise(tables: list[Table], elapsed: float, cpu: float) -> dict:
    latencies = [value for table in tables for value in table.latencies]
    moves = len(latencies)
    return {
        "moves": moves, "moves_per_s": round(moves / elapsed, 1),
        "p50_ms": round(statistics.median(latencies), 1) if latencies else None,
        "p95_ms": round(percentile(latencies, 95), 1), "p99_ms": round(percentile(latencies, 99), 1),
        "errors": sum(table.errors for table in tables),
        "cpu_ms_per_move": round(1000 * cpu / max(1, moves), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30, help="play time of the main load")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a person thinks before a move")
    parser.add_argument("--pool", type=int, default=10, help="database connections per Daphne process")
    parser.add_argument("--flood-tables", type=int, default=10)
    parser.add_argument("--flood-seconds", type=float, default=10)
    args = parser.parse_args()

    env = {"DB_POOL_SIZE": str(args.pool), "SEVN_BOT_DELAY_MS": "0", "LOG_LEVEL": "ERROR"}
    with Stack(env=env) as stack:
        made = prepare(stack, args.tables + args.flood_tables + 1)
        port = stack.nginx.port
        tables = [Table(port, code, sessions, n, args.think) for n, (code, sessions) in enumerate(made[:args.tables])]
        sampler = Sampler(stack)
        sampler.start()
        cpu_before = stack.cpu_seconds()
        client_before = time.process_time()
        elapsed = asyncio.run(play(tables, args.seconds))
        client_cpu = time.process_time() - client_before
        parts = {name: used - cpu_before[name] for name, used in stack.cpu_seconds().items()}
        sampler.running = False
        load = summarise(tables, elapsed, parts["daphne"])
        load["db_connections"] = sampler.peak
        per_move = {name: round(1000 * used / max(1, load["moves"]), 2) for name, used in parts.items()}
        per_move["load client"] = round(1000 * client_cpu / max(1, load["moves"]), 2)
        print(f"CPU ms per move by part: {per_move}")
        print(f"{args.tables} tables x {PEOPLE} people ({args.tables * PEOPLE} sockets through nginx, 2 Daphne, "
              f"PostgreSQL + Redis), think ~{args.think}s, {elapsed:.0f}s: {load}; "
              f"database connections held: peak {sampler.peak} (pool {args.pool} x 2 processes)")

        few = made[args.tables:args.tables + args.flood_tables]
        quiet = [Table(port, code, sessions, 1000 + n, args.think) for n, (code, sessions) in enumerate(few)]
        asyncio.run(play(quiet, args.flood_seconds))
        flooded = [Table(port, code, sessions, 2000 + n, args.think) for n, (code, sessions) in enumerate(few)]
        code, sessions = made[-1]
        flood = flooder(port, code, sessions[0], address_of(60000))
        asyncio.run(play(flooded, args.flood_seconds, flood))
        quiet_p95 = percentile([v for t in quiet for v in t.latencies], 95)
        flood_p95 = percentile([v for t in flooded for v in t.latencies], 95)
        print(f"flood: one socket sent {flood.sent} stale moves and was closed {flood.closed} times; "
              f"{args.flood_tables} other tables' p95 {flood_p95:.1f} ms vs {quiet_p95:.1f} ms quiet "
              f"({flood_p95 / quiet_p95:.2f}x, target <= 2x); errors {sum(t.errors for t in flooded)}")

    result = {
        "tables": args.tables, "moves_per_s": load["moves_per_s"], "p50_ms": load["p50_ms"],
        "p95_ms": load["p95_ms"], "p99_ms": load["p99_ms"], "errors": load["errors"],
        "db_connections": load["db_connections"], "db_pool": args.pool * 2, "cpu_ms_per_move": load["cpu_ms_per_move"],
        "stack_cpu_ms_per_move": round(sum(per_move.values()) - per_move["load client"], 2),
        "flood_p95_ms": round(flood_p95, 1), "quiet_p95_ms": round(quiet_p95, 1),
        "flood_ratio": round(flood_p95 / quiet_p95, 2), "flood_messages": flood.sent,
    }
    print(f"target: 100 tables p95 <= 150 ms and 0 errors; connections <= pool; got p95 {load['p95_ms']} ms, "
          f"{load['errors']} errors, {load['db_connections']} connections of {args.pool * 2}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
