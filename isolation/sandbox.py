"""Containment of the driver service process: what it may see, touch, signal and use.

A driver under test is treated as hostile. ``Sandbox`` turns the service's
command into one that runs it contained, as far as the machine allows:

* always: its own session and process group (signals to the harness's group do
  not reach it, and the whole group is killed at once); the harness's death
  kills it (``PR_SET_PDEATHSIG``); resource limits (address space, open files,
  processes, the size of a file it writes, no core dumps); an out-of-memory
  score that makes it the kernel's first choice; a private working directory,
  removed afterwards; an environment of its own (``service_environment``);
  its stdout and stderr go to a log file, never to the harness's streams; a
  memory and process limit over its whole process tree (``Cgroup`` where the
  machine lets the harness make control groups, else ``TreeWatch`` summing
  over its processes while a call runs);
* where bubblewrap (``bwrap``) is installed and the kernel lets it make
  namespaces: new user, PID, network, IPC and UTS namespaces, every
  capability dropped, and a mount namespace in which the whole file system is
  read-only except the working directory (also its ``TMPDIR`` and ``HOME``);
  ``/proc``, ``/dev`` and ``/dev/shm`` are its own; ``/tmp``, ``/var/tmp`` and
  ``/run`` are empty but for what the service needs (``View.keep``); the
  suite's packages, the report folder and the harness's folder are empty
  (``View.hidden``). The driver then cannot see or signal any process of the
  harness, reach a network, read the suite's expected outputs, or write a
  file outside its own folder; when its first process dies, every process it
  forked dies with it (the PID namespace ends);
* else where ``unshare`` (util-linux) can make namespaces: the same
  namespaces, and the same view and capability drop made by
  ``isolation/confine.py`` inside them before the service starts;
* else only the process group: nothing stops the driver signalling the harness
  or writing files. Processes that leave the group (``setsid``) are still found
  and killed by a token in their environment, unless they clear it.

Whether a containment holds is not assumed: ``probe`` runs a small program in
it (``isolation/confine.py --probe``), as the driver would run, that tries what the driver must not be able to
do (write outside its folder, keep a capability, unmount its ``/proc``, see a
hidden folder or the harness's shared memory, reach a network interface).
``Sandbox.tamper_proof`` is true only when every check of it failed to
break the containment; ``describe()`` is the one-line statement of what is
in effect, printed in the run header and written into the certification
report, with the reason when it is not tamper-proof.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_ADDRESS_SPACE_MB = 8192
"""The service's address-space limit when ``--driver-memory-limit`` sets none; also the
limit on the resident memory of its whole process tree."""
OPEN_FILES = 4096
"""The most descriptors the service may hold open."""
PROCESSES = 256
"""The most processes (and threads) the service's process tree may hold at once."""
LOG_MB = 1024
"""The largest file the service may write (``RLIMIT_FSIZE``): its log, or a file of its own."""
OOM_SCORE_ADJ = 1000
"""The service's out-of-memory score adjustment: the kernel kills it before the harness."""

_PR_SET_PDEATHSIG = 1
_PROBE_TIMEOUT = 20.0
_KILL_PASSES = 5
_CONFINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "confine.py")
COVERED = ("/tmp", "/var/tmp", "/run")
"""Shared folders the driver sees empty (but for ``View.keep``): other programs' files and
sockets live there."""
PRIVATE = ("/dev/shm",)
"""Folders the driver gets a private, writable, empty file system for."""

ENVIRONMENT_NAMES = frozenset(
    {"PATH", "LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH", "PYTHONDONTWRITEBYTECODE"}
)
"""Variables of the harness's environment the driver service gets (``service_environment``)."""
ENVIRONMENT_PREFIXES = (
    "LC_",
    "NNHAL_DRIVER_",
    "OPENBLAS_",
    "OMP_",
    "MKL_",
    "NUMEXPR_",
    "MALLOC_",
)
"""Prefixes of the harness's variables the service gets too: locale, the vendor's own
``NNHAL_DRIVER_*`` settings, the numeric libraries' thread and kernel settings, and the
C library's allocator settings."""
MALLOC_ARENA_MAX = "2"
"""The service's ``MALLOC_ARENA_MAX`` unless the harness's environment sets one: each
thread of a process may otherwise reserve an allocator arena of its own (64 MB of
address space apiece on 64-bit Linux), which counts against ``--driver-memory-limit``
(an address-space limit) though it holds nothing, and a driver starting threads ran out
of "memory" it never used."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of the service process and its process tree."""

    address_space_mb: float = DEFAULT_ADDRESS_SPACE_MB
    open_files: int = OPEN_FILES
    processes: int = PROCESSES
    file_mb: float = LOG_MB

    def describe(self) -> str:
        return (
            f"address space {self.address_space_mb:g} MB a process and resident memory "
            f"{self.address_space_mb:g} MB over its process tree, {self.processes} processes, "
            f"{self.open_files} open files, files up to {self.file_mb:g} MB, no core dumps"
        )


