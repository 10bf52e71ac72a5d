"""Build requests the way VTS does, and read their outputs back.

Inputs are packed back to back into one pool and outputs into another, with
no alignment padding (drivers that assume alignment must be caught); an input
given as ``None`` becomes a ``has_no_value`` argument. The pools are owned by
the ``PackedRequest`` and closed with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from hal.memory import ASHMEM, Memory, allocate, allocate_with, map_memory
from hal.types import (
    DataLocation,
    Model,
    Request,
    RequestArgument,
    is_fully_specified,
    numpy_dtype,
    operand_byte_size,
)


@dataclass
class PackedRequest:
    request: Request
    pools: list[Memory] = field(default_factory=list)
    output_dtypes: list[np.dtype] = field(default_factory=list)

    def output_bytes(self, index: int) -> bytes:
        argument = self.request.outputs[index]
        pool = self.request.pools[argument.location.pool_index]
        with map_memory(pool) as mapping:
            return mapping.read_location(argument.location)

    def output(self, index: int, shape: Sequence[int]) -> np.ndarray:
        """Output ``index`` decoded with the given (reported or expected) shape."""
        data = self.output_bytes(index)
        dtype = self.output_dtypes[index]
        count = int(np.prod(shape)) if len(shape) else 1
        return np.frombuffer(data[: count * dtype.itemsize], dtype=dtype).reshape(tuple(shape))

    def close(self) -> None:
        for pool in self.pools:
            pool.close()
        self.pools = []

    def __enter__(self) -> PackedRequest:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def pack_request(
    model: Model,
    inputs: Sequence[np.ndarray | None],
    output_sizes: Sequence[int] | None = None,
    kind: str = ASHMEM,
) -> PackedRequest:
    """A request for ``model`` carrying ``inputs`` (in model-input order).

    ``output_sizes`` gives each output's buffer in bytes; by default the
    byte size of the output operand as declared (it must then be fully
    specified).
    """
    if len(inputs) != len(model.input_indexes):
        raise ValueError(f"model has {len(model.input_indexes)} inputs, {len(inputs)} given")
    input_data = bytearray()
    input_args = []
    for operand_index, value in zip(model.input_indexes, inputs, strict=True):
        if value is None:
            input_args.append(RequestArgument(has_no_value=True))
            continue
        operand = model.operands[operand_index]
        array = np.ascontiguousarray(value, dtype=numpy_dtype(operand.type))
        data = array.tobytes()
        # Dimensions the model leaves open are given by the request, as the HAL requires.
        dims = [] if is_fully_specified(operand) else list(array.shape)
        location = DataLocation(0, len(input_data), len(data))
        input_args.append(RequestArgument(location=location, dimensions=dims))
        input_data += data
    if output_sizes is None:
        output_sizes = [
            operand_byte_size(model.operands[i].type, model.operands[i].dimensions)
            for i in model.output_indexes
        ]
    output_args = []
    offset = 0
    for size in output_sizes:
        output_args.append(RequestArgument(location=DataLocation(1, offset, size)))
        offset += size
    pools = [allocate_with(kind, bytes(input_data)), allocate(kind, offset)]
    dtypes = [numpy_dtype(model.operands[i].type) for i in model.output_indexes]
    return PackedRequest(Request(input_args, output_args, list(pools)), pools, dtypes)
