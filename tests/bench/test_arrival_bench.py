"""bench/arrival_cpu.py runs to its figures, briefly, on SQLite: a few sockets opened and closed at
two tables through the real consumer, each getting its whole table, with the table's other people
connected. The CPU is not checked (timings are the bench's to show), but that every opening asked
for was measured and that its statements were counted: a socket that opens reads its table and
notes its presence, so it sends some, and each opening sends as many as the one before."""

from __future__ import annotations

from tests.bench.running import ROOT, bench_figures


def test_a_socket_s_opening_and_closing_is_measured_with_its_statements():
    figures = bench_figures(
        "bench/arrival_cpu.py", "--database", "sqlite", "--tables", "2", "--arrivals", "12", "--warm", "2"
    )
    (run,) = figures["runs"][str(ROOT)]
    assert run["arrivals"] == 12 and run["cpu_ms"] > 0
    assert run["statements"] >= 10 and run["statements"] == int(run["statements"])
    assert figures["summary"][str(ROOT)]["statements"] == run["statements"]