@dataclass(frozen=True)
class View:
    """What the service's file system shows (under namespaces).

    ``workdir`` is the one writable folder; ``keep`` are paths that stay visible
    (read-only) under the covered folders (``COVERED``): the driver's folder and
    the Python installation; ``hidden`` are paths shown empty: the suite's
    packages, the report folder, the harness's folder."""

    workdir: str
    keep: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()

    def covered(self) -> list[str]:
        return [p for p in COVERED if os.path.isdir(p) and not os.path.islink(p)]

    def kept(self) -> list[str]:
        """The paths of ``keep`` that a covered folder would otherwise hide, each once,
        outermost first."""
        found = sorted(
            {
                os.path.realpath(p)
                for p in self.keep
                if os.path.exists(p) and any(_under(os.path.realpath(p), c) for c in self.covered())
            }
        )
        return [p for i, p in enumerate(found) if not any(_under(p, q) for q in found[:i])]

    def shown_hidden(self) -> list[str]:
        """The hidden paths that exist, each once (real paths)."""
        return sorted({os.path.realpath(p) for p in self.hidden if os.path.exists(p)})


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def python_paths() -> list[str]:
    """What the service needs of this Python: its installation, its import path, and the
    folders an editable install maps packages to (setuptools' finders keep a ``MAPPING``
    of package to folder, which is on no import path: a checkout under /tmp would be
    covered otherwise)."""
    paths = [sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))]
    paths += [p for p in sys.path if p]
    for finder in sys.meta_path:
        module = sys.modules.get(getattr(finder, "__module__", "") or "")
        mapping = getattr(module, "MAPPING", None)
        if isinstance(mapping, dict):
            paths += [folder for folder in mapping.values() if isinstance(folder, str)]
    return paths


def _bwrap_prefix(view: View) -> list[str]:
    command = [
        "bwrap",
        "--unshare-user",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
    ]
    for folder in PRIVATE:
        command += ["--tmpfs", folder]
    covered = view.covered()
    for folder in covered:
        command += ["--tmpfs", folder]
    for path in view.kept():
        command += ["--ro-bind", path, path]
    hidden = view.shown_hidden()
    for path in hidden:
        command += ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
    command += ["--bind", view.workdir, view.workdir, "--chdir", view.workdir]
    # Last: the covering file systems read-only (not the binds inside them).
    for path in [*covered, *(p for p in hidden if os.path.isdir(p))]:
        command += ["--remount-ro", path]
    return [*command, "--"]


def _unshare_prefix(view: View) -> list[str]:
    config = {
        "workdir": view.workdir,
        "keep": view.kept(),
        "hidden": view.shown_hidden(),
        "cover": view.covered(),
        "private": list(PRIVATE),
    }
    return [
        "unshare",
        "--user",
        "--map-root-user",
        "--pid",
        "--fork",
        "--kill-child",
        "--mount",
        "--net",
        "--ipc",
        "--uts",
        "--",
        sys.executable,
        "-I",
        "-S",
        _CONFINE,
        json.dumps(config),
        "--",
    ]


_KINDS: dict[str, tuple[Callable[[View], list[str]] | None, str]] = {
    "bubblewrap": (
        _bwrap_prefix,
        "namespaces by bubblewrap (user, PID, network, IPC, UTS, mount; no capabilities; "
        "file system read-only but for its working directory; suite and reports hidden)",
    ),
    "unshare": (
        _unshare_prefix,
        "namespaces by unshare (user, PID, network, IPC, UTS, mount; no capabilities; "
        "file system read-only but for its working directory; suite and reports hidden)",
    ),
    "process-group": (
        None,
        "a process group only (no namespaces available: the driver can signal the harness "
        "and write files)",
    ),
}

CONTAINMENTS = ("auto", *_KINDS)
"""The values of ``--driver-containment``: ``auto`` takes the strongest that works."""


# -- the probe ------------------------------------------------------------------------

