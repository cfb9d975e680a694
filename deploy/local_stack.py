"""The README's scale-out stack on this machine, for the scale-out tests and the load benchmark:
a PostgreSQL and a Redis of its own (so that they can be stopped and restarted without touching
anything else), Daphne processes (two unless told), and nginx in front running
deploy/nginx/sevn.conf with one upstream line per process.

    with Stack() as stack:          # everything started, migrated, static files collected
        stack.url                   # http://127.0.0.1:PORT/ through nginx
        stack.servers[0].kill()     # SIGKILL one Daphne
        stack.redis.restart(down=10)
        stack.postgres.restart()
        stack.postgres.counters()   # what the shared parts have done so far (the bench's
        stack.redis.counters()      # transactions, statements, WAL and commands per move)
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX_SITE = ROOT / "deploy" / "nginx" / "sevn.conf"
ACCESS_LINE = re.compile(r'^\S+ - - \[[^\]]*\] "([A-Z]+ \S+)"', re.M)
UPSTREAM_SERVERS = re.compile(r"(?:^    server 127\.0\.0\.1:\d+[^\n]*;\n)+", re.M)
UPSTREAM_SETTINGS = re.compile(r"    server 127\.0\.0\.1:\d+ ?([^;\n]*);")
# Daphne as the README starts it: a listen queue for a crowd arriving at once (Twisted's default
# is 50: the rest are dropped, and nginx takes the process for dead), and time for a handshake
# on a loaded process (after Daphne's default 5 s it resets the connection: nginx says 502).
BACKLOG = 1024
HANDSHAKE_SECONDS = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30, process: subprocess.Popen | None = None) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"process on port {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _pg_bin(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (apt-get install postgresql)")
    return str(found[-1])


def _has_statement_stats() -> bool:
    """pg_stat_statements is PostgreSQL's contrib module (Debian ships it with the server)."""
    return any(Path("/usr/lib/postgresql").glob("*/lib/pg_stat_statements.so"))


