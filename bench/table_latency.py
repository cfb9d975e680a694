"""Live table latency: action to every viewer's screen, against a bare echo floor.

Starts the real server (Daphne, embedded default: SQLite + in-memory channel layer) on a
fresh database, then plays real games over WebSockets: N tables x 4 players, each player
reading its own HTML and answering the decision on its screen with a legal move. For every
move it measures the time from sending it to the moment all four sockets of the table have
the new table, and the server's CPU time per move. In the same run, in blocks taking turns
with parts of the one-table games, it measures a bare echo consumer (group_send to 4 sockets)
as the floor, and beside it a lean echo without Channels' database hop per dispatched message
(the table's consumer skips that hop too). The last line is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.set_up import UNLIMITED_PEOPLE, table_of_guests  # noqa: E402

META = re.compile(r'id="table-meta"[^>]*data-game="(\d+)" data-version="(\d+)"')
FORM = re.compile(r"<form ws-send[^>]*>(.*?)</form>", re.S)
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
REFUSAL = re.compile(r'<p class="toast"(?: data-reason="([^"]*)")?>')  # a refusal's toast and its reason
SEATS = 4


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prepare_database(env: dict, tables: int) -> list[list[str]]:
    """Migrate a fresh database and seat 4 players at each started table; returns, per table,
    the session ids of its players (as their browsers would hold them)."""
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    prepared = []
    for r in range(tables):
        code, sessions, _host = table_of_guests("bench", r, SEATS)
        prepared.append([code, *sessions])
    connections.close_all()
    return prepared


def start_server(env: dict, port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        # A crowd of sockets opens at once, on a machine that may be busy: each may take its time
        # to be let in (Daphne's 5 s handshake limit dropped some under a full test run); the
        # bench times moves, not arrivals.
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "--websocket_connect_timeout", "60"]
        + ["bench.echo_asgi:application"],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


async def connect(url: str, origin: str, session: str | None = None):
    from websockets.asyncio.client import connect as ws_connect

    headers = {"Cookie": f"sessionid={session}"} if session else {}
    # the server waits 60 s for a handshake (--websocket_connect_timeout): so does the client, as
    # 200 sockets opening at once on a loaded machine may take more than websockets' default 10 s
    return await ws_connect(
        url, origin=origin, additional_headers=headers, max_size=2**22, ping_interval=None, open_timeout=60
    )


async def echo_floor(base: str, origin: str, messages: int, path: str = "echo") -> list[float]:
    """An echo consumer: one socket sends, the group's 4 sockets receive; the latencies in ms."""
    sockets = [await connect(f"{base}/ws/{path}/bench/", origin) for _ in range(SEATS)]
    await asyncio.sleep(0.2)
    latencies = []
    for n in range(messages):
        started = time.perf_counter()
        await sockets[0].send(f"ping {n}")
        for sock in sockets:
            await sock.recv()
        latencies.append((time.perf_counter() - started) * 1000)
    for sock in sockets:
        await sock.close()
    return latencies


class Floors(NamedTuple):
    """The echo floors' latencies (ms) and the server's CPU seconds they took, bare and lean."""

    bare: list[float]
    lean: list[float]
    bare_cpu: float
    lean_cpu: float


