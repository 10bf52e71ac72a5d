"""Unit tests for ``hal.memory``: allocating, mapping and sharing pools.

Besides the round trips, these tests check what makes a pool a pool: the data
lives in the kernel object behind the descriptor (a second mapping and another
process see it), each kind is the kernel object it claims to be, every access
is bounds-checked with a message naming the pool, and nothing leaks a
descriptor.
"""

from __future__ import annotations

import errno
import fcntl
import gc
import os
import stat
import subprocess
import sys

import pytest

from hal.memory import (
    ALLOCATABLE_KINDS,
    ASHMEM,
    HARDWARE_BUFFER,
    HARDWARE_BUFFER_BLOB,
    MMAP_FD,
    Memory,
    MemoryBoundsError,
    MemoryError_,
    NativeHandle,
    allocate,
    allocate_with,
    map_memory,
    open_memory,
)
from hal.types import DataLocation

kinds = pytest.mark.parametrize("kind", ALLOCATABLE_KINDS)
openers = pytest.mark.parametrize("opener", [map_memory, open_memory], ids=["map", "file"])
"""Both ways to reach a pool's bytes: they keep the same checks and say the same errors."""


def open_fds() -> set[str]:
    """The descriptors open in this process (without the one listing them)."""
    entries = os.listdir("/proc/self/fd")
    alive = set()
    for entry in entries:
        try:
            os.fstat(int(entry))
        except OSError:
            continue  # the directory descriptor listdir used, closed by now
        alive.add(entry)
    return alive


@pytest.fixture
def pool():
    """A 16-byte ashmem pool, closed after the test."""
    with allocate(ASHMEM, 16) as memory:
        yield memory


def test_allocatable_kinds():
    assert ALLOCATABLE_KINDS == ("ashmem", "mmap_fd", "hardware_buffer_blob")


@kinds
def test_allocate(kind):
    with allocate(kind, 64) as memory:
        assert memory.name == kind
        assert memory.size == 64
        assert len(memory.handle.fds) == 1
        assert os.fstat(memory.handle.fds[0]).st_size == 64
        with map_memory(memory) as mapping:
            assert mapping.size == 64
            assert mapping.read(0, 64) == bytes(64)


@openers
@kinds
def test_write_read_round_trip(kind, opener):
    with allocate(kind, 32) as memory, opener(memory) as mapping:
        mapping.write(4, b"\x01\x02\x03")
        mapping.write(28, bytearray(b"tail"))
        assert mapping.read(4, 3) == b"\x01\x02\x03"
        assert mapping.read(28, 4) == b"tail"
        assert mapping.read(0, 8) == b"\x00\x00\x00\x00\x01\x02\x03\x00"
        assert bytes(mapping.view(28, 4)) == b"tail"


@kinds
def test_file_access_and_a_mapping_see_the_same_bytes(kind):
    with (
        allocate(kind, 4096) as memory,
        map_memory(memory) as mapped,
        open_memory(memory) as through_file,
    ):
        mapped.write(100, b"mapped")
        assert through_file.read(100, 6) == b"mapped"
        through_file.write(4090, b"file")
        assert mapped.read(4090, 4) == b"file"
        assert bytes(through_file.view(4090, 4)) == b"file"


@kinds
def test_second_mapping_shares_the_data(kind):
    with allocate(kind, 4096) as memory:
        with map_memory(memory) as first, map_memory(memory) as second:
            first.write(100, b"shared")
            assert second.read(100, 6) == b"shared"
            second.write(4090, b"back")
            assert first.read(4090, 4) == b"back"
        # The data outlives both mappings: it is in the pool, not the map.
        with map_memory(memory) as third:
            assert third.read(100, 6) == b"shared"


@openers
@kinds
def test_location_round_trip(kind, opener):
    location = DataLocation(pool_index=0, offset=8, length=4)
    with allocate(kind, 16) as memory, opener(memory) as mapping:
        mapping.write_location(location, b"abcd")
        assert mapping.read_location(location) == b"abcd"
        mapping.write_location(location, b"xy")  # shorter data fills the front
        assert mapping.read(0, 16) == bytes(8) + b"xycd" + bytes(4)


