"""Parameter-space cases: an operation's corners drawn at random, checked against an oracle.

Hand-written specs pick a few parameter combinations per operation; a driver
wrong only where nobody wrote a case passes them. Each *family* here is a
hypothesis strategy over one group of operations' parameters and shapes
(padding schemes and explicit pads, strides, dilations, layouts, axes,
broadcast shapes, fused activations, batch and channel counts), kept small so
one case runs in milliseconds. The expected outputs come from the independent
oracle scripts of ``conformance/specs/oracles`` (plain Python loops written
from the operation reference; never the reference driver), imported here by
path and run on the drawn case.

A drawn case is a ``Corner``: the model, its inputs, the oracle's outputs and
the *classes* of the parameter space it reaches (``padding:same-odd``,
``dilation>1+stride>1``, ``broadcast:ranks-differ``, ``axis:negative``, ...:
``CLASSES`` lists them per family). ``Corner.test`` gives the case as a
``GeneratedTest``, so the generated suite's runner, tolerances and skip rules
apply unchanged; ``Corner.spec`` prints it as a spec file of the
test-generator language, ready to save under ``conformance/specs``, which is
what a failure shows (after hypothesis has shrunk the case).

``unknown_inputs`` gives the twin of a case whose model declares some inputs
with one, several or all of their axes unknown (and the outputs with all
unknown): the request then carries the real dimensions in
``RequestArgument.dimensions``. ``classify`` reads the classes back from any
model (a drawn case's or a spec's), and ``drawn_classes`` counts what the
draws of an operation reach, for ``nnhal-generate --parameters``.
"""

from __future__ import annotations

import functools
import importlib.util
import struct
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType

import numpy as np
from hypothesis import strategies as st

from conformance.harness.cases import Feed, GeneratedTest
from conformance.harness.graphs import Graph, to_spec
from hal.tensors import read_constants
from hal.types import (
    DataLocation,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
)

ORACLES = Path(__file__).resolve().parents[1] / "specs" / "oracles"
"""The oracle scripts (plain Python, independent of the reference driver)."""

ACTIVATIONS = ("none", "relu", "relu1", "relu6")
"""Fused activation codes 0..3 by name."""


