"""Random valid multi-operation models: hypothesis strategies that grow a graph.

``graphs(kind)`` draws a ``Graph``: a HAL 1.2 ``Model`` of a few chained
operations of one numeric kind (``float32``, ``float16``, ``relaxed`` float32,
or ``quant8``), its input arrays, and the output shapes the graph implies (each
operation's shape rule applied by this module, independently of any driver).

A graph starts from one model input and grows by operations whose operand
types and ranks fit tensors it already has: each builder below knows one
operation's valid parameter ranges (kernel and stride sizes that fit the
spatial dimensions, axes inside the rank, broadcast-compatible shapes) and
draws inside them. Constants (weights, biases, shape and axis parameters) are
CONSTANT_COPY operands. Every tensor carries a bound on its real values, from
which quantized tensors get a scale covering them, so quantized graphs compute
in range rather than saturating everywhere. Operation outputs nobody reads
become model outputs, and some read ones too. The result passes
``hal.validation`` at HAL 1.2 by construction (tests/suite/test_graphs.py checks
thousands), and ``to_spec`` prints it as a spec in the test-generator language.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum

import numpy as np
from hypothesis import strategies as st

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


class GraphKind(StrEnum):
    """A graph's numeric kind: the type of its tensors (``relaxed``: float32 tensors in
    a model that allows float16 computation)."""

    FLOAT32 = "float32"
    FLOAT16 = "float16"
    RELAXED = "relaxed"
    QUANT8 = "quant8"


KINDS = tuple(GraphKind)
MAX_DIM = 5
"""Largest extent of a non-spatial dimension."""
MAX_SPATIAL = 7
"""Largest height or width of a rank-4 (NHWC) tensor."""

T = OperandType
OP = OperationType
LT = OperandLifeTime
_TENSOR_TYPE = {
    GraphKind.FLOAT32: T.TENSOR_FLOAT32,
    GraphKind.RELAXED: T.TENSOR_FLOAT32,
    GraphKind.FLOAT16: T.TENSOR_FLOAT16,
    GraphKind.QUANT8: T.TENSOR_QUANT8_ASYMM,
}


@dataclass(frozen=True)
class Tensor:
    """A tensor operand of the graph being grown."""

    index: int
    shape: tuple[int, ...]
    bound: float
    """No real value of the tensor exceeds this in magnitude (by construction)."""
    scale: float = 0.0
    zero_point: int = 0

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass
class Graph:
    """A drawn model, its inputs, and the output shapes it implies."""

    kind: str
    """A ``GraphKind`` for a drawn graph; for another model shown as a graph, what it is."""
    model: Model
    inputs: list[np.ndarray]
    output_shapes: list[tuple[int, ...]]
    operations: list[str] = field(default_factory=list)

    def describe(self) -> str:
        count = len(self.operations)
        noun = "operation" if count == 1 else "operations"
        return f"{self.kind} graph of {count} {noun}: {' -> '.join(self.operations)}"


class _Builder:
    """The model under construction."""

    def __init__(self, kind: GraphKind, rng: np.random.Generator) -> None:
        self.kind = kind
        self.rng = rng
        self.type = _TENSOR_TYPE[kind]
        self.operands: list[Operand] = []
        self.values = bytearray()
        self.operations: list[Operation] = []
        self.names: list[str] = []
        self.inputs: list[int] = []
        self.input_arrays: list[np.ndarray] = []
        self.tensors: list[Tensor] = []
        self.shapes: dict[int, tuple[int, ...]] = {}

    @property
    def quant(self) -> bool:
        return self.kind == GraphKind.QUANT8

    # -- operands --------------------------------------------------------------

    def _add(self, operand: Operand) -> int:
        self.operands.append(operand)
        return len(self.operands) - 1

    def quant_for(self, bound: float) -> tuple[float, int]:
        """(scale, zero point) whose range covers [-bound, bound], or (0, 0) for floats."""
        if not self.quant:
            return 0.0, 0
        bound = max(bound, 1e-3)
        scale = float(np.float32(2.0 * bound / 250.0))
        return scale, 128

    def input(self, shape: tuple[int, ...]) -> Tensor:
        scale, zp = self.quant_for(1.0)
        index = self._add(Operand(self.type, list(shape), 0, scale, zp, LT.MODEL_INPUT))
        self.inputs.append(index)
        if self.quant:
            array = self.rng.integers(3, 253, size=shape).astype(np.uint8)
        else:
            real = self.rng.uniform(-1.0, 1.0, size=shape)
            array = real.astype(numpy_dtype(self.type))
        self.input_arrays.append(array)
        tensor = Tensor(index, shape, 1.0, scale, zp)
        self.tensors.append(tensor)
        self.shapes[index] = shape
        return tensor

    def constant(self, type_: int, array: np.ndarray, scale: float = 0.0, zp: int = 0) -> int:
        while len(self.values) % 4:
            self.values.append(0)
        data = np.ascontiguousarray(array, dtype=numpy_dtype(type_)).tobytes()
        location = DataLocation(0, len(self.values), len(data))
        self.values += data
        return self._add(
            Operand(type_, list(array.shape), 0, scale, zp, LT.CONSTANT_COPY, location)
        )

    def int32(self, value: int) -> int:
        return self.constant(T.INT32, np.array(value, np.int32))

    def vector(self, values: list[int]) -> int:
        return self.constant(T.TENSOR_INT32, np.array(values, np.int32))

    def float_scalar(self, value: float) -> int:
        scalar = T.FLOAT16 if self.kind == GraphKind.FLOAT16 else T.FLOAT32
        return self.constant(scalar, np.array(value, numpy_dtype(scalar)))

    def weights(self, shape: tuple[int, ...], bound: float) -> tuple[int, float]:
        """A constant weight tensor of the graph's type with values in [-bound, bound]."""
        real = self.rng.uniform(-bound, bound, size=shape)
        if self.quant:
            scale, zp = self.quant_for(bound)
            raw = np.clip(np.round(real / scale) + zp, 0, 255).astype(np.uint8)
            return self.constant(self.type, raw, scale, zp), scale
        return self.constant(self.type, real.astype(numpy_dtype(self.type))), 0.0

    def bias(self, n: int, bound: float, input_scale: float, weight_scale: float) -> int:
        real = self.rng.uniform(-bound, bound, size=(n,))
        if self.quant:
            scale = float(np.float32(input_scale * weight_scale))
            return self.constant(T.TENSOR_INT32, np.round(real / scale).astype(np.int32), scale)
        return self.constant(self.type, real.astype(numpy_dtype(self.type)))

    # -- operations ------------------------------------------------------------

    def operation(
        self,
        op: int,
        inputs: list[int],
        shape: tuple[int, ...],
        bound: float,
        quant: tuple[float, int] | None = None,
    ) -> Tensor:
        scale, zp = quant if quant is not None else self.quant_for(bound)
        index = self._add(Operand(self.type, list(shape), 0, scale, zp, LT.TEMPORARY_VARIABLE))
        self.operations.append(Operation(op, list(inputs), [index]))
        self.names.append(OperationType(op).name)
        tensor = Tensor(index, shape, bound, scale, zp)
        self.tensors.append(tensor)
        self.shapes[index] = shape
        return tensor

    def finish(self, draw) -> Graph:
        read = [i for operation in self.operations for i in operation.inputs]
        for i in read:
            self.operands[i].number_of_consumers += 1
        produced = [
            t.index
            for t in self.tensors
            if self.operands[t.index].lifetime == LT.TEMPORARY_VARIABLE
        ]
        outputs = [i for i in produced if i not in read]
        extra = [i for i in produced if i in read]
        if extra:
            outputs += draw(st.lists(st.sampled_from(extra), max_size=2, unique=True))
        outputs.sort()
        for i in outputs:
            self.operands[i].lifetime = LT.MODEL_OUTPUT
        # Number operands in order of first appearance over the operations, as the spec
        # language does (docs/spec-language.md 2.5), so that to_spec reproduces the model exactly.
        order = list(dict.fromkeys(i for op in self.operations for i in (*op.inputs, *op.outputs)))
        new = {old: k for k, old in enumerate(order)}
        # An input drawn for an operation that then took other tensors is left out.
        inputs = sorted((i for i in self.inputs if i in new), key=new.__getitem__)
        arrays = dict(zip(self.inputs, self.input_arrays, strict=True))
        model = Model(
            operands=[self.operands[old] for old in order],
            operations=[
                Operation(op.type, [new[i] for i in op.inputs], [new[i] for i in op.outputs])
                for op in self.operations
            ],
            input_indexes=[new[i] for i in inputs],
            output_indexes=sorted(new[i] for i in outputs),
            operand_values=bytes(self.values),
            relax_computation_float32_to_float16=self.kind == GraphKind.RELAXED,
        )
        shapes = [self.shapes[i] for i in sorted(outputs, key=new.__getitem__)]
        return Graph(self.kind, model, [arrays[i] for i in inputs], shapes, list(self.names))


