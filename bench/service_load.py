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

An error is anything a person meets that is not the game going on, counted by kind
(deploy/players.py names them: refusals by reason, closes by code, sockets that did not open);
a busy server turning new sockets away is counted by kind too, and is not an error. After the
load, bench/exactly_once.py checks every move was applied once and reached every screen.
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

from bench import exactly_once  # noqa: E402
from bench.set_up import table_of_guests  # noqa: E402
from bench.shared_parts import SharedParts  # noqa: E402
from deploy.local_stack import Stack  # noqa: E402
from deploy.players import (  # noqa: E402
    CLOSE_ARRIVING,
    CLOSE_BUSY,
    Browser,
    Seat,
    address_of,
    errors_of,
    kinds_of,
)

PEOPLE = 4
FLOOD_RATE = 1000  # messages a second from the flooding socket
DRAIN = 10.0  # seconds the load's screens go on reading once the people stop (moves in flight land)


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
    from django.db import connections

    connections.close_all()  # a connection the shared parts' counters ended (bench.shared_parts) is not reused
    made = []
    for n in range(first, first + tables):
        code, sessions, _host = table_of_guests("load", n, PEOPLE)
        made.append((code, sessions))
    connections.close_all()
    return made


# a normal close and a busy server's turn-aways (counted by kind, as busy_shed): not errors seen
NOT_ERROR_CLOSES = frozenset({1000, CLOSE_BUSY, CLOSE_ARRIVING})


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
            f"closed {code}" for seat in self.seats for code in seat.closed_codes if code not in NOT_ERROR_CLOSES
        ]

    @property
    def errors(self) -> int:
        return errors_of(kinds_of(self.seats))


def stage_totals(stack: Stack) -> list[dict]:
    """Each Daphne process's CPU by stage so far (game.runtime.stages: SIGUSR2 writes them)."""
    import signal

    paths = []
    for server in stack.servers:
        path = Path(f"{stack.env['SEVN_STAGES_FILE']}.{server.process.pid}")
        path.unlink(missing_ok=True)
        server.process.send_signal(signal.SIGUSR2)
        paths.append(path)
    read = []
    for path in paths:
        for _try in range(100):
            if path.exists():
                break
            time.sleep(0.05)
        read.append(json.loads(path.read_text()))
    return read


def stage_split(before: list[dict], after: list[dict], moves: int) -> dict[str, float]:
    """CPU ms per move by stage over both processes; what no stage names is the framework's
    (Daphne, Twisted, autobahn, Channels, the hops to the database thread)."""
    spent: dict[str, float] = {}
    process = 0.0
    for old, new in zip(before, after, strict=True):
        process += new["process"] - old["process"]
        for name, seconds in new["seconds"].items():
            spent[name] = spent.get(name, 0.0) + seconds - old["seconds"].get(name, 0.0)
    inner = sum(seconds for name, seconds in spent.items() if name.startswith("move: "))
    if "move" in spent:
        spent["move: transaction, begin and commit"] = spent.pop("move") - inner
    spent["framework and database hops (the rest)"] = process - sum(spent.values())
    return {name: round(1000 * seconds / max(1, moves), 3) for name, seconds in sorted(spent.items())}


def stage_calls(before: list[dict], after: list[dict], moves: int) -> dict[str, float]:
    """How many times per move each stage ran (a table of four draws four screens a move)."""
    calls: dict[str, float] = {}
    for old, new in zip(before, after, strict=True):
        for name, count in new["calls"].items():
            calls[name] = calls.get(name, 0) + count - old["calls"].get(name, 0)
    return {name: round(count / max(1, moves), 2) for name, count in sorted(calls.items())}


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
    await asyncio.sleep(max(0.0, until - time.monotonic()))  # measured until the time is up, not the drain after it
    elapsed = time.monotonic() - started
    if done is not None:
        await asyncio.to_thread(done)
    await asyncio.gather(*running)
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
        "error_kinds": kinds_of(seat for table in tables for seat in table.seats),
        "cpu_ms_per_move": round(1000 * cpu / max(1, moves), 2),
    }


KNEE_P95_MS = 150.0


def holds(step: dict) -> bool:
    """Whether a load held: p95 within KNEE_P95_MS and no error."""
    return step["p95_ms"] <= KNEE_P95_MS and step["errors"] == 0


