"""Service load: N tables x 4 people playing through nginx across Daphne processes (two, or
--servers) on PostgreSQL + Redis (deploy/local_stack.py, the README's scale-out set-up), on this machine.

Each person has an address of their own on the loopback range, a socket through nginx, and a
think time of about `--think` seconds before each decision (bots' pauses off). For every move it
measures the time from sending it to the moment all four sockets of the table show the new
version, the Daphne processes' CPU time per move, and the database connections held (sampled).
First a flood: a few tables play while one socket (a process of its own) floods the server with
stale moves at 1,000 a second, against the same tables quiet; then the load. The last line is
one JSON object of the figures, with what each move cost PostgreSQL and Redis by their own
counters (bench/shared_parts.py; bench/projection.py projects them past one machine).
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

from bench.shared_parts import SharedParts  # noqa: E402
from deploy.local_stack import Stack  # noqa: E402
from deploy.players import Browser, Seat, address_of  # noqa: E402

PEOPLE = 4
FLOOD_RATE = 1000  # messages a second from the flooding socket


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def prepare(stack: Stack, tables: int, first: int = 0) -> list[tuple[str, list[str]]]:
    """Started tables of four, created through the services on the stack's database; per table
    its code and the session ids its people's browsers hold."""
    os.environ.update(
        {key: stack.env[key] for key in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE")}
    )
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connections

    from game import services
    from game.core.identity import SESSION_KEY, Player

    made = []
    for n in range(first, first + tables):
        players = [Player(key=f"guest:load-{n}-{i}") for i in range(PEOPLE)]
        table = services.table_create(
            player=players[0], nickname=f"P{n}-0", seat_count=PEOPLE, turn_seconds=0, target=1000
        )
        for i, player in enumerate(players[1:], start=1):
            services.seat_take(code=table.code, player=player, nickname=f"P{n}-{i}")
        services.game_start(code=table.code, player=players[0])
        sessions = []
        for player in players:
            session = SessionStore()
            session[SESSION_KEY] = player.key
            session.create()
            sessions.append(session.session_key)
        made.append((table.code, sessions))
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
    def error_texts(self) -> list[str]:
        return [toast for seat in self.seats for toast in seat.screen.toasts] + [
            f"closed {code}" for seat in self.seats for code in seat.closed_codes if code != 1000
        ]

    @property
    def errors(self) -> int:
        return sum(len(seat.screen.toasts) for seat in self.seats) + sum(
            1 for seat in self.seats for code in seat.closed_codes if code != 1000
        )


def committed(stack: Stack) -> int:
    """Every table's version summed: each committed move adds one."""
    return int(stack.postgres.sql("SELECT coalesce(sum(version), 0) FROM game_game")[0][0])


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


async def play(tables: list[Table], seconds: float, flood=None, measure=None, warm_up: float = 60.0) -> float:
    """Every socket connects, gets its table and sees everyone at it (a crowd arriving is the
    fault tests' matter: here it has settled, at most `warm_up` seconds); then the people play
    for `seconds`, measured from then on (`measure()` marks the start and returns a function that
    closes the measurement)."""
    seats = [seat for table in tables for seat in table.seats]
    for seat in seats:
        seat.plays = False
    until = time.monotonic() + warm_up + seconds
    running = [asyncio.ensure_future(seat.run(until)) for seat in seats]
    settled = time.monotonic() + warm_up
    while time.monotonic() < settled and not all(seat.screen.online == PEOPLE for seat in seats):
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)  # the last presence broadcasts drawn
    until = time.monotonic() + seconds
    for seat in seats:
        seat.until = until
    done = measure() if measure is not None else None
    started = time.monotonic()
    for seat in seats:
        seat.plays = True
        seat.sent.clear()
        asyncio.ensure_future(seat._decide())  # each person looks at the table now shown
    if flood is not None:
        running.append(asyncio.ensure_future(flood(until)))
    await asyncio.gather(*running)
    elapsed = time.monotonic() - started
    if done is not None:
        done()
    return elapsed