@openers
@kinds
def test_allocate_with(kind, opener):
    data = bytes(range(256)) * 3
    with allocate_with(kind, data) as memory:
        assert memory.name == kind
        assert memory.size == len(data)
        with opener(memory) as mapping:
            assert mapping.read(0, len(data)) == data


@openers
@kinds
def test_zero_size_pool(kind, opener):
    with allocate(kind, 0) as memory:
        assert memory.size == 0
        with opener(memory) as mapping:
            assert mapping.read(0, 0) == b""
            assert bytes(mapping.view(0, 0)) == b""
            mapping.write(0, b"")
            with pytest.raises(MemoryBoundsError):
                mapping.read(0, 1)
    with allocate_with(kind, b"") as memory, opener(memory) as mapping:
        assert memory.size == 0
        assert mapping.read(0, 0) == b""


def _fd_target(memory: Memory) -> str:
    return os.readlink(f"/proc/self/fd/{memory.handle.fds[0]}")


def test_mmap_fd_is_a_regular_file_not_a_memfd():
    with allocate(MMAP_FD, 8) as memory:
        assert stat.S_ISREG(os.fstat(memory.handle.fds[0]).st_mode)
        assert not _fd_target(memory).startswith("/memfd:")


@pytest.mark.parametrize("kind", [ASHMEM, HARDWARE_BUFFER_BLOB])
def test_memfd_backed_kinds(kind):
    with allocate(kind, 8) as memory:
        assert _fd_target(memory).startswith("/memfd:")


# ---------------------------------------------------------------------------
# Bounds
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("offset", "length"),
    [(10, 8), (16, 1), (0, 17), (-1, 4), (-4, 0), (0, -1), (17, 0)],
)
@openers
def test_bounds(pool, offset, length, opener):
    expected = f"ashmem pool of 16 bytes: offset {offset} + length {length} reaches outside it"
    with opener(pool) as mapping:
        for access in (mapping.read, mapping.view):
            with pytest.raises(MemoryBoundsError) as info:
                access(offset, length)
            assert str(info.value) == expected
        if length >= 0:
            with pytest.raises(MemoryBoundsError) as info:
                mapping.write(offset, b"z" * length)
            assert str(info.value) == expected


@openers
def test_bounds_error_is_both_pool_and_index_error(pool, opener):
    with opener(pool) as mapping, pytest.raises(MemoryError_):
        mapping.read(0, 17)
    with opener(pool) as mapping, pytest.raises(IndexError):
        mapping.read(0, 17)


@openers
def test_failed_write_changes_nothing(pool, opener):
    with opener(pool) as mapping:
        with pytest.raises(MemoryBoundsError):
            mapping.write(12, b"too long")
        assert mapping.read(0, 16) == bytes(16)


@openers
def test_exact_fit_at_the_end(pool, opener):
    with opener(pool) as mapping:
        mapping.write(12, b"last")
        assert mapping.read(12, 4) == b"last"
        assert mapping.read(16, 0) == b""


@openers
def test_write_location_rejects_longer_data(pool, opener):
    with opener(pool) as mapping:
        with pytest.raises(MemoryBoundsError) as info:
            mapping.write_location(DataLocation(offset=0, length=4), b"12345")
        assert str(info.value) == "5 bytes do not fit a location of 4 bytes"
        assert mapping.read(0, 16) == bytes(16)


@openers
def test_location_outside_the_pool(pool, opener):
    with opener(pool) as mapping:
        with pytest.raises(MemoryBoundsError) as info:
            mapping.write_location(DataLocation(offset=14, length=4), b"ab")
        assert str(info.value) == "ashmem pool of 16 bytes: offset 14 + length 4 reaches outside it"
        with pytest.raises(MemoryBoundsError):
            mapping.read_location(DataLocation(offset=14, length=4))


# ---------------------------------------------------------------------------
# map_memory and allocate errors
# ---------------------------------------------------------------------------


