"""Compilation-caching calls and the files they travel in.

``CacheFiles`` owns a temporary directory with one model-cache and one
data-cache file and hands out fresh file descriptors on them (each in the
access mode a test wants), closing whatever it handed out when the test ends,
but only descriptors that still refer to its own files (a driver that closed
one, and let the number be reused, must not make the harness close a stranger's).
``save`` and ``prepare_from_cache`` call the driver with the suite's protocol
checks: the status is an ErrorStatus, nothing escapes, the callback comes
within the run's timeout through ``notify_1_2`` and agrees with the launch.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from contextvars import ContextVar
from typing import Literal

from conformance.harness import items
from conformance.harness.calls import (
    Preparation,
    as_status,
    call_driver,
    check_preparation_protocol,
    status_and_value,
    wait_for,
)
from hal.callbacks import PreparedModelCallback
from hal.levels import level as level_of
from hal.memory import NativeHandle
from hal.show import show
from hal.types import Constant, ErrorStatus, HalVersion

Which = Literal["model", "data", "spare"]
"""The two caches, and a spare file for handles that carry one descriptor too many."""
TOKEN_SIZE = int(Constant.BYTE_SIZE_OF_CACHE_TOKEN)
UNSUPPORTED = "unsupported: the driver does not support compilation caching"


def token(seed: int = 0) -> bytes:
    """A deterministic 32-byte token that differs for each seed."""
    return bytes((seed * 31 + i * 7) % 256 for i in range(TOKEN_SIZE))


class CacheFiles:
    """A model-cache and a data-cache file, both empty at first, in their own directory."""

    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="nnhal-cache-")
        self.paths: dict[str, str] = {}
        for which in ("model", "data", "spare"):
            self.paths[which] = os.path.join(self.directory, f"{which}.cache")
            self.write(which, b"")  # type: ignore[arg-type]
        self._opened: list[tuple[int, tuple[int, int]]] = []

    def open(self, which: Which, flags: int = os.O_RDWR) -> int:
        fd = os.open(self.paths[which], flags)
        info = os.fstat(fd)
        self._opened.append((fd, (info.st_dev, info.st_ino)))
        return fd

    def handle(self, which: Which, flags: int = os.O_RDWR) -> NativeHandle:
        return NativeHandle([self.open(which, flags)])

    def handles(self, flags: int = os.O_RDWR) -> tuple[NativeHandle, NativeHandle]:
        return self.handle("model", flags), self.handle("data", flags)

    def read(self, which: Which) -> bytes:
        with open(self.paths[which], "rb") as f:
            return f.read()

    def write(self, which: Which, data: bytes) -> None:
        with open(self.paths[which], "wb") as f:
            f.write(data)

    def empty(self) -> None:
        """Truncate both files, ready for another save."""
        for which in ("model", "data"):
            self.write(which, b"")  # type: ignore[arg-type]

    def close_descriptors(self) -> None:
        for fd, identity in self._opened:
            with contextlib.suppress(OSError):
                info = os.fstat(fd)
                if (info.st_dev, info.st_ino) == identity:
                    os.close(fd)
        self._opened.clear()

    def close(self) -> None:
        self.close_descriptors()
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> CacheFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def caching_supported(device: object) -> bool:
    status, supported = status_and_value(device, "is_caching_supported")
    assert status == ErrorStatus.NONE, f"is_caching_supported returned status {status.name}"
    assert type(supported) is bool, (
        f"is_caching_supported returned {show(supported)}; expected (ErrorStatus.NONE, bool)"
    )
    return supported


def require_caching(device: object) -> None:
    if not caching_supported(device):
        items.unsupported(UNSUPPORTED)


def save(prepared: object, model_cache: object, data_cache: object, token_: object) -> ErrorStatus:
    """``prepared.save_to_cache(...)``, checked to return an ErrorStatus."""
    return as_status(
        call_driver(prepared, "save_to_cache", model_cache, data_cache, token_), "save_to_cache"
    )


LEVEL: ContextVar[HalVersion] = ContextVar("nnhal_caching_level", default=HalVersion.V1_2)
"""The HAL level whose calls the caching tests make (the tested level, from 1.2 on: a 1.3
driver prepares through ``prepare_model_1_3`` and from cache through
``prepare_model_from_cache_1_3``, as VTS 1.3 does); ``conformance/test_caching.py`` sets
it for each of its tests."""


def cache_level() -> HalVersion:
    """The level the caching tests prepare at (``LEVEL``)."""
    return LEVEL.get()


def prepare_from_cache(
    device: object,
    model_cache: object,
    data_cache: object,
    token_: object,
    timeout: float,
    after_launch=None,
) -> Preparation:
    """The prepare-from-cache method of ``cache_level()`` (at 1.3 with no deadline) and its
    callback, protocol-checked.

    ``after_launch`` runs as soon as the launch returns, before the callback is
    awaited (to close the descriptors, or change the files, meanwhile).
    """
    level = cache_level()
    method = level_of(level).prepare_from_cache
    callback = PreparedModelCallback()
    arguments = (model_cache, data_cache, token_, callback)
    if level >= HalVersion.V1_3:
        arguments = (None, *arguments)  # no deadline
    launch = as_status(call_driver(device, method, *arguments), method)
    if after_launch is not None:
        after_launch()
    notification = wait_for(callback, timeout, method)
    preparation = Preparation(method, launch, notification, callback)
    check_preparation_protocol(preparation, level)
    return preparation


def describe(preparation: Preparation) -> str:
    return (
        f"launch {preparation.launch_status.name}, callback {preparation.status.name}, "
        f"prepared model {'given' if preparation.prepared_model is not None else 'none'}"
    )
