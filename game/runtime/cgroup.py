"""A cgroup of its own for the finished games' analysis worker (game.registry.analysing), beside
the server's, with cpu.idle set.

Under cgroup v2 (a systemd service's cgroup, a container's) the kernel shares the CPU between
cgroups first and only then, inside each, by nice and SCHED_IDLE. A worker in the server's
cgroup, however low its own priority, spends that cgroup's share: on a machine busy with other
services, a move that wakes the server finds the share spent. In a cgroup of its own beside the
server's, with cpu.idle = 1, the worker is scheduled as idle against the server: the server
takes the core the moment it wants one. (cpu.idle came with Linux 5.15; before it, cpu.weight 1
against the server's 100 comes close.)

cgroup v2 lets a cgroup hold processes or share its CPU among child cgroups, not both (the
no-internal-process rule). So the server's cgroup becomes a parent: the server moves into a leaf
of its own, `server` (systemd's DelegateSubgroup=server puts it there from the start), the cpu
controller is enabled for the children, and the worker starts in `analysis`. That is only done
where the cgroup is this process's to arrange: cgroup v2 with its cpu controller, the cgroup
writable (a systemd unit with Delegate=, as deploy/systemd/sevn@.service, or a container's own
tree mounted writable), and no other process in it (a terminal's cgroup, a whole machine's root cgroup, or
several servers in one unit are left alone). Anything else (no cgroup v2, cgroup v1's cpu, not
delegated, read-only, busy) leaves the worker in the server's cgroup, at nice 19 and SCHED_IDLE
in a session of its own as before (game.registry.analysing.lowly), and says why once, in the log.

SEVN_CGROUP_ROOT names the cgroup v2 mount (by default the one in /proc/self/mountinfo), or
`off`. Plain Python: the worker's module, which loads without Django, imports this.
"""

from __future__ import annotations

import functools
import logging
import os
from pathlib import Path

logger = logging.getLogger(__name__)

SERVER = "server"  # the server's own leaf
ANALYSIS = "analysis"  # the worker's, beside it


class Unavailable(Exception):
    """Why the worker cannot have a cgroup of its own here."""


def mount(mountinfo: Path = Path("/proc/self/mountinfo")) -> tuple[Path, str] | None:
    """Where cgroup v2 is mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified beside cgroup v1's
    controllers) and which of its cgroups is mounted there ("/", or a container's own when it
    shares the host's cgroups), or None."""
    for line in mountinfo.read_text().splitlines():
        fields, _, filesystem = line.partition(" - ")
        if filesystem.split()[:1] == ["cgroup2"]:
            _, _, _, mounted, point = fields.split()[:5]
            return Path(point), mounted
    return None


def own(cgroup: Path = Path("/proc/self/cgroup")) -> str:
    """This process' cgroup in the cgroup v2 hierarchy ("/system.slice/sevn@8001.service")."""
    for line in cgroup.read_text().splitlines():
        if line.startswith("0::"):
            return line[3:]
    raise Unavailable("this process has no cgroup v2")


def _read(path: Path) -> list[str]:
    return path.read_text().split()


def _write(path: Path, value: str) -> None:
    with open(path, "w") as file:  # never creates a file in cgroupfs: a missing one is refused
        file.write(value)


def arrange(root: Path, path: str, pid: int | None = None) -> Path:
    """Make the worker's cgroup beside the server's leaf: `root` is the cgroup v2 mount, `path`
    this process' cgroup in it, `pid` the server (this process); moves the server into its own
    leaf if it is not in one yet. Returns the worker's cgroup; raises Unavailable or OSError."""
    pid = os.getpid() if pid is None else pid
    here = root / path.lstrip("/")
    parent = here.parent if here.name == SERVER and here != root else here
    if "cpu" not in _read(parent / "cgroup.controllers"):
        raise Unavailable(f"no cpu controller in {parent} (cgroup v1 has it, or it is not delegated)")
    for needed in (parent, parent / "cgroup.procs", parent / "cgroup.subtree_control"):
        if not os.access(needed, os.W_OK):
            raise Unavailable(f"{needed} is not writable (not delegated to this service, or mounted read-only)")
    if here == parent:
        others = set(_read(parent / "cgroup.procs")) - {str(pid)}
        if others:
            raise Unavailable(f"{parent} holds {len(others)} other process(es): not this server's to arrange")
        (parent / SERVER).mkdir(exist_ok=True)
        _write(parent / SERVER / "cgroup.procs", str(pid))
    if "cpu" not in _read(parent / "cgroup.subtree_control"):
        _write(parent / "cgroup.subtree_control", "+cpu")
    worker = parent / ANALYSIS
    worker.mkdir(exist_ok=True)
    if (worker / "cpu.idle").exists():
        _write(worker / "cpu.idle", "1")
    else:
        _write(worker / "cpu.weight", "1")
    return worker


def worker_cgroup(root: str | Path | None = None, path: str | None = None, pid: int | None = None) -> Path | None:
    """The worker's cgroup, arranged (`arrange`); None where there is none to be had, and why in
    the log. `root` is the cgroup v2 mount (None: SEVN_CGROUP_ROOT, else /proc/self/mountinfo's;
    `off`: none), `path` this process' cgroup in it (None: /proc/self/cgroup's)."""
    if root is None:
        root = os.environ.get("SEVN_CGROUP_ROOT", "").strip() or None
    if str(root).lower() == "off":
        logger.debug("the analysis worker stays in the server's cgroup: SEVN_CGROUP_ROOT is off")
        return None
    try:
        if root is None:
            found = mount()
            if found is None:
                raise Unavailable("no cgroup v2 mounted")
            root, mounted = found
        else:
            mounted = "/"
        path = own() if path is None else path
        if mounted != "/" and (path + "/").startswith(mounted + "/"):
            path = path[len(mounted) :]
        worker = arrange(Path(root), path, pid)
    except (Unavailable, OSError, ValueError, IndexError) as why:  # any of them: as before, said once
        logger.info("the analysis worker stays in the server's cgroup, at nice 19 and SCHED_IDLE: %s", why)
        return None
    logger.info("the analysis worker runs in %s, idle beside the server's cgroup", worker)
    return worker


@functools.cache
def analysis_cgroup() -> Path | None:
    """This process' worker cgroup, arranged once (the first worker, or the analysis loop's start)."""
    return worker_cgroup()
