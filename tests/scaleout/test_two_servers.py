"""Scale-out: the same code on PostgreSQL + Redis, two Daphne processes, chosen by environment
variables only. A move made on one server reaches a player on the other; a deadline that both
servers see fires exactly once; a server restart loses nothing."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest
import redis
from websockets.sync.client import connect

from deploy.local_stack import wait_for_port
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]
PG = os.environ.get("SEVN_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
REDIS = os.environ.get("SEVN_TEST_REDIS", "redis://127.0.0.1:6379/7")
VERSION = re.compile(r'id="table-meta"[^>]*data-version="(\d+)"')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One Daphne process of the cluster."""

    def __init__(self, env: dict) -> None:
        self.env = env
        self.port = free_port()
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "sevn_site.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, process=self.process)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def cluster():
    database = f"sevn_scaleout_{os.getpid()}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}"')
        admin.execute(f'CREATE DATABASE "{database}"')
    redis.Redis.from_url(REDIS).flushdb()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "sevn_site.settings",
        "DATABASE_URL": f"{PG}/{database}",
        "REDIS_URL": REDIS,
        "SEVN_BOT_DELAY_MS": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DB_CONN_MAX_AGE": "60",
        "STATIC_ROOT": tempfile.mkdtemp(prefix="sevn-static-"),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):  # as the README deploys
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    servers = [Server(env), Server(env)]
    yield {"servers": servers, "dsn": f"{PG}/{database}"}
    for server in servers:
        server.stop()
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


class Browser:
    """A person's browser: cookies, CSRF token, forms, and a socket to the table."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        return self.opener.open(self.server.http + path, timeout=10).read().decode()

    def post(self, path: str, data: dict) -> str:
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        request = urllib.request.Request(
            self.server.http + path,
            data=urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode(),
            headers={"Origin": self.server.http, "Referer": self.server.http + path},
        )
        response = self.opener.open(request, timeout=10)
        return response.geturl()

    def socket(self, code: str):
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        return connect(
            f"{self.server.ws}/ws/t/{code}/?lang=en",
            origin=self.server.http,
            additional_headers={"Cookie": cookies},
            max_size=2**22,
        )


def shown_version(sock, at_least: int = 0, seconds: float = 15.0) -> tuple[int, str]:
    """The first table the socket is sent at version `at_least` or newer (its first table, with
    no `at_least`; what comes before it, a presence mark say, is passed over): its version and HTML."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no table at version {at_least} or newer within {seconds} s"
        message = sock.recv(timeout=left)
        match = VERSION.search(message)
        if match and int(match.group(1)) >= at_least:
            return int(match.group(1)), message


def started_table(cluster, timer: str = "0") -> tuple[str, Browser, Browser]:
    a, b = cluster["servers"]
    ana, ben = Browser(a), Browser(b)
    ana.get("/en/")
    url = ana.post("/en/tables/new/", {"nickname": "Ana", "seat_count": 2, "target": 250, "turn_seconds": timer})
    code = url.rstrip("/").rsplit("/", 1)[1]
    ben.get(f"/en/t/{code}/")
    ben.post(f"/en/t/{code}/join/", {"nickname": "Ben"})
    ana.post(f"/en/t/{code}/start/", {})
    return code, ana, ben


def sql(cluster, query: str, *params) -> list[tuple]:
    with psycopg.connect(cluster["dsn"], autocommit=True) as conn:
        cursor = conn.execute(query, params)
        return cursor.fetchall() if cursor.description else []


def test_a_move_on_one_server_reaches_a_player_on_the_other(cluster):
    code, ana, ben = started_table(cluster)
    with ana.socket(code) as ana_socket, ben.socket(code) as ben_socket:  # Ana on server A, Ben on B
        version, ana_html = shown_version(ana_socket)
        _, ben_html = shown_version(ben_socket)
        deciding, html = (ana_socket, ana_html) if "controls--active" in ana_html else (ben_socket, ben_html)
        other = ben_socket if deciding is ana_socket else ana_socket
        form = dict(re.findall(r'name="(\w+)" value="([^"]*)"', re.search(r"<form ws-send.*?</form>", html, re.S)[0]))
        deciding.send(json.dumps({**form, "version": str(version)}))  # as the page's script adds it
        seen, _ = shown_version(other, version + 1)
        assert seen == version + 1


def messages_until(sock, texts: list[str], seconds: float = 15.0) -> list[str]:
    """What the socket is sent until every one of `texts` has come (each said once, in the last
    message that brings one)."""
    got: list[str] = []
    deadline = time.monotonic() + seconds
    while not all(any(text in message for message in got) for text in texts):
        left = deadline - time.monotonic()
        assert left > 0, f"not all of {texts} within {seconds} s"
        got.append(sock.recv(timeout=left))
    return got


def test_a_move_reaches_each_screen_once_on_its_server_and_the_other(cluster):
    """The server that made the move hands it to its own screens at once and to the other server
    through Redis; nobody gets it twice (its log line would show twice)."""
    code, ana, ben = started_table(cluster)
    watcher = Browser(cluster["servers"][0])
    watcher.get(f"/en/t/{code}/")
    with ana.socket(code) as ana_socket, ben.socket(code) as ben_socket, watcher.socket(code) as watching:
        version, ana_html = shown_version(ana_socket)
        _, ben_html = shown_version(ben_socket)
        shown_version(watching)
        deciding, html = (ana_socket, ana_html) if "controls--active" in ana_html else (ben_socket, ben_html)
        form = dict(re.findall(r'name="(\w+)" value="([^"]*)"', re.search(r"<form ws-send.*?</form>", html, re.S)[0]))
        deciding.send(json.dumps({**form, "version": str(version)}))
        moved = f'data-version="{version + 1}"'
        got = {sock: messages_until(sock, [moved]) for sock in (ana_socket, ben_socket, watching)}
        # then a line said on each server: what either server sent before its line (the move, or
        # a second copy of it) has come once both lines have
        lines = {ana_socket: "said on the first server", ben_socket: "said on the second server"}
        for sock, line in lines.items():
            sock.send(json.dumps({"kind": "chat", "text": line}))
        for sock in (ana_socket, ben_socket, watching):
            got[sock] += messages_until(sock, list(lines.values()))
            moves = [message for message in got[sock] if not any(line in message for line in lines.values())]
            updates = [message for message in moves if moved in message]
            assert len(updates) == 1, got[sock]
            assert sum(message.count("log__line") for message in moves) == updates[0].count("log__line") >= 1


