"""bench/move_cpu.py and bench/render_cpu.py run to their figures, briefly, on SQLite: a few moves
at two tables through the real consumer, their updates recorded and drawn again by the screens
alone. The figures are not checked (timings are the benches' to show), but that every move asked
for was measured, that the render and the move's stages were seen, and that the replay drew every
recorded update."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*arguments: str) -> dict:
    done = subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_move_s_cpu_is_measured_by_stage_and_its_updates_are_drawn_again_alone(tmp_path):
    updates = tmp_path / "updates.json"
    moves = run(
        "bench/move_cpu.py", "--database", "sqlite", "--tables", "2", "--moves", "30", "--warm", "10",
        "--record", str(updates),
    )  # fmt: skip
    (figures,) = moves["runs"][str(ROOT)]
    assert figures["moves"] == 30 and figures["server_ms"] > 0
    assert figures["stages_ms"]["render"] > 0 and figures["stages_ms"]["move"] > 0
    recorded = json.loads(updates.read_text())
    assert len(recorded["viewers"]) == 2 and len(recorded["updates"]) >= 30
    render = run("bench/render_cpu.py", str(updates), "--rounds", "1")
    assert render[str(ROOT)]["ms"] and render[str(ROOT)]["median"] > 0
