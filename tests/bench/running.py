"""A bench run as its own process from the tree's root, the way the README runs it: it must exit
0, and its last line is one JSON object, its figures. One helper for the benches' smoke tests, so
that each checks its bench's run the same way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench_figures(*arguments: str) -> dict:
    """`python <arguments>` in the tree's root (the script first); the JSON of its last line."""
    done = subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
