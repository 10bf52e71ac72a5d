"""Set up the driver's view of the machine inside fresh namespaces, drop every capability,
then run the driver service: what ``unshare`` alone cannot do.

``unshare`` (util-linux) makes the user, PID, mount, network, IPC and UTS
namespaces and runs this script as the first process of the new PID namespace,
root of its user namespace (and so holding every capability there). The
script, which uses nothing but the standard library and is run as a file with
``python -I -S`` (no import path from the environment, the folder or
``site``), then:

1. mounts a fresh ``/proc`` for the new PID namespace (the harness's
   processes do not exist in it);
2. covers the shared folders (``/tmp``, ``/var/tmp``, ``/run``) with empty
   file systems and ``/dev/shm`` with a private one, then binds back, read-only,
   the paths the service needs that lay under them (the driver's folder, the
   Python installation: ``keep``);
3. covers each ``hidden`` path (the suite's packages and their expected
   outputs, the report folder, the harness's folder) with an empty file system;
4. binds the working directory onto itself, the one place left writable;
5. remounts every other mount read-only (keeping the flags the kernel locks
   for mounts inherited from a more privileged namespace);
6. drops every capability for good: the bounding and ambient sets are
   emptied, ``SECBIT_NOROOT`` (locked) keeps ``execve`` from granting them
   again to user 0, ``no_new_privs`` is set, and the effective, permitted and
   inheritable sets are cleared. Without ``CAP_SYS_ADMIN`` the driver can
   neither unmount the fresh ``/proc`` (to see the host's) nor remount
   anything writable;
7. runs the service command as its child, and reaps the namespace's processes until the
   service ends (``_serve``).

A step that fails ends the script with status 121 and one line naming the
step on stderr (the service's log): the harness then reports that the driver
service failed to start, never a driver running with less containment than
described. The harness's probe (``isolation.sandbox.probe``) checks the
result from inside, as the driver would see it.

Usage: ``python -I -S confine.py CONFIG_JSON -- COMMAND...`` where CONFIG_JSON
holds ``workdir``, ``keep``, ``hidden``, ``cover`` and ``private``; and
``python -I -S confine.py --probe ARGS_JSON``, run inside a containment, prints
as JSON what the probe (``probe``) could do there that a driver must not.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import socket
import sys

FAILED = 121
"""The exit status of a set-up that could not be completed."""

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
MS_STRICTATIME = 1 << 24

# statvfs flags -> the mount flags a read-only remount must keep (the kernel refuses to
# clear the ones it locked on mounts inherited from the parent namespace).
_KEPT = (
    (os.ST_NOSUID, MS_NOSUID),
    (os.ST_NODEV, MS_NODEV),
    (os.ST_NOEXEC, MS_NOEXEC),
    (os.ST_NOATIME, MS_NOATIME),
    (os.ST_NODIRATIME, MS_NODIRATIME),
    (os.ST_RELATIME, MS_RELATIME),
)

PR_CAPBSET_DROP = 24
PR_SET_SECUREBITS = 28
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
SECBIT_NOROOT = 1 << 0
SECBIT_NOROOT_LOCKED = 1 << 1
SECBIT_NO_SETUID_FIXUP = 1 << 2
SECBIT_NO_SETUID_FIXUP_LOCKED = 1 << 3
SECBIT_KEEP_CAPS_LOCKED = 1 << 5
SECBIT_NO_CAP_AMBIENT_RAISE = 1 << 6
SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED = 1 << 7
_LINUX_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)


class SetupError(Exception):
    """One step of the set-up failed: its message names the step."""


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise SetupError(f"{what}: {os.strerror(error)}")


def _mount(source: str | None, target: str, kind: str | None, flags: int, data: str = "") -> None:
    _check(
        _libc.mount(
            source.encode() if source is not None else None,
            target.encode(),
            kind.encode() if kind is not None else None,
            ctypes.c_ulong(flags),
            data.encode() if data else None,
        ),
        f"mount {kind or 'bind'} on {target}",
    )


def _unescape(field: str) -> str:
    """A mountinfo path: spaces, tabs, newlines and backslashes are octal escapes."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mount_points() -> list[str]:
    """The mount points of this mount namespace, each once, in mount order."""
    seen: dict[str, None] = {}
    with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.split()
            if len(fields) > 4:
                seen[_unescape(fields[4])] = None
    return list(seen)


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _make_point(path: str, directory: bool) -> None:
    if os.path.lexists(path):
        return
    if directory:
        os.makedirs(path, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w"):
            pass


def set_up(config: dict) -> None:
    """Steps 1-5: the driver's view of the file system."""
    workdir = config["workdir"]
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    covered = [p for p in config["cover"] if os.path.isdir(p) and not os.path.islink(p)]
    # Open what must stay visible before covering the folders that hold it.
    kept = []
    for path in [*config["keep"], workdir]:
        if any(_under(path, c) for c in covered) and os.path.exists(path):
            kept.append((path, os.open(path, os.O_PATH | os.O_CLOEXEC), os.path.isdir(path)))
    for folder in covered:
        _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=16m")
    for folder in config["private"]:
        if os.path.isdir(folder):
            _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    for path, fd, directory in kept:
        if path == workdir:
            continue
        _make_point(path, directory)
        _mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
    for path in config["hidden"]:
        if not os.path.exists(path):
            continue
        if os.path.isdir(path):
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0555,size=4k")
        else:
            _mount("/dev/null", path, None, MS_BIND)
    work_fd = next((fd for path, fd, _ in kept if path == workdir), None)
    if work_fd is not None:
        _make_point(workdir, True)
    _mount(workdir if work_fd is None else f"/proc/self/fd/{work_fd}", workdir, None, MS_BIND)
    for _, fd, _ in kept:
        os.close(fd)
    writable = {workdir, "/proc", *config["private"]}
    for point in mount_points():
        if point in writable or _under(point, "/proc"):
            continue
        try:
            flags = os.statvfs(point).f_flag
        except OSError:
            continue  # a mount shadowed by a later one, or gone: nothing reaches it
        kept_flags = sum(ms for st, ms in _KEPT if flags & st)
        _mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | kept_flags)