def _map_error(opener, memory: Memory) -> str:
    with pytest.raises(MemoryError_) as info:
        opener(memory)
    return str(info.value)


@openers
def test_map_unknown_name(pool, opener):
    assert _map_error(opener, Memory("gralloc", pool.handle, 16)) == "unknown memory name 'gralloc'"


@openers
def test_map_hardware_buffer(pool, opener):
    assert (
        _map_error(opener, Memory(HARDWARE_BUFFER, pool.handle, 16))
        == "hardware_buffer pools (non-BLOB formats) cannot be mapped"
    )


@openers
def test_map_without_handle(opener):
    assert (
        _map_error(opener, Memory(ASHMEM, None, 16))
        == "ashmem pool needs a handle with one fd, has no handle"
    )


@openers
def test_map_with_two_fds(pool, opener):
    with allocate(ASHMEM, 16) as other:
        handle = NativeHandle([pool.handle.fds[0], other.handle.fds[0]])
        assert (
            _map_error(opener, Memory(MMAP_FD, handle, 16))
            == "mmap_fd pool needs a handle with one fd, has 2 fds"
        )


@openers
def test_map_after_close_has_no_fds(opener):
    memory = allocate(ASHMEM, 16)
    memory.close()
    assert _map_error(opener, memory) == "ashmem pool needs a handle with one fd, has 0 fds"


@openers
@kinds
def test_map_size_larger_than_the_file(kind, opener):
    with allocate(kind, 16) as memory:
        claimed = Memory(kind, memory.handle, 17)
        assert _map_error(opener, claimed) == f"{kind} pool claims 17 bytes but its file holds 16"


@openers
def test_map_closed_fd(opener):
    memory = allocate(ASHMEM, 16)
    fd = memory.handle.fds[0]
    os.close(fd)
    try:
        assert (
            _map_error(opener, memory) == f"ashmem pool fd {fd} is not usable: Bad file descriptor"
        )
    finally:
        memory.handle.fds = []  # the number may be reused: never close it again


def test_allocate_unknown_kind():
    with pytest.raises(MemoryError_) as info:
        allocate("gralloc", 16)
    assert str(info.value) == (
        "cannot allocate a pool of kind 'gralloc' (known: ashmem, mmap_fd, hardware_buffer_blob)"
    )


@kinds
def test_allocate_negative_size(kind):
    with pytest.raises(MemoryError_) as info:
        allocate(kind, -1)
    assert str(info.value) == f"cannot allocate a pool of kind {kind!r} with negative size -1"


# ---------------------------------------------------------------------------
# Crossing processes, descriptors and context managers
# ---------------------------------------------------------------------------

CHILD_WRITER = """
import mmap, sys
fd, size, offset = (int(a) for a in sys.argv[1:4])
with mmap.mmap(fd, size) as m:
    m[offset:offset + len(sys.argv[4])] = sys.argv[4].encode()
"""


@kinds
def test_pool_crosses_into_a_child_process(kind):
    with allocate(kind, 256) as memory:
        fd = memory.handle.fds[0]
        subprocess.run(
            [sys.executable, "-I", "-S", "-c", CHILD_WRITER, str(fd), "256", "200", "from child"],
            pass_fds=[fd],
            check=True,
            timeout=30,
        )
        with map_memory(memory) as mapping:
            assert mapping.read(200, 10) == b"from child"
            assert mapping.read(0, 200) == bytes(200)


@kinds
def test_no_fd_leak(kind):
    gc.collect()
    before = open_fds()
    for i in range(200):
        memory = allocate_with(kind, i.to_bytes(4, "little"))
        mapping = map_memory(memory)
        assert mapping.read(0, 4) == i.to_bytes(4, "little")
        mapping.close()
        memory.close()
    assert open_fds() == before


def test_memory_context_manager_closes_its_fd():
    with allocate(ASHMEM, 16) as memory:
        fd = str(memory.handle.fds[0])
        assert fd in open_fds()
    assert fd not in open_fds()
    assert memory.handle.fds == []