@functools.cache
def probe(kind: str) -> tuple[str, ...] | None:
    """What a program inside containment ``kind`` could do that it must not (empty when
    the containment held against every try); None where ``kind`` does not run at all.
    Tried once per process."""
    prefix_of = _KINDS[kind][0]
    if prefix_of is None:
        return ("no namespaces: the driver shares the harness's file system and processes",)
    tool = "bwrap" if kind == "bubblewrap" else "unshare"
    if shutil.which(tool) is None:
        return None
    mark = f"NNHAL_PROBE_MARK={uuid.uuid4().hex}"
    with contextlib.ExitStack() as stack:
        root = stack.enter_context(tempfile.TemporaryDirectory(prefix="nnhal-probe-"))
        # The hidden folder lies inside a kept one, as the suite inside the Python path.
        workdir, kept = os.path.join(root, "work"), os.path.join(root, "kept")
        hidden = os.path.join(kept, "hidden")
        for folder in (workdir, kept, hidden):
            os.mkdir(folder)
        with open(os.path.join(hidden, "expected.txt"), "w") as f:
            f.write("not for the driver")
        shm = f"/dev/shm/nnhal-probe-{uuid.uuid4().hex}"
        with contextlib.suppress(OSError):
            with open(shm, "w"):
                pass
            stack.callback(os.unlink, shm)
        view = View(workdir, keep=(kept, *python_paths()), hidden=(hidden,))
        args = {
            "writable": [workdir, *PRIVATE],
            "private_dev": kind == "bubblewrap",
            "kept": kept,
            "harness": os.getpid(),
            "mark": mark,
            "hidden": hidden,
            "shm": shm if os.path.exists(shm) else "/nonexistent-nnhal",
        }
        command = [*prefix_of(view), sys.executable, "-I", "-S", _CONFINE, "--probe"]
        command.append(json.dumps(args))
        os.environ[mark.split("=")[0]] = mark.split("=")[1]
        try:
            done = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=_PROBE_TIMEOUT,
                check=False,
                cwd=workdir,
                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        finally:
            os.environ.pop(mark.split("=")[0], None)
    if done.returncode != 0:
        return None
    try:
        broken = json.loads(done.stdout.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    return tuple(str(b) for b in broken)


def available(kind: str) -> bool:
    """Whether containment ``kind`` works on this machine (tried once per process)."""
    return probe(kind) is not None


def strongest() -> str:
    """The strongest containment that works here: one that held against every try of the
    probe, else the first that runs."""
    first = None
    for kind in _KINDS:  # probed in order, only as far as needed
        if available(kind):
            if not probe(kind):
                return kind
            first = first or kind
    return first or "process-group"


class ContainmentUnavailable(RuntimeError):
    """The containment asked for does not work on this machine."""


def _die_with_parent() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


# -- the process tree's memory and process count ---------------------------------------


class Cgroup:
    """Control groups (v1 ``memory`` and ``pids`` hierarchies, or one v2 group with both
    controllers) that bound the service's whole process tree: resident memory and the
    number of processes. Made beside the harness's own group where the harness may
    write there (as root, mostly); ``create`` returns None elsewhere."""

    def __init__(self, folders: dict[str, str], version: int) -> None:
        self.folders = folders
        """Controller (``memory``, ``pids``) -> its group's folder (one folder for v2)."""
        self.version = version
        self._events: int | None = None
        """The memory controller's events file, opened once (``oom_kills`` is asked after
        every test: a read at offset 0 costs a microsecond, an open and close about 15)."""

    @staticmethod
    def _own(hierarchy: str) -> str | None:
        """This process's group in ``hierarchy`` (``memory`` or ``pids``; ``""`` for v2)."""
        try:
            with open("/proc/self/cgroup") as f:
                for line in f:
                    _, controllers, path = line.rstrip("\n").split(":", 2)
                    if hierarchy in controllers.split(",") or (not hierarchy and not controllers):
                        return path
        except OSError:
            return None
        return None

    @classmethod
    def create(cls, name: str, memory_bytes: int, processes: int) -> Cgroup | None:
        made: dict[str, str] = {}
        try:
            v1 = {c: cls._own(c) for c in ("memory", "pids")}
            if all(v1.values()) and all(
                os.path.isdir(f"/sys/fs/cgroup/{c}{v1[c]}") for c in v1
            ):
                for controller, own in v1.items():
                    folder = f"/sys/fs/cgroup/{controller}{own.rstrip('/')}/{name}"
                    os.mkdir(folder)
                    made[controller] = folder
                _write(f"{made['memory']}/memory.limit_in_bytes", memory_bytes)
                with contextlib.suppress(OSError):
                    _write(f"{made['memory']}/memory.memsw.limit_in_bytes", memory_bytes)
                _write(f"{made['pids']}/pids.max", processes)
                return cls(made, 1)
            own = cls._own("")
            base = "/sys/fs/cgroup" if os.path.exists("/sys/fs/cgroup/cgroup.controllers") else None
            if own is None or base is None:
                return None
            parent = f"{base}{own.rstrip('/')}"
            with open(f"{parent}/cgroup.subtree_control") as f:
                enabled = f.read().split()
            if not {"memory", "pids"} <= set(enabled):
                return None
            folder = f"{parent}/{name}"
            os.mkdir(folder)
            made = {"memory": folder, "pids": folder}
            _write(f"{folder}/memory.max", memory_bytes)
            with contextlib.suppress(OSError):
                _write(f"{folder}/memory.swap.max", 0)
            _write(f"{folder}/pids.max", processes)
            return cls(made, 2)
        except (OSError, ValueError):
            for folder in set(made.values()):
                with contextlib.suppress(OSError):
                    os.rmdir(folder)
            return None

    def join(self) -> None:
        """Put the calling process in the groups (in the child, before exec)."""
        for folder in set(self.folders.values()):
            _write(f"{folder}/cgroup.procs", 0 if self.version == 2 else os.getpid())

    def pids(self) -> list[int]:
        try:
            with open(f"{self.folders['pids']}/cgroup.procs") as f:
                return [int(line) for line in f if line.strip()]
        except (OSError, ValueError):
            return []

    def oom_kills(self) -> int:
        """How many of the group's processes the kernel killed for going over its memory."""
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        try:
            if self._events is None:
                self._events = os.open(f"{self.folders['memory']}/{name}", os.O_RDONLY)
            for line in os.pread(self._events, 4096, 0).decode().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def remove(self) -> None:
        """Kill what is left in the groups and remove them."""
        events, self._events = self._events, None
        if events is not None:
            os.close(events)
        for _ in range(_KILL_PASSES):
            pids = self.pids()
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)
        for folder in set(self.folders.values()):
            for _ in range(50):
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)


