"""Containment of the driver service process: what it may see, touch, signal and use.

A driver under test is treated as hostile. ``Sandbox`` turns the service's
command into one that runs it contained, as far as the machine allows:

* always: its own session and process group (signals to the harness's group do
  not reach it, and the whole group is killed at once); the harness's death
  kills it (``PR_SET_PDEATHSIG``); resource limits (address space, open files,
  no core dumps); a private working directory, removed afterwards; its
  stdout and stderr go to a log file, never to the harness's streams;
* where bubblewrap (``bwrap``) is installed and the kernel lets it make
  namespaces: new user, PID, network, IPC and UTS namespaces and a mount
  namespace in which the whole file system is read-only except the working
  directory (also its ``TMPDIR`` and ``HOME``) and a private ``/dev/shm``. The driver then cannot see or signal any
  process of the harness, cannot reach a network, and cannot write files
  outside its own folder; when its first process dies, every process it
  forked dies with it (the PID namespace ends);
* else where ``unshare`` (util-linux) can make namespaces: the same minus the
  read-only file system;
* else only the process group: nothing stops the driver signalling the harness
  or writing files. Processes that leave the group (``setsid``) are still found
  and killed by a token in their environment, unless they clear it.

``describe()`` is the one-line statement of what is in effect, printed in the
run header and written into the certification report.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import uuid
from dataclasses import dataclass

DEFAULT_ADDRESS_SPACE_MB = 8192
"""The service's address-space limit when ``--driver-memory-limit`` sets none."""
OPEN_FILES = 4096
"""The most descriptors the service may hold open."""

_PR_SET_PDEATHSIG = 1
_PROBE_TIMEOUT = 10.0
_KILL_PASSES = 5


@dataclass(frozen=True)
class Limits:
    """Resource limits of the service process."""

    address_space_mb: float = DEFAULT_ADDRESS_SPACE_MB
    open_files: int = OPEN_FILES

    def describe(self) -> str:
        return (
            f"address space {self.address_space_mb:g} MB, {self.open_files} open files, "
            "no core dumps"
        )


def _bwrap_prefix(workdir: str) -> list[str]:
    return [
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
        "--tmpfs",
        "/dev/shm",
        "--bind",
        workdir,
        workdir,
        "--chdir",
        workdir,
        "--",
    ]


def _unshare_prefix(workdir: str) -> list[str]:
    del workdir  # no read-only file system this way; the working directory is the cwd
    return [
        "unshare",
        "--user",
        "--map-root-user",
        "--pid",
        "--fork",
        "--kill-child",
        "--mount-proc",
        "--net",
        "--ipc",
        "--uts",
        "--",
    ]


_KINDS = {
    "bubblewrap": (
        _bwrap_prefix,
        "namespaces by bubblewrap (user, PID, network, IPC, UTS, mount; file system "
        "read-only but for its working directory)",
    ),
    "unshare": (
        _unshare_prefix,
        "namespaces by unshare (user, PID, network, IPC, UTS; file system writable)",
    ),
    "process-group": (
        None,
        "a process group only (no namespaces available: the driver can signal the harness "
        "and write files)",
    ),
}

CONTAINMENTS = ("auto", *_KINDS)
"""The values of ``--driver-containment``: ``auto`` takes the strongest that works."""


@functools.cache
def available(kind: str) -> bool:
    """Whether containment ``kind`` works on this machine (tried once per process)."""
    prefix_of = _KINDS[kind][0]
    if prefix_of is None:
        return True
    tool = prefix_of("/")[0]
    if shutil.which(tool) is None:
        return False
    with tempfile.TemporaryDirectory(prefix="nnhal-probe-") as workdir:
        try:
            done = subprocess.run(
                [*prefix_of(workdir), "true"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=_PROBE_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return False
    return done.returncode == 0


def strongest() -> str:
    """The strongest containment that works here."""
    return next(kind for kind in _KINDS if available(kind))


class ContainmentUnavailable(RuntimeError):
    """The containment asked for does not work on this machine."""


def _die_with_parent() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


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

    def describe(self) -> str:
        return f"{_KINDS[self.kind][1]}; {self.limits.describe()}"

    @property
    def namespaces(self) -> bool:
        return self.kind != "process-group"

    def command(self, argv: list[str], workdir: str) -> list[str]:
        """``argv`` as run inside this sandbox, with ``workdir`` its working directory."""
        prefix_of = _KINDS[self.kind][0]
        return argv if prefix_of is None else [*prefix_of(workdir), *argv]

    def preexec(self) -> None:
        """Runs in the forked child before exec: limits, and death with the harness.

        The parent-death signal is set here, in the harness's child itself (bwrap
        and unshare carry it on to the driver's process by their own options).
        """
        _die_with_parent()
        space = int(self.limits.address_space_mb * 2**20)
        resource.setrlimit(resource.RLIMIT_AS, (space, space))
        files = self.limits.open_files
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


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


def kill_service(pgid: int, token: str | None) -> None:
    """SIGKILL the service's process group and every process carrying its token.

    The token finds what left the group (a daemon that called ``setsid``) where no
    PID namespace ends it; a few passes catch children forked while killing.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    if token is None:
        return
    for _ in range(_KILL_PASSES):
        survivors = [pid for pid in marked(token) if pid != os.getpid()]
        if not survivors:
            return
        for pid in survivors:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
