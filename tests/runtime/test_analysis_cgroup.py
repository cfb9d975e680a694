"""The analysis worker's cgroup beside the server's (game.runtime.cgroup), arranged in a tree of
directories laid out as cgroupfs lays out a service's cgroup; where the cgroup is not the
server's to arrange, nothing is touched and the worker keeps to nice 19 and SCHED_IDLE."""

from __future__ import annotations

import json
import logging
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.runtime import cgroup

ROOT = Path(__file__).resolve().parents[2]
UNIT = "/system.slice/sevn@8001.service"
SERVER_PID = 4242


def service(root: Path, path: str = UNIT, procs=(SERVER_PID,), controllers: str = "cpuset cpu io memory pids") -> Path:
    """A service's cgroup as cgroupfs shows it: its processes, the controllers its parent lets it
    use, none enabled yet for its own children."""
    here = root / path.lstrip("/")
    here.mkdir(parents=True)
    (here / "cgroup.procs").write_text("".join(f"{pid}\n" for pid in procs))
    (here / "cgroup.controllers").write_text(controllers + "\n")
    (here / "cgroup.subtree_control").write_text("")
    return here


def leaf(parent: Path, name: str, *files: str) -> Path:
    """A child cgroup as the kernel makes it on mkdir (cpu.idle among its files once the parent
    enables cpu for its children, on Linux 5.15 and later)."""
    made = parent / name
    made.mkdir()
    (made / "cgroup.procs").write_text("")
    for file in files:
        (made / file).write_text("0\n")
    return made


def test_the_server_moves_into_a_leaf_of_its_own_and_the_worker_gets_an_idle_one_beside_it(tmp_path):
    unit = service(tmp_path)
    leaf(unit, "analysis", "cpu.idle", "cpu.weight")
    worker = cgroup.worker_cgroup(tmp_path, UNIT, SERVER_PID)
    assert worker == unit / "analysis"
    assert (unit / "server" / "cgroup.procs").read_text() == str(SERVER_PID)
    assert (unit / "cgroup.subtree_control").read_text() == "+cpu"
    assert (worker / "cpu.idle").read_text() == "1"
    assert (worker / "cpu.weight").read_text() == "0\n"  # left as it was: cpu.idle rules


def test_without_cpu_idle_the_worker_gets_the_least_cpu_weight(tmp_path):
    """Kernels before 5.15 have no cpu.idle: weight 1 against the server's 100."""
    unit = service(tmp_path)
    worker = cgroup.worker_cgroup(tmp_path, UNIT, SERVER_PID)
    assert (unit / "server").is_dir() and worker == unit / "analysis" and worker.is_dir()
    assert (worker / "cpu.weight").read_text() == "1"
    assert not (worker / "cpu.idle").exists()


def test_a_server_already_in_its_own_leaf_stays_there(tmp_path):
    """systemd's DelegateSubgroup=server starts the server in <unit>/server: the worker's cgroup
    is made beside it, nothing moved."""
    unit = service(tmp_path, procs=())
    (unit / "cgroup.subtree_control").write_text("cpu\n")
    server = leaf(unit, "server")
    server.joinpath("cgroup.procs").write_text(f"{SERVER_PID}\n")
    server.joinpath("cgroup.controllers").write_text("cpu\n")
    leaf(unit, "analysis", "cpu.idle")
    worker = cgroup.worker_cgroup(tmp_path, UNIT + "/server", SERVER_PID)
    assert worker == unit / "analysis" and (worker / "cpu.idle").read_text() == "1"
    assert server.joinpath("cgroup.procs").read_text() == f"{SERVER_PID}\n"
    assert (unit / "cgroup.subtree_control").read_text() == "cpu\n"  # enabled already: not written again


def test_a_cgroup_shared_with_other_processes_is_left_alone(tmp_path, caplog):
    """A terminal's cgroup, a machine's root cgroup, or several servers in one unit: moving the
    others is not this server's to do."""
    unit = service(tmp_path, procs=(SERVER_PID, 77))
    with caplog.at_level(logging.INFO, logger="game.runtime.cgroup"):
        assert cgroup.worker_cgroup(tmp_path, UNIT, SERVER_PID) is None
    assert sorted(path.name for path in unit.iterdir()) == [
        "cgroup.controllers",
        "cgroup.procs",
        "cgroup.subtree_control",
    ]
    assert (unit / "cgroup.procs").read_text() == f"{SERVER_PID}\n77\n"
    assert "1 other process" in caplog.text and "nice 19" in caplog.text


def test_without_the_cpu_controller_nothing_is_made(tmp_path, caplog):
    """cgroup v1's cpu (the v2 tree beside it has none), or a unit without Delegate=cpu."""
    unit = service(tmp_path, controllers="memory pids")
    with caplog.at_level(logging.INFO, logger="game.runtime.cgroup"):
        assert cgroup.worker_cgroup(tmp_path, UNIT, SERVER_PID) is None
    assert not (unit / "server").exists() and not (unit / "analysis").exists()
    assert "no cpu controller" in caplog.text