@functools.cache
def oracle(name: str) -> ModuleType:
    """The oracle script ``conformance/specs/oracles/<name>.py``, imported by path."""
    path = ORACLES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"nnhal_oracle_{name}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"no oracle script {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------


@dataclass
class Corner:
    """One drawn case: a one-operation model, its inputs and the oracle's outputs."""

    family: str
    operation: str
    model: Model
    inputs: list[np.ndarray]
    outputs: list[np.ndarray]
    classes: tuple[str, ...]
    """The parameter classes this case reaches (see ``CLASSES``)."""
    parameters: dict[str, object] = field(default_factory=dict)
    """The drawn parameters, by name (for messages)."""
    oracle: str = ""
    """The oracle script that computed ``outputs``."""
    dynamic: bool = True
    """Whether the unknown-dimensions twin applies (not where the output shape a driver
    reports may lawfully differ from the declared one, e.g. a reduction to rank 0)."""

    def describe(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.parameters.items())
        return f"{self.operation} ({self.family}): {shown}"

    def __repr__(self) -> str:  # what hypothesis prints of a falsifying case: no model dump
        return f"<corner {self.describe()}>"

    def test(self) -> GeneratedTest:
        """The case as a generated test (one example), for the generated suite's runner."""
        name = f"corner_{self.family}_{self.operation.lower()}"
        return GeneratedTest(
            name=name,
            dynamic_name=f"{name}_dynamic_output_shape",
            hal_folder="V1_2",
            model=self.model,
            feeds=[Feed(list(self.inputs), list(self.outputs))],
            version="V1_2",
        )

    def spec(self) -> str:
        """The case as a spec file (test-generator language), golden values the oracle's."""
        graph = Graph(
            f"{self.family} parameter-space case",
            self.model,
            list(self.inputs),
            [tuple(o.shape) for o in self.outputs],
            [self.operation],
        )
        note = (
            f"{self.describe()}\n"
            f"classes: {', '.join(self.classes)}\n"
            f"expected outputs: conformance/specs/oracles/{self.oracle}.py"
        )
        source = "A case drawn by conformance/harness/corners.py (the parameter-space tests)."
        return to_spec(graph, self.outputs, note=note, source=source)


def unknown_inputs(corner: Corner, hidden: Mapping[int, Sequence[int]]) -> Corner:
    """The twin whose model input at each position of ``hidden`` has the listed axes
    unknown (0, the rank kept), and every output all of its axes: the request then gives
    the inputs' real dimensions."""
    operands = list(corner.model.operands)
    for position, axes in hidden.items():
        index = corner.model.input_indexes[position]
        dims = list(operands[index].dimensions)
        for axis in axes:
            dims[axis] = 0
        operands[index] = replace(operands[index], dimensions=dims)
    for index in corner.model.output_indexes:
        operands[index] = replace(operands[index], dimensions=[0] * len(operands[index].dimensions))
    model = replace(corner.model, operands=operands)
    shown = {position: list(axes) for position, axes in sorted(hidden.items())}
    return replace(
        corner,
        model=model,
        classes=_classes(model, corner.outputs),
        parameters={**corner.parameters, "unknown axes by input": shown},
    )


class _Builder:
    """A one-operation model under construction (constants as CONSTANT_COPY)."""

    def __init__(self) -> None:
        self.operands: list[Operand] = []
        self.values = bytearray()
        self.inputs: list[int] = []
        self.outputs: list[int] = []

    def _add(self, operand: Operand) -> int:
        self.operands.append(operand)
        return len(self.operands) - 1

    def input(
        self,
        array: np.ndarray,
        type_: int = OperandType.TENSOR_FLOAT32,
        scale: float = 0.0,
        zero_point: int = 0,
    ) -> int:
        index = self._add(
            Operand(type_, list(array.shape), 1, scale, zero_point, OperandLifeTime.MODEL_INPUT)
        )
        self.inputs.append(index)
        return index

    def constant(self, type_: int, dims: Sequence[int], data: bytes) -> int:
        while len(self.values) % 4:
            self.values.append(0)
        location = DataLocation(0, len(self.values), len(data))
        self.values += data
        return self._add(
            Operand(type_, list(dims), 1, 0.0, 0, OperandLifeTime.CONSTANT_COPY, location)
        )

    def tensor(self, array: np.ndarray) -> int:
        return self.constant(OperandType.TENSOR_FLOAT32, array.shape, array.tobytes())

    def int32(self, value: int) -> int:
        return self.constant(OperandType.INT32, [], struct.pack("<i", value))

    def int32s(self, values: Sequence[int]) -> int:
        return self.constant(
            OperandType.TENSOR_INT32, [len(values)], struct.pack(f"<{len(values)}i", *values)
        )

    def bool(self, value: bool) -> int:
        return self.constant(OperandType.BOOL, [], bytes([1 if value else 0]))

    def output(
        self,
        shape: Sequence[int],
        type_: int = OperandType.TENSOR_FLOAT32,
        scale: float = 0.0,
        zero_point: int = 0,
    ) -> int:
        index = self._add(
            Operand(type_, list(shape), 0, scale, zero_point, OperandLifeTime.MODEL_OUTPUT)
        )
        self.outputs.append(index)
        return index

    def model(self, operation: str, inputs: Sequence[int]) -> Model:
        return Model(
            operands=self.operands,
            operations=[Operation(OperationType[operation], list(inputs), list(self.outputs))],
            input_indexes=self.inputs,
            output_indexes=self.outputs,
            operand_values=bytes(self.values),
        )


def _floats(draw, count: int) -> list[float]:
    """Small multiples of 0.5 in [-4, 4]: sums and products stay exact in float32."""
    return [v / 2 for v in draw(st.lists(st.integers(-8, 8), min_size=count, max_size=count))]


def _array(values: Sequence[float], shape: Sequence[int], dtype=np.float32) -> np.ndarray:
    return np.asarray(values, dtype).reshape(tuple(shape))


def _to_nchw(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array.transpose(0, 3, 1, 2))


def _padding_class(heads: Sequence[int], tails: Sequence[int], implicit: str) -> str:
    if implicit == "VALID":
        return "padding:valid"
    totals = [h + t for h, t in zip(heads, tails, strict=True)]
    if implicit == "SAME":
        return "padding:same-odd" if any(t % 2 for t in totals) else "padding:same-even"
    return "padding:explicit-asymmetric" if heads != tails else "padding:explicit"


def _common_classes(batch: int, channels: int, strides, dilations) -> list[str]:
    classes = []
    if batch > 1:
        classes.append("batch>1")
    if channels > 1:
        classes.append("channels>1")
    if max(strides) > 1:
        classes.append("stride>1")
    if max(dilations) > 1:
        classes.append("dilation>1")
        if max(strides) > 1:
            classes.append("dilation>1+stride>1")
    return classes


# ---------------------------------------------------------------------------
# Families
# ---------------------------------------------------------------------------

_PADDING_CODES = {"SAME": 1, "VALID": 2}


_CONV_FORMS = ("plain", "layout", "dilations")
"""The input lists drawn: without the HAL 1.2 inputs, with the layout, with layout and
dilations."""


@st.composite
def conv2d(draw, operation: str | None = None) -> Corner:
    """CONV_2D and DEPTHWISE_CONV_2D, float32: implicit (SAME/VALID) or explicit padding,
    strides, dilations, NHWC/NCHW, batch and channel counts, depth multipliers, fused
    activations, and the three input lists (without the layout, with it, with dilations)."""
    conv = oracle("convolution_oracle")
    operation = operation or draw(st.sampled_from(["CONV_2D", "DEPTHWISE_CONV_2D"]))
    depthwise = operation == "DEPTHWISE_CONV_2D"
    batch, cin = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    multiplier = draw(st.integers(1, 2)) if depthwise else 1
    cout = cin * multiplier if depthwise else draw(st.integers(1, 2))
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    form = draw(st.sampled_from(_CONV_FORMS))
    dh, dw = (draw(st.integers(1, 2)), draw(st.integers(1, 2))) if form == "dilations" else (1, 1)
    nchw = form != "plain" and draw(st.booleans())
    scheme = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    h = draw(st.integers((fh - 1) * dh + 1 if scheme == "VALID" else 1, 6))
    w = draw(st.integers((fw - 1) * dw + 1 if scheme == "VALID" else 1, 6))
    if scheme == "explicit":
        # Each pad below the effective filter size of its axis (a CPU precondition).
        eh, ew = (fh - 1) * dh + 1, (fw - 1) * dw + 1
        pt, pb = draw(st.integers(0, eh - 1)), draw(st.integers(0, eh - 1))
        pl, pr = draw(st.integers(0, ew - 1)), draw(st.integers(0, ew - 1))
        h, w = max(h, eh - pt - pb), max(w, ew - pl - pr)
    elif scheme == "SAME":
        pt, pb = conv.same_padding(h, sh, fh, dh)
        pl, pr = conv.same_padding(w, sw, fw, dw)
    else:
        pl = pr = pt = pb = 0
    act = draw(st.integers(0, 3))
    x = _floats(draw, batch * h * w * cin)
    f = _floats(draw, cout * fh * fw * (1 if depthwise else cin))
    bias = _floats(draw, cout)
    x_shape, pads = (batch, h, w, cin), (pl, pr, pt, pb)
    if depthwise:
        f_shape = (1, fh, fw, cout)
        out, shape = conv.depthwise_conv(
            x, x_shape, f, f_shape, bias, pads, (sw, sh), multiplier, (dw, dh), act
        )
    else:
        f_shape = (cout, fh, fw, cin)
        out, shape = conv.grouped_conv(
            x, x_shape, f, f_shape, bias, pads, (sw, sh), (dw, dh), 1, act
        )
    x_nhwc, out_nhwc = _array(x, x_shape), _array(out, shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    b = _Builder()
    operands = [b.input(x_array), b.tensor(_array(f, f_shape)), b.tensor(_array(bias, (cout,)))]
    if scheme == "explicit":
        operands += [b.int32(v) for v in (pl, pr, pt, pb)]
    else:
        operands.append(b.int32(_PADDING_CODES[scheme]))
    operands += [b.int32(sw), b.int32(sh)]
    if depthwise:
        operands.append(b.int32(multiplier))
    operands.append(b.int32(act))
    if form != "plain":
        operands.append(b.bool(nchw))
    if form == "dilations":
        operands += [b.int32(dw), b.int32(dh)]
    b.output(out_array.shape)
    model = b.model(operation, operands)
    parameters = {
        "input": x_shape, "filter": f_shape, "padding": scheme, "pads (l, r, t, b)": pads,
        "strides (w, h)": (sw, sh), "dilations (w, h)": (dw, dh),
        "activation": ACTIVATIONS[act], "layout": "NCHW" if nchw else "NHWC",
        "inputs": form,
    }  # fmt: skip
    if depthwise:
        parameters["depth multiplier"] = multiplier
    return Corner(
        "conv2d", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "convolution_oracle",
    )  # fmt: skip


_POOLS = {"AVERAGE_POOL_2D": "avg", "MAX_POOL_2D": "max", "L2_POOL_2D": "l2"}


@st.composite
def pool2d(draw, operation: str | None = None) -> Corner:
    """AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D, float32: implicit or explicit padding,
    strides, window sizes, NHWC/NCHW, batch and channel counts, fused activations."""
    pools = oracle("pooling_oracle")
    operation = operation or draw(st.sampled_from(sorted(_POOLS)))
    batch, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    scheme = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    h = draw(st.integers(fh if scheme == "VALID" else 1, 6))
    w = draw(st.integers(fw if scheme == "VALID" else 1, 6))
    if scheme == "explicit":
        # A pad smaller than the window: every window holds an in-image cell.
        pt, pb = draw(st.integers(0, fh - 1)), draw(st.integers(0, fh - 1))
        pl, pr = draw(st.integers(0, fw - 1)), draw(st.integers(0, fw - 1))
        if h + pt + pb < fh or w + pl + pr < fw:
            h, w = max(h, fh), max(w, fw)
        pads = (pt, pb, pl, pr)
    else:
        pads = pools.implicit_pads((batch, h, w, c), scheme, (sh, sw), (fh, fw))
    act = draw(st.integers(0, 3))
    nchw = draw(st.booleans())
    x = _floats(draw, batch * h * w * c)
    out, shape = pools.pool(_POOLS[operation], x, (batch, h, w, c), pads, (sh, sw), (fh, fw), act)
    x_nhwc, out_nhwc = _array(x, (batch, h, w, c)), _array(out, shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    b = _Builder()
    operands = [b.input(x_array)]
    pt, pb, pl, pr = pads
    if scheme == "explicit":
        operands += [b.int32(v) for v in (pl, pr, pt, pb)]
    else:
        operands.append(b.int32(_PADDING_CODES[scheme]))
    operands += [b.int32(v) for v in (sw, sh, fw, fh, act)]
    operands.append(b.bool(nchw))
    b.output(out_array.shape)
    model = b.model(operation, operands)
    classes = _classes(model, [out_array])
    parameters = {
        "input": (batch, h, w, c), "window (w, h)": (fw, fh), "padding": scheme,
        "pads (l, r, t, b)": (pl, pr, pt, pb), "strides (w, h)": (sw, sh),
        "activation": ACTIVATIONS[act], "layout": "NCHW" if nchw else "NHWC",
    }  # fmt: skip
    return Corner(
        "pool2d", operation, model, [x_array], [out_array], classes, parameters,
        "pooling_oracle",
    )  # fmt: skip


_BINARY = ("ADD", "DIV", "MAXIMUM", "MINIMUM", "MUL", "SUB")
_WITH_ACTIVATION = frozenset({"ADD", "SUB", "MUL", "DIV"})


@st.composite
def _broadcast_shapes(draw) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two shapes that broadcast: ranks 1..4 each, sizes 1..3, a 1 where they differ."""
    rank = draw(st.integers(1, 4))
    full = [draw(st.integers(1, 3)) for _ in range(rank)]
    shapes = []
    for _ in range(2):
        own_rank = draw(st.integers(1, rank))
        shape = [1 if draw(st.booleans()) else size for size in full[rank - own_rank :]]
        shapes.append(tuple(shape))
    return shapes[0], shapes[1]


_SCALES = (1 / 256, 1 / 128, 0.03125, 0.1, 0.5, 1.0, 2.5, 10.0)
"""Quantization scales drawn: from a 256th (a byte spans [0, 1)) to 10."""
_ZERO_POINTS = st.one_of(st.sampled_from([0, 1, 127, 128, 254, 255]), st.integers(0, 255))
_QUANT8 = frozenset({"ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM"})


def _quant_params(draw, operation: str) -> tuple[tuple[float, int], ...]:
    params = [(draw(st.sampled_from(_SCALES)), draw(_ZERO_POINTS)) for _ in range(3)]
    (sa, _), (sb, _), (so, zo) = params
    if operation == "MUL" and not so > sa * sb:  # the CPU's precondition
        params[2] = (sa * sb * draw(st.sampled_from([1.5, 2.0, 16.0])), zo)
    return tuple(params)


@st.composite
def binary(draw, operation: str | None = None) -> Corner:
    """ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM: broadcasting between shapes of different
    ranks and sizes of 1, fused activations (where the operation has one); float32,
    and but for DIV also TENSOR_QUANT8_ASYMM with scales and zero points of each input
    and the output drawn apart, near the ends of their ranges."""
    elementwise = oracle("elementwise_oracle")
    operation = operation or draw(st.sampled_from(sorted(_BINARY)))
    sa, sb = draw(_broadcast_shapes())
    act = draw(st.integers(0, 3)) if operation in _WITH_ACTIVATION else 0
    quant = operation in _QUANT8 and draw(st.booleans())
    builder = _Builder()
    if quant:
        params = _quant_params(draw, operation)
        count_a, count_b = int(np.prod(sa)), int(np.prod(sb))
        qa = draw(st.lists(st.integers(0, 255), min_size=count_a, max_size=count_a))
        qb = draw(st.lists(st.integers(0, 255), min_size=count_b, max_size=count_b))
        fixed = elementwise.FIXED_OPS[operation]
        shape, out = elementwise.elementwise(
            lambda x, y: fixed(x, y, *params, ACTIVATIONS[act]), sa, qa, sb, qb
        )
        inputs = [_array(qa, sa, np.uint8), _array(qb, sb, np.uint8)]
        out_array = _array(out, shape, np.uint8)
        quant8 = OperandType.TENSOR_QUANT8_ASYMM
        operands = [builder.input(a, quant8, *p) for a, p in zip(inputs, params, strict=False)]
        shown = {"quant (scale, zero point) a, b, out": params}
    else:
        a = _floats(draw, int(np.prod(sa)))
        b_values = _floats(draw, int(np.prod(sb)))
        if operation == "DIV":  # no division by zero: its sign rules are the specs' business
            b_values = [v if v != 0 else 0.5 for v in b_values]
        shape, out = elementwise.float_golden(operation, sa, a, sb, b_values, ACTIVATIONS[act])
        inputs = [_array(a, sa), _array(b_values, sb)]
        out_array = _array(out, shape)
        operands = [builder.input(x) for x in inputs]
        params, shown = ((0.0, 0),) * 3, {}
    if operation in _WITH_ACTIVATION:
        operands.append(builder.int32(act))
    builder.output(
        out_array.shape, *((OperandType.TENSOR_QUANT8_ASYMM, *params[2]) if quant else ())
    )
    model = builder.model(operation, operands)
    classes = _classes(model, [out_array])
    parameters = {"a": sa, "b": sb, "activation": ACTIVATIONS[act], **shown}
    return Corner(
        "binary", operation, model, inputs, [out_array], classes, parameters,
        "elementwise_oracle",
    )  # fmt: skip


_REDUCTIONS = {
    "REDUCE_SUM": "total",
    "REDUCE_PROD": "product",
    "REDUCE_MAX": "max",
    "REDUCE_MIN": "min",
    "MEAN": "mean",
}


@st.composite
def reduce(draw, operation: str | None = None) -> Corner:
    """REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN and MEAN, float32: one or several
    axes, negative and positive, repeated, keep_dims or not."""
    reduction = oracle("reduction_oracle")
    operation = operation or draw(st.sampled_from(sorted(_REDUCTIONS)))
    rank = draw(st.integers(1, 4))
    shape = tuple(draw(st.integers(1, 3)) for _ in range(rank))
    axes = draw(st.lists(st.integers(-rank, rank - 1), min_size=1, max_size=rank + 1))
    keep = draw(st.booleans())
    x = _floats(draw, int(np.prod(shape)))
    combine = {"max": max, "min": min}.get(_REDUCTIONS[operation]) or getattr(
        reduction, _REDUCTIONS[operation]
    )
    out_shape, out = reduction.reduce_axes(x, shape, axes, keep, combine)
    builder = _Builder()
    operands = [builder.input(_array(x, shape)), builder.int32s(axes)]
    if operation == "MEAN":
        operands.append(builder.int32(1 if keep else 0))
    else:
        operands.append(builder.bool(keep))
    out_array = _array(out, out_shape)
    builder.output(out_array.shape)
    model = builder.model(operation, operands)
    positive = {a % rank for a in axes}
    classes = _classes(model, [out_array])
    parameters = {"input": shape, "axes": axes, "keep_dims": keep}
    return Corner(
        "reduce", operation, model, [_array(x, shape)], [out_array], classes,
        parameters, "reduction_oracle", dynamic=keep or len(positive) < rank,
    )  # fmt: skip


_AXIS_OPERATIONS = ("ARGMAX", "ARGMIN", "CONCATENATION", "L2_NORMALIZATION", "SOFTMAX")


@st.composite
def axis(draw, operation: str | None = None) -> Corner:
    """ARGMAX, ARGMIN, CONCATENATION, L2_NORMALIZATION, SOFTMAX, float32: ranks 1-4 (2-4
    for the arg operations), the axis anywhere in the tensor and negative where the
    operation allows it (not CONCATENATION), 2-3 concatenated inputs, SOFTMAX's beta."""
    operation = operation or draw(st.sampled_from(_AXIS_OPERATIONS))
    low_rank = 2 if operation in ("ARGMAX", "ARGMIN") else 1
    rank = draw(st.integers(low_rank, 4))
    shape = tuple(draw(st.integers(1, 3)) for _ in range(rank))
    low_axis = 0 if operation == "CONCATENATION" else -rank
    chosen = draw(st.integers(low_axis, rank - 1))
    x = _floats(draw, int(np.prod(shape)))
    builder = _Builder()
    parameters: dict[str, object] = {"input": shape, "axis": chosen}
    if operation == "CONCATENATION":
        parts = [(x, shape)]
        for _ in range(draw(st.integers(1, 2))):
            other = list(shape)
            other[chosen] = draw(st.integers(1, 3))
            parts.append((_floats(draw, int(np.prod(other))), tuple(other)))
        out, out_shape = oracle("shape_oracle").concatenation(parts, chosen)
        inputs = [_array(values, part) for values, part in parts]
        operands = [builder.input(a) for a in inputs] + [builder.int32(chosen)]
        parameters["inputs"] = [part for _, part in parts]
        out_array = _array(out, out_shape)
    elif operation in ("ARGMAX", "ARGMIN"):
        better = (lambda a, b: a > b) if operation == "ARGMAX" else (lambda a, b: a < b)
        out_shape, out = oracle("reduction_oracle").arg_extreme(x, shape, chosen, better)
        inputs = [_array(x, shape)]
        operands = [builder.input(inputs[0]), builder.int32(chosen)]
        out_array = _array(out, out_shape, np.int32)
    else:
        pools = oracle("pooling_oracle")
        if operation == "L2_NORMALIZATION":  # no all-zero line: its result is undefined
            for line in pools.lines(list(shape), chosen):
                if all(x[k] == 0 for k in line):
                    x[line[0]] = 1.0
            out = pools.l2_normalization(x, list(shape), chosen)
            inputs = [_array(x, shape)]
            operands = [builder.input(inputs[0]), builder.int32(chosen)]
        else:
            beta = draw(st.sampled_from([0.5, 1.0, 2.0]))
            out = pools.softmax(x, list(shape), beta, chosen)
            inputs = [_array(x, shape)]
            beta_operand = builder.constant(OperandType.FLOAT32, [], struct.pack("<f", beta))
            operands = [builder.input(inputs[0]), beta_operand, builder.int32(chosen)]
            parameters["beta"] = beta
        out_array = _array(out, shape)
    out_type = OperandType.TENSOR_INT32 if out_array.dtype == np.int32 else None
    builder.output(out_array.shape, *((out_type,) if out_type is not None else ()))
    model = builder.model(operation, operands)
    return Corner(
        "axis", operation, model, inputs, [out_array], _classes(model, [out_array]),
        parameters, _AXIS_ORACLES[operation],
    )  # fmt: skip


_AXIS_ORACLES = {
    "ARGMAX": "reduction_oracle",
    "ARGMIN": "reduction_oracle",
    "CONCATENATION": "shape_oracle",
    "L2_NORMALIZATION": "pooling_oracle",
    "SOFTMAX": "pooling_oracle",
}


_SHAPE_OPERATIONS = ("PAD", "SLICE", "TRANSPOSE")


@st.composite
def shape(draw, operation: str | None = None) -> Corner:
    """PAD, SLICE and TRANSPOSE, float32, ranks 1-4: paddings of 0-2 on each side of
    each axis, slices anywhere with sizes given or -1 (to the end), any permutation."""
    shapes = oracle("shape_oracle")
    operation = operation or draw(st.sampled_from(_SHAPE_OPERATIONS))
    rank = draw(st.integers(1, 4))
    dims = [draw(st.integers(1, 3)) for _ in range(rank)]
    x = _floats(draw, int(np.prod(dims)))
    builder = _Builder()
    inputs = [_array(x, dims)]
    operands = [builder.input(inputs[0])]
    if operation == "TRANSPOSE":
        perm = draw(st.permutations(list(range(rank))))
        out, out_shape = shapes.transpose(x, dims, perm)
        operands.append(builder.int32s(perm))
        parameters: dict[str, object] = {"input": tuple(dims), "perm": list(perm)}
    elif operation == "PAD":
        paddings = [(draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(rank)]
        out, out_shape = shapes.pad(x, dims, paddings, 0.0)
        operands.append(
            builder.constant(
                OperandType.TENSOR_INT32,
                [rank, 2],
                struct.pack(f"<{2 * rank}i", *(v for pair in paddings for v in pair)),
            )
        )
        parameters = {"input": tuple(dims), "paddings": paddings}
    else:
        begin = [draw(st.integers(0, d - 1)) for d in dims]
        size = [
            draw(st.sampled_from([-1, *range(1, d - b + 1)]))
            for d, b in zip(dims, begin, strict=True)
        ]
        out, out_shape = shapes.slice_(x, dims, begin, size)
        operands += [builder.int32s(begin), builder.int32s(size)]
        parameters = {"input": tuple(dims), "begin": begin, "size": size}
    out_array = _array(out, out_shape)
    builder.output(out_array.shape)
    model = builder.model(operation, operands)
    return Corner(
        "shape", operation, model, inputs, [out_array], _classes(model, [out_array]),
        parameters, "shape_oracle",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# Classes of the parameter space, read from a model
# ---------------------------------------------------------------------------


def classify(model: Model, outputs: Sequence[np.ndarray] = ()) -> list[tuple[str, tuple[str, ...]]]:
    """(operation name, its parameter classes) for each operation of ``model`` a family
    covers, read from the model itself: its operand shapes, quantization and constant
    parameters (``outputs``, the expected values where known, show saturation). The
    same reading serves drawn cases and the specs' generated models, so the coverage
    report compares like with like. A parameter held in a model input (not a constant)
    is not read, and gives no class."""
    try:
        constants = read_constants(model)
    except Exception:  # a pool that cannot be opened: the shapes still say something
        constants = {}
    found = []
    for operation in model.operations:
        try:
            name = OperationType(operation.type).name
        except ValueError:
            continue
        reader = _CLASSIFIERS.get(name)
        if reader is None:
            continue
        try:
            classes = reader(model, operation, constants, name)
        except (IndexError, KeyError, TypeError, ValueError):
            continue  # a shape or parameter the family does not draw
        if operation.outputs and list(operation.outputs) == list(model.output_indexes):
            classes += _output_classes(model, outputs)
        classes += _request_classes(model, operation)
        found.append((name, tuple(dict.fromkeys(classes))))
    return found


def _scalar(constants: dict[int, np.ndarray], index: int) -> int | None:
    value = constants.get(index)
    return None if value is None else int(value.reshape(-1)[0])


def _activation(constants, inputs, position: int) -> list[str]:
    code = _scalar(constants, inputs[position]) if len(inputs) > position else None
    return [f"activation:{ACTIVATIONS[code]}"] if code in range(4) else []


def _window_classes(model, operation, constants, name) -> list[str]:
    """The convolutions and the 2-D pools: padding, strides, dilations, layout, batch,
    channels, depth multiplier, which input list."""
    inputs = operation.inputs
    count = len(inputs)
    kind = {"CONV_2D": "conv", "DEPTHWISE_CONV_2D": "depthwise"}.get(name, "pool")
    first = 1 if kind == "pool" else 3  # the first padding input
    bool_at = lambda i: count > i and model.operands[inputs[i]].type == OperandType.BOOL  # noqa: E731
    if kind == "conv":  # 10 inputs: explicit without a layout, or implicit with dilations
        explicit = count in (11, 13) or (count == 10 and not bool_at(7))
    elif kind == "depthwise":
        explicit = count >= 11 and not bool_at(8)
    else:
        explicit = count in (10, 11)
    strides_at = first + (4 if explicit else 1)
    value = functools.partial(_scalar, constants)
    sw, sh = value(inputs[strides_at]), value(inputs[strides_at + 1])
    multiplier = 1
    if kind == "pool":
        fw, fh = value(inputs[strides_at + 2]), value(inputs[strides_at + 3])
        act_at = strides_at + 4
    else:
        _, fh, fw, _ = model.operands[inputs[1]].dimensions
        act_at = strides_at + 2
        if kind == "depthwise":
            multiplier = value(inputs[act_at])
            act_at += 1
    layout_at = act_at + 1
    nchw = count > layout_at and bool(value(inputs[layout_at]))
    dilated = kind != "pool" and count > layout_at + 2
    dw, dh = (value(inputs[layout_at + 1]), value(inputs[layout_at + 2])) if dilated else (1, 1)
    dims = list(model.operands[inputs[0]].dimensions)
    batch, h, w, c = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    if explicit:
        pl, pr, pt, pb = (value(inputs[first + k]) for k in range(4))
        padding = _padding_class((pt, pl), (pb, pr), "explicit")
    else:
        scheme = {1: "SAME", 2: "VALID"}[value(inputs[first])]
        same = oracle("convolution_oracle").same_padding
        (pt, pb), (pl, pr) = same(h, sh, fh, dh), same(w, sw, fw, dw)
        padding = _padding_class((pt, pl), (pb, pr), scheme)
    classes = [padding]
    classes += _common_classes(batch, c, (sh, sw), (dh, dw))
    classes += _activation(constants, inputs, act_at)
    classes.append("layout:nchw" if nchw else "layout:nhwc")
    if kind != "pool":
        classes.append(
            "inputs:dilations"
            if dilated
            else "inputs:layout"
            if count > layout_at
            else "inputs:plain"
        )
    if multiplier > 1:
        classes.append("multiplier>1")
    if kind == "pool" and (fh > sh or fw > sw):
        classes.append("window>stride")
    classes += _quant_classes_of(model, inputs[:1])
    return classes


def _binary_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    sa = list(model.operands[inputs[0]].dimensions)
    sb = list(model.operands[inputs[1]].dimensions)
    classes = []
    if len(sa) != len(sb):
        classes.append("broadcast:ranks-differ")
    classes.append("broadcast:size-1" if sa != sb else "broadcast:none")
    if max(len(sa), len(sb)) == 4:
        classes.append("rank:4")
    if name in _WITH_ACTIVATION:
        classes += _activation(constants, inputs, 2)
    classes += _quant_classes_of(model, [inputs[0], inputs[1], *operation.outputs[:1]])
    return classes


def _reduce_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    rank = len(model.operands[inputs[0]].dimensions)
    axes = [int(a) for a in constants[inputs[1]].reshape(-1)]
    keep = bool(_scalar(constants, inputs[2]))
    positive = {a % rank for a in axes}
    classes = []
    if any(a < 0 for a in axes):
        classes.append("axis:negative")
    classes.append("axis:several" if len(positive) > 1 else "axis:one")
    if len(positive) < len(axes):
        classes.append("axis:repeated")
    if len(positive) == rank:
        classes.append("axis:all")
    classes.append("keep-dims" if keep else "drop-dims")
    return classes


def _axis_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    axis_at = {"SOFTMAX": 2, "CONCATENATION": len(inputs) - 1}.get(name, 1)
    rank = len(model.operands[inputs[0]].dimensions)
    chosen = _scalar(constants, inputs[axis_at]) if len(inputs) > axis_at else -1
    classes = [f"rank:{rank}"]
    if chosen < 0:
        classes.append("axis:negative")
    position = chosen % rank
    classes.append(
        "axis:last" if position == rank - 1 else "axis:first" if position == 0 else "axis:inner"
    )
    if name == "CONCATENATION" and len(inputs) > 3:
        classes.append("inputs:3")
    return classes


def _shape_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    rank = len(model.operands[inputs[0]].dimensions)
    dims = list(model.operands[inputs[0]].dimensions)
    classes = [f"rank:{rank}"]
    if name == "TRANSPOSE":
        perm = [int(p) for p in constants[inputs[1]].reshape(-1)]
        if perm == sorted(perm):
            classes.append("perm:identity")
        elif perm == sorted(perm, reverse=True):
            classes.append("perm:reverse")
        else:
            classes.append("perm:other")
    elif name == "PAD":
        pairs = constants[inputs[1]].reshape(-1, 2).tolist()
        if any(before != after for before, after in pairs):
            classes.append("pad:asymmetric")
        classes.append("pad:every-axis" if all(b or a for b, a in pairs) else "pad:some-axes")
    else:
        begin = [int(b) for b in constants[inputs[1]].reshape(-1)]
        size = [int(v) for v in constants[inputs[2]].reshape(-1)]
        if -1 in size:
            classes.append("size:-1")
        if any(b > 0 for b in begin):
            classes.append("slice:offset")
        if any(v != -1 and b + v < d for b, v, d in zip(begin, size, dims, strict=True)):
            classes.append("slice:short-of-end")
    return classes


def _quant_classes_of(model: Model, indexes: Sequence[int]) -> list[str]:
    """Where the quantization of these operands lies: zero points at the ends of their
    range, tiny or large scales, operands quantized differently."""
    operands = [model.operands[i] for i in indexes]
    if not operands or any(o.type != OperandType.TENSOR_QUANT8_ASYMM for o in operands):
        return []
    params = [(o.scale, o.zero_point) for o in operands]
    zero_points, scales = [z for _, z in params], [s for s, _ in params]
    classes = ["quant8"]
    if 0 in zero_points:
        classes.append("quant:zero-point-0")
    if 255 in zero_points:
        classes.append("quant:zero-point-255")
    if min(scales) <= 1 / 128:
        classes.append("quant:scale-tiny")
    if max(scales) >= 2.5:
        classes.append("quant:scale-large")
    if len(set(params)) > 1:
        classes.append("quant:params-differ")
    return classes


def _output_classes(model: Model, outputs: Sequence[np.ndarray]) -> list[str]:
    for index, values in zip(model.output_indexes, outputs, strict=False):
        if model.operands[index].type == OperandType.TENSOR_QUANT8_ASYMM and (
            np.any(values == 0) or np.any(values == 255)
        ):
            return ["quant:output-at-range-end"]
    return []


def _request_classes(model: Model, operation: Operation) -> list[str]:
    """Model inputs of the operation whose dimensions the model leaves partly unknown (the
    request gives them): ``request-dims:one-unknown`` or ``several-unknown`` (the most
    axes unknown in one input), ``request-dims:all-inputs`` or ``some-inputs``."""
    inputs = [i for i in operation.inputs if i in model.input_indexes]
    unknown = [model.operands[i].dimensions.count(0) for i in inputs]
    if not any(unknown):
        return []
    classes = ["request-dims:several-unknown" if max(unknown) > 1 else "request-dims:one-unknown"]
    classes.append("request-dims:all-inputs" if all(unknown) else "request-dims:some-inputs")
    return classes


_CLASSIFIERS = {
    "CONV_2D": _window_classes,
    "DEPTHWISE_CONV_2D": _window_classes,
    **dict.fromkeys(_POOLS, _window_classes),
    **dict.fromkeys(_BINARY, _binary_classes),
    **dict.fromkeys(_REDUCTIONS, _reduce_classes),
    **dict.fromkeys(_AXIS_OPERATIONS, _axis_classes),
    **dict.fromkeys(_SHAPE_OPERATIONS, _shape_classes),
}


def _classes(model: Model, outputs: Sequence[np.ndarray]) -> tuple[str, ...]:
    """The classes of a drawn one-operation case."""
    ((_, classes),) = classify(model, outputs)
    return classes


FAMILIES: dict[str, Callable[..., st.SearchStrategy[Corner]]] = {
    "conv2d": conv2d,
    "pool2d": pool2d,
    "binary": binary,
    "reduce": reduce,
    "axis": axis,
    "shape": shape,
}
"""Every family: its name, and the strategy drawing its cases (of one operation if named)."""

OPERATIONS: dict[str, tuple[str, ...]] = {
    "conv2d": ("CONV_2D", "DEPTHWISE_CONV_2D"),
    "pool2d": tuple(sorted(_POOLS)),
    "binary": tuple(sorted(_BINARY)),
    "reduce": tuple(sorted(_REDUCTIONS)),
    "axis": _AXIS_OPERATIONS,
    "shape": _SHAPE_OPERATIONS,
}
"""The operations each family draws."""

CLASSES: dict[str, tuple[str, ...]] = {
    "conv2d": (
        "padding:same-odd", "padding:same-even", "padding:valid", "padding:explicit",
        "padding:explicit-asymmetric", "stride>1", "dilation>1", "dilation>1+stride>1",
        "batch>1", "channels>1", "layout:nchw", "layout:nhwc", "activation:relu6",
        "inputs:plain", "inputs:layout", "inputs:dilations", "multiplier>1",
    ),
    "pool2d": (
        "padding:same-odd", "padding:same-even", "padding:valid", "padding:explicit-asymmetric",
        "stride>1", "window>stride", "batch>1", "channels>1", "layout:nchw", "activation:relu1",
    ),
    "binary": (
        "broadcast:ranks-differ", "broadcast:size-1", "broadcast:none", "rank:4", "quant8",
        "quant:zero-point-0", "quant:zero-point-255", "quant:scale-tiny", "quant:scale-large",
        "quant:params-differ", "quant:output-at-range-end",
    ),
    "reduce": ("axis:negative", "axis:several", "axis:repeated", "axis:all", "keep-dims",
               "drop-dims"),
    "axis": ("axis:negative", "axis:first", "axis:inner", "axis:last", "rank:1", "rank:4"),
    "shape": ("rank:1", "rank:4", "perm:identity", "perm:reverse", "perm:other",
              "pad:asymmetric", "pad:every-axis", "pad:some-axes", "size:-1", "slice:offset",
              "slice:short-of-end"),
}  # fmt: skip
"""The parameter classes each family must reach (checked by the project's tests and shown
by ``nnhal-generate --parameters``); a twin of unknown input dimensions adds
``request-dims:one-unknown`` or ``several-unknown`` (axes unknown in one input) and
``request-dims:all-inputs`` or ``some-inputs``."""


def family_of(operation: str) -> str | None:
    """The family drawing ``operation``'s cases, if any."""
    return next((f for f, ops in OPERATIONS.items() if operation in ops), None)


def drawn_classes(operation: str, count: int) -> Counter[str]:
    """How many of ``count`` drawn cases of ``operation`` (the same draws every time; each
    with its unknown-dimensions twins) reach each class."""
    from hypothesis import HealthCheck, given, settings

    family = family_of(operation)
    if family is None:
        raise ValueError(f"no parameter-space family draws {operation}")
    reached: Counter[str] = Counter()

    @settings(
        max_examples=count,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(FAMILIES[family](operation))
    def draw(corner: Corner) -> None:
        found = set(corner.classes)  # a class counts once per draw, its twins included
        if corner.dynamic:
            ranks = [a.ndim for a in corner.inputs]
            for hidden in ({0: [0]}, {p: range(rank) for p, rank in enumerate(ranks)}):
                twin = unknown_inputs(corner, hidden)
                found.update(c for c in twin.classes if c.startswith("request"))
        reached.update(found)

    draw()
    return reached
