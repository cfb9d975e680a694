"""The set-up the benches share, written once so that they set up alike: started tables of guests
with the session ids their browsers hold, a schema straight from the models, the lock on the
machine's shared PostgreSQL and Redis, a scratch PostgreSQL database, runs in turns, and the
limits meant for people lifted for players that answer at machine speed.

Only the standard library is imported here at the top: Django and the app are imported inside
each function, when it is called, from whatever tree is first on sys.path by then (move_cpu.py's
child runs another revision's code with this file). A bench imports this before it puts another
tree first on sys.path, so that `bench` is always this tree's.
"""

from __future__ import annotations

import fcntl
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

LOCK = "/tmp/sevn-scaleout.lock"
POSTGRESQL = "postgresql://postgres@127.0.0.1:5432"

# A bench's players answer at machine speed from one address: the limits meant for people
# (game.runtime.limits, game.live.transport) would refuse their moves ("Slow down") and close
# their sockets past an address's 64, and the bench would measure those, not the table.
UNLIMITED_PEOPLE = {
    "SEVN_SOCKET_RATE": "100000",
    "SEVN_SOCKET_BURST": "100000",
    "SEVN_FRAME_RATE": "100000",
    "SEVN_FRAME_BURST": "100000",
    "SEVN_MAX_SOCKETS_PER_ADDRESS": "100000",
}


def table_of_guests(guests: str, n: int, seats: int):
    """Table `n` of `seats` guests (keys `guest:{guests}-{n}-{i}`, nicknames `P{n}-{i}`), made,
    seated and its first game dealt through the services (a target of 1,000, no clock); its code, the
    session id each guest's browser holds (in seat order), and the host (seat 0), who deals the
    next game. On the database Django is set up with."""
    from django.contrib.sessions.backends.db import SessionStore

    from game import services
    from game.core.identity import SESSION_KEY, Player

    players = [Player(key=f"guest:{guests}-{n}-{i}") for i in range(seats)]
    table = services.table_create(
        player=players[0], nickname=f"P{n}-0", seat_count=seats, turn_seconds=0, options={"target": 1000}
    )
    for i, player in enumerate(players[1:], start=1):
        services.seat_take(code=table.code, player=player, nickname=f"P{n}-{i}")
    services.game_start(code=table.code, player=players[0])
    sessions = []
    for player in players:
        session = SessionStore()
        session[SESSION_KEY] = player.key
        session.create()
        sessions.append(session.session_key)
    return table.code, sessions, players[0]


def schema_from_models() -> None:
    """The models' tables as they are now, straight from the models (no migrations: faster)."""
    from django.conf import settings
    from django.core.management import call_command

    class NoMigrations(dict):
        def __contains__(self, item) -> bool:
            return True

        def __getitem__(self, item) -> None:
            return None

    settings.MIGRATION_MODULES = NoMigrations()
    call_command("migrate", run_syncdb=True, verbosity=0)


@contextmanager
def shared_lock():
    """PostgreSQL and Redis on 127.0.0.1 are shared with the scale-out tests: one user at a time."""
    with open(LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextmanager
def scratch_postgresql(name: str) -> Iterator[str]:
    """A database `name` of its own on 127.0.0.1's PostgreSQL, its URL; dropped after, whoever is
    still connected."""
    import psycopg

    with psycopg.connect(f"{POSTGRESQL}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{POSTGRESQL}/{name}"
    finally:
        with psycopg.connect(f"{POSTGRESQL}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def in_turns(rounds: int, variants: Sequence[str]) -> Iterator[tuple[int, str]]:
    """(round, variant) in turns: A B, B A, A B, ... (three or more: rotated), so that a machine
    whose speed drifts favours none of them."""
    variants = list(variants)
    for number in range(rounds):
        shift = number % len(variants)
        yield from ((number, variant) for variant in variants[shift:] + variants[:shift])


def tree_arguments(parser) -> None:
    """The arguments every bench that compares trees takes: the trees and their turns, and the
    hidden ones a bench gives the child it runs in one of them."""
    import argparse

    parser.add_argument("--trees", default=".", help="comma-separated trees to run, in turns")
    parser.add_argument("--turns", type=int, default=1, help="runs of each tree, taking turns")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)


def child_figures(command: list[str], tree: str) -> dict:
    """A bench's child run in `tree` (its command): the JSON of its last line, or the run ends
    with the child's error."""
    import json
    import subprocess

    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{tree} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def trees_in_turns(args, run: Callable[[str], dict], said: Callable[[dict], str]) -> dict[str, list[dict]]:
    """Each of `args.trees` run `args.turns` times, in turns (`run`: one run's figures), each run
    said as it ends (`said`: its line); the figures by tree, in the order they ran."""
    from pathlib import Path

    trees = [str(Path(tree).resolve()) for tree in args.trees.split(",")]
    runs: dict[str, list[dict]] = {tree: [] for tree in trees}
    for turn, tree in in_turns(args.turns, trees):
        figures = run(tree)
        runs[tree].append(figures)
        print(f"turn {turn + 1} {tree}: {said(figures)}", flush=True)
    return runs


def database_arguments(parser) -> None:
    """The database a bench's run plays on (a scratch one of its own), and the hidden URL a bench
    gives its child."""
    import argparse

    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--database-url", help=argparse.SUPPRESS)


def enter_tree(tree: str, environment: dict[str, str]) -> None:
    """A bench's child in its tree: the tree first on sys.path and the working folder, the
    settings and `environment` in place, Django set up from that tree's code."""
    import os
    import sys
    from pathlib import Path

    folder = Path(tree).resolve()
    os.chdir(folder)
    sys.path.insert(0, str(folder))
    os.environ.update({"DJANGO_SETTINGS_MODULE": "sevn_site.settings", **environment})
    import django

    django.setup()


def medians(runs: dict[str, list[dict]], key: str, digits: int) -> dict[str, dict]:
    """Each tree's figure `key`, run by run and its median: what a bench comparing trees sums up."""
    import statistics

    return {
        tree: {
            key: [figures[key] for figures in kept],
            "median": round(statistics.median(f[key] for f in kept), digits),
        }
        for tree, kept in runs.items()
    }