async def echo_floors(base: str, origin: str, messages: int, server_pid: int | None = None) -> Floors:
    """The bare echo (a plain Channels consumer) and the lean one (without Channels' database
    hop per message, as the table dispatches), measured in alternating blocks so that both see
    the same moment of a machine whose speed drifts; with the server's pid, the CPU each took
    (what the stack's own frames and dispatch cost a move at a table of four: one message in,
    four out, nothing of the game's)."""
    floors = Floors([], [], 0.0, 0.0)
    block = max(1, messages // 10)
    cpu = (lambda: cpu_seconds(server_pid)) if server_pid is not None else (lambda: 0.0)
    for _ in range(0, messages, block):
        before = cpu()
        floors.bare.extend(await echo_floor(base, origin, block))
        middle = cpu()
        floors.lean.extend(await echo_floor(base, origin, block, path="echo-lean"))
        floors = floors._replace(bare_cpu=floors.bare_cpu + middle - before, lean_cpu=floors.lean_cpu + cpu() - middle)
    return floors


def controls_of(html: str) -> str | None:
    """The controls a message swaps in (and what follows them: never a move's form), if it brings
    any; a screen keeps the last ones shown (a decision like the one before is not sent again)."""
    start = html.find('class="controls')
    return None if start < 0 else html[start:]


def choose(html: str, rng: random.Random) -> dict | None:
    """A legal move from the controls on this player's screen (draw with a small row)."""
    if "controls--active" not in html:
        return None
    forms = [dict(HIDDEN.findall(body)) for body in FORM.findall(html)]
    forms = [form for form in forms if form.get("kind") not in (None, "chat")]  # a move, not a chat line
    if not forms:
        return None
    kinds = {form["kind"]: form for form in forms}
    if "draw" in kinds and "disabled" not in html.split('value="draw"', 1)[1][:200]:
        return kinds["draw"] if rng.random() < 0.65 else kinds["pass"]
    return kinds.get("pass") or forms[0]


class Table:
    """Four players of one table, and the moves measured at it."""

    def __init__(self, code: str, sessions: list[str], think: float, seed: int) -> None:
        self.code, self.sessions, self.think = code, sessions, think
        self.rng = random.Random(seed)
        self.seen = [(0, 0)] * SEATS  # newest (game number, version) each socket has
        self.controls = [""] * SEATS  # the controls each socket shows
        self.sent_at: dict[tuple[int, int], float] = {}  # (game, version) the move answered -> send time
        self.latencies: list[float] = []
        self.error_kinds: Counter[str] = Counter()  # the errors by kind: toast_<reason>, unanswered
        self.moves = 0
        self.elapsed = self.cpu = 0.0  # seconds played, and the server's CPU seconds meanwhile

    def arrived(self, player: int, version: tuple[int, int]) -> None:
        if version <= self.seen[player]:
            return
        self.seen[player] = version
        if min(self.seen) < version:
            return
        answered = (version[0], version[1] - 1)
        if answered in self.sent_at:
            self.latencies.append((time.perf_counter() - self.sent_at.pop(answered)) * 1000)
        # a move sent on an older table was refused (its toast is counted) or applied with a
        # version between (someone coming back took one first): neither is left unanswered
        for overtaken in [sent for sent in self.sent_at if sent < answered]:
            del self.sent_at[overtaken]

    async def open(self, base: str, origin: str) -> list:
        self.origin = origin
        return [await connect(f"{base}/ws/t/{self.code}/?lang=en", origin, s) for s in self.sessions]

    async def play(self, sockets: list, window: Window) -> None:
        await asyncio.gather(*(self._player(i, sock, window) for i, sock in enumerate(sockets)))

    def rematch(self) -> None:
        """The host presses Rematch after game over (an HTTP form post, as in the browser)."""
        cookie = f"sessionid={self.sessions[0]}; csrftoken={'x' * 32}"
        request = urllib.request.Request(
            f"{self.origin}/en/t/{self.code}/start/",
            method="POST",
            data=b"",
            headers={"Cookie": cookie, "X-CSRFToken": "x" * 32, "Origin": self.origin, "HX-Request": "true"},
        )
        urllib.request.urlopen(request, timeout=10).read()

    async def _player(self, index: int, sock, window: Window) -> None:
        try:
            while not window.over():
                try:
                    html = await asyncio.wait_for(sock.recv(), timeout=max(0.05, window.left()))
                except TimeoutError:
                    continue  # the window may have been stretched meanwhile: it says when play ends
                if not await self._read(index, html):
                    continue
                move = choose(self.controls[index], self.rng)
                if move is None or window.over():
                    continue
                version = self.seen[index]
                if self.think:
                    thought = time.perf_counter() + self.rng.uniform(0.5, 1.5) * self.think
                    await self._look(index, sock, min(window.deadline(), thought))
                    if self.seen[index] != version:  # the table moved on meanwhile: answer the one shown now
                        version, move = self.seen[index], choose(self.controls[index], self.rng)
                    if move is None or window.over():
                        continue
                # the table the screen shows, as the page's script adds it to every move
                move["version"], move["game"] = str(version[1]), str(version[0])
                self.sent_at[version] = time.perf_counter()
                self.moves += 1
                await sock.send(json.dumps(move))
        finally:
            await sock.close()

    async def _read(self, index: int, html: str) -> bool:
        """Take in a message on this player's screen; True if it shows a newer table (not the
        standings the host answers with a rematch)."""
        if (refusal := REFUSAL.search(html)) is not None:
            self.error_kinds[f"toast_{refusal.group(1) or 'unnamed'}"] += 1
        match = META.search(html)
        if not match:
            return False
        version = (int(match.group(1)), int(match.group(2)))
        fresh = version > self.seen[index]
        self.arrived(index, version)
        if not fresh:
            return False
        if index == 0 and 'class="standings"' in html:
            await asyncio.to_thread(self.rematch)
            return False
        controls = controls_of(html)
        if controls is not None:
            self.controls[index] = controls
        return True

    async def _look(self, index: int, sock, until: float) -> None:
        """While a player thinks, their screen goes on drawing what arrives (someone coming
        back, a move): they answer the table shown when they decide, as a person clicks on
        the page in front of them, never one that a newer table already replaced."""
        while (left := until - time.perf_counter()) > 0:
            try:
                html = await asyncio.wait_for(sock.recv(), timeout=left)
            except TimeoutError:
                return
            await self._read(index, html)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def server_quiet(server_pid: int, limit: float = 60.0) -> None:
    """Wait until the server has done the work of the sockets just opened (greeting 200 of them
    took 0.5 s on a quiet machine and over 3 s on a slow one, which the old fixed half second
    counted as moves' time and, in a short run, left no time to play): its CPU time stops
    growing (under a tenth of a core over a quarter second), or `limit` seconds pass."""
    deadline = time.perf_counter() + limit
    before = cpu_seconds(server_pid)
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.25)
        now = cpu_seconds(server_pid)
        if now - before < 0.025:
            return
        before = now