# ---------------------------------------------------------------------------
# Operation builders: each draws one operation on the graph's tensors, or
# returns None when no tensor fits it.
# ---------------------------------------------------------------------------

Builder = Callable[[Callable, _Builder], Tensor | None]


def _pick(draw, b: _Builder, ranks: tuple[int, ...] = (1, 2, 3, 4), fits=None) -> Tensor | None:
    candidates = [t for t in b.tensors if t.rank in ranks and (fits is None or fits(t))]
    return draw(st.sampled_from(candidates)) if candidates else None


def _activation(draw) -> int:
    return draw(st.integers(0, 3))


def _activated(bound: float, activation: int) -> float:
    return {0: bound, 1: bound, 2: 1.0, 3: min(bound, 6.0)}[activation]


def _broadcast_partner(draw, b: _Builder, x: Tensor, bound: float) -> Tensor:
    """Another operand for a binary op: an existing tensor of x's shape, or a new constant."""
    same = [t for t in b.tensors if t.shape == x.shape and t.index != x.index]
    if same and draw(st.booleans()):
        return draw(st.sampled_from(same))
    # A constant broadcasting along x: the trailing dims of x, some set to 1.
    keep = draw(st.integers(1, x.rank))
    shape = tuple(d if draw(st.booleans()) else 1 for d in x.shape[x.rank - keep :])
    index, scale = b.weights(shape, bound)
    return Tensor(index, shape, bound, scale, 128 if b.quant else 0)


