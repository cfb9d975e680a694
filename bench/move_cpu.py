"""A move's CPU in one process, without the stack around it: tables of four guests playing SEVN
through the real table consumer (Channels' WebsocketCommunicator on `sevn_site.asgi`: the socket's
parse, the service on the database thread, the local layer, every screen's render) on a scratch
PostgreSQL database, or SQLite. Daphne, Twisted, nginx and Redis are not in it: this is the part
of `service_load.py`'s Daphne figure that the project's own Python spends, measured quietly enough
to A/B a change of a few per cent, and profiled (`--profile`) to find the next one.

Each person answers the decision on their screen at once (no think time), read from the HTML
their socket is sent (deploy/players.Screen); the tables play side by side. CPU is the process's
(time.process_time: the event loop's thread and the database thread); the players' own reading
of their HTML (the load client's part) is timed apart and left out of "server". Stages come from
game/runtime/stages.py (on here), as in the load bench.

    .venv/bin/python bench/move_cpu.py                                   # this tree, one run
    .venv/bin/python bench/move_cpu.py --trees /tmp/base,. --turns 3     # A/B in turns
    .venv/bin/python bench/move_cpu.py --profile /tmp/move.prof          # cProfile of the moves

With `--trees`, each run is a child process whose imports come from that tree (a checkout of
another revision, with its translations compiled); the bench itself is this file. The last line
is one JSON object: per tree, the runs in order.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))  # this tree's bench, imported before a child puts its tree first

from bench.set_up import (  # noqa: E402
    UNLIMITED_PEOPLE,
    child_figures,
    database_arguments,
    enter_tree,
    medians,
    schema_from_models,
    scratch_postgresql,
    table_of_guests,
    tree_arguments,
    trees_in_turns,
)

PEOPLE = 4


def child_main(args) -> None:
    enter_tree(
        args.tree,
        {
            "DATABASE_URL": args.database_url,
            "REDIS_URL": "",
            "SEVN_TIMERS": "off",
            "SEVN_ANALYSIS": "off",
            "SEVN_STAGES": "1",
            "SEVN_BOT_DELAY_MS": "0",
            # (with the limits in place a move was refused and the run waited for ever at one table,
            # and at 20 tables the last 16 sockets were closed: 16 tables played; the checks still run)
            **UNLIMITED_PEOPLE,
            # the same in every tree: the seats' tags in a recorded update are this key's (render_cpu.py)
            "SECRET_KEY": "move-cpu-bench-" + "k" * 40,
        },
    )
    schema_from_models()
    print(json.dumps(asyncio.run(play(args))))


def same_deals() -> None:
    """Every run deals the same games: a table's engine seed by the order the tables were made
    in and the game's number (its code and server seed are random), so that two trees play the
    very same moves and compare move for move."""
    from game.fair import seeds

    order: dict[str, int] = {}

    def engine_seed(server_seed: str, *, table: str, number: int, **_rest) -> int:
        return (order.setdefault(table, len(order)) * 1_000_003 + number * 7919) % 2**63

    seeds.engine_seed = engine_seed


def prepare(tables: int) -> list[tuple[str, list[str], object]]:
    return [table_of_guests("cpu", n, PEOPLE) for n in range(tables)]


class Socket:
    """A socket on the application, as a server hands it its messages: two queues (Channels'
    WebsocketCommunicator is not used: it patches out the closing of stale database connections
    while it waits, which a server's consumer does before every database call)."""

    def __init__(self, application, path: str, query: str, headers: list) -> None:
        scope = {
            "type": "websocket",
            "path": path,
            "query_string": query.encode(),
            "headers": headers,
            "subprotocols": [],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        self.sent: asyncio.Queue = asyncio.Queue()
        self.received: asyncio.Queue = asyncio.Queue()
        self.task = asyncio.ensure_future(application(scope, self.sent.get, self.received.put))

    async def connect(self) -> bool:
        await self.sent.put({"type": "websocket.connect"})
        return (await self.received.get())["type"] == "websocket.accept"

    async def receive_from(self) -> str:
        while True:
            message = await self.received.get()
            if message["type"] == "websocket.send":
                return message["text"]
            raise RuntimeError(f"the socket closed: {message}")

    async def send_to(self, text_data: str) -> None:
        await self.sent.put({"type": "websocket.receive", "text": text_data})


class Run:
    """The people at every table, the count of their moves, and what is measured once the
    warm-up is over (the process's CPU and the stages; the profiles with --profile)."""

    def __init__(self, args, made: list) -> None:
        self.args, self.made = args, made
        self.sent = 0
        self.client = 0.0  # the players' reading, CPU seconds (after the warm-up)
        self.started: dict | None = None
        self.done = asyncio.Event()
        self.recorded: list[tuple[str, str]] = []
        self.profilers: list = []

    def record(self) -> None:
        """Every table update as its screens receive it, once the measure starts (render_cpu.py)."""
        from game.live import watch

        send = watch.send_async

        async def send_async(code: str, update: dict) -> None:
            if self.started is not None and "snapshot" in update:
                self.recorded.append((code, json.dumps(update)))
            await send(code, update)

        watch.send_async = send_async

    def start(self) -> None:
        from game.runtime import stages

        self.started = {"stages": stages.totals(), "cpu": time.process_time(), "wall": time.perf_counter()}
        if not self.args.profile:
            return
        import cProfile

        from channels import db

        main = cProfile.Profile(time.thread_time)
        main.enable()
        # the database thread's part (a profiler sees only the thread it was enabled in)
        worker = cProfile.Profile(time.thread_time)
        hop = db.DatabaseSyncToAsync.thread_handler

        def profiled(self, loop, *args, **kwargs):
            return worker.runcall(hop, self, loop, *args, **kwargs)

        db.DatabaseSyncToAsync.thread_handler = profiled
        self.profilers = [main, worker]

    async def person(self, code: str, host, socket: Socket, first: bool, seed: int) -> None:
        """One person's screen: each decision shown is answered once; at a game's end the host
        (`first`) deals the next."""
        from channels.db import database_sync_to_async

        from deploy.players import Screen
        from game import services
        from game.core.errors import ServiceError

        screen = Screen()
        rng = random.Random(seed)  # each person's own: the same choices whatever the interleaving
        answered: set = set()
        while not self.done.is_set():
            html = await socket.receive_from()
            began = time.thread_time()
            screen.read(html)
            if screen.toast is not None:  # a refused move is never sent again: say so, do not wait
                raise RuntimeError(f"a move was refused ({screen.toast[0]}): {screen.toast[1]}")
            move = screen.choose(rng) if screen.version not in answered else None
            if self.started is not None:
                self.client += time.thread_time() - began
            if screen.over and 'class="standings"' in html and not move:
                if first:
                    try:
                        await database_sync_to_async(services.game_start)(code=code, player=host)
                    except ServiceError:  # dealt already (a second message with the standings)
                        pass
                continue
            if move is None:
                continue
            answered.add(screen.version)
            game, version = screen.version
            self.sent += 1
            if self.sent == self.args.warm:
                self.start()
            if self.sent >= self.args.warm + self.args.moves:
                self.done.set()
                return
            await socket.send_to(json.dumps({**move, "version": str(version), "game": str(game)}))

    def figures(self, before: dict, after: dict) -> dict:
        cpu = time.process_time() - self.started["cpu"]
        wall = time.perf_counter() - self.started["wall"]
        moves = self.args.moves
        split = {
            name: round((seconds - before["seconds"].get(name, 0.0)) / moves * 1000, 3)
            for name, seconds in sorted(after["seconds"].items())
        }
        return {
            "moves": moves,
            "wall_s": round(wall, 2),
            "process_ms": round(cpu / moves * 1000, 3),
            "client_ms": round(self.client / moves * 1000, 3),
            "server_ms": round((cpu - self.client) / moves * 1000, 3),
            "stages_ms": split,
        }

    def write(self) -> None:
        if self.profilers:
            self.profilers[0].disable()
            self.profilers[0].dump_stats(self.args.profile)
            self.profilers[1].dump_stats(f"{self.args.profile}.database")
        if self.args.record:
            viewers = {
                code: [f"guest:cpu-{n}-{i}" for i in range(PEOPLE)] for n, (code, _s, _h) in enumerate(self.made)
            }
            with open(self.args.record, "w") as out:
                json.dump({"viewers": viewers, "updates": self.recorded}, out)


async def play(args) -> dict:
    import gc

    from channels.db import database_sync_to_async

    from game.live import watch
    from game.runtime import stages
    from sevn_site.asgi import application

    same_deals()
    made = await database_sync_to_async(prepare)(args.tables)
    run = Run(args, made)
    if args.record:
        run.record()
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    people = []
    for code, sessions, host in made:
        for seat, session in enumerate(sessions):
            socket = Socket(
                application, f"/ws/t/{code}/", "lang=en", [*headers, (b"cookie", f"sessionid={session}".encode())]
            )
            assert await socket.connect()
            people.append((code, host, socket, seat == 0))
    gc.collect()
    gc.freeze()
    gc.set_threshold(5000, 20, 100)  # as sevn_site.asgi sets it for a server
    tasks = [asyncio.create_task(run.person(*person, seed)) for seed, person in enumerate(people)]
    # the screens' check and the presence heartbeat, as a server runs them beside its sockets
    # (without the heartbeat a seat's last sighting ages past presence's grace, and every move
    # goes the locked way to ask who is here)
    tasks.append(asyncio.create_task(watch.run_forever()))
    waiting = asyncio.create_task(run.done.wait())
    finished, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    for task in finished - {waiting}:
        task.result()  # a person's failure (a refused move) ends the run with its reason
    await waiting
    await asyncio.sleep(0.2)  # the moves in flight land before the clock stops: every screen drawn
    figures = run.figures(run.started["stages"], stages.totals())
    run.write()
    for task in tasks:
        task.cancel()
    for _code, _host, socket, _first in people:
        socket.task.cancel()
    await asyncio.gather(*tasks, *(person[2].task for person in people), return_exceptions=True)
    return figures


@contextmanager
def scratch(kind: str):
    """A database of the run's own: PostgreSQL's on 127.0.0.1, or a SQLite file."""
    if kind == "sqlite":
        folder = tempfile.mkdtemp()
        try:
            yield f"sqlite:///{folder}/move_cpu.sqlite3"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return
    with scratch_postgresql(f"sevn_move_cpu_{secrets.token_hex(3)}") as url:
        yield url


def run(tree: str, args) -> dict:
    with scratch(args.database) as url:
        command = [sys.executable, __file__, "--child", "--tree", tree, "--database-url", url]
        command += ["--tables", str(args.tables), "--moves", str(args.moves), "--warm", str(args.warm)]
        if args.profile:
            command += ["--profile", args.profile]
        if args.record:
            command += ["--record", args.record]
        return child_figures(command, tree)


def said(figures: dict) -> str:
    stages_line = ", ".join(f"{name} {ms}" for name, ms in figures["stages_ms"].items() if ms >= 0.01)
    return (
        f"server {figures['server_ms']} ms a move "
        f"(process {figures['process_ms']}, players {figures['client_ms']}; {figures['wall_s']} s)"
        f"\n  stages: {stages_line}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tree_arguments(parser)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=3000, help="moves measured per run")
    parser.add_argument("--warm", type=int, default=400, help="moves before the measure starts")
    database_arguments(parser)
    parser.add_argument("--profile", help="write a cProfile of the measured moves here")
    parser.add_argument("--record", help="write the measured moves' table updates here (bench/render_cpu.py)")
    args = parser.parse_args()
    if args.child:
        child_main(args)
        return
    runs = trees_in_turns(args, lambda tree: run(tree, args), said)
    summary = medians(runs, "server_ms", 3)
    for tree, line in summary.items():
        print(f"{tree}: server ms a move {line['server_ms']}, median {line['median']}")
    print(json.dumps({"runs": runs, "summary": summary}))


if __name__ == "__main__":
    main()