def test_a_deadline_both_servers_see_fires_exactly_once(cluster):
    code, ana, ben = started_table(cluster, timer="15")
    with ana.socket(code) as ana_socket, ben.socket(code) as ben_socket:
        sockets = [ana_socket, ben_socket]
        version = max(shown_version(sock)[0] for sock in sockets)
        deadline_passes(cluster, code, sockets, version)


def deadline_passes(cluster, code: str, sockets: list, version: int) -> None:
    """Move the game's deadline into the past; both servers see it, one applies it."""
    (game_id,) = sql(
        cluster, "SELECT g.id FROM game_game g JOIN game_table r ON r.id = g.table_id WHERE r.code = %s", code
    )[0]
    sql(cluster, "UPDATE game_game SET deadline = now() - interval '1 second' WHERE id = %s", game_id)
    timeouts = "SELECT count(*) FROM game_event WHERE game_id = %s AND kind = 'timeout'"
    until(lambda: sql(cluster, timeouts, game_id)[0][0], "the deadline applied", every=0.1)
    # time under test: both servers poll every 0.2 s; the other, had it found the deadline due
    # too, would apply it again within a poll or two (a second timeout row, a version more)
    time.sleep(0.6)
    (version_after,) = sql(cluster, "SELECT version FROM game_game WHERE id = %s", game_id)[0]
    (timeouts,) = sql(cluster, "SELECT count(*) FROM game_event WHERE game_id = %s AND kind = 'timeout'", game_id)[0]
    assert timeouts == 1 and version_after == version + 1
    assert [shown_version(sock, version + 1)[0] for sock in sockets] == [version + 1, version + 1]


def test_a_server_restart_loses_nothing(cluster):
    code, ana, ben = started_table(cluster)
    with ana.socket(code) as sock:
        version, _ = shown_version(sock)
    server_a = cluster["servers"][0]
    server_a.stop()
    server_a.start()
    with ana.socket(code) as again:
        assert shown_version(again)[0] == version


def test_one_move_sent_to_both_servers_at_once_is_applied_once_version_after_version(cluster):
    """The deciding person's move reaches both processes at once (a second tab the proxy sent to
    the other process after a failover, a page posting there), version after version. Each
    process holds the table in memory once it has played it (game.services.held) and checks the
    move against its own copy; the one statement that saves it writes only at the version held,
    under the table's lock: exactly one applies each version, the other writes nothing and, read
    again from PostgreSQL, is refused as stale (or its screen already knew)."""
    from game.games.sevn.engine import from_json, legal_actions

    a, b = cluster["servers"]
    code, ana, ben = started_table(cluster)  # Ana's pages on A, Ben's on B
    twins = {}
    for person, other in ((ana, b), (ben, a)):  # the same person's browser, on the other process
        twin = Browser(other)
        twin.jar, twin.opener = person.jar, person.opener
        twins[person] = twin
    ((game_id, first),) = sql(
        cluster,
        "SELECT g.id, g.version FROM game_game g JOIN game_table r ON r.id = g.table_id WHERE r.code = %s",
        code,
    )
    names = dict(
        sql(
            cluster,
            "SELECT s.index, s.nickname FROM game_seat s JOIN game_table r ON r.id = s.table_id WHERE r.code = %s",
            code,
        )
    )
    people = {"Ana": ana, "Ben": ben}
    with ExitStack() as stack:
        sockets = {
            (name, side): stack.enter_context(browser.socket(code))
            for name, person in people.items()
            for side, browser in (("here", person), ("there", twins[person]))
        }
        for sock in sockets.values():
            shown_version(sock)
        rounds = 0
        while rounds < 24:
            ((text, version),) = sql(cluster, "SELECT state, version FROM game_game WHERE id = %s", game_id)
            state = from_json(text)
            if state["over"]:
                break
            name = names[state["pending"]["seat"]]
            message = json.dumps({**legal_actions(state)[0], "version": str(version)})
            both = (sockets[(name, "here")], sockets[(name, "there")])
            for sock in both:  # back to back: the two processes take it at once
                sock.send(message)
            for sock in sockets.values():  # every screen shows the version after, on both processes
                shown_version(sock, version + 1)
            rounds += 1
        ((last, events),) = sql(cluster, "SELECT version, event_count FROM game_game WHERE id = %s", game_id)
        applied = sql(
            cluster,
            "SELECT version, count(*) FROM game_event WHERE game_id = %s AND kind = 'action' AND version > %s "
            "GROUP BY version ORDER BY version",
            game_id,
            first,
        )
        assert rounds >= 10
        assert applied == [(version, 1) for version in range(first + 1, last + 1)]  # each version: one move
        assert last - first == rounds  # each round: one version, not two
        seqs = sql(cluster, "SELECT seq FROM game_event WHERE game_id = %s ORDER BY seq", game_id)
        assert [seq for (seq,) in seqs] == list(range(events))  # the log: no gap, nothing twice