# A statement's kind by its first word (pg_stat_statements keeps the normalised text).
STATEMENT_KIND = (
    "CASE WHEN query ~* '^\\s*(select|with)\\y' THEN 'select' "
    "WHEN query ~* '^\\s*insert\\y' THEN 'insert' "
    "WHEN query ~* '^\\s*update\\y' THEN 'update' "
    "WHEN query ~* '^\\s*delete\\y' THEN 'delete' "
    "WHEN query ~* '^\\s*(begin|commit|rollback|savepoint|release|start)\\y' THEN 'transaction' "
    "ELSE 'other' END"
)


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc); 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(match: str) -> float:
    """CPU time of every process whose command line contains `match` (a cluster's folder, say)
    and of all their descendants (PostgreSQL's backends, nginx's workers)."""
    parents: dict[int, int] = {}
    roots = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            parents[int(proc.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            if match in (proc / "cmdline").read_bytes().decode(errors="replace"):
                roots.add(int(proc.name))
        except (FileNotFoundError, ProcessLookupError, PermissionError, IndexError, ValueError):
            continue
    tree, grew = set(roots), True
    while grew:
        children = {pid for pid, parent in parents.items() if parent in tree} - tree
        grew = bool(children)
        tree |= children
    return sum(process_cpu_seconds(pid) for pid in tree)


class Postgres:
    """A PostgreSQL cluster in a temporary folder, on its own port, with trust auth. With
    `statements` (and the contrib module installed) pg_stat_statements is loaded from the first
    start, as it can only be, so the bench can count statements without a restart."""

    def __init__(
        self, folder: Path, max_connections: int = 100, statements: bool = False, copy_of: Path | None = None
    ) -> None:
        """`copy_of`: a stopped cluster's folder whose `sevn` database is already migrated
        (_Migrated): copied instead of made afresh, then configured as any other."""
        self.folder = folder / "pg"
        self.folder.mkdir()
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres")
            shutil.chown(self.folder, "postgres")
        self.port = free_port()
        if copy_of is not None:
            subprocess.run(_as_postgres(["cp", "-a", f"{copy_of}/.", str(self.folder)]), check=True)
        else:
            subprocess.run(
                _as_postgres(
                    [_pg_bin("initdb"), "-D", str(self.folder), "-A", "trust", "-U", "postgres"]
                    + ["--no-sync", "-E", "UTF8"]
                ),
                check=True,
                stdout=subprocess.DEVNULL,
            )
        # (a copy's file has the template's lines too: the last of a setting is the one that counts)
        with open(self.folder / "postgresql.conf", "a") as conf:
            conf.write(
                f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.folder}'\nmax_connections = {max_connections}\n"
                "fsync = off\nsynchronous_commit = off\n"
                "full_page_writes = off\nshared_buffers = 64MB\n"
            )
            self.statements = statements and _has_statement_stats()
            if self.statements:
                conf.write("shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.max = 10000\n")
        self.start()
        if copy_of is None:
            subprocess.run(
                _as_postgres([_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "sevn"]),
                check=True,
            )
        if self.statements:  # in the maintenance database: the game's own holds only the game's tables
            self.sql("CREATE EXTENSION pg_stat_statements", database="postgres")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/sevn"

    def _ctl(self, *args: str) -> None:
        subprocess.run(
            _as_postgres(
                [_pg_bin("pg_ctl"), "-D", str(self.folder), "-l", str(self.folder / "log"), "-w", "-t", "60", *args]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def start(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        self._ctl("stop", "-m", "fast")

    def restart(self, down: float = 0) -> None:
        """Stop (every connection dies), stay down `down` seconds, start again."""
        self.stop()
        time.sleep(down)
        self.start()

    def connections(self) -> int:
        """Client connections to the game's database right now."""
        out = subprocess.run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-Atc",
                "SELECT count(*) FROM pg_stat_activity WHERE datname = 'sevn' AND backend_type = 'client backend'",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return int(out.strip())

    def end_connections(self) -> int:
        """End every client connection to the game's database, and wait till each has gone: a
        backend publishes its pending statistics as it ends (the processes' pools check their
        connections before use and open new ones). Returns how many there were."""
        ((ended,),) = self.sql(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 10000)) FROM pg_stat_activity "
            "WHERE datname = 'sevn' AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
            database="postgres",
        )
        return int(ended)

    def sql(self, query: str, database: str = "sevn") -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url.rsplit("/", 1)[0] + f"/{database}", autocommit=True) as conn:
            cursor = conn.execute(query)
            return cursor.fetchall() if cursor.description else []

    def counters(self) -> dict[str, float]:
        """What the game's database has done so far, as cumulative counters (a bench subtracts two
        readings). Read from the maintenance database, so reading adds nothing to the game's.

        - write_xacts: transactions that wrote (the next transaction id: exact at once);
        - wal_bytes: WAL written by the whole cluster (exact at once);
        - xacts, rows_written (inserted + updated + deleted), rows_fetched: pg_stat_database, which
          a busy backend publishes at most once a second, an idle one within ~10 s, and one that
          ends at once (end_connections);
        - statements, and by kind (select, insert, update, delete, transaction control, other) with
          the rows they wrote and their WAL: pg_stat_statements when loaded (exact at once)."""
        ((xacts, written, fetched, wal, next_xid),) = self.sql(
            "SELECT xact_commit + xact_rollback, tup_inserted + tup_updated + tup_deleted, tup_fetched, "
            "pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'), pg_snapshot_xmax(pg_current_snapshot())::text::bigint "
            "FROM pg_stat_database WHERE datname = 'sevn'",
            database="postgres",
        )
        found = {
            "xacts": int(xacts),
            "write_xacts": int(next_xid),
            "rows_written": int(written),
            "rows_fetched": int(fetched),
            "wal_bytes": int(wal),
        }
        if self.statements:
            for kind, calls, rows in self.sql(
                f"SELECT {STATEMENT_KIND} AS kind, sum(calls), sum(rows) FROM pg_stat_statements "
                "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'sevn') GROUP BY kind",
                database="postgres",
            ):
                found[f"statements_{kind}"] = int(calls)
                if kind in ("insert", "update", "delete"):
                    found["statement_rows_written"] = found.get("statement_rows_written", 0) + int(rows)
            found["statements"] = sum(value for key, value in found.items() if key.startswith("statements_"))
        return found

    def statement_totals(self) -> dict[str, tuple[int, int, float]]:
        """Per normalised statement of the game's database (pg_stat_statements, when loaded):
        calls, rows and milliseconds so far, to see where the database's time goes."""
        if not self.statements:
            return {}
        return {
            query: (int(calls), int(rows), float(ms))
            for query, calls, rows, ms in self.sql(
                "SELECT query, sum(calls), sum(rows), sum(total_exec_time) FROM pg_stat_statements "
                "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'sevn') GROUP BY query",
                database="postgres",
            )
        }


class Redis:
    """A Redis server of its own that keeps nothing on disk (as a restart loses everything)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.reader = None  # the connection counters() reads with
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--maxclients",
                "10000",
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_for_port(self.port, process=self.process)

    def stop(self) -> None:
        if self.reader is not None:
            self.reader.close()
            self.reader = None
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def restart(self, down: float = 0) -> None:
        self.stop()
        time.sleep(down)
        self.start()

    def counters(self) -> dict[str, int]:
        """Commands Redis has run so far (cumulative; a restart starts them again): `commands` all
        told and `command_<name>` each, from INFO commandstats, which counts the commands a
        script runs too (the channel layer's delivery script: ZADD, ZCARD...). The INFO calls
        that read them are left out."""
        import redis

        if self.reader is None:  # one connection for every reading: its HELLO is counted once
            self.reader = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)
        stats = self.reader.info("commandstats")
        found = {
            f"command_{name.removeprefix('cmdstat_')}": int(entry["calls"])
            for name, entry in stats.items()
            if name != "cmdstat_info"
        }
        found["commands"] = sum(found.values())
        return found


class Daphne:
    """One server process, started as the README says (behind the proxy, which it trusts from
    127.0.0.1 only: SEVN_TRUSTED_PROXIES, game.runtime.proxy)."""

    def __init__(self, env: dict, log: Path) -> None:
        self.env, self.log = env, log
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    "-e",
                    f"tcp:port={self.port}:interface=127.0.0.1:backlog={BACKLOG}",
                    "--websocket_connect_timeout",
                    str(HANDSHAKE_SECONDS),
                    "sevn_site.asgi:application",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_for_port(self.port, process=self.process)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup, as a crash or the OOM killer would."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None

    def health(self) -> tuple[int, dict]:
        """This process's own answer to /healthz (game.pages.middleware), asked of it directly,
        not through the proxy: 200 or 503, and its figures (the body says which part failed)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def cpu_seconds(self) -> float:
        """User + system CPU time this process has used."""
        return process_cpu_seconds(self.process.pid) if self.process is not None else 0.0

    def requests(self) -> list[str]:
        """What this process was asked, from its access log (Daphne's, on its output at the
        default verbosity): "GET /en/", "WSCONNECT /ws/t/CODE/"... A restart keeps the lines."""
        return ACCESS_LINE.findall(self.log.read_text(errors="replace")) if self.log.exists() else []

    def table_sockets(self) -> set[str]:
        """The codes of the tables this process opened a socket for (nginx routes by path)."""
        return {request.split("/")[3] for request in self.requests() if request.startswith("WSCONNECT /ws/t/")}

    def open_connections(self) -> int:
        """Established TCP connections to this process's port (nginx's sockets to it)."""
        count = 0
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                lines = Path(table).read_text().splitlines()[1:]
            except FileNotFoundError:
                continue
            for line in lines:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == self.port and fields[3] == "01":  # ESTABLISHED
                    count += 1
        return count


class Nginx:
    """nginx running deploy/nginx/sevn.conf, its upstream ports and paths replaced."""

    def __init__(self, folder: Path, backends: list[int], static_root: Path, replace: dict | None = None) -> None:
        self.folder = folder / "nginx"
        self.folder.mkdir()
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.folder / sub).mkdir()
            (self.folder / sub).chmod(0o777)  # nginx's workers run as nobody when started as root
        self.port = free_port()
        # each upstream block's server lines (pages, table sockets), however many the file lists,
        # become one per backend with that block's own settings (the sockets' count no failures)
        site, blocks = UPSTREAM_SERVERS.subn(
            lambda block: "".join(
                f"    server 127.0.0.1:{port} {UPSTREAM_SETTINGS.match(block.group(0)).group(1)};\n"
                for port in backends
            ),
            NGINX_SITE.read_text(),
        )
        if blocks != 2:
            raise RuntimeError(f"{NGINX_SITE} has {blocks} upstream server lists, not the two expected")
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.port};").replace("listen [::]:80;\n", "")
        site = site.replace("server_name sevn.example.org;", "server_name 127.0.0.1;")
        site = site.replace("/srv/sevn/staticfiles/", f"{static_root}/")
        for old, new in (replace or {}).items():
            site = site.replace(old, new)
        (self.folder / "sevn.conf").write_text(site)
        (self.folder / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
worker_rlimit_nofile 16384;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path {self.folder}/body;
    proxy_temp_path {self.folder}/proxy;
    fastcgi_temp_path {self.folder}/fastcgi;
    uwsgi_temp_path {self.folder}/uwsgi;
    scgi_temp_path {self.folder}/scgi;
    include {self.folder}/sevn.conf;
}}
""")
        subprocess.run(["nginx", "-t", "-q", "-c", str(self.folder / "nginx.conf"), "-p", str(self.folder)], check=True)
        self.process = subprocess.Popen(
            ["nginx", "-c", str(self.folder / "nginx.conf"), "-p", str(self.folder)], stderr=subprocess.DEVNULL
        )
        wait_for_port(self.port, process=self.process)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


class _Migrated:
    """The first stack's PostgreSQL folder just after `migrate` and its `collectstatic` output,
    kept for the later stacks: migrating a fresh cluster took 5.5 s of CPU in Django and more in
    PostgreSQL, collecting the files 1.7 s (a first stack 12 s of CPU in all, a copied one 3.3 s).
    What migrate writes depends on the code only, not on a stack's settings (workers, limits),
    and a copy is configured afresh (port, connections). Kept for this process, or, where
    SHARED names a folder (the test run's: tests/conftest.py), for every process of the run:
    one migrates while the others wait for its copy (each of the four test workers that starts
    stacks migrated its first one)."""

    SHARED = "SEVN_STACK_TEMPLATE"
    made: _Migrated | None = None

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pg, self.static = folder / "pg", folder / "static"

    @classmethod
    @contextmanager
    def claimed(cls) -> Iterator[_Migrated | None]:
        """The template if one was kept; else None, and the caller migrates its stack and keeps
        it (`keep`) while this holds the run's lock, so that no other process migrates meanwhile."""
        shared = os.environ.get(cls.SHARED)
        if cls.made is not None or not shared:
            yield cls.made
            return
        folder = Path(shared)
        with open(folder / "lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released as the file closes
            if (folder / "ready").exists():
                cls.made = cls(folder)
            yield cls.made

    @classmethod
    def keep(cls, postgres: Postgres, static_root: Path) -> None:
        shared = os.environ.get(cls.SHARED)
        folder = Path(shared) if shared else Path(tempfile.mkdtemp(prefix="sevn-migrated-"))
        folder.chmod(0o755)
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres")
        kept = cls(folder)
        kept.pg.mkdir()
        if os.geteuid() == 0:
            shutil.chown(kept.pg, "postgres")
        postgres.stop()  # a cluster copied while running may not start
        try:
            subprocess.run(_as_postgres(["cp", "-a", f"{postgres.folder}/.", str(kept.pg)]), check=True)
            (kept.pg / "log").unlink(missing_ok=True)
        finally:
            postgres.start()
        shutil.copytree(static_root, kept.static)
        if shared:
            (folder / "ready").touch()  # the run's owner removes the folder
        else:
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
        cls.made = kept


class Stack:
    """Everything, started in order; stopped (and its folder removed) on exit."""

    def __init__(
        self,
        servers: int = 2,
        env: dict | None = None,
        nginx_replace: dict | None = None,
        pg_max_connections: int = 100,
        pg_statements: bool = False,
    ) -> None:
        self.extra_env, self.server_count = env or {}, servers
        self.nginx_replace, self.pg_max_connections = nginx_replace, pg_max_connections
        self.pg_statements = pg_statements

    def __enter__(self) -> Stack:
        if threading.current_thread() is threading.main_thread():
            # `timeout` or Ctrl-C: stop everything this started, leave nothing running
            signal.signal(signal.SIGTERM, lambda *_args: sys.exit(143))
        self.folder = Path(tempfile.mkdtemp(prefix="sevn-stack-"))
        self.folder.chmod(0o755)
        # a stack made before (in this process, or in this test run) left its migrated cluster
        # and collected files (_Migrated): copied, not made again (pg_stat_statements is loaded
        # only at a first start, so such a stack makes its own and keeps nothing)
        with _Migrated.claimed() if not self.pg_statements else nullcontext() as template:
            self.postgres = Postgres(
                self.folder, self.pg_max_connections, self.pg_statements, copy_of=template and template.pg
            )
            self.redis = Redis(self.folder)
            self.static_root = self.folder / "static"
            self.env = {
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "sevn_site.settings",
                "DATABASE_URL": self.postgres.url,
                "REDIS_URL": self.redis.url,
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "STATIC_ROOT": str(self.static_root),
                "SECRET_KEY": "scale-out-test-" + "k" * 40,
                **self.extra_env,
            }
            self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            self.env.pop(_Migrated.SHARED, None)
            if template is not None:
                shutil.copytree(template.static, self.static_root)
            else:
                for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
                    subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=self.env, check=True)
                if not self.pg_statements:
                    _Migrated.keep(self.postgres, self.static_root)
        self.static_root.chmod(0o755)
        self.servers = [Daphne(self.env, self.folder / f"daphne-{i}.log") for i in range(self.server_count)]
        self.nginx = Nginx(self.folder, [server.port for server in self.servers], self.static_root, self.nginx_replace)
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.nginx.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.nginx.port}"

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time used so far by each part of the stack."""
        return {
            "daphne": sum(server.cpu_seconds() for server in self.servers),
            "postgres": tree_cpu_seconds(str(self.postgres.folder)),  # postmaster and its backends
            "redis": process_cpu_seconds(self.redis.process.pid) if self.redis.process else 0.0,
            "nginx": tree_cpu_seconds(str(self.nginx.folder)),
        }

    def logs(self) -> str:
        return "".join(path.read_text(errors="replace") for path in sorted(self.folder.glob("daphne-*.log")))

    def __exit__(self, *exc) -> None:
        if os.environ.get("SEVN_STACK_LOGS"):  # keep the servers' logs for a look afterwards
            Path(os.environ["SEVN_STACK_LOGS"]).write_text(self.logs())
        for stop in [self.nginx.stop, *(server.stop for server in self.servers), self.redis.stop, self.postgres.stop]:
            try:
                stop()
            except Exception:  # noqa: BLE001 - stop the rest whatever one did
                pass
        shutil.rmtree(self.folder, ignore_errors=True)