def _binary(op: int) -> Builder:
    def build(draw, b: _Builder) -> Tensor | None:
        x = _pick(draw, b)
        if x is None:
            return None
        y = _broadcast_partner(draw, b, x, 1.0)
        if draw(st.booleans()):
            x, y = y, x
        shape = tuple(np.broadcast_shapes(x.shape, y.shape))
        act = _activation(draw)
        bound = x.bound * y.bound if op == OP.MUL else x.bound + y.bound
        return b.operation(op, [x.index, y.index, b.int32(act)], shape, _activated(bound, act))

    return build


def _extremum(op: int) -> Builder:
    def build(draw, b: _Builder) -> Tensor | None:
        x = _pick(draw, b)
        if x is None:
            return None
        y = _broadcast_partner(draw, b, x, 1.0)
        shape = tuple(np.broadcast_shapes(x.shape, y.shape))
        return b.operation(op, [x.index, y.index], shape, max(x.bound, y.bound))

    return build


def _unary(op: int, floats_only: bool = False) -> Builder:
    fixed = {OP.LOGISTIC: (1.0 / 256, 0), OP.TANH: (1.0 / 128, 128)}

    def build(draw, b: _Builder) -> Tensor | None:
        if floats_only and b.quant:
            return None
        x = _pick(draw, b)
        if x is None:
            return None
        bound = {OP.RELU1: 1.0, OP.RELU6: min(x.bound, 6.0), OP.LOGISTIC: 1.0, OP.TANH: 1.0}.get(
            op, x.bound
        )
        quant = None
        if b.quant:
            quant = fixed.get(op, (x.scale, x.zero_point))
        return b.operation(op, [x.index], x.shape, bound, quant)

    return build


def _same_quant(b: _Builder, x: Tensor) -> tuple[float, int] | None:
    return (x.scale, x.zero_point) if b.quant else None