async def _flood(port: int, code: str, session: str, address: str, seconds: float, counts) -> None:
    """One socket sending stale moves at FLOOD_RATE a second (the rate the issue saw), reconnecting
    at once whenever it is closed."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    stale = json.dumps({"kind": "draw", "version": 0})
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            async with connect(
                f"ws://127.0.0.1:{port}/ws/t/{code}/?lang=en",
                origin=f"http://127.0.0.1:{port}",
                additional_headers={"Cookie": f"sessionid={session}"},
                local_addr=(address, 0),
                max_size=2**22,
            ) as sock:
                while time.monotonic() < until:
                    await sock.send(stale)
                    counts[0] += 1
                    if counts[0] % 50 == 0:
                        await asyncio.sleep(50 / FLOOD_RATE)
        except (ConnectionClosed, OSError, InvalidHandshake):  # closed, or refused (403, 429): again
            counts[1] += 1
            await asyncio.sleep(0.05)


def _flood_process(port: int, code: str, session: str, address: str, seconds: float, counts) -> None:
    asyncio.run(_flood(port, code, session, address, seconds, counts))


def flooder(port: int, code: str, session: str, address: str):
    """The abusive client in a process of its own (another machine, as far as the server can
    tell): it must not slow the load client that measures the other tables."""
    import multiprocessing

    counts = multiprocessing.Array("l", 2)

    async def flood(until: float) -> None:
        process = multiprocessing.get_context("fork").Process(
            target=_flood_process, args=(port, code, session, address, until - time.monotonic(), counts)
        )
        process.start()
        await asyncio.to_thread(process.join)
        flood.sent, flood.closed = counts[0], counts[1]

    flood.sent = flood.closed = 0
    return flood


def summarise(tables: list[Table], elapsed: float, cpu: float) -> dict:
    latencies = [value for table in tables for value in table.latencies]
    moves = len(latencies)
    return {
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "p50_ms": round(statistics.median(latencies), 1) if latencies else None,
        "p95_ms": round(percentile(latencies, 95), 1),
        "p99_ms": round(percentile(latencies, 99), 1),
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
    parser.add_argument("--servers", type=int, default=2, help="Daphne processes behind nginx")
    parser.add_argument(
        "--no-statements", action="store_true", help="without pg_stat_statements (to see what it costs)"
    )
    args = parser.parse_args()

    env = {"DB_POOL_SIZE": str(args.pool), "SEVN_BOT_DELAY_MS": "0", "LOG_LEVEL": "WARNING"}
    with Stack(env=env, servers=args.servers, pg_statements=not args.no_statements) as stack:
        port = stack.nginx.port
        few = prepare(stack, args.flood_tables + 1)
        flood_code, flood_sessions = few.pop()  # the flooder's own table
        quiet = [Table(port, code, sessions, 1000 + n, args.think) for n, (code, sessions) in enumerate(few)]
        asyncio.run(play(quiet, args.flood_seconds))
        flooded = [Table(port, code, sessions, 2000 + n, args.think) for n, (code, sessions) in enumerate(few)]
        flood = flooder(port, flood_code, flood_sessions[0], address_of(60000))
        asyncio.run(play(flooded, args.flood_seconds, flood))
        quiet_p95 = percentile([v for t in quiet for v in t.latencies], 95)
        flood_p95 = percentile([v for t in flooded for v in t.latencies], 95)
        print(
            f"flood: one socket sent {flood.sent} stale moves and was closed {flood.closed} times; "
            f"{args.flood_tables} other tables' p95 {flood_p95:.1f} ms vs {quiet_p95:.1f} ms quiet "
            f"({flood_p95 / quiet_p95:.2f}x, target <= 2x); errors {sum(t.errors for t in flooded)}"
        )

        # their people have left: close those tables, or their clocks would run during the load
        from django.db import connections

        from game import services

        for code, _sessions in [*few, (flood_code, flood_sessions)]:
            services.table_close(code=code, reason="benchmark")

        # The load's tables are dealt now, as their people sit down: a table started a minute before
        # anyone connects has them all away (bots playing for them), as it would for real people.
        made = prepare(stack, args.tables, first=args.flood_tables + 1)
        tables = [Table(port, code, sessions, n, args.think) for n, (code, sessions) in enumerate(made)]
        sampler = Sampler(stack)
        sampler.start()
        marks: dict = {}
        shared = SharedParts(stack)

        def measure():
            marks.update(cpu=stack.cpu_seconds(), client=time.process_time(), versions=committed(stack))
            shared.start()

            def done():
                marks.update(
                    cpu_after=stack.cpu_seconds(), client_after=time.process_time(), versions_after=committed(stack)
                )
                shared.stop()

            return done

        elapsed = asyncio.run(play(tables, args.seconds, measure=measure))
        print(f"moves committed (table versions in the database): {marks['versions_after'] - marks['versions']}")
        client_cpu = marks["client_after"] - marks["client"]
        parts = {name: used - marks["cpu"][name] for name, used in marks["cpu_after"].items()}
        sampler.running = False
        load = summarise(tables, elapsed, parts["daphne"])
        load["db_connections"] = sampler.peak
        per_move = {name: round(1000 * used / max(1, load["moves"]), 2) for name, used in parts.items()}
        per_move["load client"] = round(1000 * client_cpu / max(1, load["moves"]), 2)
        print(f"CPU ms per move by part: {per_move}")
        shared.flush()
        connections.close_all()  # flush() ended this process's connection too
        for code, _sessions in made:  # nothing left to play: the idle background alone
            services.table_close(code=code, reason="benchmark")
        shared.measure_idle(args.servers)
        shared_figures = shared.per_move(load["moves"], per_move, args.servers)
        print(f"shared parts per move: {shared_figures}")
        print("PostgreSQL's time per move by statement:", *shared.top_statements(load["moves"]), sep="\n  ")
        texts = [text for table in tables for text in table.error_texts]
        if texts:
            print(f"errors seen by the people: {sorted(set(texts))[:10]}")
        print(
            f"{args.tables} tables x {PEOPLE} people ({args.tables * PEOPLE} sockets through nginx, "
            f"{args.servers} Daphne, PostgreSQL + Redis), think ~{args.think}s, {elapsed:.0f}s: {load}; "
            f"database connections held: peak {sampler.peak} (pool {args.pool} x {args.servers} processes)"
        )

    result = {
        "tables": args.tables,
        "moves_per_s": load["moves_per_s"],
        "p50_ms": load["p50_ms"],
        "p95_ms": load["p95_ms"],
        "p99_ms": load["p99_ms"],
        "errors": load["errors"],
        "db_connections": load["db_connections"],
        "db_pool": args.pool * args.servers,
        "cpu_ms_per_move": load["cpu_ms_per_move"],
        "stack_cpu_ms_per_move": round(sum(per_move.values()) - per_move["load client"], 2),
        "flood_p95_ms": round(flood_p95, 1),
        "quiet_p95_ms": round(quiet_p95, 1),
        "flood_ratio": round(flood_p95 / quiet_p95, 2),
        "flood_messages": flood.sent,
    }
    result.update(shared_figures)
    print(
        f"target: 100 tables p95 <= 150 ms and 0 errors; connections <= pool; got p95 {load['p95_ms']} ms, "
        f"{load['errors']} errors, {load['db_connections']} connections of {args.pool * args.servers}"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