class Window:
    """How long a scenario plays: `seconds`, and past them, while fewer than `at_least` moves have
    been answered at all its tables, on until they are or `stretch` seconds more have passed
    (a test that only checks the bench plays asks for a few moves, not for a length of time that
    a loaded machine may fill with greetings)."""

    def __init__(self, tables: list[Table], seconds: float, at_least: int = 0, stretch: float = 60.0) -> None:
        self.tables, self.at_least = tables, at_least
        self.until = time.perf_counter() + seconds
        self.cap = self.until + stretch

    def answered(self) -> int:
        return sum(len(table.latencies) for table in self.tables)

    def over(self) -> bool:
        now = time.perf_counter()
        return now >= self.until and (now >= self.cap or self.answered() >= self.at_least)

    def deadline(self) -> float:
        """When play ends if nothing stretches it: the window's end, or its cap once stretched."""
        return self.until if time.perf_counter() < self.until or self.over() else self.cap

    def left(self) -> float:
        """Seconds to wait for a message before asking again whether play is over."""
        left = self.until - time.perf_counter()
        return left if left > 0 else 0.25


async def play_tables(
    base: str, origin: str, tables: list[Table], seconds: float, server_pid: int, at_least: int = 0
) -> None:
    """The tables' players play for this long (their sockets open, then close again); each
    table's played time and the server's CPU time are added up. The server's CPU is counted
    from the moment every socket is open and has been greeted: opening 200 sockets at once is
    not the work of a move (service_load.py counts the same way)."""
    for table in tables:
        table.seen = [(0, 0)] * SEATS  # the sockets open afresh: each first shows the whole table
    sockets = await asyncio.gather(*(table.open(base, origin) for table in tables))
    await server_quiet(server_pid)  # the greetings (whole table, who is online) have gone out
    started, cpu_before = time.perf_counter(), cpu_seconds(server_pid)
    window = Window(tables, seconds, at_least)
    await asyncio.gather(*(table.play(socks, window) for table, socks in zip(tables, sockets, strict=True)))
    elapsed, cpu = time.perf_counter() - started, cpu_seconds(server_pid) - cpu_before
    for table in tables:
        # the move sent as time ran out may go unanswered on a closed socket: one per table at most
        table.error_kinds["unanswered"] += max(0, len(table.sent_at) - 1)
        table.sent_at.clear()
        table.elapsed += elapsed  # every table played all along
        table.cpu += cpu / len(tables)


