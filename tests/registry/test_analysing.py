"""The analyses run apart from the server (game.registry.analysing): plain Python that loads
without Django, reached through the registry's list of games, within a CPU budget."""

from __future__ import annotations

import pytest

from game.games.sevn import analysis as sevn_analysis
from game.games.sevn.bots import POLICIES
from game.registry.analysing import analyse, analyse_apart, analyses
from tests.purity import loads_without_django

PURE = ["game.registry.analysing", "game.runtime.cgroup", "game.games.sevn.analysis", "game.games.sevens.analysis"]


@pytest.mark.parametrize("package", PURE)
def test_the_analyses_and_their_worker_load_without_django(package):
    ok, errors = loads_without_django(package)
    assert ok, errors


def test_every_listed_game_has_its_analysis_by_name():
    assert set(analyses()) == {"sevn", "sevens"}
    assert analyses()["sevn"] is sevn_analysis


def test_a_game_past_its_cpu_budget_is_left_partly_judged_and_says_so():
    record = sevn_analysis.bot_record([POLICIES["easy"], POLICIES["medium"]], 4, target=100)
    whole = analyse("sevn", record)
    assert whole["complete"] and whole["decisions"]
    cut = analyse("sevn", record, budget_s=0.0)
    assert cut["complete"] is False and len(cut["decisions"]) < len(whole["decisions"])
    apart = analyse_apart("sevn", record, budget_s=0.0)
    assert apart["complete"] is False


def test_the_worker_runs_below_everything_in_a_group_of_its_own():
    """Nice alone leaves the worker in the server's group of processes, spending the group's
    share of the CPU: the worker gets a session (an autogroup) of its own, niced, and SCHED_IDLE."""
    import json
    import os
    import subprocess
    import sys

    from game.registry.analysing import NICE, lowly

    probe = (
        "import json, os\n"
        "try:\n    group = open('/proc/self/autogroup').read().split() or None\nexcept OSError:\n    group = None\n"
        "print(json.dumps({'nice': os.getpriority(os.PRIO_PROCESS, 0), 'policy': os.sched_getscheduler(0),"
        " 'leader': os.getsid(0) == os.getpid(), 'group': group}))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, **lowly(5))
    seen = json.loads(done.stdout)
    assert seen["nice"] == NICE and seen["policy"] == os.SCHED_IDLE and seen["leader"]
    try:
        with open("/proc/self/autogroup") as mine:
            ours = mine.read().split()
    except OSError:
        ours = []
    # A kernel with autogroups names them ("/autogroup-12 nice 0"); a sandboxed one (CI's) may
    # have the file and leave it empty, which is no autogroup to compare.
    if seen["group"] is not None and ours:
        assert seen["group"][0] != ours[0]
        assert seen["group"][-1] == str(NICE)


def test_the_worker_joins_its_own_cgroup_before_it_runs(tmp_path):
    """Where the server's cgroup is its to arrange (game.runtime.cgroup), the worker writes its
    own pid into the cgroup beside the server's between fork and exec: it never runs a moment in
    the server's cgroup."""
    import os
    import subprocess
    import sys

    from game.registry.analysing import lowly

    (tmp_path / "cgroup.procs").write_text("")
    probe = "import os; print(os.getpid())"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, **lowly(5, tmp_path)
    )
    assert (tmp_path / "cgroup.procs").read_text() == done.stdout.strip()
    assert done.stdout.strip() != str(os.getpid())
