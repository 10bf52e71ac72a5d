"""Sync fences on the wire (HAL 1.3): how a ``hal.fences.SyncFence`` crosses the channel.

A fence is an eventfd, so it crosses as its descriptor, riding on the frame as
SCM_RIGHTS like a memory pool's: ``[FENCE, slot]``, slot the index of the
descriptor among the frame's (-1: none). The receiver's fence is a descriptor of
its own of the same eventfd. A fence whose descriptor is closed, or is not an
eventfd's, goes with no descriptor and arrives closed (the driver refuses it as it
would in-process); a received descriptor that is not an eventfd's, or a slot the
frame did not carry, is refused (``FenceRefused``: the codec's malformed message).
"""

from __future__ import annotations

import os
import stat

from hal.fences import SyncFence

FENCE = 26
"""The wire tag of a fence: ``[FENCE, slot]``."""

_MAX_KIND = 100


class FenceRefused(ValueError):
    """A fence in a message breaks a rule (the message names it)."""


def fd_kind(fd: int) -> str:
    """What descriptor ``fd`` is, as ``/proc/self/fd`` names it (``anon_inode:[eventfd]``,
    ``pipe:[123]``, a path; at most 100 characters); ``?`` when it cannot be told."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")[:_MAX_KIND]
    except OSError:
        return "?"


def is_eventfd(fd: int) -> bool:
    """Whether ``fd`` is an open eventfd's descriptor (what a ``SyncFence`` holds). Where
    ``/proc`` cannot tell, an anonymous inode (no file type in its mode) is taken for one."""
    kind = fd_kind(fd)
    if kind != "?":
        return kind == "anon_inode:[eventfd]"
    try:
        return stat.S_IFMT(os.fstat(fd).st_mode) == 0
    except OSError:
        return False


def fence_node(fence: SyncFence, fds: list[int]) -> list:
    """The wire form of ``fence``; its descriptor, if it goes, is appended to ``fds``."""
    try:
        fd = fence.fileno()
    except ValueError:  # FenceClosed
        return [FENCE, -1]
    if not is_eventfd(fd):
        return [FENCE, -1]
    fds.append(fd)
    return [FENCE, len(fds) - 1]


def closed_fence() -> SyncFence:
    """What a fence sent with no descriptor arrives as."""
    fence = SyncFence()
    fence.close()
    return fence


def fence_of(
    node: list, fds: list[int], claimed: set[int], built: dict[int, SyncFence]
) -> SyncFence:
    """The fence ``[FENCE, slot]`` names: the one in ``built`` for that slot, or a new one
    taking descriptor ``slot`` of the frame (added to ``claimed``, so the frame's others
    are closed without it, and to ``built``). FenceRefused if the node is malformed,
    names no descriptor the frame carried, or one that is not an eventfd's."""
    if len(node) != 2:
        raise FenceRefused("holds a malformed fence")
    slot = node[1]
    if type(slot) is not int:
        raise FenceRefused("holds a fence whose slot is not an integer")
    if slot == -1:
        return closed_fence()
    if slot in built:
        return built[slot]
    if not 0 <= slot < len(fds) or slot in claimed:
        raise FenceRefused("holds a fence naming a descriptor the frame did not carry")
    claimed.add(slot)  # (refused below: closed with the frame's other descriptors)
    if not is_eventfd(fds[slot]):
        raise FenceRefused(
            f"holds a fence whose descriptor is not an eventfd ({fd_kind(fds[slot])})"
        )
    fence = built[slot] = SyncFence(fds[slot])
    return fence


__all__ = [
    "FENCE",
    "FenceRefused",
    "closed_fence",
    "fd_kind",
    "fence_node",
    "fence_of",
    "is_eventfd",
]
