"""Build requests, read their outputs back, and check what the driver left alone.

Two layouts:

* ``packed`` (the upstream VTS layout, parity): inputs back to back in one
  pool, outputs back to back in another, no alignment padding (drivers that
  assume alignment must be caught);
* ``scattered`` (strict): every argument in a pool of its own, at an odd
  offset, between guard bytes; after the execution ``untouched_problems``
  says whether the driver wrote into an input or outside an output.

An input given as ``None`` or with zero elements becomes a ``has_no_value``
argument; an input whose operand is not fully specified carries its array's
shape as the argument's dimensions. The pools belong to the ``PackedRequest``
and are closed with it.

Pools are read back through their descriptors (``open_memory``), never through a
map: an ``mmap_fd`` pool is a plain file the driver holds a descriptor of and
could shrink, and a map of a shrunk file faults (SIGBUS). A pool found shrunk
fails the test, naming the pool; memfd pools are sealed and cannot shrink.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import pytest

from hal.memory import ASHMEM, Memory, MemoryError_, allocate_with, open_memory
from hal.types import (
    DataLocation,
    Model,
    Request,
    RequestArgument,
    is_fully_specified,
    numpy_dtype,
    operand_byte_size,
)


class Layout(StrEnum):
    """How a request's arguments are laid out in its pools (the module docstring)."""

    PACKED = "packed"
    SCATTERED = "scattered"


PACKED = Layout.PACKED
SCATTERED = Layout.SCATTERED
GUARD = 0xA5
"""The byte guard regions and unused output bytes are filled with."""
GUARD_SIZE = 13
"""Guard bytes before and after each argument in the scattered layout (odd on purpose)."""


@dataclass
class PackedRequest:
    request: Request
    pools: list[Memory] = field(default_factory=list)
    output_dtypes: list[np.dtype] = field(default_factory=list)
    snapshot: list[bytes] = field(default_factory=list)
    """Each pool's bytes as sent, for ``untouched_problems``."""

    def _read(self, pool: Memory, offset: int, length: int) -> bytes:
        try:
            return open_memory(pool).read(offset, length)
        except MemoryError_ as error:
            problem = str(error)
        index = next((k for k, p in enumerate(self.request.pools) if p is pool), "?")
        pytest.fail(
            f"request pool {index}: {problem} (the driver resized memory it was handed)",
            pytrace=False,
        )

    def output_bytes(self, index: int) -> bytes:
        argument = self.request.outputs[index]
        pool = self.request.pools[argument.location.pool_index]
        return self._read(pool, argument.location.offset, argument.location.length)

    def output(self, index: int, shape: Sequence[int]) -> np.ndarray:
        """Output ``index`` decoded with the given (reported or expected) shape."""
        data = self.output_bytes(index)
        dtype = self.output_dtypes[index]
        count = math.prod(shape)
        return np.frombuffer(data[: count * dtype.itemsize], dtype=dtype).reshape(tuple(shape))

    def unwritten(self, index: int, length: int) -> bool:
        """Whether the first ``length`` bytes of output ``index`` (at least one) all still
        hold the ``GUARD`` fill the request was made with."""
        data = self.output_bytes(index)[:length]
        return 0 < len(data) == length and data == bytes([GUARD]) * length

    def untouched_problems(self) -> list[str]:
        """Bytes the driver changed outside the output locations, one line per region."""
        writable = _output_ranges(self.request)
        problems = []
        # The pools sent as memory come first; tokens of driver buffers (``place_token``)
        # follow them and hold nothing the harness can read.
        memory_pools = self.request.pools[: len(self.snapshot)]
        for pool_index, (pool, before) in enumerate(zip(memory_pools, self.snapshot, strict=True)):
            after = self._read(pool, 0, pool.size)
            gaps = _gaps(sorted(writable.get(pool_index, [])), len(before))
            if all(before[lo:hi] == after[lo:hi] for lo, hi in gaps):
                continue  # the usual answer, without an array per pool
            changed = np.frombuffer(before, np.uint8) != np.frombuffer(after, np.uint8)
            for lo, hi in writable.get(pool_index, []):
                changed[lo:hi] = False
            outside = np.flatnonzero(changed)
            if outside.size:
                first = int(outside[0])
                change = (before[first], after[first])
                problems.append(_describe_write(pool_index, outside.tolist(), self.request, change))
        return problems

    def close(self) -> None:
        for pool in self.pools:
            pool.close()
        self.pools = []

    def __enter__(self) -> PackedRequest:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _output_ranges(request: Request) -> dict[int, list[tuple[int, int]]]:
    ranges: dict[int, list[tuple[int, int]]] = {}
    for argument in request.outputs:
        loc = argument.location
        ranges.setdefault(loc.pool_index, []).append((loc.offset, loc.offset + loc.length))
    return ranges