def test_mapping_context_manager_releases_the_map(pool):
    before = open_fds()
    with map_memory(pool) as mapping:
        # An mmap holds a duplicate of the pool's descriptor while it lives.
        during = open_fds()
        assert len(during - before) == 1
        mapping.write(0, b"x")
    assert open_fds() == before
    assert os.fstat(pool.handle.fds[0]).st_size == 16  # the pool's own fd stays open


def test_closing_twice_is_harmless():
    memory = allocate(MMAP_FD, 8)
    mapping = map_memory(memory)
    mapping.close()
    mapping.close()
    memory.close()
    memory.close()


@openers
def test_closed_mapping_refuses_access(opener) -> None:
    with allocate(ASHMEM, 8) as memory:
        mapping = opener(memory)
        mapping.close()
        with pytest.raises(MemoryError_) as info:
            mapping.read(0, 1)
        assert str(info.value) == "the mapping of this ashmem pool is closed"


def test_file_access_says_when_the_file_shrank() -> None:
    # mmap_fd pools are real files, which cannot be sealed: a holder can shrink them.
    with allocate(MMAP_FD, 16) as memory, open_memory(memory) as access:
        assert not access.sealed
        os.ftruncate(memory.handle.fds[0], 8)
        with pytest.raises(MemoryError_) as info:
            access.read(4, 8)
        assert str(info.value) == (
            "mmap_fd pool ends at 8 bytes, before offset 4 + length 8 (its file shrank)"
        )


@pytest.mark.parametrize("kind", [ASHMEM, HARDWARE_BUFFER_BLOB])
@pytest.mark.parametrize("size", [0, 16])
def test_memfd_pools_cannot_be_resized(kind, size) -> None:
    with allocate_with(kind, bytes(range(size))) as memory:
        fd = memory.handle.fds[0]
        seals = fcntl.fcntl(fd, fcntl.F_GET_SEALS)
        assert seals & (fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW) == (
            fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW
        )
        for new_size in (size // 2, size + 4096):
            if new_size == size:
                continue
            with pytest.raises(PermissionError) as info:
                os.ftruncate(fd, new_size)
            assert info.value.errno == errno.EPERM
        # Another holder of the file (a descriptor reopened through /proc, as another
        # process would get) cannot resize it either, but writes its bytes.
        other = os.open(f"/proc/self/fd/{fd}", os.O_RDWR)
        try:
            with pytest.raises(PermissionError):
                os.ftruncate(other, size + 1)
            if size:
                with pytest.raises(PermissionError):
                    os.ftruncate(other, 0)
                os.pwrite(other, b"\xff", 0)
        finally:
            os.close(other)
        assert os.fstat(fd).st_size == size
        with map_memory(memory) as mapping:
            assert mapping.sealed
            if size:
                assert mapping.read(0, 2) == b"\xff\x01"


def test_an_mmap_fd_mapping_says_it_is_not_sealed() -> None:
    with allocate(MMAP_FD, 8) as memory, map_memory(memory) as mapping:
        assert not mapping.sealed


def test_file_access_says_when_the_pool_cannot_be_written() -> None:
    with allocate(ASHMEM, 16) as memory:
        read_only = os.open(f"/proc/self/fd/{memory.handle.fds[0]}", os.O_RDONLY)
        with Memory(ASHMEM, NativeHandle([read_only]), 16) as view_only:
            access = open_memory(view_only)
            assert access.read(0, 4) == bytes(4)
            with pytest.raises(MemoryError_) as info:
                access.write(0, b"no")
            assert str(info.value) == "ashmem pool cannot be written: Bad file descriptor"


def test_file_access_says_when_the_pool_cannot_be_read() -> None:
    with allocate(ASHMEM, 16) as memory:
        write_only = os.open(f"/proc/self/fd/{memory.handle.fds[0]}", os.O_WRONLY)
        with Memory(ASHMEM, NativeHandle([write_only]), 16) as sink:
            access = open_memory(sink)
            access.write(0, b"ok")
            with pytest.raises(MemoryError_) as info:
                access.read(0, 2)
            assert str(info.value) == "ashmem pool cannot be read: Bad file descriptor"