class _CapHeader(ctypes.Structure):
    _fields_ = (("version", ctypes.c_uint32), ("pid", ctypes.c_int))


class _CapData(ctypes.Structure):
    _fields_ = (
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    )


def drop_capabilities() -> None:
    """Step 6: no capability now, none on any later execve."""
    with open("/proc/sys/kernel/cap_last_cap") as f:
        last = int(f.read())
    for cap in range(last + 1):
        _check(_libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), f"drop capability {cap}")
    _check(
        _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clear ambient capabilities"
    )
    bits = (
        SECBIT_NOROOT
        | SECBIT_NOROOT_LOCKED
        | SECBIT_NO_SETUID_FIXUP
        | SECBIT_NO_SETUID_FIXUP_LOCKED
        | SECBIT_KEEP_CAPS_LOCKED
        | SECBIT_NO_CAP_AMBIENT_RAISE
        | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED
    )
    _check(_libc.prctl(PR_SET_SECUREBITS, bits, 0, 0, 0), "lock the security bits")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "set no_new_privs")
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(_libc.capset(ctypes.byref(header), data), "clear the capability sets")


def probe(args: dict) -> list[str]:
    """What this process, inside a containment, could do that a driver must not (``args``
    from ``isolation.sandbox.probe``: the writable folders, whether ``/dev`` is private, a
    kept folder, the harness's pid and a mark in its environment, a hidden folder, a file
    of the harness's ``/dev/shm``). Empty when the containment held against every try."""
    broken = []
    writable = set(args["writable"])
    for point in mount_points():
        if point in writable or _under(point, "/proc"):
            continue
        if _under(point, "/dev") and (args["private_dev"] or not os.path.samefile(point, "/dev")):
            continue
        try:
            flags = os.statvfs(point).f_flag
        except OSError:
            continue
        if not flags & os.ST_RDONLY:
            broken.append(f"{point} is writable")
    for folder in ("/", args["kept"]):
        try:
            with open(os.path.join(folder, ".nnhal-probe"), "w"):
                pass
            broken.append(f"a file could be written in {folder}")
        except OSError:
            pass
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("CapEff", "CapPrm", "CapBnd", "CapAmb") and int(value, 16):
                broken.append(f"capabilities left ({key} {value.strip()})")
    if _libc.umount2(b"/proc", 2) == 0:
        broken.append("/proc could be unmounted")
    try:
        with open(f"/proc/{args['harness']}/environ", "rb") as f:
            if args["mark"].encode() in f.read():
                broken.append("the harness's processes are visible")
    except OSError:
        pass
    if os.listdir(args["hidden"]):
        broken.append("a hidden folder's files are visible")
    if os.path.exists(args["shm"]):
        broken.append("the harness's /dev/shm is shared")
    if [name for _, name in socket.if_nameindex() if name != "lo"]:
        broken.append("a network interface is reachable")
    return broken


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[1] == "--probe":
        print(json.dumps(probe(json.loads(argv[2]))))
        return 0
    if len(argv) < 4 or argv[2] != "--":
        print("confine: usage: confine.py CONFIG_JSON -- COMMAND...", file=sys.stderr)
        return 2
    config = json.loads(argv[1])
    try:
        set_up(config)
        drop_capabilities()
        os.chdir(config["workdir"])
    except (SetupError, OSError) as e:
        print(f"confine: the driver's sandbox could not be set up: {e}", file=sys.stderr)
        return FAILED
    return _serve(argv[3:])


def _serve(command: list[str]) -> int:
    """Step 7: run the service as a child, and stay the namespace's first process.

    The first process of a PID namespace is its init: the kernel delivers it no signal it
    has no handler for, SIGKILL included, and the orphans of the namespace are its to reap.
    A service run as that process could not be killed by its own driver (a driver that
    sends itself SIGKILL, as the out-of-memory killer would, went on
    running) and would leave zombies. So this process forks the service, holds nothing of
    it (every descriptor but the standard three is closed here), reaps every child, and
    when the service ends ends too: with its exit status, or 128 + N for signal N (as
    bubblewrap reports it; the harness reads both the same way). Its end ends every other
    process of the namespace."""
    try:
        pid = os.fork()
    except OSError as e:
        print(f"confine: cannot start the service: {e.strerror}", file=sys.stderr)
        return FAILED
    if pid == 0:
        try:
            os.execvp(command[0], command)
        except OSError as e:
            print(f"confine: cannot run {command[0]}: {e.strerror}", file=sys.stderr)
        os._exit(FAILED)
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    while True:
        try:
            child, status = os.wait()
        except ChildProcessError:  # pragma: no cover - the service is always a child
            return FAILED
        except InterruptedError:  # pragma: no cover - retried by Python itself
            continue
        if child == pid:
            if os.WIFSIGNALED(status):
                return 128 + os.WTERMSIG(status)
            return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