def _unwritable(tree: Path) -> list[str]:
    """A command prefix under which `tree` cannot be written, by the kernel's own refusal: as
    another user, a cgroup not delegated (the mode bits); as root, who writes anything, a
    read-only mount of it, as a container's /sys/fs/cgroup is (in a mount namespace of the
    command's own: nothing else sees it)."""
    if os.geteuid() != 0:
        for path in [tree, *tree.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        return []
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("root, and no unshare(1) to mount a tree read-only")
    return [
        unshare,
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"',
        str(tree),
    ]


def test_a_cgroup_that_is_not_writable_is_left_alone(tmp_path):
    unit = service(tmp_path)
    probe = (
        "import json, logging, sys\n"
        "from game.runtime import cgroup\n"
        "logging.basicConfig(level=logging.INFO, stream=sys.stderr)\n"
        f"print(json.dumps(str(cgroup.worker_cgroup({str(tmp_path)!r}, {UNIT!r}, {SERVER_PID}))))\n"
    )
    done = subprocess.run(
        [*_unwritable(tmp_path), sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    if done.returncode and "Traceback" not in done.stderr:
        pytest.skip(f"cannot mount a tree read-only here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == "None"
    assert "not writable" in done.stderr
    assert not (unit / "server").exists() and not (unit / "analysis").exists()


def test_where_cgroup_v2_is_mounted_is_read_from_mountinfo(tmp_path):
    hybrid = tmp_path / "hybrid"
    hybrid.write_text(
        "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
        "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
        "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
    )
    assert cgroup.mount(hybrid) == (Path("/sys/fs/cgroup/unified"), "/")
    container = tmp_path / "container"  # a container sharing the host's cgroups sees its own at the mount
    container.write_text("900 800 0:27 /docker/ab12 /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw,nsdelegate\n")
    assert cgroup.mount(container) == (Path("/sys/fs/cgroup"), "/docker/ab12")
    legacy = tmp_path / "legacy"
    legacy.write_text("32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n")
    assert cgroup.mount(legacy) is None


def test_off_leaves_the_worker_beside_the_server(tmp_path, monkeypatch):
    unit = service(tmp_path)
    monkeypatch.setenv("SEVN_CGROUP_ROOT", "off")
    assert cgroup.worker_cgroup(None, UNIT, SERVER_PID) is None
    monkeypatch.setenv("SEVN_CGROUP_ROOT", str(tmp_path))
    assert cgroup.worker_cgroup(None, UNIT, SERVER_PID) == unit / "analysis"


def test_on_this_machine_s_own_cgroup_v2_when_there_is_one_to_arrange():
    """The kernel's own cgroupfs, where this machine has one we may arrange: a scratch cgroup
    below ours holds a server (a child process, alone in it), which arranges it and starts a
    worker; the server lands in <scratch>/server, the worker in <scratch>/analysis, idle."""
    found = cgroup.mount()
    if found is None:
        pytest.skip("no cgroup v2 here")
    root, _ = found
    ours = root / cgroup.own().lstrip("/")
    enabled = (ours / "cgroup.subtree_control").read_text().split()
    if "cpu" not in enabled or not os.access(ours, os.W_OK):
        pytest.skip(f"{ours} gives its children no cpu controller, or is not ours to write")
    scratch = ours / f"sevn-test-{os.getpid()}"
    scratch.mkdir()
    server = (
        "import json, subprocess, sys\n"
        "from game.runtime import cgroup\n"
        "from game.registry.analysing import lowly\n"
        "worker = cgroup.worker_cgroup()\n"
        "probe = \"print(open('/proc/self/cgroup').read())\"\n"
        "seen = subprocess.run([sys.executable, '-c', probe], capture_output=True, text=True,"
        " check=True, **lowly(5, worker))\n"
        "print(json.dumps({'worker': str(worker), 'server': open('/proc/self/cgroup').read(), 'seen': seen.stdout}))\n"
    )

    def alone() -> None:
        with open(scratch / "cgroup.procs", "w") as procs:
            procs.write(str(os.getpid()))

    try:
        done = subprocess.run(
            [sys.executable, "-c", server],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            preexec_fn=alone,
            check=True,
        )
        seen = json.loads(done.stdout)
        base = "0::/" + str(scratch.relative_to(root))
        assert seen["worker"] == str(scratch / "analysis")
        assert f"{base}/server" in seen["server"].splitlines()
        assert f"{base}/analysis" in seen["seen"].splitlines()
        idle = scratch / "analysis" / "cpu.idle"
        assert (idle if idle.exists() else scratch / "analysis" / "cpu.weight").read_text().strip() == "1"
    finally:
        for made in (scratch / "analysis", scratch / "server", scratch):
            if made.exists():
                _emptied(made)
                made.rmdir()


def _emptied(group: Path, timeout_s: float = 10.0) -> None:
    """Wait until the kernel says `group` holds no process (cgroup.events' "populated 0", which
    it signals to poll): every process in it has been waited for, but the kernel may finish
    taking an exited one out after."""
    with open(group / "cgroup.events") as events:
        poller = select.poll()
        poller.register(events, select.POLLPRI)
        until = time.monotonic() + timeout_s
        while "populated 1" in events.read() and time.monotonic() < until:
            poller.poll(max(1, int((until - time.monotonic()) * 1000)))
            events.seek(0)