def summary(tables: list[Table]) -> dict:
    latencies = [value for table in tables for value in table.latencies]
    elapsed = sum(table.elapsed for table in tables) / len(tables)
    errors = sum((table.error_kinds for table in tables), Counter())
    return {
        "p50_ms": round(statistics.median(latencies), 2) if latencies else None,
        "p95_ms": round(percentile(latencies, 95), 2),
        "p99_ms": round(percentile(latencies, 99), 2),
        "actions_per_s": round(len(latencies) / elapsed, 1),
        "errors": sum(errors.values()),
        # what the errors were (a refusal's reason, a move never answered): a count alone did not
        # say why a run beside two busy loops had 18 at 50 tables
        "error_kinds": dict(sorted(errors.items())),
        "server_cpu_ms_per_action": round(1000 * sum(table.cpu for table in tables) / max(1, len(latencies)), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20, help="play time per scenario")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a player of the 50-table scenario thinks before a move"
    )
    parser.add_argument("--echo", type=int, default=2000, help="echo messages for each floor")
    parser.add_argument(
        "--segments",
        type=int,
        default=5,
        help="the one-table games are played in this many parts, each after an echo block",
    )
    parser.add_argument("--only-one", action="store_true", help="skip the 50-table scenario (profiling)")
    parser.add_argument(
        "--at-least",
        type=int,
        default=0,
        help="each scenario plays on past --seconds until this many moves are answered (a minute more at most)",
    )
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="sevn-bench-"))
    port = free_port()
    env = {
        "DJANGO_SETTINGS_MODULE": "sevn_site.settings",
        "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
        "SEVN_BOT_DELAY_MS": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
        **UNLIMITED_PEOPLE,
        # Its 200 sockets open at once: a crowd the admission would let in 50 at a time, turning
        # the rest away (4504) to come back as a page does. This bench times moves, not arrivals
        # (service_load.py and tests/scaleout go through the admission as people do).
        "SEVN_MAX_CONNECTING": "0",
        "SEVN_BUSY_DELAY_MS": "0",
    }
    prepared = prepare_database(env, 51)
    server = start_server(env, port)
    base, origin = f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{port}"
    try:
        # The floors and the one-table games take turns, so that all of them see the same moments of
        # a machine whose speed drifts: an echo block, a part of the games, ..., an echo block.
        bare, lean, bare_cpu, lean_cpu = [], [], 0.0, 0.0
        one_table = [Table(prepared[0][0], prepared[0][1:], think=0, seed=0)]
        for part in range(args.segments + 1):
            floors = asyncio.run(echo_floors(base, origin, args.echo // (args.segments + 1) // 10 * 10, server.pid))
            bare, lean = bare + floors.bare, lean + floors.lean
            bare_cpu, lean_cpu = bare_cpu + floors.bare_cpu, lean_cpu + floors.lean_cpu
            if part < args.segments:
                asyncio.run(
                    play_tables(base, origin, one_table, args.seconds / args.segments, server.pid, args.at_least)
                )
        one = summary(one_table)
        echo = {
            "p50_ms": statistics.median(bare),
            "p99_ms": percentile(bare, 99),
            "cpu_ms": 1000 * bare_cpu / max(1, len(bare)),
        }
        echo_lean = {
            "p50_ms": statistics.median(lean),
            "p99_ms": percentile(lean, 99),
            "cpu_ms": 1000 * lean_cpu / max(1, len(lean)),
        }
        print(
            f"echo floor (group_send to {SEATS} sockets, {len(bare)} messages): "
            f"p50 {echo['p50_ms']:.2f} ms, p99 {echo['p99_ms']:.2f} ms, server CPU {echo['cpu_ms']:.3f} ms a message; "
            f"lean echo (no database hop per message): p50 {echo_lean['p50_ms']:.2f} ms, "
            f"server CPU {echo_lean['cpu_ms']:.3f} ms a message"
        )
        print(f"1 table x {SEATS} players, no think time: {one}")
        if args.only_one:
            print(
                f"1 table p50 / echo p50 = {one['p50_ms'] / echo['p50_ms']:.2f}x, "
                f"/ lean echo p50 = {one['p50_ms'] / echo_lean['p50_ms']:.2f}x"
            )
            return
        tables = [Table(code, sessions, think=args.think, seed=i) for i, (code, *sessions) in enumerate(prepared[1:51])]
        asyncio.run(play_tables(base, origin, tables, args.seconds, server.pid, args.at_least))
        fifty = summary(tables)
        print(f"50 tables x {SEATS} players ({50 * SEATS} sockets), think ~{args.think}s: {fifty}")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a loaded machine may not let it finish in time
            server.kill()
            server.wait()
        shutil.rmtree(workdir, ignore_errors=True)
    result = {
        "echo_p50_ms": round(echo["p50_ms"], 2),
        "echo_lean_p50_ms": round(echo_lean["p50_ms"], 2),
        # the server's CPU per echo message (one in, four out): the floor under a move's CPU
        "echo_cpu_ms_per_message": round(echo["cpu_ms"], 3),
        "echo_lean_cpu_ms_per_message": round(echo_lean["cpu_ms"], 3),
        "tables_1": one,
        "tables_50": fifty,
    }
    print(
        f"1 table p50 / echo p50 = {one['p50_ms'] / echo['p50_ms']:.2f}x (target <= 3x), "
        f"/ lean echo p50 = {one['p50_ms'] / echo_lean['p50_ms']:.2f}x; "
        f"50 tables p95 {fifty['p95_ms']} ms (target <= 50 ms), errors {fifty['errors']}"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
