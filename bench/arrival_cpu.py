"""A table socket's opening and closing, in one process: what every page opened or closed costs
the server, and what a crowd arriving at once (a restart's every screen, the load bench's warm-up)
costs it many times over. Tables of four guests playing SEVN on a scratch PostgreSQL database
(or SQLite), three of each table's four people connected; the fourth person's socket opens, gets
its whole table, and closes, table after table, again and again. The three others hear each
opening and closing (who is here), as they would.

Measured once the warm-up is over: the process's CPU (time.process_time: the event loop's thread
and the database thread) and the SQL statements sent (every thread's, transactions' BEGIN and
COMMIT not counted), each per opening and closing.

    .venv/bin/python bench/arrival_cpu.py                                   # this tree, one run
    .venv/bin/python bench/arrival_cpu.py --trees /tmp/base,. --turns 4     # A/B in turns

With `--trees`, each run is a child process whose imports come from that tree (a checkout of
another revision, with its translations compiled); the bench itself is this file, as in
move_cpu.py. The last line is one JSON object: per tree, the runs in order and their medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))  # this tree's bench, imported before a child puts its tree first

from bench.move_cpu import Socket, scratch  # noqa: E402
from bench.set_up import (  # noqa: E402
    UNLIMITED_PEOPLE,
    child_figures,
    database_arguments,
    enter_tree,
    medians,
    schema_from_models,
    table_of_guests,
    tree_arguments,
    trees_in_turns,
)

PEOPLE = 4
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
WHOLE_TABLE = 'id="table"'


def child_main(args) -> None:
    enter_tree(
        args.tree,
        {
            "DATABASE_URL": args.database_url,
            "REDIS_URL": "",
            "SEVN_TIMERS": "off",
            "SEVN_ANALYSIS": "off",
            "SEVN_BOT_DELAY_MS": "0",
            **UNLIMITED_PEOPLE,
        },
    )
    schema_from_models()
    print(json.dumps(asyncio.run(arrivals(args))))


class Statements:
    """The SQL statements every thread sends through Django's cursors, counted (a transaction's
    BEGIN and COMMIT, which PostgreSQL's driver sends itself, are not)."""

    def __init__(self) -> None:
        from django.db.backends import utils

        self.count = 0
        for name in ("execute", "executemany"):
            original = getattr(utils.CursorWrapper, name)
            setattr(utils.CursorWrapper, name, self._counted(original))

    def _counted(self, original):
        def counted(cursor, sql, *args, **kwargs):
            if not sql.lstrip().upper().startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")):
                self.count += 1
            return original(cursor, sql, *args, **kwargs)

        return counted


async def whole_table(socket: Socket) -> None:
    while WHOLE_TABLE not in await socket.receive_from():
        pass


async def drained(socket: Socket) -> None:
    """An onlooker's screen: whatever it is sent, read and let go."""
    while True:
        await socket.receive_from()


async def arrivals(args) -> dict:
    from channels.db import database_sync_to_async

    from sevn_site.asgi import application

    def socket(code: str, session: str) -> Socket:
        return Socket(
            application, f"/ws/t/{code}/", "lang=en", [*HEADERS, (b"cookie", f"sessionid={session}".encode())]
        )

    made = await database_sync_to_async(lambda: [table_of_guests("arrive", n, PEOPLE) for n in range(args.tables)])()
    onlookers = []
    for code, sessions, _host in made:
        for session in sessions[1:]:
            onlooker = socket(code, session)
            assert await onlooker.connect()
            await whole_table(onlooker)
            onlookers.append(asyncio.create_task(drained(onlooker)))
    statements = Statements()

    async def arrive(n: int) -> None:
        code, sessions, _host = made[n % len(made)]
        opened = socket(code, sessions[0])
        assert await opened.connect()
        await whole_table(opened)
        await opened.sent.put({"type": "websocket.disconnect", "code": 1000})
        await opened.task  # closed: its leaving is noted and told before the next one opens

    for n in range(args.warm):
        await arrive(n)
    before, cpu, wall = statements.count, time.process_time(), time.perf_counter()
    for n in range(args.arrivals):
        await arrive(n)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    for task in onlookers:
        task.cancel()
    await asyncio.gather(*onlookers, return_exceptions=True)
    return {
        "arrivals": args.arrivals,
        "cpu_ms": round(1000 * cpu / args.arrivals, 2),
        "statements": round((statements.count - before) / args.arrivals, 2),
        "wall_s": round(wall, 2),
    }


def run(tree: str, args) -> dict:
    with scratch(args.database) as url:
        command = [sys.executable, __file__, "--child", "--tree", tree, "--database-url", url]
        command += ["--tables", str(args.tables), "--arrivals", str(args.arrivals), "--warm", str(args.warm)]
        return child_figures(command, tree)


def said(figures: dict) -> str:
    return (
        f"{figures['cpu_ms']} ms of CPU and {figures['statements']} statements an opening and closing "
        f"({figures['arrivals']} in {figures['wall_s']} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tree_arguments(parser)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--arrivals", type=int, default=300, help="openings and closings measured per run")
    parser.add_argument("--warm", type=int, default=30, help="openings and closings before the measure")
    database_arguments(parser)
    args = parser.parse_args()
    if args.child:
        child_main(args)
        return
    runs = trees_in_turns(args, lambda tree: run(tree, args), said)
    summary = medians(runs, "cpu_ms", 2)
    for tree, kept in runs.items():
        summary[tree]["statements"] = kept[-1]["statements"]
    print(json.dumps({"runs": runs, "summary": summary}))


if __name__ == "__main__":
    main()
