"""bench/table_latency.py runs to its figures: its 50 tables open their 200 sockets at once, as
the bench has always done, and play. (The admission that lets a crowd in 50 at a time turned
the rest away, and the bench, which does not come back as a page does, died on the first of
them: its server lets every socket in, for it times moves, not arrivals.) Each scenario plays
three seconds and on until eight moves are answered: on a loaded machine, greeting the 200
sockets and the first moves can take all of the three (no move answered, once in a run)."""

from __future__ import annotations

from tests.bench.running import bench_figures


def test_the_latency_bench_plays_every_table_and_prints_its_figures_last():
    figures = bench_figures(
        "bench/table_latency.py", "--seconds", "3", "--at-least", "8", "--echo", "120", "--segments", "1"
    )
    for scenario in ("tables_1", "tables_50"):
        assert figures[scenario]["errors"] == 0, figures  # no move refused, none unanswered (error_kinds says which)
        assert figures[scenario]["error_kinds"] == {}, figures
        assert figures[scenario]["actions_per_s"] > 0, figures
    assert figures["echo_p50_ms"] > 0 and figures["echo_cpu_ms_per_message"] > 0, figures
