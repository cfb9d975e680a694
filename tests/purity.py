"""Checks that a pure package stays pure: it imports in a fresh interpreter without Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def loads_without_django(package: str) -> tuple[bool, str]:
    """Import `package` in a fresh Python with only the project on the path; (ok, stderr)."""
    code = f"import sys; import {package}; assert 'django' not in sys.modules; print('ok')"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT)}
    )
    return result.stdout.strip() == "ok", result.stderr
