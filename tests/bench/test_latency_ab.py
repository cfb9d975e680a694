"""latency_ab.py's medians: a scenario that answered nothing on a loaded machine (no moves, so
its CPU per move is all the server's CPU) is left out of the medians instead of failing them or
weighing on them, and the other runs' figures still give each side's median."""

from __future__ import annotations

import json

from bench import latency_ab


def _run(p50: float, actions: float, cpu: float) -> dict:
    return {
        "echo_p50_ms": 1.0,
        "tables_1": {"p50_ms": 5.0, "actions_per_s": 50.0, "errors": 0, "server_cpu_ms_per_action": 4.0},
        "tables_50": {"p50_ms": p50, "actions_per_s": actions, "errors": 0, "server_cpu_ms_per_action": cpu},
    }


def test_a_scenario_that_answered_nothing_is_left_out_of_the_medians(tmp_path, monkeypatch):
    answered = [_run(80.0, 40.0, 4.5), _run(None, 0.0, 2980.0), _run(100.0, 42.0, 4.7)]
    bench = tmp_path / "bench"
    bench.mkdir()
    for number, figures in enumerate(answered):
        (bench / "table_latency.py").write_text(f"import json\nprint({json.dumps(figures)!r})\n")
        answered[number] = latency_ab.run(tmp_path, [])
    assert answered[1]["tables_50"]["errors"] == 0
    assert answered[1]["tables_50"]["p50_ms"] != answered[1]["tables_50"]["p50_ms"]  # NaN: no figure
    medians = latency_ab.medians(answered)
    assert medians["tables_50.p50_ms"] == 90.0
    assert medians["tables_50.server_cpu_ms_per_action"] == 4.6
    assert medians["tables_1.p50_ms"] == 5.0
    assert medians["ratio_1_table_to_echo"] == 5.0