def _write(path: str, value: int) -> None:
    with open(path, "w") as f:
        f.write(str(value))


def descendants(root: int) -> list[int]:
    """``root`` and every process descended from it (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
            parent = int(stat[stat.rindex(b")") + 2 :].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def resident_mb_of(pids: list[int]) -> float:
    """The resident memory of ``pids`` together, in MB (processes gone count nothing)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return total * os.sysconf("SC_PAGE_SIZE") / 2**20


class TreeWatch:
    """Where no control group can be made: every half second while the service runs, sum
    the resident memory and count the processes of its tree (its descendants and the
    processes carrying its token); over a limit, call ``over`` with the sentence."""

    INTERVAL = 0.5

    def __init__(
        self, root: int, token: str, limits: Limits, over: Callable[[str, str], None]
    ) -> None:
        self.root, self.token, self.limits, self.over = root, token, limits, over
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="nnhal-tree-watch", daemon=True)
        self._thread.start()

    def check(self) -> tuple[str, str] | None:
        """(what, sentence) when the tree is over a limit: what is ``memory`` or
        ``processes``; None while it is within them."""
        pids = sorted(set(descendants(self.root)) | set(marked(self.token)))
        if len(pids) > self.limits.processes:
            return (
                "processes",
                f"{len(pids)} processes, over the limit of {self.limits.processes} for its "
                "process tree",
            )
        used = resident_mb_of(pids)
        if used > self.limits.address_space_mb:
            return (
                "memory",
                f"{used:.0f} MB resident over its process tree, over the limit of "
                f"{self.limits.address_space_mb:g} MB",
            )
        return None

    def _run(self) -> None:
        while not self._stop.wait(self.INTERVAL):
            problem = self.check()
            if problem is not None:
                self.over(*problem)
                return

    def stop(self) -> None:
        self._stop.set()


