"""bench/turn_based_load.py runs to its figures at a small size: its tables, seats and games are
written by hand-made SQL (20,000 tables would take minutes through the ORM), so a column added
to the models without it there broke the bench unseen (`records`, NOT NULL), and so did a log-in
by a backend the site no longer lists. It runs on a scratch database of the machine's PostgreSQL
(tests/conftest.py's SHARED_SERVICES keeps it to one worker beside the other tests of it)."""

from __future__ import annotations

from tests.bench.running import bench_figures


def test_the_turn_based_bench_fills_its_tables_and_finds_the_moves_that_wait():
    figures = bench_figures(
        "bench/turn_based_load.py", "--tables", "40", "--people", "100", "--mine", "6", "--minutes", "1", "--reps", "2"
    )
    assert figures["tables"] == 40 and figures["mine"] == 6
    assert figures["home_page_queries"] > 0  # the page was drawn signed in, "Your move at 3 tables" on it
    for key in ("your_move_p95_ms", "home_page_p95_ms", "waiting_for_p95_ms", "deadline_poll_idle_p95_ms"):
        assert figures[key] > 0, key
