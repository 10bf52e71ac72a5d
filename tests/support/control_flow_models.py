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

The models several test modules run come last: ``if_model`` (one branch doubles, the
other tiles, so that running the wrong one is seen), ``fib_model`` (a WHILE of three
input-output values and one input-only value) and ``forever_model`` (a WHILE that
never ends), with ``counter_while`` adding a counting WHILE to any graph.
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
OP = OperationType
HUGE = 1 << 28
"""A TILE multiple whose output (2 * 2**28 floats, 2 GiB) is over the reference driver's
default memory budget (1 GiB): ``if_model``'s tiling branch fails the execution when it
runs with it."""


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


# -- models several test modules run --------------------------------------------


def doubling(builder: ModelBuilder) -> Graph:
    """(x [2], multiples [1]) -> x + x (the multiples unused)."""
    graph = builder.subgraph()
    x = graph.input(F32, [2])
    graph.input(I32T, [1])
    graph.binary(OP.ADD, x, x, graph.output(F32, [2]))
    return graph


def tiling(builder: ModelBuilder) -> Graph:
    """(x [2], multiples [1]) -> TILE(x, multiples): x itself for multiples [1], over the
    memory budget for [HUGE]."""
    graph = builder.subgraph()
    x = graph.input(F32, [2])
    multiples = graph.input(I32T, [1])
    graph.op(OP.TILE, [x, multiples], [graph.output(F32, [2])])
    return graph


def if_model(*, double_when_true: bool = True, condition: object = None) -> Model:
    """IF(condition, then, else, x [2], multiples [1]) -> out [2]: one branch doubles x,
    the other tiles it (then doubles unless ``double_when_true`` is False). The condition
    is a model input, or with ``condition`` = (value, reference) a constant."""
    builder = ModelBuilder()
    main = builder.main
    if condition is None:
        cond = main.input(B8, [1])
    else:
        value, reference = condition
        cond = main.constant(B8, [1], [value], reference=reference)
    x = main.input(F32, [2])
    multiples = main.input(I32T, [1])
    doubled, tiled = doubling(builder), tiling(builder)
    then, else_ = (doubled, tiled) if double_when_true else (tiled, doubled)
    out = main.output(F32, [2])
    main.op(OP.IF, [cond, main.reference(then), main.reference(else_), x, multiples], [out])
    return builder.build()


def fib_model(
    kind: int = F32,
    *,
    relaxed: bool = False,
    reference: bool = False,
    unused_counter: bool = False,
) -> Model:
    """WHILE(cond: i < n, body: (i, a, b) -> (i + 1, b + 0, a + b); i, a, b input-output,
    n input-only) -> (i, a, b) on [1] tensors of ``kind``; the body's constants
    CONSTANT_REFERENCE with ``reference``; with ``unused_counter`` the WHILE's output i is
    a temporary nobody reads and the model outputs a and b only."""
    builder = ModelBuilder(relaxed=relaxed)
    main = builder.main
    i, a, b, n = (main.input(kind, [1]) for _ in range(4))
    cond = builder.subgraph()
    ci, _, _, cn = (cond.input(kind, [1]) for _ in range(4))
    cond.op(OP.LESS, [ci, cn], [cond.output(B8, [1])])
    body = builder.subgraph()
    bi, ba, bb, _ = (body.input(kind, [1]) for _ in range(4))
    one = body.constant(kind, [1], [1], reference=reference)
    zero = body.constant(kind, [1], [0], reference=reference)
    body.binary(OP.ADD, bi, one, body.output(kind, [1]))
    body.binary(OP.ADD, bb, zero, body.output(kind, [1]))
    body.binary(OP.ADD, ba, bb, body.output(kind, [1]))
    outputs = [
        main.temporary(kind, [1]) if unused_counter else main.output(kind, [1]),
        main.output(kind, [1]),
        main.output(kind, [1]),
    ]
    main.op(OP.WHILE, [main.reference(cond), main.reference(body), i, a, b, n], outputs)
    return builder.build()


def forever_model() -> Model:
    """WHILE(i >= n) i = i + 1: for i >= n it never ends."""
    builder = ModelBuilder()
    main = builder.main
    i, n = main.input(F32, [1]), main.input(F32, [1])
    counter_while(builder, main, i, n, main.output(F32, [1]), forever=True)
    return builder.build()
