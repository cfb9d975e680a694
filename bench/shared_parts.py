"""What each move costs the parts every Daphne process shares, PostgreSQL and Redis, counted by
themselves (deploy/local_stack.py: pg_stat_database, the WAL position, the transaction id,
pg_stat_statements; Redis's INFO commandstats) over the load's measured window. These are the
figures a projection past one machine rests on (bench/projection.py): the Daphne processes
multiply, the database and Redis do not.

Most counters are exact the moment they are read. pg_stat_database's (transactions, rows
written and fetched) are published by a backend at most once a second while it works and within
about ten seconds once it is idle, so they are read again FLUSH_SECONDS after the load, and what
the stack does meanwhile with nobody playing (the deadline loops, measured over IDLE_SECONDS
more) is taken off. That idle background, per process, is reported too: it does not grow with
moves but with processes.
"""

from __future__ import annotations

import time

FLUSH_SECONDS = 11.0  # PostgreSQL publishes an idle backend's counts within 10 s (PGSTAT_IDLE_INTERVAL)
IDLE_SECONDS = 10.0
LAGGING = ("pg_xacts", "pg_rows_written", "pg_rows_fetched")  # pg_stat_database's
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
    """Readings at the start and end of the measured window, then after the flush and the idle
    interval; per_move() turns them into the figures per move."""

    def __init__(self, stack) -> None:
        self.stack = stack
        self.before = self.after = self.settled = self.idle = {}
        self.statements_before: dict = {}
        self.statements_after: dict = {}

    def start(self) -> None:
        self.before = reading(self.stack)
        self.statements_before = self.stack.postgres.statement_totals()

    def stop(self) -> None:
        self.after = reading(self.stack)
        self.statements_after = self.stack.postgres.statement_totals()

    def settle(self) -> None:
        """Wait for pg_stat_database to publish the load's counts, then measure the idle rate."""
        time.sleep(max(0.0, FLUSH_SECONDS - (time.monotonic() - self.after["at"])))
        self.settled = reading(self.stack)
        time.sleep(IDLE_SECONDS)
        self.idle = reading(self.stack)

    def idle_rates(self) -> dict[str, float]:
        """Each counter's growth a second with nobody playing (and no socket open)."""
        spent = _delta(self.idle, self.settled)
        return {name: value / spent["at"] for name, value in spent.items() if name != "at"}

    def window(self) -> dict[str, float]:
        """Each counter's growth over the measured window (pg_stat_database's from the settled
        reading, less the idle background between the window's end and that reading)."""
        spent = _delta(self.after, self.before)
        late, rates = _delta(self.settled, self.before), self.idle_rates()
        for name in LAGGING:
            spent[name] = late[name] - rates[name] * (self.settled["at"] - self.after["at"])
        return spent

    def per_move(self, moves: int, cpu_ms_per_move: dict[str, float], servers: int) -> dict:
        """The figures for the final JSON line: per move, and the idle background per process."""
        spent, rates, per = self.window(), self.idle_rates(), max(1, moves)

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
            "idle_pg_xacts_per_s_per_server": round(rates["pg_xacts"] / servers, 2),
            "idle_redis_ops_per_s_per_server": round(rates["redis_commands"] / servers, 2),
        }
        if "pg_statements" in spent:
            figures["pg_statements_per_move"] = each(spent["pg_statements"])
            figures["pg_statements_by_kind_per_move"] = {
                name.removeprefix("pg_statements_"): each(value)
                for name, value in spent.items()
                if name.startswith("pg_statements_") and value > 0
            }
            figures["idle_pg_statements_per_s_per_server"] = round(rates["pg_statements"] / servers, 2)
        return figures

    def top_statements(self, moves: int, count: int = TOP_STATEMENTS) -> list[str]:
        """The statements that took the database's time in the window: calls, rows and ms per move."""
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
