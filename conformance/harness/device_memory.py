"""Generated cases with their arguments in driver memory (VTS 1.3's MemoryDomainTest).

A placement says where ``runner.execute_case`` puts a case's arguments:

* ``BLOB``: the two request pools (inputs, outputs) are hardware_buffer_blob
  memory, which a 1.3 driver must accept;
* ``DeviceMemory``: every input and output the driver agrees to allocate is a
  buffer of its own (``allocate`` with the one role of that argument), named by
  its token in the request; inputs are filled with ``copy_from`` before the
  execution, outputs read back with ``copy_to`` after it. An argument the driver
  declines (GENERAL_FAILURE) stays in the shared pool; a driver that declines
  every one has no memory domains for the case, and the item is unsupported.

The allocation answers are checked as the memory-domain suite checks them
(``domains.allocate_buffer``); ``copy_from`` and ``copy_to`` must answer NONE.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from conformance.harness import items
from conformance.harness.domains import (
    UNSUPPORTED_DOMAINS,
    allocate_buffer,
    buffer_call,
    place_token,
)
from conformance.harness.requests import GUARD, PackedRequest
from hal.interfaces import IBuffer
from hal.memory import ASHMEM, HARDWARE_BUFFER_BLOB, Memory, allocate_with
from hal.show import show_exception
from hal.types import BufferDesc, BufferRole, DataLocation, ErrorStatus, Request, RequestArgument

DEVICE = "device"
BLOB = "blob"
MEMORIES = (BLOB, DEVICE)
"""The placements of the generated memory items, as their ids begin."""
MEMORY_PATHS = ("async13", "sync13", "fenced")
"""The paths VTS 1.3 runs them on (a burst cannot carry a token)."""


@dataclass
class Placement:
    """Arguments in request pools of ``kind``: nothing to place, nothing to read back."""

    kind: str = ASHMEM

    def place(self, packed: PackedRequest, inputs: Sequence[np.ndarray | None]) -> None:
        """Move the request's arguments where this placement keeps them."""

    def read_back(self, packed: PackedRequest) -> PackedRequest:
        """The request whose outputs hold what the execution wrote."""
        return packed

    def close(self) -> str:
        """Free what ``place`` and ``read_back`` made; what went wrong doing so, or ""."""
        return ""

    def __enter__(self) -> Placement:
        return self

    def __exit__(self, kind, error, trace) -> None:
        problem = self.close()
        if problem and kind is None:  # a failure already on its way is the one to report
            pytest.fail(problem, pytrace=False)


class DeviceMemory(Placement):
    """Each argument the driver allocates in a buffer of its own (module docstring)."""

    def __init__(self, device: object, prepared: object) -> None:
        super().__init__(ASHMEM)
        self._device, self._prepared = device, prepared
        self._outputs: dict[int, tuple[IBuffer, int]] = {}
        """Output position -> its buffer and its size in bytes."""
        self._buffers: list[IBuffer] = []
        self._memories: list[Memory] = []

    def _allocate(self, role: BufferRole, side: str) -> tuple[IBuffer | None, int]:
        roles = {"input_roles": [role]} if side == "input" else {"output_roles": [role]}
        status, buffer, token = allocate_buffer(
            self._device, BufferDesc(), [self._prepared], **roles
        )
        if status == ErrorStatus.GENERAL_FAILURE:
            return None, 0
        if status != ErrorStatus.NONE:
            pytest.fail(
                f"allocate for {side} {role.io_index} of a prepared model answered "
                f"{status.name}; expected NONE, or GENERAL_FAILURE if it keeps no such buffer",
                pytrace=False,
            )
        self._buffers.append(buffer)
        return buffer, token

    def place(self, packed: PackedRequest, inputs: Sequence[np.ndarray | None]) -> None:
        request = packed.request
        for position, argument in enumerate(request.inputs):
            if argument.has_no_value or argument.location.length == 0:
                continue
            buffer, token = self._allocate(BufferRole(0, position, 1.0), "input")
            if buffer is None:
                continue
            data = np.ascontiguousarray(inputs[position]).tobytes()
            with allocate_with(ASHMEM, data) as memory:
                status = buffer_call(buffer, "copy_from", memory, [])
            assert status == ErrorStatus.NONE, (
                f"IBuffer.copy_from of input {position} ({len(data)} bytes, the size of the "
                f"operand) answered {status.name}; expected NONE"
            )
            place_token(packed, "input", position, token)
        for position, argument in enumerate(request.outputs):
            if argument.location.length == 0:
                continue
            buffer, token = self._allocate(BufferRole(0, position, 1.0), "output")
            if buffer is not None:
                self._outputs[position] = (buffer, argument.location.length)
                place_token(packed, "output", position, token)
        if not self._buffers:
            items.unsupported(
                f"{UNSUPPORTED_DOMAINS}: allocate answered GENERAL_FAILURE for every input "
                "and output of the case"
            )

    def read_back(self, packed: PackedRequest) -> PackedRequest:
        """The shared pools, and a pool per output in a buffer holding what ``copy_to``
        copied out of it (filled with ``GUARD`` before, so an unwritten one shows)."""
        memories = list(packed.pools)
        outputs = []
        for position, argument in enumerate(packed.request.outputs):
            if position not in self._outputs:
                outputs.append(argument)
                continue
            buffer, size = self._outputs[position]
            memory = allocate_with(ASHMEM, bytes([GUARD]) * size)
            self._memories.append(memory)
            status = buffer_call(buffer, "copy_to", memory)
            assert status == ErrorStatus.NONE, (
                f"IBuffer.copy_to of output {position} after the execution answered "
                f"{status.name}; expected NONE"
            )
            memories.append(memory)
            outputs.append(RequestArgument(location=DataLocation(len(memories) - 1, 0, size)))
        request = Request(packed.request.inputs, outputs, memories)
        return PackedRequest(request, [], packed.output_dtypes, [])

    def close(self) -> str:
        problems = []
        for buffer in self._buffers:
            try:
                buffer.release()
            except Exception as error:  # the driver's: reported once the buffers are freed
                problems.append(f"IBuffer.release raised {show_exception(error)}")
        for memory in self._memories:
            memory.close()
        self._buffers, self._memories, self._outputs = [], [], {}
        return "; ".join(problems[:1]) + (
            f" (and {len(problems) - 1} more)" if problems[1:] else ""
        )


def placement(memory: str, device: object, prepared: object) -> Placement:
    """The placement named ``memory`` (one of ``MEMORIES``)."""
    if memory == BLOB:
        return Placement(HARDWARE_BUFFER_BLOB)
    if memory == DEVICE:
        return DeviceMemory(device, prepared)
    raise ValueError(f"unknown memory placement {memory!r} (known: {', '.join(MEMORIES)})")
