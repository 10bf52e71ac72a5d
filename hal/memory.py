"""Memory pools: shared memory that operand data travels in, as ``hidl_memory`` does.

A ``Memory`` is a name, a handle of file descriptors and a size, so it can
cross into another process. Three kinds exist:

* ``ashmem``: anonymous shared memory (a memfd);
* ``mmap_fd``: a real file on disk, mapped through its descriptor;
* ``hardware_buffer_blob``: a stand-in for an AHardwareBuffer of BLOB format,
  backed by a memfd.

The memfds ``allocate`` makes (``ashmem`` and ``hardware_buffer_blob``) are
sealed against shrinking and growing once sized (``F_SEAL_SHRINK`` and
``F_SEAL_GROW``): whoever the descriptor is handed to can write the bytes but
not resize the file, so a mapping of it can never fault with SIGBUS because
the file shrank under it. An ``mmap_fd`` pool is a real file, which cannot be
sealed: map it only if the other side is trusted, or read it with
``open_memory``, whose accesses report a shrunk file as ``MemoryError_``.
``map_memory`` checks the file's size (``fstat``) before mapping and tells
whether the pool is sealed (``Mapping.sealed``).

``map_memory`` gives a bounds-checked mapping; ``open_memory`` the same
checks and calls over the pool's descriptor (``pread``/``pwrite``), which for
small pools costs less than making and unmaking a map. Whoever allocates a
Memory owns its descriptors and closes them (``Memory.close`` or a ``with``
block); a mapping owns nothing but its map, and ``close`` releases it.
"""

from __future__ import annotations

import contextlib
import fcntl
import mmap
import os
import tempfile
from dataclasses import dataclass, field

from hal.types import DataLocation, HalVersion

ASHMEM = "ashmem"
MMAP_FD = "mmap_fd"
HARDWARE_BUFFER_BLOB = "hardware_buffer_blob"
HARDWARE_BUFFER = "hardware_buffer"

POOL_NAME_INTRODUCED: dict[str, HalVersion] = {
    ASHMEM: HalVersion.V1_0,
    MMAP_FD: HalVersion.V1_0,
    HARDWARE_BUFFER_BLOB: HalVersion.V1_2,
    HARDWARE_BUFFER: HalVersion.V1_2,
}
"""Memory names a pool may carry, with the first HAL version accepting each."""

ALLOCATABLE_KINDS = (ASHMEM, MMAP_FD, HARDWARE_BUFFER_BLOB)


class MemoryError_(Exception):
    """A pool cannot be created, mapped or accessed as asked."""


class MemoryBoundsError(MemoryError_, IndexError):
    """An access reaches outside its pool."""


@dataclass
class NativeHandle:
    """A ``native_handle_t``: file descriptors and integers. Closing closes the fds."""

    fds: list[int] = field(default_factory=list)
    ints: list[int] = field(default_factory=list)

    def close(self) -> None:
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = []


@dataclass
class Memory:
    """``hidl_memory``: a named pool of ``size`` bytes reachable through ``handle``."""

    name: str
    handle: NativeHandle | None
    size: int

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


SIZE_SEALS = fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW
"""The seals a pool or ring the harness hands out carries: its size is fixed."""


def sealed_memfd(name: str, size: int) -> int:
    """A new memfd of ``size`` zero bytes, sealed against resizing (``SIZE_SEALS``)."""
    fd = os.memfd_create(name, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        os.ftruncate(fd, size)
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, SIZE_SEALS)
    except BaseException:
        os.close(fd)
        raise
    return fd


def size_sealed(fd: int) -> bool:
    """Whether ``fd``'s file can neither shrink nor grow (a memfd with ``SIZE_SEALS``)."""
    try:
        seals = fcntl.fcntl(fd, fcntl.F_GET_SEALS)
    except OSError:  # not a memfd (or not sealable): nothing stops a resize
        return False
    return seals & SIZE_SEALS == SIZE_SEALS


def allocate(kind: str, size: int) -> Memory:
    """A new zero-filled pool of ``size`` bytes of the given kind (memfds sealed)."""
    if size < 0:
        raise MemoryError_(f"cannot allocate a pool of kind {kind!r} with negative size {size}")
    if kind in (ASHMEM, HARDWARE_BUFFER_BLOB):
        return Memory(kind, NativeHandle([sealed_memfd(f"nnhal-{kind}", size)]), size)
    if kind != MMAP_FD:
        known = ", ".join(ALLOCATABLE_KINDS)
        raise MemoryError_(f"cannot allocate a pool of kind {kind!r} (known: {known})")
    # An unlinked file in the temp directory: a real file, gone when closed.
    fd = _tmpfile_fd()
    try:
        os.ftruncate(fd, size)
    except OSError:
        os.close(fd)
        raise
    return Memory(kind, NativeHandle([fd]), size)


def _tmpfile_fd() -> int:
    # TemporaryFile closes its own fd when garbage-collected; we keep a dup.
    with tempfile.TemporaryFile(prefix="nnhal-mmap_fd-") as f:
        return os.dup(f.fileno())


def allocate_with(kind: str, data: bytes) -> Memory:
    """A pool of ``len(data)`` bytes holding ``data``."""
    memory = allocate(kind, len(data))
    if data:
        try:
            _pwrite_all(memory.handle.fds[0], memoryview(data).cast("B"), 0)
        except OSError as e:
            memory.close()
            raise MemoryError_(f"cannot fill a new {kind} pool: {e.strerror}") from None
    return memory


def _pwrite_all(fd: int, data: memoryview, offset: int) -> None:
    while data:
        written = os.pwrite(fd, data, offset)
        data, offset = data[written:], offset + written


