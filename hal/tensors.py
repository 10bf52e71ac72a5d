"""Operand data as numpy arrays: what a driver needs to read a model's constants and a
request's inputs, and to write a request's outputs.

* ``read_constants(model)``: every CONSTANT_COPY and CONSTANT_REFERENCE operand,
  decoded, by operand index;
* ``RequestData(model, request)``: the request's pools, opened once (a ``with``
  block closes them); ``inputs()`` decodes every input given a value, by
  operand index, with the request's dimensions where it gives them;
  ``write_outputs(values)`` writes each output's array to its location when
  every output fits, and answers the status and output shapes an execution
  returns (``NONE``, or ``OUTPUT_INSUFFICIENT_SIZE`` with every output's shape
  and nothing written).

Validate first (``hal.validation``): these helpers trust the model and the
request to be valid. Anything a pool cannot give (a short or unreadable pool,
a driver-managed buffer token) raises ``hal.memory.MemoryError_``, which a
driver answers with GENERAL_FAILURE.
"""

from __future__ import annotations

import math

import numpy as np

from hal.memory import Mapping, Memory, MemoryError_, open_memory
from hal.types import (
    ErrorStatus,
    Model,
    Operand,
    OperandLifeTime,
    OutputShape,
    Request,
    numpy_dtype,
)


def decode(
    operand: Operand,
    data: bytes | memoryview,
    dimensions: list[int],
    extensions: list | tuple | None = None,
) -> np.ndarray:
    """The array ``data`` holds for ``operand`` with ``dimensions`` (a copy, writable);
    ``extensions``: the model's ``extension_name_to_prefix``, for extension types."""
    dtype = numpy_dtype(operand.type, extensions)
    needed = math.prod(dimensions) * dtype.itemsize
    if len(data) < needed:
        raise MemoryError_(f"{len(data)} bytes for an operand of {needed} bytes")
    return np.frombuffer(data[:needed], dtype=dtype).reshape(tuple(dimensions)).copy()


def read_constants(model: Model, graph: object = None) -> dict[int, np.ndarray]:
    """Every constant operand of ``model``'s main graph (or of ``graph``, one of
    ``model.referenced``, whose constants live in the model's values and pools too)
    decoded, by operand index."""
    constants: dict[int, np.ndarray] = {}
    opened: dict[int, Mapping] = {}
    operands = (model if graph is None else graph).operands
    try:
        for index, operand in enumerate(operands):
            location = operand.location
            if operand.lifetime == OperandLifeTime.CONSTANT_COPY:
                data = model.operand_values[location.offset : location.offset + location.length]
            elif operand.lifetime == OperandLifeTime.CONSTANT_REFERENCE:
                if location.pool_index not in opened:
                    opened[location.pool_index] = open_memory(model.pools[location.pool_index])
                data = opened[location.pool_index].read_location(location)
            else:
                continue
            constants[index] = decode(
                operand, data, list(operand.dimensions), model.extension_name_to_prefix
            )
    finally:
        for access in opened.values():
            access.close()
    return constants


class RequestData:
    """A request's pools, open for reading its inputs and writing its outputs."""

    def __init__(self, model: Model, request: Request) -> None:
        self.model = model
        self.request = request
        self._pools: list[Mapping] = []
        try:
            for pool in request.pools:
                if not isinstance(pool, Memory):
                    raise MemoryError_(f"pool {pool!r} is not a Memory (a buffer token?)")
                self._pools.append(open_memory(pool))
        except BaseException:
            self.close()
            raise

    def inputs(self) -> dict[int, np.ndarray]:
        """Each model input the request gives a value, decoded, by operand index."""
        values = {}
        for index, argument in zip(self.model.input_indexes, self.request.inputs, strict=True):
            if argument.has_no_value:
                continue
            operand = self.model.operands[index]
            dims = list(argument.dimensions) or list(operand.dimensions)
            location = argument.location
            data = self._pools[location.pool_index].read(location.offset, location.length)
            values[index] = decode(operand, data, dims, self.model.extension_name_to_prefix)
        return values

    def write_outputs(self, values: dict[int, np.ndarray]) -> tuple[ErrorStatus, list[OutputShape]]:
        """Write every model output's array (``values`` by operand index) when all fit."""
        outputs = list(zip(self.model.output_indexes, self.request.outputs, strict=True))
        shapes = []
        for index, argument in outputs:
            value = values[index]
            shapes.append(OutputShape(tuple(value.shape), value.nbytes <= argument.location.length))
        if not all(shape.is_sufficient for shape in shapes):
            return ErrorStatus.OUTPUT_INSUFFICIENT_SIZE, shapes
        for index, argument in outputs:
            declared = self.model.extension_name_to_prefix
            dtype = numpy_dtype(self.model.operands[index].type, declared)
            data = np.ascontiguousarray(values[index], dtype=dtype).tobytes()
            self._pools[argument.location.pool_index].write(argument.location.offset, data)
        return ErrorStatus.NONE, shapes

    def close(self) -> None:
        for access in self._pools:
            access.close()
        self._pools = []

    def __enter__(self) -> RequestData:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
