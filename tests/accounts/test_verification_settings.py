"""Every EMAIL_VERIFICATION the README documents starts a site (#35 item 7): "mandatory" (the
default), "optional" and "none" each pass `manage.py check` and `migrate` (allauth's own check
refused the last two while a code to type in was switched on for all three)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


# `manage.py check --fail-level WARNING`, then `manage.py migrate --no-input -v0`, in one process
# (one start of Django, not two: the commands are the same)
CHECK_THEN_MIGRATE = (
    "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'sevn_site.settings'); django.setup(); "
    "from django.core.management import call_command; "
    "call_command('check', fail_level='WARNING'); call_command('migrate', interactive=False, verbosity=0)"
)


@pytest.mark.parametrize("verification", ["none", "optional", "mandatory"])
def test_check_and_migrate_pass_with_each_documented_e_mail_verification(verification, tmp_path):
    env = {**os.environ, "EMAIL_VERIFICATION": verification, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    done = subprocess.run(
        [sys.executable, "-c", CHECK_THEN_MIGRATE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{done.stdout}{done.stderr}"
    assert (tmp_path / "db.sqlite3").stat().st_size > 0
