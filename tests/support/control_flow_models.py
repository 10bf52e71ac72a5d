"""A small builder of HAL 1.3 models with referenced subgraphs, for tests that call a
driver directly with IF and WHILE models.

``ModelBuilder`` holds the main subgraph (``builder.main``) and the referenced ones
(``builder.subgraph()``, numbered in creation order); each ``Graph`` adds operands
(``input``, ``output``, ``temporary``, ``constant``, ``reference``) and operations
(``op``, ``binary`` for ADD, SUB, MUL and DIV with their fused activation NONE).
``build()`` lays the model out as VTS does: every CONSTANT_COPY value of every
subgraph in one ``operand_values`` at 4-byte aligned offsets, every
CONSTANT_REFERENCE value in one shared-memory pool (pool 0), a SUBGRAPH operand's
offset the index of the subgraph it names, and each operand's number of consumers
counted within its own subgraph.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hal.memory import ASHMEM, allocate_with
from hal.types import (
    DataLocation,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    Subgraph,
    numpy_dtype,
)

LT = OperandLifeTime
F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
I32T = OperandType.TENSOR_INT32
B8 = OperandType.TENSOR_BOOL8
Q8A = OperandType.TENSOR_QUANT8_ASYMM
Q8AS = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
INT32 = OperandType.INT32


def _aligned(data: bytearray, value: bytes) -> DataLocation:
    while len(data) % 4:
        data.append(0)
    location = DataLocation(0, len(data), len(value))
    data += value
    return location


class Graph:
    """One subgraph under construction; operand indexes are its own."""

    def __init__(self, builder: ModelBuilder, index: int | None) -> None:
        self.builder = builder
        self.index = index
        """Its index in ``Model.referenced``; None for the main subgraph."""
        self.operands: list[Operand] = []
        self.operations: list[Operation] = []
        self.inputs: list[int] = []
        self.outputs: list[int] = []
        self._constants: dict[int, tuple[bytes, bool]] = {}

    def _add(self, type_: int, dims: Sequence[int], lifetime: int, scale: float, zp: int) -> int:
        self.operands.append(Operand(type_, list(dims), 0, scale, zp, lifetime=lifetime))
        return len(self.operands) - 1

    def input(self, type_: int, dims: Sequence[int], scale: float = 0.0, zp: int = 0) -> int:
        """An input of the subgraph (the next in its input order)."""
        index = self._add(type_, dims, LT.SUBGRAPH_INPUT, scale, zp)
        self.inputs.append(index)
        return index

    def output(self, type_: int, dims: Sequence[int], scale: float = 0.0, zp: int = 0) -> int:
        """An output of the subgraph (the next in its output order)."""
        index = self._add(type_, dims, LT.SUBGRAPH_OUTPUT, scale, zp)
        self.outputs.append(index)
        return index

    def temporary(self, type_: int, dims: Sequence[int], scale: float = 0.0, zp: int = 0) -> int:
        return self._add(type_, dims, LT.TEMPORARY_VARIABLE, scale, zp)

    def no_value(self, type_: int, dims: Sequence[int]) -> int:
        return self._add(type_, dims, LT.NO_VALUE, 0.0, 0)

    def constant(
        self,
        type_: int,
        dims: Sequence[int],
        value: object,
        scale: float = 0.0,
        zp: int = 0,
        *,
        reference: bool = False,
    ) -> int:
        """A constant holding ``value`` (as the type's dtype): CONSTANT_COPY, or with
        ``reference`` CONSTANT_REFERENCE in the model's shared pool."""
        data = np.asarray(value, dtype=numpy_dtype(type_)).reshape(tuple(dims)).tobytes()
        lifetime = LT.CONSTANT_REFERENCE if reference else LT.CONSTANT_COPY
        index = self._add(type_, dims, lifetime, scale, zp)
        self._constants[index] = (data, reference)
        return index

    def reference(self, graph: Graph) -> int:
        """A SUBGRAPH operand naming ``graph`` (a referenced subgraph)."""
        if graph.index is None:
            raise ValueError("the main subgraph cannot be referenced")
        self.operands.append(
            Operand(
                OperandType.SUBGRAPH,
                [],
                0,
                lifetime=LT.SUBGRAPH,
                location=DataLocation(0, graph.index, 0),
            )
        )
        return len(self.operands) - 1

    def op(self, op_type: int, inputs: Sequence[int], outputs: Sequence[int]) -> None:
        self.operations.append(Operation(op_type, list(inputs), list(outputs)))

    def binary(self, op_type: int, a: int, b: int, out: int) -> None:
        """ADD, SUB, MUL or DIV of ``a`` and ``b`` into ``out``, fused activation NONE."""
        self.op(op_type, [a, b, self.constant(INT32, [], 0)], [out])

    def _finish(self, values: bytearray, pool: bytearray) -> Subgraph:
        operands = []
        for index, operand in enumerate(self.operands):
            consumers = sum(list(operation.inputs).count(index) for operation in self.operations)
            location = operand.location
            if index in self._constants:
                data, reference = self._constants[index]
                location = _aligned(pool if reference else values, data)
            operands.append(
                Operand(
                    operand.type,
                    list(operand.dimensions),
                    consumers,
                    operand.scale,
                    operand.zero_point,
                    lifetime=operand.lifetime,
                    location=location,
                )
            )
        return Subgraph(operands, list(self.operations), list(self.inputs), list(self.outputs))


class ModelBuilder:
    """A 1.3 model: ``main`` and the subgraphs ``subgraph()`` adds."""

    def __init__(self, relaxed: bool = False) -> None:
        self.relaxed = relaxed
        self.main = Graph(self, None)
        self.subgraphs: list[Graph] = []

    def subgraph(self) -> Graph:
        graph = Graph(self, len(self.subgraphs))
        self.subgraphs.append(graph)
        return graph

    def build(self) -> Model:
        values, pool = bytearray(), bytearray()
        main = self.main._finish(values, pool)
        referenced = [graph._finish(values, pool) for graph in self.subgraphs]
        return Model(
            operands=main.operands,
            operations=main.operations,
            input_indexes=main.input_indexes,
            output_indexes=main.output_indexes,
            operand_values=bytes(values),
            pools=[allocate_with(ASHMEM, bytes(pool))] if pool else [],
            relax_computation_float32_to_float16=self.relaxed,
            referenced=referenced,
        )


def counter_while(
    builder: ModelBuilder,
    graph: Graph,
    start: int,
    limit: int,
    out: int,
    *,
    forever: bool = False,
) -> None:
    """Add to ``graph`` a WHILE writing ``out``: operand ``start`` counted up by one while
    it is less than operand ``limit`` (input-only), or with ``forever`` while it is at
    least ``limit`` (for a start at or above the limit that never ends). The three
    operands share ``out``'s type, dimensions and quantization (one is 1 / scale steps
    above the zero point)."""
    like = graph.operands[out]
    kind, dims, scale, zp = like.type, list(like.dimensions), like.scale, like.zero_point
    cond = builder.subgraph()
    i = cond.input(kind, dims, scale, zp)
    n = cond.input(kind, dims, scale, zp)
    flag = cond.output(B8, [1])
    cond.op(OperationType.GREATER_EQUAL if forever else OperationType.LESS, [i, n], [flag])
    body = builder.subgraph()
    i = body.input(kind, dims, scale, zp)
    body.input(kind, dims, scale, zp)  # the limit: the body does not read it
    step = 1 if scale == 0.0 else round(1 / scale) + zp
    one = body.constant(kind, dims, np.full(dims, step), scale, zp)
    body.binary(OperationType.ADD, i, one, body.output(kind, dims, scale, zp))
    graph.op(
        OperationType.WHILE, [graph.reference(cond), graph.reference(body), start, limit], [out]
    )