class Sandbox:
    """One service process's containment: its prefix, limits, folder and log."""

    def __init__(self, kind: str = "auto", limits: Limits | None = None) -> None:
        if kind == "auto":
            kind = strongest()
        elif kind not in _KINDS:
            raise ValueError(f"unknown containment {kind!r}; choose from {', '.join(CONTAINMENTS)}")
        elif not available(kind):
            raise ContainmentUnavailable(
                f"--driver-containment={kind}: it does not work on this machine "
                f"(try --driver-containment=auto)"
            )
        self.kind = kind
        self.limits = limits or Limits()

    @property
    def weaknesses(self) -> tuple[str, ...]:
        """What the probe could do inside this containment that a driver must not."""
        return probe(self.kind) or ()

    @property
    def tamper_proof(self) -> bool:
        """True only when the probe broke none of the containment's properties."""
        return self.namespaces and not self.weaknesses

    def describe(self) -> str:
        text = f"{_KINDS[self.kind][1]}; {self.limits.describe()}"
        if self.namespaces and self.weaknesses:
            text += f"; not tamper-proof here: {'; '.join(self.weaknesses)}"
        return text

    @property
    def namespaces(self) -> bool:
        return self.kind != "process-group"

    def command(self, argv: list[str], view: View | str) -> list[str]:
        """``argv`` as run inside this sandbox, seeing ``view`` (a working directory
        alone: nothing kept or hidden)."""
        if isinstance(view, str):
            view = View(view)
        prefix_of = _KINDS[self.kind][0]
        return argv if prefix_of is None else [*prefix_of(view), *argv]

    def cgroup(self, name: str) -> Cgroup | None:
        """Control groups bounding one service's tree, where they can be made here."""
        return Cgroup.create(
            f"nnhal-{name}", int(self.limits.address_space_mb * 2**20), self.limits.processes
        )

    def preexec(self, cgroup: Cgroup | None = None) -> None:
        """Runs in the forked child before exec: limits, groups, and death with the harness.

        The parent-death signal is set here, in the harness's child itself (bwrap
        and unshare carry it on to the driver's process by their own options).
        """
        _die_with_parent()
        if cgroup is not None:
            cgroup.join()
        space = int(self.limits.address_space_mb * 2**20)
        resource.setrlimit(resource.RLIMIT_AS, (space, space))
        files = self.limits.open_files
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        size = int(self.limits.file_mb * 2**20)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        # Counted per user: also bounds an unprivileged harness's user (root is exempt,
        # which the control group or the tree watch covers).
        with contextlib.suppress(ValueError, OSError):
            current = resource.getrlimit(resource.RLIMIT_NPROC)[1]
            if current == resource.RLIM_INFINITY or current > self.limits.processes:
                nproc = self.limits.processes
                if os.getuid() != 0:
                    nproc = max(nproc, _user_processes() + self.limits.processes)
                resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as f:
            f.write(str(OOM_SCORE_ADJ))


def _user_processes() -> int:
    """How many processes (threads included) the calling user has now."""
    uid, count = os.getuid(), 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    count += 1
    return count


def service_environment(workdir: str, token: str, pythonpath: str) -> dict[str, str]:
    """The driver service's environment: ``ENVIRONMENT_NAMES`` and ``ENVIRONMENT_PREFIXES``
    of the harness's, its import path, and its folder as ``HOME`` and ``TMPDIR``. Nothing
    else of the harness's (its keys, options, paths) reaches the driver."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name in ENVIRONMENT_NAMES or name.startswith(ENVIRONMENT_PREFIXES)
    }
    environment.setdefault("PATH", os.defpath)
    environment.setdefault("MALLOC_ARENA_MAX", MALLOC_ARENA_MAX)
    environment.update(
        {"HOME": workdir, "TMPDIR": workdir, "PYTHONPATH": pythonpath, TOKEN_VARIABLE: token}
    )
    return environment


def make_workdir() -> str:
    """A private, empty working directory for one service process."""
    return tempfile.mkdtemp(prefix="nnhal-driver-")


def remove_workdir(path: str) -> None:
    """Remove a service's working directory and whatever the driver left in it."""
    with contextlib.suppress(OSError):
        shutil.rmtree(path, ignore_errors=True)


TOKEN_VARIABLE = "NNHAL_SERVICE_TOKEN"
"""The environment variable that marks every process of one service launch."""


def new_token() -> str:
    """A fresh mark for one service launch (its processes inherit it)."""
    return uuid.uuid4().hex


def marked(token: str, variable: str = TOKEN_VARIABLE) -> list[int]:
    """The processes whose environment sets ``variable`` to ``token`` (as seen in /proc)."""
    needle = f"{variable}={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue
    return found


def kill_service(pgid: int, token: str | None, cgroup: Cgroup | None = None) -> None:
    """SIGKILL the service's process group, its control groups' processes and every
    process carrying its token.

    The token finds what left the group (a daemon that called ``setsid``) where no
    PID namespace ends it; a few passes catch children forked while killing.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    if cgroup is not None:
        for pid in cgroup.pids():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    if token is None:
        return
    for _ in range(_KILL_PASSES):
        survivors = [pid for pid in marked(token) if pid != os.getpid()]
        if not survivors:
            return
        for pid in survivors:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
