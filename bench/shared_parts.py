"""What each move costs the parts every Daphne process shares, PostgreSQL and Redis, counted by
themselves (deploy/local_stack.py: pg_stat_database, the WAL position, the transaction id,
pg_stat_statements; Redis's INFO commandstats) over the load's measured window. These are the
figures a projection past one machine rests on (bench/projection.py): the Daphne processes
multiply, the database and Redis do not.

Most counters are exact the moment they are read. pg_stat_database's (transactions, rows
written and fetched) are published by a backend at most once a second while it works and within
about ten seconds once it is idle, or at once when it ends: after the window every connection
to the game's database is ended (the processes' pools open new ones) and those are read then.
At the window's start they may lack the last second or so of the warm-up's reads, which then
count in the window.

Then, with the load's tables closed and no socket open, IDLE_SECONDS of the stack's own
background per process (the deadline loop's polls, the absence check): it grows with
processes, not with moves.
"""

from __future__ import annotations

import time

LAGGING = ("pg_xacts", "pg_rows_written", "pg_rows_fetched")  # pg_stat_database's
IDLE_SECONDS = 10.0
TOP_STATEMENTS = 8


def reading(stack) -> dict[str, float]:
    """Every counter of the shared parts now, and when it was read."""
    return {
        "at": time.monotonic(),
        **{f"pg_{name}": value for name, value in stack.postgres.counters().items()},
        **{f"redis_{name}": value for name, value in stack.redis.counters().items()},
    }


def _delta(after: dict, before: dict) -> dict[str, float]:
    return {name: value - before.get(name, 0) for name, value in after.items()}


class SharedParts:
    """Readings at the start and the end of the measured window (start, stop), the lagging
    counters once published (flush), and the idle background (measure_idle); per_move() turns
    them into the figures of the bench's final line."""

    def __init__(self, stack) -> None:
        self.stack = stack
        self.before: dict = {}
        self.after: dict = {}
        self.flushed: dict = {}
        self.idle: dict[str, float] = {}
        self.statements_before: dict = {}
        self.statements_after: dict = {}

    def start(self) -> None:
        self.before = reading(self.stack)
        self.statements_before = self.stack.postgres.statement_totals()

    def stop(self) -> None:
        self.after = reading(self.stack)
        self.statements_after = self.stack.postgres.statement_totals()

    def flush(self) -> None:
        """After the window (nobody plays): end the database connections, so that what they did
        is published, and read the lagging counters."""
        self.stack.postgres.end_connections()
        self.flushed = reading(self.stack)

    def measure_idle(self, servers: int, seconds: float = IDLE_SECONDS) -> None:
        """The stack's background per process and second, nothing to play and no socket open."""
        cpu, before = self.stack.cpu_seconds(), reading(self.stack)
        time.sleep(seconds)
        cpu_spent = _delta(self.stack.cpu_seconds(), cpu)  # before the backends end and take theirs along
        self.stack.postgres.end_connections()
        spent = _delta(reading(self.stack), before)
        per = spent["at"] * servers
        self.idle = {
            "idle_pg_xacts_per_s_per_server": round(spent["pg_xacts"] / per, 2),
            "idle_pg_cpu_ms_per_s_per_server": round(1000 * cpu_spent["postgres"] / per, 2),
            "idle_daphne_cpu_ms_per_s_per_server": round(1000 * cpu_spent["daphne"] / per, 2),
            "idle_redis_ops_per_s_per_server": round(spent["redis_commands"] / per, 2),
            # Redis's own upkeep (its timers, the blocked reads' timeouts): not the processes'
            "idle_redis_cpu_ms_per_s": round(1000 * cpu_spent["redis"] / spent["at"], 2),
        }
        if "pg_statements" in spent:
            self.idle["idle_pg_statements_per_s_per_server"] = round(spent["pg_statements"] / per, 2)

    def window(self) -> dict[str, float]:
        """Each counter's growth over the measured window (pg_stat_database's as published)."""
        spent = _delta(self.after, self.before)
        published = _delta(self.flushed, self.before)
        return {**spent, **{name: published[name] for name in LAGGING}}

    def per_move(self, moves: int, cpu_ms_per_move: dict[str, float], servers: int) -> dict:
        """The figures for the final JSON line: per move, and the idle background per process."""
        spent, per = self.window(), max(1, moves)

        def each(value: float, digits: int = 2) -> float:
            return round(value / per, digits)

        figures = {
            "servers": servers,
            "pg_cpu_ms_per_move": cpu_ms_per_move["postgres"],
            "redis_cpu_ms_per_move": cpu_ms_per_move["redis"],
            "nginx_cpu_ms_per_move": cpu_ms_per_move["nginx"],
            "pg_xacts_per_move": each(spent["pg_xacts"]),
            "pg_write_xacts_per_move": each(spent["pg_write_xacts"]),
            "pg_rows_written_per_move": each(spent.get("pg_statement_rows_written", spent["pg_rows_written"])),
            "pg_rows_fetched_per_move": each(spent["pg_rows_fetched"], 1),
            "pg_wal_bytes_per_move": each(spent["pg_wal_bytes"], 0),
            "redis_ops_per_move": each(spent["redis_commands"]),
            "redis_ops_by_command_per_move": {
                name.removeprefix("redis_command_"): each(value)
                for name, value in sorted(spent.items(), key=lambda item: -item[1])
                if name.startswith("redis_command_") and value > 0
            },
        }
        if "pg_statements" in spent:
            figures["pg_statements_per_move"] = each(spent["pg_statements"])
            figures["pg_statements_by_kind_per_move"] = {
                name.removeprefix("pg_statements_"): each(value)
                for name, value in spent.items()
                if name.startswith("pg_statements_") and value > 0
            }
        return {**figures, **self.idle}

    def top_statements(self, moves: int, count: int = TOP_STATEMENTS) -> list[str]:
        """The statements that took the database's time in the window: ms, calls and rows per move."""
        rows = []
        for query, (calls, found, ms) in self.statements_after.items():
            was = self.statements_before.get(query, (0, 0, 0.0))
            rows.append((ms - was[2], calls - was[0], found - was[1], " ".join(query.split())[:110]))
        per = max(1, moves)
        return [
            f"{ms / per:7.3f} ms {calls / per:6.2f} calls {found / per:8.1f} rows  {query}"
            for ms, calls, found, query in sorted(rows, reverse=True)[:count]
            if calls > 0
        ]