def _gaps(ranges: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """The parts of ``[0, size)`` outside the sorted ``ranges``."""
    gaps, start = [], 0
    for lo, hi in ranges:
        if lo > start:
            gaps.append((start, lo))
        start = max(start, hi)
    if start < size:
        gaps.append((start, size))
    return gaps


def _describe_write(
    pool_index: int, offsets: list[int], request: Request, change: tuple[int, int]
) -> str:
    """The line for bytes changed at ``offsets`` of a pool; ``change`` is the first one's
    value (before, after)."""
    inputs = [
        (k, a.location.offset)
        for k, a in enumerate(request.inputs)
        if not a.has_no_value
        and a.location.pool_index == pool_index
        and a.location.offset <= offsets[0] < a.location.offset + a.location.length
    ]
    what = f"into input {inputs[0][0]}" if inputs else "outside every output location"
    within = f", byte {offsets[0] - inputs[0][1]} of the input" if inputs else ""
    return (
        f"the driver wrote {len(offsets)} byte(s) {what} in pool {pool_index} "
        f"(first at offset {offsets[0]}{within}, 0x{change[0]:02X} -> 0x{change[1]:02X}; "
        f"last at {offsets[-1]})"
    )


def _input_arguments(
    model: Model, inputs: Sequence[np.ndarray | None]
) -> list[tuple[RequestArgument, bytes]]:
    if len(inputs) != len(model.input_indexes):
        raise ValueError(f"model has {len(model.input_indexes)} inputs, {len(inputs)} given")
    arguments = []
    for operand_index, value in zip(model.input_indexes, inputs, strict=True):
        if value is None or np.asarray(value).size == 0:
            arguments.append((RequestArgument(has_no_value=True), b""))
            continue
        operand = model.operands[operand_index]
        declared = model.extension_name_to_prefix  # extension types: the model's prefixes
        array = np.ascontiguousarray(value, dtype=numpy_dtype(operand.type, declared))
        dims = [] if is_fully_specified(operand, declared) else list(array.shape)
        arguments.append((RequestArgument(dimensions=dims), array.tobytes()))
    return arguments


def pack_request(
    model: Model,
    inputs: Sequence[np.ndarray | None],
    output_sizes: Sequence[int] | None = None,
    kind: str = ASHMEM,
    layout: Layout = PACKED,
) -> PackedRequest:
    """A request for ``model`` carrying ``inputs`` (in model-input order).

    ``output_sizes`` gives each output's buffer in bytes; by default the
    byte size of the output operand as declared (it must then be fully
    specified). Output buffers start filled with ``GUARD`` bytes.
    """
    if output_sizes is None:
        output_sizes = [
            operand_byte_size(
                model.operands[i].type,
                model.operands[i].dimensions,
                model.extension_name_to_prefix,
            )
            for i in model.output_indexes
        ]
    arguments = _input_arguments(model, inputs)
    if layout == PACKED:
        request, contents = _packed(arguments, output_sizes)
    elif layout == SCATTERED:
        request, contents = _scattered(arguments, output_sizes)
    else:
        raise ValueError(f"unknown request layout {layout!r} (known: {PACKED}, {SCATTERED})")
    pools = [allocate_with(kind, data) for data in contents]
    request.pools = list(pools)
    dtypes = [
        numpy_dtype(model.operands[i].type, model.extension_name_to_prefix)
        for i in model.output_indexes
    ]
    return PackedRequest(request, pools, dtypes, contents)


def _packed(arguments, output_sizes) -> tuple[Request, list[bytes]]:
    input_data = bytearray()
    inputs = []
    for argument, data in arguments:
        if not argument.has_no_value:
            argument.location = DataLocation(0, len(input_data), len(data))
            input_data += data
        inputs.append(argument)
    outputs, offset = [], 0
    for size in output_sizes:
        outputs.append(RequestArgument(location=DataLocation(1, offset, size)))
        offset += size
    return Request(inputs, outputs, []), [bytes(input_data), bytes([GUARD]) * offset]


def _scattered(arguments, output_sizes) -> tuple[Request, list[bytes]]:
    guard = bytes([GUARD]) * GUARD_SIZE
    contents: list[bytes] = []
    inputs = []
    for argument, data in arguments:
        if not argument.has_no_value:
            argument.location = DataLocation(len(contents), GUARD_SIZE, len(data))
            contents.append(guard + data + guard)
        inputs.append(argument)
    outputs = []
    for size in output_sizes:
        outputs.append(RequestArgument(location=DataLocation(len(contents), GUARD_SIZE, size)))
        contents.append(guard + bytes([GUARD]) * size + guard)
    return Request(inputs, outputs, []), contents