def load_step(stack: Stack, port: int, count: int, first: int, args) -> dict:
    """`count` tables of four playing for `args.seconds`, measured; their tables closed after.
    The tables are dealt now, as their people sit down: a table started a minute before anyone
    connects has them all away (bots playing for them), as it would for real people."""
    made = prepare(stack, count, first=first)
    from django.db import connections

    from game import services

    tables = [Table(port, code, sessions, first + n, args.think) for n, (code, sessions) in enumerate(made)]
    for seat in (seat for table in tables for seat in table.seats):
        seat.drain = DRAIN
    sampler = Sampler(stack)
    sampler.start()
    marks: dict = {}
    shared = SharedParts(stack)

    def measure():
        marks.update(cpu=stack.cpu_seconds(), client=time.process_time(), versions=committed(stack))
        marks.update(stages=stage_totals(stack))
        shared.start()

        def done():
            marks.update(cpu_after=stack.cpu_seconds(), client_after=time.process_time())
            marks.update(versions_after=committed(stack), stages_after=stage_totals(stack))
            shared.stop()

        return done

    exactly_once.sat_down(stack, tables)
    elapsed = asyncio.run(play(tables, args.seconds, measure=measure))
    sampler.running = False
    once = exactly_once.check(stack, tables)
    print(f"exactly once (bench/exactly_once.py, after a {DRAIN:.0f} s drain): {once}")
    print(f"moves committed (table versions in the database): {marks['versions_after'] - marks['versions']}")
    client_cpu = marks["client_after"] - marks["client"]
    parts = {name: used - marks["cpu"][name] for name, used in marks["cpu_after"].items()}
    load = summarise(tables, elapsed, parts["daphne"])
    load["db_connections"] = sampler.peak
    per_move = {name: round(1000 * used / max(1, load["moves"]), 2) for name, used in parts.items()}
    per_move["load client"] = round(1000 * client_cpu / max(1, load["moves"]), 2)
    print(f"CPU ms per move by part: {per_move}")
    shared.flush()
    connections.close_all()  # flush() ended this process's connection too
    for code, _sessions in made:  # nothing left to play (their clocks must not run on): the idle background alone
        services.table_close(code=code, reason="benchmark")
    shared.measure_idle(args.servers)
    shared_figures = shared.per_move(load["moves"], per_move, args.servers)
    print(f"shared parts per move: {shared_figures}")
    print("PostgreSQL's time per move by statement:", *shared.top_statements(load["moves"]), sep="\n  ")
    split = stage_split(marks["stages"], marks["stages_after"], load["moves"])
    calls = stage_calls(marks["stages"], marks["stages_after"], load["moves"])
    print("Daphne CPU ms per move by stage (all processes), and how often it ran per move:")
    for name, ms in split.items():
        print(f"  {ms:7.3f}  {name}" + (f"  ({calls[name]} a move)" if name in calls else ""))
    texts = [text for table in tables for text in table.error_texts]
    if texts:
        print(f"errors seen by the people: {sorted(set(texts))[:10]}")
    print(
        f"{count} tables x {PEOPLE} people ({count * PEOPLE} sockets through nginx, {len(stack.servers)} Daphne, "
        f"PostgreSQL + Redis), think ~{args.think}s, {elapsed:.0f}s: {load}; "
        f"database connections held: peak {sampler.peak} (pool {args.pool} x {args.servers} processes)"
    )
    return {
        **shared_figures,
        "tables": count,
        **{key: load[key] for key in ("moves_per_s", "p50_ms", "p95_ms", "p99_ms", "errors", "db_connections")},
        "error_kinds": load["error_kinds"],
        "exactly_once": once,
        "cpu_ms_per_move": load["cpu_ms_per_move"],
        "stack_cpu_ms_per_move": round(sum(per_move.values()) - per_move["load client"], 2),
        "load_client_cpu_ms_per_move": per_move["load client"],
        "cpu_ms_per_move_by_part": per_move,
        "daphne_stages_ms_per_move": split,
    }


def flood_phase(stack: Stack, port: int, args) -> dict:
    """A few tables quiet, then the same while one socket floods the server with stale moves."""
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
    from game import services

    for code, _sessions in [*few, (flood_code, flood_sessions)]:
        services.table_close(code=code, reason="benchmark")

    return {
        "flood_p95_ms": round(flood_p95, 1),
        "quiet_p95_ms": round(quiet_p95, 1),
        "flood_ratio": round(flood_p95 / quiet_p95, 2),
        "flood_messages": flood.sent,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30, help="play time of the main load")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a person thinks before a move")
    parser.add_argument("--pool", type=int, default=10, help="database connections per Daphne process")
    parser.add_argument("--flood-tables", type=int, default=10)
    parser.add_argument("--flood-seconds", type=float, default=10)
    parser.add_argument(
        "--find-knee", action="store_true", help="from --tables up by --knee-step until a load no longer holds"
    )
    parser.add_argument("--knee-step", type=int, default=50)
    parser.add_argument("--knee-max", type=int, default=1000)
    parser.add_argument("--servers", type=int, default=2, help="Daphne processes behind nginx")
    parser.add_argument(
        "--no-statements", action="store_true", help="without pg_stat_statements (to see what it costs)"
    )
    args = parser.parse_args()

    env = {
        "DB_POOL_SIZE": str(args.pool),
        "SEVN_BOT_DELAY_MS": "0",
        "LOG_LEVEL": "WARNING",
        "SEVN_STAGES": "1",  # CPU by stage (game.runtime.stages), read before and after the load
        "SEVN_STAGES_FILE": f"/tmp/sevn-stages-{os.getpid()}",
    }
    with Stack(env=env, servers=args.servers, pg_statements=not args.no_statements) as stack:
        port = stack.nginx.port
        flood_figures = flood_phase(stack, port, args) if args.flood_seconds > 0 else {}

        if args.find_knee:
            steps, first, count = [], args.flood_tables + 1, args.tables
            while count <= args.knee_max:
                step = load_step(stack, port, count, first, args)
                steps.append(step)
                first += count
                if not holds(step):
                    break
                count += args.knee_step
            held = [step for step in steps if holds(step)]
            knee = max((step["tables"] for step in held), default=0)
            print(
                "knee: " + "; ".join(f"{s['tables']} tables p95 {s['p95_ms']} ms, {s['errors']} errors" for s in steps)
            )
            print(f"the largest table count that holds (p95 <= {KNEE_P95_MS} ms, 0 errors): {knee}")
            load = held[-1] if held else steps[-1]
        else:
            load = load_step(stack, port, args.tables, args.flood_tables + 1, args)
            knee = None

    result = {
        **load,
        "db_pool": args.pool * args.servers,
        **flood_figures,
    }
    if args.find_knee:
        result["knee_tables"] = knee
        result["knee_steps"] = [
            {key: step[key] for key in ("tables", "p95_ms", "errors", "moves_per_s")} for step in steps
        ]
    print(
        f"target: 100 tables p95 <= 150 ms and 0 errors; connections <= pool; got p95 {load['p95_ms']} ms, "
        f"{load['errors']} errors, {load['db_connections']} connections of {args.pool * args.servers}"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
