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

The models several test modules run come next: ``if_model`` (one branch doubles, the
other tiles, so that running the wrong one is seen), ``fib_model`` (a WHILE of three
input-output values and one input-only value) and ``forever_model`` (a WHILE that
never ends), with ``counter_while`` adding a counting WHILE to any graph.

Last come the models of the validation families' tests (``VALIDATION_MODELS``), each
valid at HAL 1.3 under every rule of ``hal.validation`` (strict ones included) and
holding its IF or WHILE in the main subgraph, as a generated control-flow case does;
their docstrings give the operand indexes the tests name:

* ``computed_if_model``: IF(c > 0, computed in main, then = referenced[0] (RELU),
  else = referenced[1] (FLOOR), x) on [2] tensors;
* ``state_while_model``: WHILE(cond = referenced[0] (i < n), body = referenced[1], i, x,
  n) -> (i, x), n a state-only value (a body output no WHILE output takes);
* ``quant_if_model``: an IF over TENSOR_QUANT8_ASYMM values (scale and zero point ties);
* ``nested_model``: an IF whose then branch is itself a WHILE (control flow nested in a
  referenced subgraph).

Only ``hal`` and numpy are used: the models do not come from the code under test.
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

    def binary(self, op_type: int, a: int, b: int, out: int, *, act: int | None = None) -> None:
        """ADD, SUB, MUL or DIV of ``a`` and ``b`` into ``out``, fused activation NONE: a
        new INT32 constant 0, or ``act``, an operand several operations may share."""
        if act is None:
            act = self.constant(INT32, [], 0)
        self.op(op_type, [a, b, act], [out])

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


# -- models of the validation families' tests -------------------------------------


def unary(
    builder: ModelBuilder,
    op_type: int,
    type_: int = F32,
    dims: Sequence[int] = (2,),
    scale: float = 0.0,
    zp: int = 0,
) -> Graph:
    """A subgraph of one unary operation from its input (operand 0) to its output (operand
    1), both of ``type_``, ``dims`` and the quantization ``scale`` and ``zp``."""
    graph = builder.subgraph()
    x = graph.input(type_, dims, scale, zp)
    graph.op(op_type, [x], [graph.output(type_, dims, scale, zp)])
    return graph


def computed_if_model() -> Model:
    """IF(c > 0 (operand 2, written by GREATER in main), then = referenced[0] (RELU),
    else = referenced[1] (FLOOR), x) -> y: c (operand 0) TENSOR_FLOAT32 [1], x (operand 3)
    and y (operand 6) TENSOR_FLOAT32 [2], the SUBGRAPH operands 4 and 5."""
    builder = ModelBuilder()
    then, else_ = unary(builder, OP.RELU), unary(builder, OP.FLOOR)
    main = builder.main
    c = main.input(F32, [1])
    zero = main.constant(F32, [1], [0.0])
    positive = main.temporary(B8, [1])
    main.op(OP.GREATER, [c, zero], [positive])
    x = main.input(F32, [2])
    branches = [main.reference(then), main.reference(else_)]
    main.op(OP.IF, [positive, *branches, x], [main.output(F32, [2])])
    return builder.build()


def quant_if_model() -> Model:
    """IF(b (operand 0, a model input), then = referenced[0] (RELU), else = referenced[1]
    (RELU6), q (operand 3)) -> r (operand 4), q and r TENSOR_QUANT8_ASYMM [3] of scale 0.5
    and zero point 10 in every subgraph."""
    quant = (0.5, 10)
    builder = ModelBuilder()
    then = unary(builder, OP.RELU, Q8A, [3], *quant)
    else_ = unary(builder, OP.RELU6, Q8A, [3], *quant)
    main = builder.main
    b = main.input(B8, [1])
    branches = [main.reference(then), main.reference(else_)]
    q = main.input(Q8A, [3], *quant)
    main.op(OP.IF, [b, *branches, q], [main.output(Q8A, [3], *quant)])
    return builder.build()


def state_while(builder: ModelBuilder, dims: Sequence[int]) -> tuple[Graph, Graph]:
    """The condition (i < n) and the body (i + 1, x + x, n + 0) of a WHILE over (i, x, n),
    i and n TENSOR_FLOAT32 [1], x of ``dims``. The body's operands: inputs i, x, n (0-2),
    the constant 1.0 (3), one fused activation NONE its three ADDs share (4), outputs
    i + 1, x + x, n + 0 (5-7) and the constant 0.0 (8)."""
    cond = builder.subgraph()
    i, _, n = cond.input(F32, [1]), cond.input(F32, dims), cond.input(F32, [1])
    cond.op(OP.LESS, [i, n], [cond.output(B8, [1])])
    body = builder.subgraph()
    i, x, n = body.input(F32, [1]), body.input(F32, dims), body.input(F32, [1])
    one = body.constant(F32, [1], [1.0])
    act = body.constant(INT32, [], 0)
    outputs = body.output(F32, [1]), body.output(F32, dims), body.output(F32, [1])
    zero = body.constant(F32, [1], [0.0])
    for a, b, out in zip((i, x, n), (one, x, zero), outputs, strict=True):
        body.binary(OP.ADD, a, b, out, act=act)
    return cond, body


def state_while_model() -> Model:
    """WHILE(cond = referenced[0], body = referenced[1], i, x, n) -> (i, x): while i < n,
    i = i + 1 and x = x + x; n is a state-only value (the body's output 2, which no WHILE
    output takes). The main operands: the SUBGRAPH operands 0 and 1, the inputs i, x, n
    (2-4), the outputs i, x (5, 6); i and n TENSOR_FLOAT32 [1], x [2]."""
    builder = ModelBuilder()
    cond, body = state_while(builder, [2])
    main = builder.main
    refs = [main.reference(cond), main.reference(body)]
    values = main.input(F32, [1]), main.input(F32, [2]), main.input(F32, [1])
    main.op(OP.WHILE, [*refs, *values], [main.output(F32, [1]), main.output(F32, [2])])
    return builder.build()


def nested_model() -> Model:
    """IF(b, then = referenced[0], else = referenced[1] (RELU), i) -> r on TENSOR_FLOAT32
    [1], whose then branch is WHILE(cond = referenced[2], body = referenced[3], i, x, n)
    -> i, with x (5.0) and n (3.0) constants of the branch: control flow nested in a
    subgraph. The main operands: b, the SUBGRAPH operands, i, r (0-4)."""
    builder = ModelBuilder()
    then = builder.subgraph()
    else_ = unary(builder, OP.RELU, F32, [1])
    cond, body = state_while(builder, [1])
    refs = [then.reference(cond), then.reference(body)]
    i = then.input(F32, [1])
    x, n = then.constant(F32, [1], [5.0]), then.constant(F32, [1], [3.0])
    then.op(OP.WHILE, [*refs, i, x, n], [then.output(F32, [1])])
    main = builder.main
    b = main.input(B8, [1])
    branches = [main.reference(then), main.reference(else_)]
    main.op(OP.IF, [b, *branches, main.input(F32, [1])], [main.output(F32, [1])])
    return builder.build()


VALIDATION_MODELS = {
    "if": computed_if_model,
    "quant_if": quant_if_model,
    "while": state_while_model,
    "nested": nested_model,
}
"""The validation families' models by name: a fresh one each call."""
