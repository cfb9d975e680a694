"""The service layer and the move's hand-composed SQL on a real PostgreSQL: the same tests the
embedded default runs on SQLite, run again with DATABASE_URL pointing at PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PG = os.environ.get("SEVN_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
SUITES = [
    "tests/services/test_store.py",
    "tests/services/test_held_moves.py",  # a move in one statement, and what another process wrote meanwhile
    "tests/services/test_services.py",
    "tests/screen/test_screen.py",
    "tests/live/test_timers_and_concurrency.py",
    "tests/games/sevens/test_sevens_services.py",
    "tests/services/test_chat.py",
    "tests/live/test_bad_input.py",  # a NUL byte PostgreSQL refuses in any string: 400, never a 500
    "tests/services/test_alerts_outbox.py",  # the claims: SELECT ... FOR UPDATE SKIP LOCKED there
    "tests/services/test_reliability.py",  # a seat's JSON (who let an away person go) read with the move
    "tests/services/test_reliability_shown.py",  # figures by a window query; a game's records in a move
    "tests/services/test_socket_opening.py",  # a socket's row and the table's count, each one statement
]


def test_services_and_the_store_pass_on_postgres():
    # In this one process (-n0): an xdist worker running this test starts no workers of its own
    env = {**os.environ, "DATABASE_URL": f"{PG}/sevn_services_{os.getpid()}", "PYTEST_ADDOPTS": "-n0"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-rA", *SUITES], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    # (what failed and why: the report's failures section, not the list of what passed after it)
    failures = result.stdout.partition("= FAILURES =")[2] or result.stdout[-4000:]
    assert result.returncode == 0, failures[:12000] + result.stderr[-2000:]
    assert " passed" in result.stdout and " skipped" not in result.stdout
    for suite in ("tests/services/test_store.py", "tests/games/sevens/test_sevens_services.py"):
        assert f"PASSED {suite}" in result.stdout
