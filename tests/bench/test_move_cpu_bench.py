"""bench/move_cpu.py and bench/render_cpu.py run to their figures, briefly, on SQLite: a few moves
at two tables through the real consumer, their updates recorded and drawn again by the screens
alone. The figures are not checked (timings are the benches' to show), but that every move asked
for was measured, that the render and the move's stages were seen, and that the replay drew every
recorded update."""

from __future__ import annotations

import json

from tests.bench.running import ROOT, bench_figures


def test_a_move_s_cpu_is_measured_by_stage_and_its_updates_are_drawn_again_alone(tmp_path):
    updates = tmp_path / "updates.json"
    moves = bench_figures(
        "bench/move_cpu.py", "--database", "sqlite", "--tables", "2", "--moves", "30", "--warm", "10",
        "--record", str(updates),
    )  # fmt: skip
    (figures,) = moves["runs"][str(ROOT)]
    assert figures["moves"] == 30 and figures["server_ms"] > 0
    assert figures["stages_ms"]["render"] > 0 and figures["stages_ms"]["move"] > 0
    recorded = json.loads(updates.read_text())
    assert len(recorded["viewers"]) == 2 and len(recorded["updates"]) >= 30
    render = bench_figures("bench/render_cpu.py", str(updates), "--rounds", "1")
    assert render[str(ROOT)]["ms"] and render[str(ROOT)]["median"] > 0


def test_one_table_plays_faster_than_a_person_may_send_and_is_measured_to_the_end():
    """The bench's people answer at once: at one table each socket sends far more than a person's
    allowance of 10 moves a second. A move refused for it was never sent again, and the run
    waited for ever (the bench on SQLite hung so); the bench lifts the allowance for its sockets,
    and a refusal would end the run with its reason."""
    moves = bench_figures(
        "bench/move_cpu.py", "--database", "sqlite", "--tables", "1", "--moves", "150", "--warm", "10"
    )
    (figures,) = moves["runs"][str(ROOT)]
    assert figures["moves"] == 150 and figures["stages_ms"]["move"] > 0
