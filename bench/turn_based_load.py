"""Turn-based tables at scale: the your-move list and the deadline loop's work, on PostgreSQL.

A scratch database on the machine's PostgreSQL (127.0.0.1:5432, migrated as the site migrates,
dropped after; used under /tmp/sevn-scaleout.lock like every bench and test that shares it) is
filled with `--people` accounts (50,000) and `--tables` turn-based SEVN tables (20,000) of
three seats, each playing a dealt game whose clocks run out over the next day (a time per move
of 24 hours, each turn begun at a random moment of the last day). One person sits at
`--mine` of them (30, SEVN_MAX_TURN_BASED_TABLES), deciding at about half.

Measured, each `--reps` times:
- the your-move list of that person: the home page's (game.services.your_move.turn_based_tables,
  key `your_move_p95_ms`, target at most 20 ms), the whole home page that shows it (Django's
  test client, every middleware and the page drawn: `home_page_p95_ms`, and its statements),
  the tables waiting for their move (`waiting_for`) and the count in their tab title
  (`waiting_count`);
- the deadline loop (game.live.timers.fire_due, the loop's own entry point, with a given time):
  a poll with nothing due (the loop polls every 0.2 s: 300 a minute), then minute after minute
  of simulated time, every clock due in it played by the bot (a missed turn each): ms per
  minute, and per due clock; and the absence sweep (only live tables' seats: none here) that
  runs every 2 s.

The plans PostgreSQL chose are printed for the two reads (EXPLAIN ANALYZE), so an index that
stops being used shows. The last line printed is one JSON object of the results.

    .venv/bin/python bench/turn_based_load.py [--tables 20000] [--people 50000] [--minutes 5]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.set_up import scratch_postgresql, shared_lock  # noqa: E402

SEATS = 3
MOVE_SECONDS = 24 * 3600


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3)


def median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


@contextmanager
def scratch_database():
    """The run's own database on the shared PostgreSQL; Django's connections to it closed before
    it is dropped."""
    with scratch_postgresql(f"sevn_turn_based_{os.getpid()}") as url:
        try:
            yield url
        finally:
            from django.db import connections

            connections.close_all()


def setup_django(database_url: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "sevn_site.settings"
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = ""
    os.environ["SEVN_TIMERS"] = "off"
    import django

    django.setup()
    from django.conf import settings

    settings.SEVN_BOT_DELAY_MS = 0


def fill(tables: int, people: int, mine: int, now) -> dict:
    """The accounts, tables, seats and games, in a few statements (generate_series), and one
    dealt game's state copied into every game: what is measured reads none of it but the deadline
    loop, which plays the due turns for real. Returns the person's key and how many tables wait
    for them."""
    from django.db import connection

    from game import registry
    from game.fair.seeds import commitment, new_server_seed
    from game.models import Table

    kind = registry.KINDS["sevn"]
    table = Table(kind="sevn", options={})
    state = kind.new(table, SEATS, 12345, [])
    acting = kind.acting(state)
    state_json = kind.to_json(state)
    seed = new_server_seed()
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,"
            " is_active, date_joined) SELECT '!', false, 'p' || g, '', '', 'p' || g || '@example.org', false, true,"
            " %s FROM generate_series(1, %s) g",
            [now, people],
        )
        cursor.execute("SELECT min(id) FROM auth_user")
        first_user = cursor.fetchone()[0]
        # tables 1..n: turn-based, a time per move of 24 hours, playing
        cursor.execute(
            "INSERT INTO game_table (code, host_key, host_name, seat_count, kind, options, turn_seconds, bot_delay_ms,"
            " spectator_chat, members_only, rated, status, closed_reason, next_seed, created, updated, presence_told,"
            " pace, move_seconds, bank_increment, bank_most, window_start, window_end, time_zone, min_reliability)"
            " SELECT 'T' || lpad(g::text, 7, '0'), 'user:' || (%s + g %% %s), 'host', %s, 'sevn', '{}', 30, 0,"
            " true, false, false, 'playing', '', %s, %s, %s, 0, 'move', %s, 0, 0, NULL, NULL, '', 0"
            " FROM generate_series(1, %s) g",
            [first_user, people, SEATS, seed, now, now, MOVE_SECONDS, tables],
        )
        cursor.execute("SELECT min(id) FROM game_table")
        first_table = cursor.fetchone()[0]
        # seats: table t's seat s is person (t * SEATS + s) modulo the people (the person of
        # the bench gets its own below)
        cursor.execute(
            "INSERT INTO game_seat (table_id, index, player_key, nickname, user_id, bot_level, away,"
            " timeouts_in_row, last_seen, client_seed, joined, bank_seconds, let_go_by)"
            " SELECT %s + t - 1, s, 'user:' || (%s + (t * %s + s) %% %s), 'p' || ((t * %s + s) %% %s),"
            " %s + (t * %s + s) %% %s, '', false, 0, %s, '', %s, NULL, '[]'"
            " FROM generate_series(1, %s) t, generate_series(0, %s) s",
            [
                first_table,
                first_user,
                SEATS,
                people,
                SEATS,
                people,
                first_user,
                SEATS,
                people,
                now,
                now,
                tables,
                SEATS - 1,
            ],
        )
        # one game each, its turn begun at a moment of the last day: due over the next day
        cursor.execute(
            "INSERT INTO game_game (table_id, number, public_id, state, version, seed, server_seed, commitment,"
            " client_seeds, players, bots, records, event_count, deadline, over, winner, created, finished, acting,"
            " turn_started)"
            " SELECT %s + t - 1, 1, 'g' || t, %s, 1, 12345, %s, %s, '[]', %s, %s, '[]', 0,"
            " %s::timestamptz - (random() * interval '1 day') + interval '1 day', false, NULL, %s, NULL, %s,"
            " NULL FROM generate_series(1, %s) t",
            [
                first_table,
                state_json,
                seed,
                commitment(seed),
                json.dumps(["a", "b", "c"]),
                json.dumps(["", "", ""]),
                now,
                now,
                acting,
                tables,
            ],
        )
        cursor.execute("UPDATE game_game SET turn_started = deadline - interval '1 day'")
        # the person of the bench: their own account, at `mine` tables spread over the range,
        # deciding at every other one
        cursor.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,"
            " is_active, date_joined) VALUES ('!', false, 'me', '', '', 'me@example.org', false, true, %s)"
            " RETURNING id",
            [now],
        )
        me = cursor.fetchone()[0]
        key = f"user:{me}"
        step = max(1, tables // mine)
        picked = [first_table + i * step for i in range(mine)]
        for position, table_id in enumerate(picked):
            index = acting if position % 2 == 0 else (acting + 1) % SEATS
            cursor.execute(
                "UPDATE game_seat SET player_key = %s, user_id = %s, nickname = 'me'"
                " WHERE table_id = %s AND index = %s",
                [key, me, table_id, index],
            )
        cursor.execute("ANALYZE")
    return {"key": key, "waiting": (mine + 1) // 2, "fill_s": round(time.perf_counter() - started, 1)}


CPU: dict[str, list[float]] = {}  # this process's CPU ms per call, by what was timed


def timed(call, reps: int, name: str = "") -> tuple[list[float], object]:
    """Wall ms of each call (and this process's CPU ms, kept in CPU[name]: the machine is shared,
    and a loaded one stretches the wall time of what waits for its turn on a core)."""
    times, cpu, result = [], [], None
    for _ in range(reps):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = call()
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    if name:
        CPU[name] = cpu
    return times, result


def home_page(reps: int, waiting: int) -> tuple[list[float], int]:
    """The whole home page of the person at `--mine` tables (Django's test client: every
    middleware, the lists, the tab title's count, the page drawn): wall ms of each, and how many
    statements one asks. Static files by their plain names (the bench runs no collectstatic)."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    settings.ALLOWED_HOSTS = ["*"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    client = Client()
    client.force_login(User.objects.get(username="me"))  # by the first backend (allauth's)

    def page() -> None:
        answer = client.get("/en/")
        assert answer.status_code == 200, answer.status_code
        said = re.search(rb'<h2 id="your-move-title">([^<]*)</h2>', answer.content)
        assert f"Your move at {waiting} tables".encode() in answer.content, said and said.group(1)

    page()
    asked: list[str] = []  # a wrapper, not CaptureQueriesContext: a request's start empties Django's query log

    def count(execute, sql, params, many, context):
        asked.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        page()
    times, _ = timed(page, reps, "home_page")
    return times, len(asked)


def explain(sql_and_params) -> str:
    from django.db import connection

    sql, params = sql_and_params
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF) " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def measure(args) -> dict:
    from django.db import connection
    from django.utils import timezone

    from game.live import timers
    from game.models import Game, MissedTurn, Seat, Table
    from game.services import presence, your_move

    now = timezone.now()
    filled = fill(args.tables, args.people, args.mine, now)
    key = filled["key"]
    print(f"filled {args.tables} tables, {args.people} people in {filled['fill_s']} s", flush=True)

    home_ms, rows = timed(lambda: your_move.turn_based_tables(key), args.reps, "your_move")
    assert len(rows) == args.mine and sum(row.yours for row in rows) == filled["waiting"], rows[:3]
    page_ms, page_queries = home_page(args.reps, filled["waiting"])
    waiting_ms, waiting = timed(lambda: your_move.waiting_for(key), args.reps)
    assert len(waiting) == filled["waiting"]
    count_ms, count = timed(lambda: your_move.waiting_count(key), args.reps)
    assert count == filled["waiting"]
    print(explain((your_move._tables_sql(connection.vendor), [key, "lobby", "playing", "live"])))
    print(explain(your_move._waiting_rows(player_key=key).values_list(*your_move._FIELDS).query.sql_with_params()))

    # the deadline loop: a poll with nothing due (the loop's idle cost), then simulated minutes
    idle_ms, fired = timed(lambda: timers.fire_due(now, check_absent=False), args.reps, "poll")
    assert fired == []
    sweep_ms, _ = timed(lambda: presence.mark_absent(now), max(10, args.reps // 10), "sweep")
    due_q = Game.objects.filter(deadline__lte=now, over=False).order_by("deadline").values_list("id", flat=True)[:200]
    print(explain(due_q.query.sql_with_params()))
    print(f"absence sweep, no live table among {args.tables}: p95 {p95(sweep_ms)} ms; its statements:")
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as sweep:
        presence.mark_absent(now)
    for query in sweep.captured_queries:
        if query["sql"].startswith("SELECT"):
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, COSTS OFF) " + query["sql"])
                plan = [row[0] for row in cursor.fetchall()]
            print(query["sql"][:160], "...", plan[-1], "\n   ", "\n    ".join(plan[:8]))
    minutes, per_clock, cpu_per_clock = [], [], []
    due_total = 0
    for minute in range(1, args.minutes + 1):
        at = now + timedelta(minutes=minute)
        due = Game.objects.filter(deadline__lte=at, over=False).count()
        started, started_cpu = time.perf_counter(), time.process_time()
        messages = timers.fire_due(at, check_absent=False)
        took = (time.perf_counter() - started) * 1000
        cpu = (time.process_time() - started_cpu) * 1000
        assert len(messages) == due, (len(messages), due)
        minutes.append(took)
        due_total += due
        if due:
            per_clock.append(took / due)
            cpu_per_clock.append(cpu / due)
        print(f"minute {minute}: {due} clocks due, {took:.1f} ms", flush=True)
    assert MissedTurn.objects.count() == due_total
    assert Seat.objects.filter(table__pace="move").count() == args.tables * SEATS
    connection.close()
    return {
        "tables": Table.objects.count(),
        "people": args.people + 1,
        "mine": args.mine,
        "your_move_p95_ms": p95(home_ms),
        "your_move_median_ms": median(home_ms),
        "your_move_cpu_median_ms": median(CPU["your_move"]),
        "home_page_p95_ms": p95(page_ms),
        "home_page_median_ms": median(page_ms),
        "home_page_cpu_median_ms": median(CPU["home_page"]),
        "home_page_queries": page_queries,
        "waiting_for_p95_ms": p95(waiting_ms),
        "waiting_count_p95_ms": p95(count_ms),
        "deadline_poll_idle_p95_ms": p95(idle_ms),
        "deadline_polls_idle_ms_per_minute": round(median(idle_ms) * 300, 1),
        "deadline_poll_idle_cpu_median_ms": median(CPU["poll"]),
        "absence_sweep_p95_ms": p95(sweep_ms),
        "absence_sweeps_ms_per_minute": round(median(sweep_ms) * 30, 1),
        "due_clocks_per_minute": round(due_total / args.minutes, 1),
        "deadline_ms_per_minute_of_due_clocks": median(minutes),
        "deadline_ms_per_due_clock": median(per_clock) if per_clock else None,
        "deadline_cpu_ms_per_due_clock": median(cpu_per_clock) if cpu_per_clock else None,
        "load_average_1m": round(os.getloadavg()[0], 2),  # the machine is shared: how busy it was
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20_000)
    parser.add_argument("--people", type=int, default=50_000)
    parser.add_argument("--mine", type=int, default=30)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--minutes", type=int, default=5)
    args = parser.parse_args()
    with shared_lock(), scratch_database() as url:
        setup_django(url)
        from django.core.management import call_command

        started = time.perf_counter()
        call_command("migrate", verbosity=0)
        print(f"migrated in {time.perf_counter() - started:.1f} s", flush=True)
        result = measure(args)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
