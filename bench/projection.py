"""Past one machine, on paper: what so many concurrent tables would need (Daphne processes,
machines, PostgreSQL's transactions, writes and WAL, Redis's commands) and which shared part
reaches its limit first, from the figures one run of bench/service_load.py measured (its last
line, one JSON object), so that the projection follows the figures when they change. The
arithmetic is printed beside each result.

    .venv/bin/python bench/service_load.py --servers 4 --tables 100 --seconds 20 > run.txt
    .venv/bin/python bench/projection.py run.txt                  # 10,000 and 100,000 tables
    .venv/bin/python bench/projection.py run.txt --tables 25000 --machine-cores 32

The model (each number an option):
- every table makes `moves_per_table` moves a second (0.9: four people thinking about a second
  each, as the bench plays them);
- a Daphne process uses one core at most (one event loop) and is planned at `utilisation` of it,
  leaving room for bursts and reconnect storms; the shared parts are planned the same way;
- per move: each part's CPU and counters as measured, less the idle background of the bench's
  processes (measured after the load, per process), which is counted per process instead;
- the processes that run the deadline loop (all of them unless SEVN_TIMERS=off on some) each
  check for absent people every ABSENCE_CHECK_SECONDS by reading every Presence row
  (game.services.presence.mark_absent): rows = those processes x sockets / 2 s, at
  `scan_pg_ns_per_row` in PostgreSQL and `scan_process_ns_per_row` in the process. This term
  is not per move: it grows with processes x tables;
- one PostgreSQL primary has `pg_cores`; Redis runs its commands on one core per instance, at
  the run's CPU per move or, given `redis_us_per_command`, at that much per command (a run at
  a hundred moves a second pays a wake-up per command; a busy Redis does not).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, fields, replace

ABSENCE_CHECK_SECONDS = 2.0  # game.live.timers: how often a deadline loop looks for absent people


@dataclass(frozen=True)
class Assumptions:
    moves_per_table: float = 0.9
    people_per_table: int = 4
    utilisation: float = 0.6
    machine_cores: int = 16
    pg_cores: int = 32
    redis_cores: float = 1.0
    scan_pg_ns_per_row: float = 300.0  # measured here: SELECT of (table_id, player_key) pairs
    scan_process_ns_per_row: float = 1000.0  # psycopg fetching them and a set built of them
    timer_processes: int = 0  # 0: every Daphne process runs the deadline loop (the default set-up)
    # 0: Redis's CPU per move as the run measured it (at a few hundred commands a second, each one
    # paying a wake-up of its own: an upper bound); else its CPU per command when busy
    redis_us_per_command: float = 0.0


@dataclass(frozen=True)
class Costs:
    """One run's figures: per move (the processes' idle background taken out) and per process
    and second (that background)."""

    daphne_ms: float
    pg_ms: float
    redis_ms: float
    nginx_ms: float
    pg_xacts: float
    pg_write_xacts: float
    pg_statements: float | None
    pg_rows_written: float
    pg_wal_bytes: float
    redis_ops: float
    idle_daphne_ms: float
    idle_pg_ms: float
    idle_pg_xacts: float
    idle_pg_statements: float
    idle_redis_ops: float
    run_moves_per_table: float
    run: str

    @classmethod
    def from_run(cls, run: dict) -> Costs:
        servers, rate = run["servers"], run["moves_per_s"]

        def net(per_move: float, idle_per_s: float) -> float:
            """A per-move figure less the run's processes' background spread over its moves."""
            return max(0.0, per_move - servers * idle_per_s / rate)

        idle = {name: run.get(f"idle_{name}_per_s_per_server", 0.0) for name in IDLE_FIGURES}
        statements = run.get("pg_statements_per_move")
        return cls(
            daphne_ms=net(run["cpu_ms_per_move"], idle["daphne_cpu_ms"]),
            pg_ms=net(run["pg_cpu_ms_per_move"], idle["pg_cpu_ms"]),
            redis_ms=max(0.0, run["redis_cpu_ms_per_move"] - run.get("idle_redis_cpu_ms_per_s", 0.0) / rate),
            nginx_ms=run["nginx_cpu_ms_per_move"],
            pg_xacts=net(run["pg_xacts_per_move"], idle["pg_xacts"]),
            pg_write_xacts=run["pg_write_xacts_per_move"],
            pg_statements=None if statements is None else net(statements, idle["pg_statements"]),
            pg_rows_written=run["pg_rows_written_per_move"],
            pg_wal_bytes=run["pg_wal_bytes_per_move"],
            redis_ops=net(run["redis_ops_per_move"], idle["redis_ops"]),
            idle_daphne_ms=idle["daphne_cpu_ms"],
            idle_pg_ms=idle["pg_cpu_ms"],
            idle_pg_xacts=idle["pg_xacts"],
            idle_pg_statements=idle["pg_statements"],
            idle_redis_ops=idle["redis_ops"],
            run_moves_per_table=rate / run["tables"],
            run=f"{run['tables']} tables on {servers} Daphne processes, {rate} moves/s",
        )


IDLE_FIGURES = ("daphne_cpu_ms", "pg_cpu_ms", "pg_xacts", "pg_statements", "redis_ops")


def _ceil(value: float) -> float:
    return value if value == math.inf else math.ceil(value)


def needs(costs: Costs, tables: int, a: Assumptions) -> dict[str, float]:
    """What `tables` concurrent tables need, each figure with the ones it was worked out from."""
    moves = tables * a.moves_per_table
    sockets = tables * a.people_per_table
    scan_rows_each = sockets / ABSENCE_CHECK_SECONDS  # rows a second one deadline loop reads
    daphne_cores = moves * costs.daphne_ms / 1000
    # a deadline loop's own share of a core: its idle background and the absence check
    background = costs.idle_daphne_ms / 1000 + scan_rows_each * a.scan_process_ns_per_row / 1e9
    if a.timer_processes:  # dedicated deadline processes: the others carry no background
        room = a.utilisation
        processes = math.ceil(daphne_cores / room) + a.timer_processes
        timers = a.timer_processes
    else:
        room = a.utilisation - background
        processes = _ceil(daphne_cores / room) if room > 0 else math.inf
        timers = processes
    nginx_cores = moves * costs.nginx_ms / 1000
    scan_rows = timers * scan_rows_each
    pg_cores = moves * costs.pg_ms / 1000 + timers * costs.idle_pg_ms / 1000 + scan_rows * a.scan_pg_ns_per_row / 1e9
    redis_ops = moves * costs.redis_ops + processes * costs.idle_redis_ops
    redis_cores = redis_ops * a.redis_us_per_command / 1e6 if a.redis_us_per_command else moves * costs.redis_ms / 1000
    found = {
        "tables": tables,
        "moves_per_s": moves,
        "sockets": sockets,
        "daphne_cores": daphne_cores,
        "process_background": background,
        "process_room": room,
        "processes": processes,
        "timer_processes": timers,
        "nginx_cores": nginx_cores,
        "machines": _ceil((processes + nginx_cores / a.utilisation) / a.machine_cores),
        "pg_xacts_per_s": moves * costs.pg_xacts + timers * costs.idle_pg_xacts,
        "pg_write_xacts_per_s": moves * costs.pg_write_xacts,
        "pg_rows_written_per_s": moves * costs.pg_rows_written,
        "pg_wal_mb_per_s": moves * costs.pg_wal_bytes / 1e6,
        "pg_scan_rows_per_s": scan_rows,
        "pg_cores": pg_cores,
        "pg_primaries": pg_cores / (a.utilisation * a.pg_cores),
        "redis_ops_per_s": redis_ops,
        "redis_cores": redis_cores,
        "redis_instances": redis_cores / (a.utilisation * a.redis_cores),
    }
    if costs.pg_statements is not None:
        found["pg_statements_per_s"] = moves * costs.pg_statements + timers * costs.idle_pg_statements
    return found


def first_limits(costs: Costs, a: Assumptions, most: int = 10_000_000) -> list[tuple[str, float]]:
    """The tables at which each shared part, one instance of it, reaches the planned utilisation
    (and the processes' own room runs out), fewest first: what gives first as tables grow."""
    limits = {
        "PostgreSQL primary": lambda found: found["pg_primaries"] >= 1,
        "Redis instance": lambda found: found["redis_instances"] >= 1,
        "Daphne process room (its background)": lambda found: found["processes"] == math.inf,
    }
    reached = []
    for name, full in limits.items():
        low, high = 1, most
        if not full(needs(costs, high, a)):
            reached.append((name, math.inf))
            continue
        while high - low > max(1, low // 1000):
            middle = (low + high) // 2
            low, high = (low, middle) if full(needs(costs, middle, a)) else (middle, high)
        reached.append((name, high))
    return sorted(reached, key=lambda item: item[1])


def caveat(costs: Costs, a: Assumptions) -> list[str]:
    """A warning when the run's tables moved at another pace than the one projected: what a socket
    costs each second (the screens' check, the heartbeat) is in its figures per move, so a run
    slowed by a busy machine makes each move look dearer."""
    ratio = costs.run_moves_per_table / a.moves_per_table
    if abs(ratio - 1) <= 0.2:
        return []
    return [
        f"CAUTION: the run's tables made {costs.run_moves_per_table:.2f} moves a second each, not "
        f"{a.moves_per_table}: its per-move figures carry {1 / ratio:.1f} times the per-socket background "
        "(a busy machine?); measure again before trusting the columns."
    ]


def _n(value: float, digits: int = 0) -> str:
    return "never" if value == math.inf else f"{value:,.{digits}f}"


def report(costs: Costs, tables: list[int], a: Assumptions) -> str:
    """The projection as text: the figures, the assumptions, a column per table count with the
    arithmetic in each row's label, and what gives first."""
    rows = [needs(costs, count, a) for count in tables]
    u = a.utilisation
    timers = "every process" if not a.timer_processes else f"{a.timer_processes} dedicated processes"
    lines = [
        f"From one run: {costs.run}.",
        f"Per move (the processes' idle background taken out): Daphne {costs.daphne_ms:.2f} ms CPU, "
        f"PostgreSQL {costs.pg_ms:.2f} ms, Redis {costs.redis_ms:.3f} ms, nginx {costs.nginx_ms:.2f} ms; "
        f"PostgreSQL {costs.pg_xacts:.2f} transactions ({costs.pg_write_xacts:.2f} writing), "
        + (f"{costs.pg_statements:.1f} statements, " if costs.pg_statements is not None else "")
        + f"{costs.pg_rows_written:.1f} rows written, {costs.pg_wal_bytes:,.0f} WAL bytes; "
        f"Redis {costs.redis_ops:.2f} commands.",
        f"Per process and second, idle: Daphne {costs.idle_daphne_ms:.1f} ms CPU, PostgreSQL "
        f"{costs.idle_pg_ms:.1f} ms CPU and {costs.idle_pg_xacts:.1f} transactions (the deadline loop).",
        f"Assumed: {a.moves_per_table} moves a second per table, {a.people_per_table} sockets per table, "
        f"planned at {u:.0%} of a core, {a.machine_cores}-core machines, a {a.pg_cores}-core PostgreSQL "
        f"primary, Redis on one core; deadline loop in {timers}; the absence check's rows at "
        f"{a.scan_pg_ns_per_row:.0f} ns in PostgreSQL and {a.scan_process_ns_per_row:.0f} ns in the process.",
        "loops: the processes running the deadline loop, each with its idle background and absence check.",
        *caveat(costs, a),
        "",
    ]
    table = [
        ("tables", lambda r: _n(r["tables"])),
        (f"moves/s = tables x {a.moves_per_table}", lambda r: _n(r["moves_per_s"])),
        (f"Daphne cores = moves/s x {costs.daphne_ms:.2f} ms", lambda r: _n(r["daphne_cores"], 1)),
        ("a process's background (idle + absence check), cores", lambda r: _n(r["process_background"], 3)),
        (
            f"Daphne processes = cores / {u} + {a.timer_processes} deadline loops"
            if a.timer_processes
            else f"Daphne processes = cores / ({u} - background)",
            lambda r: _n(r["processes"]),
        ),
        (f"nginx cores = moves/s x {costs.nginx_ms:.2f} ms", lambda r: _n(r["nginx_cores"], 1)),
        (f"machines = (processes + nginx / {u}) / {a.machine_cores}", lambda r: _n(r["machines"])),
        (
            f"PG transactions/s = moves/s x {costs.pg_xacts:.2f} + loops x {costs.idle_pg_xacts:.1f}",
            lambda r: _n(r["pg_xacts_per_s"]),
        ),
        (f"PG writing transactions/s = moves/s x {costs.pg_write_xacts:.2f}", lambda r: _n(r["pg_write_xacts_per_s"])),
    ]
    if costs.pg_statements is not None:
        table.append(
            (
                f"PG statements/s = moves/s x {costs.pg_statements:.1f} + loops x {costs.idle_pg_statements:.1f}",
                lambda r: _n(r["pg_statements_per_s"]),
            )
        )
    table += [
        (f"PG rows written/s = moves/s x {costs.pg_rows_written:.1f}", lambda r: _n(r["pg_rows_written_per_s"])),
        (f"PG WAL MB/s = moves/s x {costs.pg_wal_bytes:,.0f} B", lambda r: _n(r["pg_wal_mb_per_s"], 1)),
        (
            f"PG rows/s read by absence checks = loops x sockets / {ABSENCE_CHECK_SECONDS:.0f} s",
            lambda r: _n(r["pg_scan_rows_per_s"]),
        ),
        (
            f"PG cores = moves/s x {costs.pg_ms:.2f} ms + loops x {costs.idle_pg_ms:.1f} ms + scan rows",
            lambda r: _n(r["pg_cores"], 1),
        ),
        (f"PG primaries of {a.pg_cores} cores at {u:.0%}", lambda r: _n(r["pg_primaries"], 2)),
        (
            f"Redis commands/s = moves/s x {costs.redis_ops:.2f} + processes x {costs.idle_redis_ops:.1f}",
            lambda r: _n(r["redis_ops_per_s"]),
        ),
        (
            f"Redis cores = commands/s x {a.redis_us_per_command:g} us"
            if a.redis_us_per_command
            else f"Redis cores = moves/s x {costs.redis_ms:.3f} ms",
            lambda r: _n(r["redis_cores"], 2),
        ),
        (f"Redis instances (one core each) at {u:.0%}", lambda r: _n(r["redis_instances"], 2)),
    ]
    width = max(len(label) for label, _value in table)
    for label, value in table:
        lines.append(f"{label:<{width}}  " + "  ".join(f"{value(r):>14}" for r in rows))
    lines.append("")
    lines.append(
        "First to give as tables grow (one instance at the planned utilisation): "
        + "; ".join(f"{name} at {_n(count)} tables" for name, count in first_limits(costs, a))
    )
    return "\n".join(lines)


def last_figures(text: str) -> dict:
    """The last line of a service_load run that is its JSON figures."""
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            found = json.loads(line)
            if "pg_cpu_ms_per_move" in found:
                return found
    raise ValueError("no service_load figures (a JSON line with pg_cpu_ms_per_move) in the input")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", help="service_load's output (or just its last line); - for standard input")
    parser.add_argument("--tables", type=int, nargs="+", default=[10_000, 100_000])
    for field in fields(Assumptions):
        parser.add_argument(f"--{field.name.replace('_', '-')}", type=type(field.default), default=field.default)
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.run == "-" else open(args.run).read()
    assumptions = replace(Assumptions(), **{field.name: getattr(args, field.name) for field in fields(Assumptions)})
    print(report(Costs.from_run(last_figures(text)), args.tables, assumptions))


if __name__ == "__main__":
    main()