class Mapping:
    """A view of a whole pool. Every access is checked against the pool's size."""

    def __init__(self, memory: Memory, buffer: mmap.mmap | None, sealed: bool = True) -> None:
        self.memory = memory
        self._map = buffer
        self._closed = False
        self.sealed = sealed
        """Whether the pool's file cannot change size (else a map of it may fault)."""

    @property
    def size(self) -> int:
        return self.memory.size

    def _check(self, offset: int, length: int) -> None:
        if self._closed and self.size > 0:
            raise MemoryError_(f"the mapping of this {self.memory.name} pool is closed")
        if offset < 0 or length < 0 or offset + length > self.size:
            raise MemoryBoundsError(
                f"{self.memory.name} pool of {self.size} bytes: offset {offset} + "
                f"length {length} reaches outside it"
            )

    def view(self, offset: int, length: int) -> memoryview:
        """A zero-copy view of ``length`` bytes at ``offset``; valid until ``close``."""
        self._check(offset, length)
        if length == 0:
            return memoryview(b"")
        return memoryview(self._map)[offset : offset + length]

    def read(self, offset: int, length: int) -> bytes:
        return bytes(self.view(offset, length))

    def write(self, offset: int, data: bytes | bytearray | memoryview) -> None:
        length = len(memoryview(data).cast("B"))
        self._check(offset, length)
        if length:
            self._map[offset : offset + length] = bytes(memoryview(data).cast("B"))

    def read_location(self, location: DataLocation) -> bytes:
        return self.read(location.offset, location.length)

    def write_location(self, location: DataLocation, data: bytes) -> None:
        if len(data) > location.length:
            raise MemoryBoundsError(
                f"{len(data)} bytes do not fit a location of {location.length} bytes"
            )
        self._check(location.offset, location.length)
        self.write(location.offset, data)

    def close(self) -> None:
        self._closed = True
        if self._map is not None:
            # A view still exported keeps the map alive until the last view goes.
            with contextlib.suppress(BufferError):
                self._map.close()
            self._map = None

    def __enter__(self) -> Mapping:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FileAccess(Mapping):
    """A pool read and written through its descriptor (``pread``/``pwrite``), with the
    checks of a ``Mapping``; ``view`` gives a copy. Made by ``open_memory``."""

    def __init__(self, memory: Memory, fd: int) -> None:
        super().__init__(memory, None, sealed=size_sealed(fd))
        self._fd = fd

    def view(self, offset: int, length: int) -> memoryview:
        return memoryview(self.read(offset, length))

    def read(self, offset: int, length: int) -> bytes:
        self._check(offset, length)
        try:
            data = os.pread(self._fd, length, offset) if length else b""
        except OSError as e:
            raise MemoryError_(f"{self.memory.name} pool cannot be read: {e.strerror}") from None
        if len(data) != length:
            raise MemoryError_(
                f"{self.memory.name} pool ends at {offset + len(data)} bytes, before "
                f"offset {offset} + length {length} (its file shrank)"
            )
        return data

    def write(self, offset: int, data: bytes | bytearray | memoryview) -> None:
        raw = memoryview(data).cast("B")
        self._check(offset, len(raw))
        try:
            _pwrite_all(self._fd, raw, offset)
        except OSError as e:
            raise MemoryError_(f"{self.memory.name} pool cannot be written: {e.strerror}") from None


def open_memory(memory: Memory) -> FileAccess:
    """Access a pool through its descriptor, with ``map_memory``'s checks and errors.

    Reads and writes go through the file (no map is made and unmade), the
    cheaper way for the few small reads and writes of most requests' pools.
    """
    return FileAccess(memory, _pool_fd(memory))


def map_memory(memory: Memory) -> Mapping:
    """Map a pool read-write. Raises MemoryError_ naming what is wrong with it.

    The file's size is checked (``fstat``) before mapping. If the pool is not
    sealed (``Mapping.sealed`` False: an ``mmap_fd`` file, or a memfd someone else
    made), whoever holds its descriptor can still shrink it, and touching the map
    past the new end faults (SIGBUS): map only pools whose other holders are
    trusted, or use ``open_memory``.
    """
    fd = _pool_fd(memory)
    if memory.size == 0:
        return Mapping(memory, None, size_sealed(fd))
    try:
        buffer = mmap.mmap(fd, memory.size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    except (OSError, ValueError) as e:
        raise MemoryError_(f"{memory.name} pool fd {fd} cannot be mapped: {e}") from None
    return Mapping(memory, buffer, size_sealed(fd))


def _pool_fd(memory: Memory) -> int:
    """The descriptor of a usable pool; MemoryError_ naming what is wrong with it."""
    if memory.name not in POOL_NAME_INTRODUCED:
        raise MemoryError_(f"unknown memory name {memory.name!r}")
    if memory.name == HARDWARE_BUFFER:
        raise MemoryError_("hardware_buffer pools (non-BLOB formats) cannot be mapped")
    if memory.handle is None or len(memory.handle.fds) != 1:
        count = "no handle" if memory.handle is None else f"{len(memory.handle.fds)} fds"
        raise MemoryError_(f"{memory.name} pool needs a handle with one fd, has {count}")
    if memory.size < 0:
        raise MemoryError_(f"{memory.name} pool has negative size {memory.size}")
    fd = memory.handle.fds[0]
    try:
        actual = os.fstat(fd).st_size
    except OSError as e:
        raise MemoryError_(f"{memory.name} pool fd {fd} is not usable: {e.strerror}") from None
    if actual < memory.size:
        raise MemoryError_(
            f"{memory.name} pool claims {memory.size} bytes but its file holds {actual}"
        )
    return fd