def _reshape(draw, b: _Builder) -> Tensor | None:
    x = _pick(draw, b)
    if x is None:
        return None
    size = math.prod(x.shape)
    first = draw(st.sampled_from([d for d in range(1, size + 1) if size % d == 0]))
    shape = (first, size // first)
    spec = list(shape)
    if draw(st.booleans()):
        spec[draw(st.integers(0, 1))] = -1
    return b.operation(OP.RESHAPE, [x.index, b.vector(spec)], shape, x.bound, _same_quant(b, x))


def _transpose(draw, b: _Builder) -> Tensor | None:
    x = _pick(draw, b, (2, 3, 4))
    if x is None:
        return None
    perm = draw(st.permutations(range(x.rank)))
    shape = tuple(x.shape[p] for p in perm)
    return b.operation(
        OP.TRANSPOSE, [x.index, b.vector(list(perm))], shape, x.bound, _same_quant(b, x)
    )


def _concatenation(draw, b: _Builder) -> Tensor | None:
    x = _pick(draw, b)
    if x is None:
        return None
    axis = draw(st.integers(0, x.rank - 1))
    others = [
        t
        for t in b.tensors
        if t.rank == x.rank
        and t.index != x.index
        and (t.scale, t.zero_point) == (x.scale, x.zero_point)
        and all(t.shape[k] == x.shape[k] for k in range(x.rank) if k != axis)
    ]
    if others and draw(st.booleans()):
        y = draw(st.sampled_from(others))
    else:
        shape = list(x.shape)
        shape[axis] = draw(st.integers(1, 3))
        if b.quant:  # a constant in x's own quantization
            raw = b.rng.integers(0, 256, size=shape).astype(np.uint8)
            index = b.constant(b.type, raw, x.scale, x.zero_point)
        else:
            index, _ = b.weights(tuple(shape), x.bound)
        y = Tensor(index, tuple(shape), x.bound, x.scale, x.zero_point)
    parts = [x, y] if draw(st.booleans()) else [y, x]
    shape = list(x.shape)
    shape[axis] = x.shape[axis] + y.shape[axis]
    return b.operation(
        OP.CONCATENATION,
        [parts[0].index, parts[1].index, b.int32(axis)],
        tuple(shape),
        max(x.bound, y.bound),
        _same_quant(b, x),
    )


def _mean(draw, b: _Builder) -> Tensor | None:
    x = _pick(draw, b)
    if x is None:
        return None
    axes = draw(st.lists(st.integers(0, x.rank - 1), min_size=1, max_size=x.rank, unique=True))
    keep = draw(st.booleans())
    if keep:
        shape = tuple(1 if k in axes else d for k, d in enumerate(x.shape))
    else:
        shape = tuple(d for k, d in enumerate(x.shape) if k not in axes) or (1,)
    return b.operation(
        OP.MEAN,
        [x.index, b.vector(sorted(axes)), b.int32(int(keep))],
        shape,
        x.bound,
        _same_quant(b, x),
    )


def _fully_connected(draw, b: _Builder) -> Tensor | None:
    x = _pick(draw, b, (2,))
    if x is None:
        return None
    batch, depth = x.shape
    units = draw(st.integers(1, MAX_DIM))
    w_bound = 1.0 / depth
    weights, w_scale = b.weights((units, depth), w_bound)
    bias = b.bias(units, 0.5, x.scale, w_scale)
    act = _activation(draw)
    bound = _activated(x.bound + 0.5, act)
    return b.operation(
        OP.FULLY_CONNECTED, [x.index, weights, bias, b.int32(act)], (batch, units), bound
    )


def _spatial(x: Tensor) -> bool:
    return x.shape[1] <= MAX_SPATIAL and x.shape[2] <= MAX_SPATIAL


def _window(draw, x: Tensor) -> tuple[int, int, int, int, int]:
    """(padding scheme, stride w, stride h, kernel w, kernel h) that fit x's spatial size."""
    padding = draw(st.sampled_from([1, 2]))  # SAME, VALID
    kw = draw(st.integers(1, min(3, x.shape[2])))
    kh = draw(st.integers(1, min(3, x.shape[1])))
    return padding, draw(st.integers(1, 2)), draw(st.integers(1, 2)), kw, kh


def _out_size(size: int, kernel: int, stride: int, padding: int) -> int:
    if padding == 1:
        return (size + stride - 1) // stride
    return (size - kernel + stride) // stride


def _conv(draw, b: _Builder) -> Tensor | None:
    x = _pick(draw, b, (4,), _spatial)
    if x is None:
        return None
    n, h, w, c = x.shape
    padding, sw, sh, kw, kh = _window(draw, x)
    out_c = draw(st.integers(1, 4))
    weights, w_scale = b.weights((out_c, kh, kw, c), 1.0 / (kh * kw * c))
    bias = b.bias(out_c, 0.5, x.scale, w_scale)
    act = _activation(draw)
    shape = (n, _out_size(h, kh, sh, padding), _out_size(w, kw, sw, padding), out_c)
    inputs = [x.index, weights, bias, b.int32(padding), b.int32(sw), b.int32(sh), b.int32(act)]
    return b.operation(OP.CONV_2D, inputs, shape, _activated(x.bound + 0.5, act))


def _depthwise(draw, b: _Builder) -> Tensor | None:
    x = _pick(draw, b, (4,), _spatial)
    if x is None:
        return None
    n, h, w, c = x.shape
    padding, sw, sh, kw, kh = _window(draw, x)
    multiplier = draw(st.integers(1, 2))
    weights, w_scale = b.weights((1, kh, kw, c * multiplier), 1.0 / (kh * kw))
    bias = b.bias(c * multiplier, 0.5, x.scale, w_scale)
    act = _activation(draw)
    shape = (n, _out_size(h, kh, sh, padding), _out_size(w, kw, sw, padding), c * multiplier)
    inputs = [
        x.index,
        weights,
        bias,
        b.int32(padding),
        b.int32(sw),
        b.int32(sh),
        b.int32(multiplier),
        b.int32(act),
    ]
    return b.operation(OP.DEPTHWISE_CONV_2D, inputs, shape, _activated(x.bound + 0.5, act))


def _pool(op: int) -> Builder:
    def build(draw, b: _Builder) -> Tensor | None:
        x = _pick(draw, b, (4,), _spatial)
        if x is None:
            return None
        n, h, w, c = x.shape
        padding, sw, sh, kw, kh = _window(draw, x)
        act = _activation(draw)
        shape = (n, _out_size(h, kh, sh, padding), _out_size(w, kw, sw, padding), c)
        inputs = [
            x.index,
            b.int32(padding),
            b.int32(sw),
            b.int32(sh),
            b.int32(kw),
            b.int32(kh),
            b.int32(act),
        ]
        quant = _same_quant(b, x)
        return b.operation(op, inputs, shape, _activated(x.bound, act), quant)

    return build


def _softmax(draw, b: _Builder) -> Tensor | None:
    x = _pick(draw, b, (2, 4))
    if x is None:
        return None
    beta = draw(st.sampled_from([0.5, 1.0, 2.0]))
    quant = (1.0 / 256, 0) if b.quant else None
    return b.operation(OP.SOFTMAX, [x.index, b.float_scalar(beta)], x.shape, 1.0, quant)


BUILDERS: dict[str, Builder] = {
    "ADD": _binary(OP.ADD),
    "SUB": _binary(OP.SUB),
    "MUL": _binary(OP.MUL),
    "MAXIMUM": _extremum(OP.MAXIMUM),
    "MINIMUM": _extremum(OP.MINIMUM),
    "RELU": _unary(OP.RELU),
    "RELU1": _unary(OP.RELU1),
    "RELU6": _unary(OP.RELU6),
    "LOGISTIC": _unary(OP.LOGISTIC),
    "TANH": _unary(OP.TANH),
    "ABS": _unary(OP.ABS, floats_only=True),
    "NEG": _unary(OP.NEG, floats_only=True),
    "RESHAPE": _reshape,
    "TRANSPOSE": _transpose,
    "CONCATENATION": _concatenation,
    "MEAN": _mean,
    "FULLY_CONNECTED": _fully_connected,
    "CONV_2D": _conv,
    "DEPTHWISE_CONV_2D": _depthwise,
    "AVERAGE_POOL_2D": _pool(OP.AVERAGE_POOL_2D),
    "MAX_POOL_2D": _pool(OP.MAX_POOL_2D),
    "SOFTMAX": _softmax,
}
"""The operations random graphs are made of (RANDOM_MULTINOMIAL never: not comparable)."""


def _first_shape(draw) -> tuple[int, ...]:
    rank = draw(st.integers(1, 4))
    if rank == 4:
        return (
            draw(st.integers(1, 2)),
            draw(st.integers(1, MAX_SPATIAL)),
            draw(st.integers(1, MAX_SPATIAL)),
            draw(st.integers(1, 3)),
        )
    return tuple(draw(st.integers(1, MAX_DIM)) for _ in range(rank))


@st.composite
def graphs(draw, kind: GraphKind | None = None, max_operations: int = 5) -> Graph:
    """A random valid model of 1 to ``max_operations`` operations of one numeric kind."""
    kind = kind or draw(st.sampled_from(KINDS))
    seed = draw(st.integers(0, 2**32 - 1))
    b = _Builder(kind, np.random.default_rng(seed))
    b.input(_first_shape(draw))
    count = draw(st.integers(1, max_operations))
    names = list(BUILDERS)
    while len(b.operations) < count:
        name = draw(st.sampled_from(names))
        if BUILDERS[name](draw, b) is None:
            # Nothing fits this operation yet: give the graph another input to grow on.
            b.input(_first_shape(draw))
    return b.finish(draw)


# ---------------------------------------------------------------------------
# Printing a graph as a spec
# ---------------------------------------------------------------------------

_SCALAR_CALLS = {T.INT32: "Int32Scalar", T.FLOAT32: "Float32Scalar", T.FLOAT16: "Float16Scalar"}


def _type_string(operand: Operand) -> str:
    dims = "{" + ", ".join(str(d) for d in operand.dimensions) + "}"
    if operand.scale or operand.zero_point:  # a quantized type (or a quantized TENSOR_INT32)
        return f"{dims}, {operand.scale!r}, {operand.zero_point}"
    return dims


def _values(array: np.ndarray) -> str:
    return "[" + ", ".join(repr(v) for v in array.reshape(-1).tolist()) + "]"


def _constant(model: Model, operand: Operand) -> np.ndarray:
    location = operand.location
    data = model.operand_values[location.offset : location.offset + location.length]
    return np.frombuffer(data, numpy_dtype(operand.type, model.extension_name_to_prefix))


def _operand_lines(
    model: Model, graph, names: dict[int, str], subgraphs: dict[int, str], ignored: frozenset[int]
) -> list[str]:
    """One declaration per operand of ``graph`` (the main subgraph, ``model`` itself, or a
    referenced one), named by ``names``; a SUBGRAPH operand names its sub-model's variable
    (``subgraphs``, by index into ``model.referenced``)."""
    lines = []
    for i, operand in enumerate(graph.operands):
        type_name = T(operand.type).name
        if operand.lifetime == LT.MODEL_INPUT:
            lines.append(
                f'{names[i]} = Input("{names[i]}", "{type_name}", "{_type_string(operand)}")'
            )
        elif operand.lifetime == LT.MODEL_OUTPUT:
            call = "IgnoredOutput" if graph.output_indexes.index(i) in ignored else "Output"
            lines.append(
                f'{names[i]} = {call}("{names[i]}", "{type_name}", "{_type_string(operand)}")'
            )
        elif operand.lifetime == LT.TEMPORARY_VARIABLE:
            lines.append(
                f'{names[i]} = Internal("{names[i]}", "{type_name}", "{_type_string(operand)}")'
            )
        elif operand.lifetime == LT.NO_VALUE:  # an omitted optional input
            lines.append(
                f'{names[i]} = Omitted("{names[i]}", "{type_name}", "{_type_string(operand)}")'
            )
        elif operand.lifetime == LT.SUBGRAPH:
            sub = subgraphs[operand.location.offset]
            lines.append(f'{names[i]} = SubgraphReference("{names[i]}", {sub})')
        elif operand.type in _SCALAR_CALLS:
            value = _constant(model, operand)[0].item()
            lines.append(f'{names[i]} = {_SCALAR_CALLS[operand.type]}("{names[i]}", {value!r})')
        else:
            lines.append(
                f'{names[i]} = Parameter("{names[i]}", "{type_name}", "{_type_string(operand)}", '
                f"{_values(_constant(model, operand))})"
            )
    return lines


def _operations_chain(graph, names: dict[int, str]) -> str:
    chain = ""
    for operation in graph.operations:
        ins = ", ".join(names[i] for i in operation.inputs)
        outs = ", ".join(names[i] for i in operation.outputs)
        chain += f'.Operation("{OperationType(operation.type).name}", {ins}).To({outs})'
    return chain


def _identified(graph, names: dict[int, str]) -> str:
    """``.IdentifyInputs(...).IdentifyOutputs(...)``: the graph's inputs and outputs in its
    own order (a sub-model may declare an input no operation reads)."""
    ins = ", ".join(names[i] for i in graph.input_indexes)
    outs = ", ".join(names[i] for i in graph.output_indexes)
    return f".IdentifyInputs({ins}).IdentifyOutputs({outs})"


def _referenced_order(model: Model) -> list[int]:
    """The referenced subgraphs reached from the main one, each after every subgraph it
    refers to (a sub-model is printed before the model that runs it)."""
    order: list[int] = []
    seen: set[int] = set()

    def visit(graph) -> None:
        for operand in graph.operands:
            k = operand.location.offset
            if operand.lifetime == LT.SUBGRAPH and k not in seen and 0 <= k < len(model.referenced):
                seen.add(k)  # before its own references: a cycle is not followed round
                visit(model.referenced[k])
                order.append(k)

    visit(model)
    return order


def _sub_models(model: Model) -> tuple[list[str], dict[int, str]]:
    """The declarations of every referenced subgraph (``g0``, ``g1``, ..., its operands
    ``g0_op0``, ...) as spec models, and the variable naming each."""
    order = _referenced_order(model)
    subgraphs = {k: f"g{k}" for k in order}
    lines: list[str] = []
    for k in order:
        graph = model.referenced[k]
        names = {i: f"g{k}_op{i}" for i in range(len(graph.operands))}
        lines += _operand_lines(model, graph, names, subgraphs, frozenset())
        chain = f'Model("g{k}")' + _operations_chain(graph, names) + _identified(graph, names)
        lines.append(f"g{k} = {chain}")
    return lines, subgraphs


def to_spec(
    graph: Graph,
    expected: list[np.ndarray],
    note: str = "",
    source: str = "A random graph drawn by conformance/harness/graphs.py (the [fuzz] tests).",
    ignored: frozenset[int] = frozenset(),
) -> str:
    """A spec file (test-generator language) with the graph and one example.

    ``expected`` are the outputs to demand (e.g. the reference driver's);
    ``source`` is the first comment line, saying where the case comes from;
    ``ignored`` the positions of model outputs printed as ``IgnoredOutput``. A model with
    referenced subgraphs (HAL 1.3's IF and WHILE) prints each as a sub-model first
    (``g0 = Model("g0")...``), its operands named after it, and its inputs and outputs,
    and the main model's, identified in their order.
    """
    model = graph.model
    names = {i: f"op{i}" for i in range(len(model.operands))}
    lines = [f"# {source}", f"# {graph.describe()}"]
    if note:
        lines += [f"# {line}" for line in note.splitlines()]
    sub_lines, subgraphs = _sub_models(model)
    lines += sub_lines
    lines += _operand_lines(model, model, names, subgraphs, ignored)
    chain = "Model()"
    if model.relax_computation_float32_to_float16:
        chain += ".RelaxedExecution(True)"
    chain += _operations_chain(model, names)
    if model.referenced:
        chain += _identified(model, names)
    lines.append(f"model = {chain}")
    feed = [
        f"    {names[i]}: {_values(a)},"
        for i, a in zip(model.input_indexes, graph.inputs, strict=True)
    ]
    feed += [
        f"    {names[i]}: {_values(a)},"
        for i, a in zip(model.output_indexes, expected, strict=True)
    ]
    # The one case as printed: no Android 11 lifetime variations of it.
    lines += ["Example({", *feed, "}).DisableLifeTimeVariation()"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Control flow around a drawn graph (HAL 1.3)
# ---------------------------------------------------------------------------


def _described(operand: Operand, lifetime: int) -> Operand:
    """An operand of ``operand``'s type, dimensions and quantization, of ``lifetime``."""
    return Operand(
        operand.type,
        list(operand.dimensions),
        0,
        operand.scale,
        operand.zero_point,
        lifetime,
        DataLocation(),
        operand.extra_params,
    )


class _Values:
    """The shared operand values of a model of several subgraphs, the drawn graph's first."""

    def __init__(self, initial: bytes) -> None:
        self.data = bytearray(initial)

    def constant(self, operand: Operand, data: bytes) -> Operand:
        while len(self.data) % 4:
            self.data.append(0)
        operand.lifetime = LT.CONSTANT_COPY
        operand.location = DataLocation(0, len(self.data), len(data))
        self.data += data
        return operand


def _zeros(operand: Operand) -> bytes:
    """The bytes of a tensor of ``operand``'s shape and type holding real zeros."""
    count = math.prod(operand.dimensions)
    dtype = numpy_dtype(operand.type)
    return np.full(count, operand.zero_point if operand.scale else 0, dtype).tobytes()


def _count_consumers(graph) -> None:
    for operand in graph.operands:
        operand.number_of_consumers = 0
    for operation in graph.operations:
        for index in operation.inputs:
            graph.operands[index].number_of_consumers += 1


def _as_subgraph(model: Model, prefix: list[Operand]) -> tuple[Subgraph, int]:
    """The drawn model as a subgraph whose operands follow ``prefix`` (extra inputs the
    subgraph declares first); the offset of the model's operands in it."""
    offset = len(prefix)
    operands = [*prefix, *(replace(o, dimensions=list(o.dimensions)) for o in model.operands)]
    operations = [
        Operation(o.type, [i + offset for i in o.inputs], [i + offset for i in o.outputs])
        for o in model.operations
    ]
    graph = Subgraph(
        operands,
        operations,
        [i + offset for i in model.input_indexes],
        [i + offset for i in model.output_indexes],
    )
    return graph, offset


def _in_if(draw, graph: Graph) -> Graph:
    """``graph`` as the then-branch of an IF whose else-branch gives zeros of the same
    outputs (each an ADD of two zero constants, ignoring the branch's inputs); the
    condition a model input, drawn."""
    model = graph.model
    values = _Values(model.operand_values)
    then, _ = _as_subgraph(model, [])
    other_operands = [_described(model.operands[i], LT.SUBGRAPH_INPUT) for i in model.input_indexes]
    other = Subgraph(other_operands, [], list(range(len(other_operands))), [])
    for index in model.output_indexes:
        described = model.operands[index]
        zero = values.constant(_described(described, LT.CONSTANT_COPY), _zeros(described))
        other.operands.append(zero)
        act = Operand(T.INT32, [], 0, 0.0, 0, LT.CONSTANT_COPY)
        other.operands.append(values.constant(act, struct_int(0)))
        other.operands.append(_described(described, LT.SUBGRAPH_OUTPUT))
        z = len(other.operands) - 3
        other.operations.append(Operation(OP.ADD, [z, z, z + 1], [z + 2]))
        other.output_indexes.append(z + 2)
    main = [Operand(T.TENSOR_BOOL8, [1], 0, 0.0, 0, LT.SUBGRAPH_INPUT)]
    main += [Operand(T.SUBGRAPH, [], 0, 0.0, 0, LT.SUBGRAPH, DataLocation(0, k, 0)) for k in (0, 1)]
    main += [_described(model.operands[i], LT.SUBGRAPH_INPUT) for i in model.input_indexes]
    first_out = len(main)
    main += [_described(model.operands[i], LT.SUBGRAPH_OUTPUT) for i in model.output_indexes]
    inputs = [0, *range(3, first_out)]
    outputs = list(range(first_out, len(main)))
    flag = draw(st.booleans())
    wrapped = Model(
        operands=main,
        operations=[Operation(OP.IF, [0, 1, 2, *range(3, first_out)], outputs)],
        input_indexes=inputs,
        output_indexes=outputs,
        operand_values=bytes(values.data),
        relax_computation_float32_to_float16=model.relax_computation_float32_to_float16,
        referenced=[then, other],
    )
    for g in (wrapped, then, other):
        _count_consumers(g)
    arrays = [np.asarray([flag], numpy_dtype(T.TENSOR_BOOL8)), *graph.inputs]
    names = ["IF", *graph.operations] if flag else ["IF (else: zeros)", *graph.operations]
    return Graph(graph.kind, wrapped, arrays, list(graph.output_shapes), names)


def struct_int(value: int) -> bytes:
    return np.asarray([value], np.int32).tobytes()


def _in_while(draw, graph: Graph) -> Graph:
    """``graph`` as the body of a WHILE run 0-2 times (a state-only counter against a limit
    given as a model input): its outputs the loop's input-output values, starting from
    zeros, its inputs input-only values."""
    model = graph.model
    values = _Values(model.operand_values)
    outs = [model.operands[i] for i in model.output_indexes]
    ins = [model.operands[i] for i in model.input_indexes]
    m = len(outs)

    def declared() -> list[Operand]:
        """io placeholders, the counter, the limit (each subgraph's first inputs)."""
        return [
            *(_described(o, LT.SUBGRAPH_INPUT) for o in outs),
            Operand(T.TENSOR_INT32, [1], 0, 0.0, 0, LT.SUBGRAPH_INPUT),
            Operand(T.TENSOR_INT32, [1], 0, 0.0, 0, LT.SUBGRAPH_INPUT),
        ]

    body, offset = _as_subgraph(model, declared())
    counter, limit = m, m + 1
    one = values.constant(Operand(T.TENSOR_INT32, [1], 0, 0.0, 0), struct_int(1))
    act = values.constant(Operand(T.INT32, [], 0, 0.0, 0), struct_int(0))
    body.operands += [one, act, Operand(T.TENSOR_INT32, [1], 0, 0.0, 0, LT.SUBGRAPH_OUTPUT)]
    n = len(body.operands)
    body.operations.append(Operation(OP.ADD, [counter, n - 3, n - 2], [n - 1]))
    body.input_indexes = [*range(m), counter, limit, *body.input_indexes]
    body.output_indexes = [*body.output_indexes, n - 1]
    cond_operands = [*declared(), *(_described(o, LT.SUBGRAPH_INPUT) for o in ins)]
    cond_operands.append(Operand(T.TENSOR_BOOL8, [1], 0, 0.0, 0, LT.SUBGRAPH_OUTPUT))
    go = len(cond_operands) - 1
    cond = Subgraph(
        cond_operands,
        [Operation(OP.LESS, [counter, limit], [go])],
        list(range(go)),
        [go],
    )
    main = [Operand(T.SUBGRAPH, [], 0, 0.0, 0, LT.SUBGRAPH, DataLocation(0, k, 0)) for k in (0, 1)]
    main += [values.constant(_described(o, LT.CONSTANT_COPY), _zeros(o)) for o in outs]
    main.append(values.constant(Operand(T.TENSOR_INT32, [1], 0, 0.0, 0), struct_int(0)))
    main.append(Operand(T.TENSOR_INT32, [1], 0, 0.0, 0, LT.SUBGRAPH_INPUT))
    main += [_described(o, LT.SUBGRAPH_INPUT) for o in ins]
    first_out = len(main)
    main += [_described(o, LT.SUBGRAPH_OUTPUT) for o in outs]
    limit_index = 2 + m + 1
    wrapped = Model(
        operands=main,
        operations=[
            Operation(OP.WHILE, [0, 1, *range(2, first_out)], list(range(first_out, len(main))))
        ],
        input_indexes=[limit_index, *range(limit_index + 1, first_out)],
        output_indexes=list(range(first_out, len(main))),
        operand_values=bytes(values.data),
        relax_computation_float32_to_float16=model.relax_computation_float32_to_float16,
        referenced=[cond, body],
    )
    for g in (wrapped, cond, body):
        _count_consumers(g)
    times = draw(st.integers(0, 2))
    arrays = [np.asarray([times], np.int32), *graph.inputs]
    names = [f"WHILE x{times}", *graph.operations]
    del offset
    return Graph(graph.kind, wrapped, arrays, list(graph.output_shapes), names)


@st.composite
def control_graphs(draw, kind: GraphKind | None = None, max_operations: int = 4) -> Graph:
    """A random graph run by control flow (HAL 1.3): as an IF's branch (the other one giving
    zeros) or as a WHILE's body run 0-2 times (its outputs zeros when run none)."""
    graph = draw(graphs(kind, max_operations))
    if draw(st.booleans()):
        return _in_if(draw, graph)
    return _in_while(draw, graph)
