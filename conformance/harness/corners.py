"""Parameter-space cases: an operation's corners drawn at random, checked against an oracle.

Hand-written specs pick a few parameter combinations per operation; a driver
wrong only where nobody wrote a case passes them. Each *family* here is a
hypothesis strategy over one group of operations' parameters and shapes
(padding schemes and explicit pads, strides, dilations, layouts, axes,
broadcast shapes, fused activations, batch and channel counts, block shapes,
slice bounds and masks, output sizes and scales), kept small so
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

    def float32(self, value: float) -> int:
        return self.constant(OperandType.FLOAT32, [], struct.pack("<f", value))

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


def _exactly(element: st.SearchStrategy, count: int) -> st.SearchStrategy[list]:
    """Lists of ``count`` values drawn from ``element``."""
    return st.lists(element, min_size=count, max_size=count)


def _floats(draw, count: int) -> list[float]:
    """Small multiples of 0.5 in [-4, 4]: sums and products stay exact in float32."""
    return [v / 2 for v in draw(_exactly(st.integers(-8, 8), count))]


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


def _count_classes(batch: int, channels: int) -> list[str]:
    """``batch>1`` and ``channels>1``, where they hold."""
    return [name for name, count in (("batch>1", batch), ("channels>1", channels)) if count > 1]


def _common_classes(batch: int, channels: int, strides, dilations) -> list[str]:
    classes = _count_classes(batch, channels)
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
    with_layout = draw(st.booleans())  # without it: the input list of HAL 1.0
    nchw = with_layout and draw(st.booleans())
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
    if with_layout:
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


_BINARY = ("ADD", "DIV", "MAXIMUM", "MINIMUM", "MUL", "POW", "PRELU", "SUB")
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
_QUANT8 = frozenset({"ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM", "PRELU"})


def _quant_params(draw, operation: str) -> tuple[tuple[float, int], ...]:
    params = [(draw(st.sampled_from(_SCALES)), draw(_ZERO_POINTS)) for _ in range(3)]
    (sa, _), (sb, _), (so, zo) = params
    if operation == "MUL" and not so > sa * sb:  # the CPU's precondition
        params[2] = (sa * sb * draw(st.sampled_from([1.5, 2.0, 16.0])), zo)
    return tuple(params)


@st.composite
def binary(draw, operation: str | None = None) -> Corner:
    """ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, POW, PRELU: broadcasting between shapes of
    different ranks and sizes of 1, fused activations (where the operation has one);
    float32 (POW of a positive base), and but for DIV and POW also TENSOR_QUANT8_ASYMM
    with scales and zero points of each input and the output drawn apart, near the ends
    of their ranges."""
    elementwise = oracle("elementwise_oracle")
    operation = operation or draw(st.sampled_from(sorted(_BINARY)))
    sa, sb = draw(_broadcast_shapes())
    act = draw(st.integers(0, 3)) if operation in _WITH_ACTIVATION else 0
    quant = operation in _QUANT8 and draw(st.booleans())
    builder = _Builder()
    if quant:
        params = _quant_params(draw, operation)
        count_a, count_b = int(np.prod(sa)), int(np.prod(sb))
        qa = draw(_exactly(st.integers(0, 255), count_a))
        qb = draw(_exactly(st.integers(0, 255), count_b))
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
        if operation == "POW":  # a positive base: NaN and infinities are the specs' business
            a = [abs(v) or 0.5 for v in a]
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
    "REDUCE_ALL": "all_true",
    "REDUCE_ANY": "any_true",
}
_BOOL_REDUCTIONS = frozenset({"REDUCE_ALL", "REDUCE_ANY"})


@st.composite
def reduce(draw, operation: str | None = None) -> Corner:
    """REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN and MEAN over float32, REDUCE_ALL
    and REDUCE_ANY over TENSOR_BOOL8 (true bytes other than 1 too): one or several axes,
    negative and positive, repeated, keep_dims or not."""
    reduction = oracle("reduction_oracle")
    operation = operation or draw(st.sampled_from(sorted(_REDUCTIONS)))
    rank = draw(st.integers(1, 4))
    shape = tuple(draw(st.integers(1, 3)) for _ in range(rank))
    axes = draw(st.lists(st.integers(-rank, rank - 1), min_size=1, max_size=rank + 1))
    keep = draw(st.booleans())
    logical = operation in _BOOL_REDUCTIONS
    if logical:
        count = int(np.prod(shape))
        x = draw(_exactly(st.sampled_from([1, 0, 1, 7, 255]), count))
    else:
        x = _floats(draw, int(np.prod(shape)))
    combine = {"max": max, "min": min}.get(_REDUCTIONS[operation]) or getattr(
        reduction, _REDUCTIONS[operation]
    )
    out_shape, out = reduction.reduce_axes(x, shape, axes, keep, combine)
    builder = _Builder()
    x_array = _array(x, shape, np.uint8) if logical else _array(x, shape)
    kind = (OperandType.TENSOR_BOOL8,) if logical else ()
    operands = [builder.input(x_array, *kind), builder.int32s(axes)]
    if operation == "MEAN":
        operands.append(builder.int32(1 if keep else 0))
    else:
        operands.append(builder.bool(keep))
    out_array = _array(out, out_shape, np.bool_ if logical else np.float32)
    builder.output(out_array.shape, *kind)
    model = builder.model(operation, operands)
    positive = {a % rank for a in axes}
    classes = _classes(model, [out_array])
    parameters = {"input": shape, "axes": axes, "keep_dims": keep}
    return Corner(
        "reduce", operation, model, [x_array], [out_array], classes,
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


_MOVES = ("BATCH_TO_SPACE_ND", "DEPTH_TO_SPACE", "SPACE_TO_BATCH_ND", "SPACE_TO_DEPTH")
_MOVE_LAYOUT_AT = {"SPACE_TO_BATCH_ND": 3}
"""Where each block rearrangement takes its optional layout (2 for the others)."""


@st.composite
def moves(draw, operation: str | None = None) -> Corner:
    """SPACE_TO_DEPTH, DEPTH_TO_SPACE (block size 2-3), SPACE_TO_BATCH_ND (a block of 1-3
    per spatial axis, paddings of 0-2 on each side, the padded sizes multiples of the
    block), BATCH_TO_SPACE_ND (a block of 1-3 per axis, the batch a multiple of the block's
    cells), float32: batch 1-2, 1-3 channels, NHWC/NCHW, and both input lists (without the
    HAL 1.2 layout, with it)."""
    shapes = oracle("shape_oracle")
    operation = operation or draw(st.sampled_from(_MOVES))
    batch, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    form = draw(st.sampled_from(("plain", "layout")))
    nchw = form == "layout" and draw(st.booleans())
    builder = _Builder()
    parameters: dict[str, object] = {}
    if operation in ("SPACE_TO_DEPTH", "DEPTH_TO_SPACE"):
        block = draw(st.integers(2, 3))
        if operation == "SPACE_TO_DEPTH":
            x_shape = (batch, block * draw(st.integers(1, 2)), block * draw(st.integers(1, 2)), c)
        else:
            x_shape = (batch, draw(st.integers(1, 2)), draw(st.integers(1, 2)), block * block * c)
        x = _floats(draw, int(np.prod(x_shape)))
        move = shapes.space_to_depth if operation == "SPACE_TO_DEPTH" else shapes.depth_to_space
        out, out_shape = move(x, x_shape, block)
        parameters["block size"] = block
    else:
        bh, bw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        parameters["block shape (h, w)"] = (bh, bw)
        if operation == "SPACE_TO_BATCH_ND":
            pads = [(0, 0), (0, 0)]
            if draw(st.integers(0, 3)):  # a quarter of the cases unpadded
                pads = [(draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(2)]
            sizes = []
            for (head, tail), block in zip(pads, (bh, bw), strict=True):
                # The smallest padded size holding a real cell, then maybe one block more.
                cells = (head + tail) // block + 1 + draw(st.integers(0, 1))
                sizes.append(cells * block - head - tail)
            x_shape = (batch, sizes[0], sizes[1], c)
            x = _floats(draw, int(np.prod(x_shape)))
            out, out_shape = shapes.space_to_batch(x, x_shape, (bh, bw), pads, 0.0)
            parameters["paddings ((t, b), (l, r))"] = pads
        else:
            x_shape = (batch * bh * bw, draw(st.integers(1, 2)), draw(st.integers(1, 2)), c)
            x = _floats(draw, int(np.prod(x_shape)))
            out, out_shape = shapes.batch_to_space(x, x_shape, (bh, bw))
    x_nhwc, out_nhwc = _array(x, x_shape), _array(out, out_shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    operands = [builder.input(x_array)]
    if operation in ("SPACE_TO_DEPTH", "DEPTH_TO_SPACE"):
        operands.append(builder.int32(block))
    else:
        operands.append(builder.int32s([bh, bw]))
    if operation == "SPACE_TO_BATCH_ND":
        flat = [v for pair in pads for v in pair]
        operands.append(
            builder.constant(OperandType.TENSOR_INT32, [2, 2], struct.pack("<4i", *flat))
        )
    if form == "layout":
        operands.append(builder.bool(nchw))
    builder.output(out_array.shape)
    model = builder.model(operation, operands)
    parameters = {
        "input": x_shape, **parameters, "layout": "NCHW" if nchw else "NHWC", "inputs": form,
    }  # fmt: skip
    return Corner(
        "moves", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "shape_oracle",
    )  # fmt: skip


_SELECTIONS = ("GATHER", "SPLIT", "STRIDED_SLICE")


@st.composite
def _strided_axis(draw, dim: int) -> tuple[int, int, int, bool, bool, bool]:
    """One axis of a STRIDED_SLICE taking at least one element: (begin, end, stride,
    begin masked, end masked, shrunk). The begin and end are drawn as the indexes they
    resolve to, then written plainly, from the end (negative), masked or (an end) beyond
    the axis. Only an axis of positive stride is shrunk."""
    stride = draw(st.sampled_from((1, 2, -1, -2)))
    shrink = stride > 0 and draw(st.booleans())
    begin_masked = draw(st.booleans())
    if begin_masked:
        start = 0 if stride > 0 else dim - 1
        begin = draw(st.integers(-dim, dim - 1))  # ignored: the mask decides
    else:
        start = draw(st.integers(0, dim - 1))
        begin = start - dim if draw(st.booleans()) else start
    if stride > 0:  # the resolved end, past the last element taken
        stop = draw(st.integers(start + 1, min(start + stride, dim) if shrink else dim))
        outside = dim
    else:
        stop = draw(st.integers(-1, start - 1))
        outside = -1
    end_masked = stop == outside and draw(st.booleans())
    if end_masked:
        end = draw(st.integers(-dim, dim))  # ignored: the mask decides
    elif stop == outside:  # past either end of the axis: clamped back to it
        end = dim + draw(st.integers(0, 1)) if stride > 0 else -dim - 1
    else:
        end = stop - dim if draw(st.booleans()) else stop
    return begin, end, stride, begin_masked, end_masked, shrink


@st.composite
def select(draw, operation: str | None = None) -> Corner:
    """SPLIT, GATHER and STRIDED_SLICE, float32, ranks 1-4: SPLIT into 1-3 outputs along
    an axis counted from either end; GATHER along an axis counted from either end, its
    indices of rank 1-2 with repeats, a model input or a constant (the output of rank 4 at
    most); STRIDED_SLICE with begins and ends counted from either end or beyond the axis,
    strides of 1-2 either way, and begin, end and shrink-axis mask bits."""
    shapes = oracle("shape_oracle")
    operation = operation or draw(st.sampled_from(_SELECTIONS))
    builder = _Builder()
    if operation == "GATHER":
        indices_rank = draw(st.integers(1, 2))
        rank = draw(st.integers(1, 5 - indices_rank))
    else:
        rank = draw(st.integers(1, 4))
    dims = [draw(st.integers(1, 3 if operation != "STRIDED_SLICE" else 4)) for _ in range(rank)]
    chosen = draw(st.integers(-rank, rank - 1))
    parameters: dict[str, object] = {}
    if operation == "SPLIT":
        count = draw(st.integers(1, 3))
        dims[chosen] = count * draw(st.integers(1, 2))
        x = _floats(draw, int(np.prod(dims)))
        inputs = [_array(x, dims)]
        operands = [builder.input(inputs[0]), builder.int32(chosen), builder.int32(count)]
        outputs = [
            _array(values, part) for values, part in shapes.split(x, dims, chosen % rank, count)
        ]
        parameters = {"input": tuple(dims), "axis": chosen, "num_splits": count}
    elif operation == "GATHER":
        indices_shape = [draw(st.integers(1, 3)) for _ in range(indices_rank)]
        size = int(np.prod(indices_shape))
        limit = dims[chosen] - 1
        picked = draw(_exactly(st.integers(0, limit), size))
        x = _floats(draw, int(np.prod(dims)))
        indices = _array(picked, indices_shape, np.int32)
        as_input = draw(st.booleans())
        inputs = [_array(x, dims)]
        operands = [builder.input(inputs[0]), builder.int32(chosen)]
        if as_input:
            operands.append(builder.input(indices, OperandType.TENSOR_INT32))
            inputs.append(indices)
        else:
            operands.append(
                builder.constant(OperandType.TENSOR_INT32, indices_shape, indices.tobytes())
            )
        out, out_shape = shapes.gather(x, dims, chosen % rank, picked, indices_shape)
        outputs = [_array(out, out_shape)]
        parameters = {
            "input": tuple(dims), "axis": chosen, "indices": indices.tolist(),
            "indices given as": "model input" if as_input else "constant",
        }  # fmt: skip
    else:
        axes = [draw(_strided_axis(d)) for d in dims]
        begin, end, strides = ([a[k] for a in axes] for k in range(3))
        begin_mask, end_mask, shrink = (
            sum(1 << i for i, a in enumerate(axes) if a[k]) for k in range(3, 6)
        )
        if shrink == (1 << rank) - 1:  # keep one axis: no output of rank 0
            shrink &= ~(1 << (rank - 1))
        x = _floats(draw, int(np.prod(dims)))
        out, out_shape = shapes.strided_slice(
            x, dims, begin, end, strides, begin_mask, end_mask, shrink
        )
        inputs = [_array(x, dims)]
        operands = [builder.input(inputs[0])]
        operands += [builder.int32s(v) for v in (begin, end, strides)]
        operands += [builder.int32(v) for v in (begin_mask, end_mask, shrink)]
        outputs = [_array(out, out_shape)]
        parameters = {
            "input": tuple(dims), "begin": begin, "end": end, "strides": strides,
            "begin_mask": begin_mask, "end_mask": end_mask, "shrink_axis_mask": shrink,
        }  # fmt: skip
    for out_array in outputs:
        builder.output(out_array.shape)
    model = builder.model(operation, operands)
    return Corner(
        "select", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        "shape_oracle",
    )  # fmt: skip


_RESIZES = {"RESIZE_BILINEAR": "bilinear", "RESIZE_NEAREST_NEIGHBOR": "nearest"}
_RESIZE_SCALES = tuple(k / 4 for k in range(1, 13))
"""Scales drawn: quarters from 0.25 to 3, so size times scale is exact in float32 and the
floor of it is not a rounding question."""


@st.composite
def resize(draw, operation: str | None = None) -> Corner:
    """RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR, float32: the output size given as INT32
    width and height or (HAL 1.2) as FLOAT32 scales, up and down and to sizes that are no
    multiple of the input's, batch 1-2, 1-2 channels, NHWC/NCHW; RESIZE_BILINEAR also
    without the layout input (RESIZE_NEAREST_NEIGHBOR requires it). No corner alignment
    and no half-pixel centres (HAL 1.3)."""
    pools = oracle("pooling_oracle")
    operation = operation or draw(st.sampled_from(sorted(_RESIZES)))
    batch, c = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    h, w = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    by_scale = draw(st.booleans())
    if by_scale:  # at least 1/size, so the output keeps a cell
        scales = [draw(st.sampled_from([s for s in _RESIZE_SCALES if s * n >= 1])) for n in (h, w)]
        new_h, new_w = (int(n * s) for n, s in zip((h, w), scales, strict=True))
    else:
        new_h, new_w = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    with_layout = operation == "RESIZE_NEAREST_NEIGHBOR" or draw(st.booleans())
    nchw = with_layout and draw(st.booleans())
    x_shape = (batch, h, w, c)
    x = _floats(draw, batch * h * w * c)
    out, out_shape = pools.resize(_RESIZES[operation], x, x_shape, new_h, new_w)
    x_nhwc, out_nhwc = _array(x, x_shape), _array(out, out_shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    builder = _Builder()
    operands = [builder.input(x_array)]
    if by_scale:  # width first, then height
        operands += [
            builder.constant(OperandType.FLOAT32, [], struct.pack("<f", s))
            for s in reversed(scales)
        ]
    else:
        operands += [builder.int32(new_w), builder.int32(new_h)]
    if with_layout:
        operands.append(builder.bool(nchw))
    builder.output(out_array.shape)
    model = builder.model(operation, operands)
    parameters: dict[str, object] = {"input": x_shape, "output (h, w)": (new_h, new_w)}
    if by_scale:
        parameters["scales (w, h)"] = (scales[1], scales[0])
    parameters["layout"] = "NCHW" if nchw else "NHWC"
    parameters["inputs"] = "layout" if with_layout else "plain"
    return Corner(
        "resize", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "pooling_oracle",
    )  # fmt: skip


_CONVX = ("GROUPED_CONV_2D", "TRANSPOSE_CONV_2D")


@dataclass
class _ConvxCase:
    """A drawn GROUPED_CONV_2D or TRANSPOSE_CONV_2D case, NHWC, before the model is built."""

    x: list[float]
    x_shape: tuple[int, ...]
    f: list[float]
    f_shape: tuple[int, ...]
    bias: list[float]
    out: list[float]
    shape: tuple[int, ...]
    scalars: list[int]
    """The INT32 inputs after the bias (and the output-shape tensor), in order."""
    requested: tuple[int, int] | None
    """The implicit TRANSPOSE_CONV_2D's output size (height, width), for its shape tensor."""
    parameters: dict[str, object]


def _grouped_conv(draw, conv, batch: int, act: int) -> _ConvxCase:
    """A GROUPED_CONV_2D case."""
    groups = draw(st.integers(1, 3))
    per_group_in, per_group_out = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    cin, cout = groups * per_group_in, groups * per_group_out
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    scheme = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    h = draw(st.integers(fh if scheme == "VALID" else 1, 5))
    w = draw(st.integers(fw if scheme == "VALID" else 1, 5))
    if scheme == "explicit":
        # Each pad below the filter size of its axis (a CPU precondition).
        pt, pb = draw(st.integers(0, fh - 1)), draw(st.integers(0, fh - 1))
        pl, pr = draw(st.integers(0, fw - 1)), draw(st.integers(0, fw - 1))
        h, w = max(h, fh - pt - pb), max(w, fw - pl - pr)
    elif scheme == "SAME":
        (pt, pb), (pl, pr) = conv.same_padding(h, sh, fh), conv.same_padding(w, sw, fw)
    else:
        pl = pr = pt = pb = 0
    x_shape, f_shape = (batch, h, w, cin), (cout, fh, fw, per_group_in)
    x = _floats(draw, batch * h * w * cin)
    f = _floats(draw, cout * fh * fw * per_group_in)
    bias = _floats(draw, cout)
    out, shape = conv.grouped_conv(
        x, x_shape, f, f_shape, bias, (pl, pr, pt, pb), (sw, sh), (1, 1), groups, act
    )
    scalars = [pl, pr, pt, pb] if scheme == "explicit" else [_PADDING_CODES[scheme]]
    scalars += [sw, sh, groups, act]
    parameters = {
        "input": x_shape, "filter": f_shape, "groups": groups, "padding": scheme,
        "pads (l, r, t, b)": (pl, pr, pt, pb), "strides (w, h)": (sw, sh),
    }  # fmt: skip
    return _ConvxCase(x, x_shape, f, f_shape, bias, out, shape, scalars, None, parameters)


def _transpose_conv(draw, conv, batch: int, act: int) -> _ConvxCase:
    """A TRANSPOSE_CONV_2D case."""
    cin, cout = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    scheme = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    requested: tuple[int, int] | None = None
    if scheme == "SAME":
        # The input a requested size needs (ceil(size / stride)): then it is honoured.
        requested = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        h, w = (-(-size // stride) for size, stride in zip(requested, (sh, sw), strict=True))
        (pt, pb), (pl, pr) = (
            conv.transpose_same_padding(size, stride, f)
            for size, stride, f in zip(requested, (sh, sw), (fh, fw), strict=True)
        )
    else:
        h, w = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        pl = pr = pt = pb = 0
        if scheme == "explicit":
            # Heads of 0 to filter - 1; tails from -1 (one more output row or column,
            # bias only) up to what keeps the output at least 1 long.
            pt, pl = draw(st.integers(0, fh - 1)), draw(st.integers(0, fw - 1))
            pb = draw(st.integers(-1, min(fh - 1, (h - 1) * sh + fh - pt - 1)))
            pr = draw(st.integers(-1, min(fw - 1, (w - 1) * sw + fw - pl - 1)))
    x_shape, f_shape = (batch, h, w, cin), (cout, fh, fw, cin)
    x = _floats(draw, batch * h * w * cin)
    f = _floats(draw, cout * fh * fw * cin)
    bias = _floats(draw, cout)
    out, shape = conv.transpose_conv(x, x_shape, f, f_shape, bias, (pl, pr, pt, pb), (sw, sh), act)
    if scheme == "VALID":  # the formula's size: VALID leaves the requested one unused
        requested = (shape[1], shape[2])
    scalars = [pl, pr, pt, pb] if scheme == "explicit" else [_PADDING_CODES[scheme]]
    scalars += [sw, sh, act]
    parameters = {
        "input": x_shape, "filter": f_shape, "padding": scheme,
        "pads (l, r, t, b)": (pl, pr, pt, pb), "strides (w, h)": (sw, sh),
    }  # fmt: skip
    if requested is not None:
        parameters["output shape (h, w)"] = requested
    return _ConvxCase(x, x_shape, f, f_shape, bias, out, shape, scalars, requested, parameters)


@st.composite
def convx(draw, operation: str | None = None) -> Corner:
    """GROUPED_CONV_2D and TRANSPOSE_CONV_2D, float32, batch 1-2, NHWC/NCHW, fused
    activations. GROUPED_CONV_2D: 1-3 groups of 1-2 input and 1-2 output channels each,
    filter 1-3, strides 1-2, SAME, VALID or explicit pads (below the filter size).
    TRANSPOSE_CONV_2D: 1-3 input and 1-2 output channels, filter 1-3, strides 1-3, explicit
    pads (a tail of -1 included) or the implicit form's output-shape tensor with SAME (the
    input ceil(size / stride), so the requested size is the output's) or VALID (the tensor
    holding the size the formula gives)."""
    conv = oracle("convolution_oracle")
    operation = operation or draw(st.sampled_from(_CONVX))
    batch, act, nchw = draw(st.integers(1, 2)), draw(st.integers(0, 3)), draw(st.booleans())
    draw_case = _grouped_conv if operation == "GROUPED_CONV_2D" else _transpose_conv
    case = draw_case(draw, conv, batch, act)
    x_nhwc, out_nhwc = _array(case.x, case.x_shape), _array(case.out, case.shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    b = _Builder()
    cout = case.f_shape[0]
    operands = [b.input(x_array), b.tensor(_array(case.f, case.f_shape))]
    operands.append(b.tensor(_array(case.bias, (cout,))))
    if case.requested is not None:  # in the chosen layout; only its height and width count
        rh, rw = case.requested
        operands.append(b.int32s([batch, cout, rh, rw] if nchw else [batch, rh, rw, cout]))
    operands += [b.int32(v) for v in case.scalars]
    operands.append(b.bool(nchw))
    b.output(out_array.shape)
    model = b.model(operation, operands)
    parameters = {**case.parameters, "activation": ACTIVATIONS[act]}
    parameters["layout"] = "NCHW" if nchw else "NHWC"
    return Corner(
        "convx", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "convolution_oracle",
    )  # fmt: skip


_NORMS = ("INSTANCE_NORMALIZATION", "LOCAL_RESPONSE_NORMALIZATION", "LOG_SOFTMAX")


def _centred_slice(draw, count: int) -> list[float]:
    """``count`` (2 or more) values of ``_floats`` with mean 0 and spread: the last is minus
    the sum of the others (exact), and an all-zero draw becomes 1, 0, ..., -1."""
    values = _floats(draw, count - 1)
    if not any(values):
        values[0] = 1.0
    return [*values, -sum(values)]


def _f32(value: float) -> float:
    """``value`` as a FLOAT32 operand holds it (what the oracle must be given)."""
    return float(np.float32(value))


@st.composite
def norm(draw, operation: str | None = None) -> Corner:
    """LOG_SOFTMAX, LOCAL_RESPONSE_NORMALIZATION and INSTANCE_NORMALIZATION, float32.
    LOG_SOFTMAX: ranks 1-4, the axis counted from either end, beta 0.5-2. LRN: the HAL 1.2
    axis form (ranks 1-4, the axis from either end) and the plain 4-D form (the last axis),
    1-5 cells along the axis, radius 0-4 (below, at and beyond the axis's size), bias,
    alpha and beta. INSTANCE_NORMALIZATION: batch 1-2, 1-3 channels, 2-9 cells per
    channel, each (batch, channel) slice of mean 0 and spread, so Android 10's mean square
    and the HAL text's variance agree; gamma (negative too), beta, epsilon, NHWC/NCHW."""
    pools = oracle("pooling_oracle")
    operation = operation or draw(st.sampled_from(_NORMS))
    builder = _Builder()
    if operation == "INSTANCE_NORMALIZATION":
        batch, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
        h = draw(st.integers(1, 3))
        w = draw(st.integers(2 if h == 1 else 1, 3))  # at least 2 cells per slice
        shape = (batch, h, w, c)
        x = [0.0] * (batch * h * w * c)
        for b in range(batch):
            for ch in range(c):
                for cell, value in enumerate(_centred_slice(draw, h * w)):
                    x[((b * h + cell // w) * w + cell % w) * c + ch] = value
        gamma = draw(st.sampled_from([1.0, 0.5, 2.0, -1.5]))
        beta = draw(st.sampled_from([0.0, 0.5, -1.0, 2.0]))
        epsilon = draw(st.sampled_from([1e-4, 1e-3, 0.01, 0.5]))
        nchw = draw(st.booleans())
        out = pools.instance_normalization(x, shape, gamma, beta, _f32(epsilon))
        x_nhwc, out_nhwc = _array(x, shape), _array(out, shape)
        x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
        out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
        operands = [builder.input(x_array)]
        operands += [builder.float32(v) for v in (gamma, beta, epsilon)]
        operands.append(builder.bool(nchw))
        parameters: dict[str, object] = {
            "input": shape, "gamma": gamma, "beta": beta, "epsilon": epsilon,
            "layout": "NCHW" if nchw else "NHWC",
        }  # fmt: skip
    else:
        axis_form = operation == "LOG_SOFTMAX" or draw(st.booleans())
        rank = draw(st.integers(1, 4)) if axis_form else 4
        dims = [draw(st.integers(1, 3)) for _ in range(rank)]
        chosen = draw(st.integers(-rank, rank - 1)) if axis_form else -1
        if operation == "LOG_SOFTMAX":
            x = _floats(draw, int(np.prod(dims)))
            beta = draw(st.sampled_from([1.0, 0.5, 1.5, 2.0]))
            out = pools.log_softmax(x, list(dims), beta, chosen)
            x_array = _array(x, dims)
            operands = [builder.input(x_array), builder.float32(beta), builder.int32(chosen)]
            parameters = {"input": tuple(dims), "beta": beta, "axis": chosen}
        else:
            dims[chosen] = draw(st.integers(1, 5))
            x = _floats(draw, int(np.prod(dims)))
            radius = draw(st.integers(0, 4))
            bias = draw(st.sampled_from([1.0, 0.5, 2.0]))
            alpha = draw(st.sampled_from([1.0, 0.125, 0.25, 0.5]))
            beta = draw(st.sampled_from([0.5, 0.75, 1.0]))
            out = pools.local_response_normalization(
                x, list(dims), radius, bias, alpha, beta, chosen
            )
            x_array = _array(x, dims)
            operands = [builder.input(x_array), builder.int32(radius)]
            operands += [builder.float32(v) for v in (bias, alpha, beta)]
            if axis_form:
                operands.append(builder.int32(chosen))
            parameters = {
                "input": tuple(dims), "radius": radius, "bias": bias, "alpha": alpha,
                "beta": beta, "axis": chosen if axis_form else "(plain form: last)",
            }  # fmt: skip
        out_array = _array(out, dims)
    builder.output(out_array.shape)
    model = builder.model(operation, operands)
    return Corner(
        "norm", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "pooling_oracle",
    )  # fmt: skip


_LAYOUTS = ("CHANNEL_SHUFFLE", "EXPAND_DIMS", "PAD_V2", "RESHAPE", "SQUEEZE", "TILE")


def _shapes_of(count: int, rank: int) -> list[tuple[int, ...]]:
    """Every shape of ``rank`` axes holding ``count`` elements."""
    if rank == 1:
        return [(count,)]
    return [
        (d, *rest)
        for d in range(1, count + 1)
        if count % d == 0
        for rest in _shapes_of(count // d, rank - 1)
    ]


@st.composite
def layout(draw, operation: str | None = None) -> Corner:
    """CHANNEL_SHUFFLE, EXPAND_DIMS, PAD_V2, RESHAPE, SQUEEZE, TILE, float32 (PAD_V2 and
    TILE also TENSOR_QUANT8_ASYMM, TILE also TENSOR_INT32), ranks 1-4: shuffles of 1 to
    all channels in groups along an axis counted from either end; a size-1 axis inserted
    anywhere (prepended, appended, counted from either end); padding of 0-2 on each side
    with a value of its own (for quant8 a byte); reshapes to any rank holding the same
    elements, one size given as -1 or not; squeezes of some or all size-1 axes named
    from either end; tiles of 1-3 along each axis."""
    shapes = oracle("shape_oracle")
    operation = operation or draw(st.sampled_from(_LAYOUTS))
    low = 2 if operation == "SQUEEZE" else 1  # a size-1 axis to squeeze, another kept
    rank = draw(st.integers(low, 3 if operation == "EXPAND_DIMS" else 4))
    dims = [draw(st.integers(1, 3)) for _ in range(rank)]
    parameters: dict[str, object] = {}
    if operation == "SQUEEZE" and (1 not in dims or set(dims) == {1}):
        dims = [1, *[d + 1 for d in dims[1:]]]
    kind = "float32"
    if operation in ("PAD_V2", "TILE"):
        kind = draw(st.sampled_from(["float32", "quant8", *(["int32"] * (operation == "TILE"))]))
    count = int(np.prod(dims))
    builder = _Builder()
    if kind == "quant8":
        scale, zero_point = draw(st.sampled_from(_SCALES)), draw(_ZERO_POINTS)
        x = draw(_exactly(st.integers(0, 255), count))
        x_array = _array(x, dims, np.uint8)
        quant = (OperandType.TENSOR_QUANT8_ASYMM, scale, zero_point)
        parameters["quant (scale, zero point)"] = (scale, zero_point)
    elif kind == "int32":
        x = draw(_exactly(st.integers(-(2**31), 2**31 - 1), count))
        x_array = _array(x, dims, np.int32)
        quant = (OperandType.TENSOR_INT32,)
    else:
        x = _floats(draw, count)
        x_array = _array(x, dims)
        quant = ()
    operands = [builder.input(x_array, *quant)]
    parameters["input"] = tuple(dims)
    if operation == "CHANNEL_SHUFFLE":
        chosen = draw(st.integers(-rank, rank - 1))
        groups, size = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        dims[chosen] = groups * size
        x = _floats(draw, int(np.prod(dims)))
        x_array = _array(x, dims)
        builder = _Builder()
        out, out_shape = shapes.channel_shuffle(x, dims, groups, chosen % rank)
        operands = [builder.input(x_array), builder.int32(groups), builder.int32(chosen)]
        parameters = {"input": tuple(dims), "groups": groups, "axis": chosen}
    elif operation == "EXPAND_DIMS":
        chosen = draw(st.integers(-(rank + 1), rank))
        position = chosen + rank + 1 if chosen < 0 else chosen
        out, out_shape = x, [*dims[:position], 1, *dims[position:]]
        operands.append(builder.int32(chosen))
        parameters["axis"] = chosen
    elif operation == "PAD_V2":
        paddings = [(draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(rank)]
        if kind == "quant8":
            fill = draw(st.integers(0, 255))
            value = builder.int32(fill)
        else:
            fill = draw(st.integers(-8, 8)) / 2
            value = builder.float32(fill)
        out, out_shape = shapes.pad(x, dims, paddings, fill)
        operands += [
            builder.constant(
                OperandType.TENSOR_INT32,
                [rank, 2],
                struct.pack(f"<{2 * rank}i", *(v for pair in paddings for v in pair)),
            ),
            value,
        ]
        parameters.update(paddings=paddings, value=fill)
    elif operation == "RESHAPE":
        target = list(draw(st.sampled_from(_shapes_of(count, draw(st.integers(1, 4))))))
        given = list(target)
        if draw(st.booleans()):
            given[draw(st.integers(0, len(given) - 1))] = -1
        out, out_shape = x, shapes.reshape_dims(count, given)
        operands.append(builder.int32s(given))
        parameters["shape"] = given
    elif operation == "SQUEEZE":
        ones = [i for i, d in enumerate(dims) if d == 1]
        picked = draw(st.lists(st.sampled_from(ones), min_size=1, max_size=len(ones), unique=True))
        if len(picked) == rank:
            picked = picked[:-1]
        given = [a - rank if draw(st.booleans()) else a for a in picked]
        out, out_shape = x, [d for i, d in enumerate(dims) if i not in picked]
        operands.append(builder.int32s(given))
        parameters["axes"] = given
    else:
        multiples = [draw(st.integers(1, 3)) for _ in range(rank)]
        out, out_shape = shapes.tile(x, dims, multiples)
        operands.append(builder.int32s(multiples))
        parameters["multiples"] = multiples
    out_array = _array(out, out_shape, x_array.dtype)
    builder.output(out_array.shape, *quant)
    model = builder.model(operation, operands)
    return Corner(
        "layout", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "shape_oracle",
    )  # fmt: skip


_CONVERSIONS = ("CAST", "DEQUANTIZE", "QUANTIZE")
_CAST_KINDS = {
    "float32": (OperandType.TENSOR_FLOAT32, np.float32),
    "int32": (OperandType.TENSOR_INT32, np.int32),
    "quant8": (OperandType.TENSOR_QUANT8_ASYMM, np.uint8),
}


@st.composite
def convert(draw, operation: str | None = None) -> Corner:
    """CAST between TENSOR_FLOAT32, TENSOR_INT32 and TENSOR_QUANT8_ASYMM (raw values:
    fractions truncated toward zero, values beyond a byte clamped, the quantization
    parameters of either side drawn and ignored), QUANTIZE of float32 with a
    power-of-two scale (so x / scale is exact and its halves are true ties, rounded away
    from zero) and any zero point, saturating at both ends, DEQUANTIZE with any scale
    and zero point; ranks 1-4."""
    conversion = oracle("conversion_oracle")
    operation = operation or draw(st.sampled_from(_CONVERSIONS))
    rank = draw(st.integers(1, 4))
    dims = [draw(st.integers(1, 3)) for _ in range(rank)]
    count = int(np.prod(dims))
    builder = _Builder()
    quant8 = OperandType.TENSOR_QUANT8_ASYMM
    if operation == "CAST":
        source, target = (draw(st.sampled_from(sorted(_CAST_KINDS))) for _ in "st")
        values = {
            "float32": st.integers(-1200, 1200).map(lambda v: v / 4),
            "int32": st.one_of(st.integers(-300, 300), st.integers(-(2**31), 2**31 - 1)),
            "quant8": st.integers(0, 255),
        }[source]
        x = draw(_exactly(values, count))
        out = [conversion.cast(v, target) for v in x]
        (in_type, in_dtype), (out_type, out_dtype) = _CAST_KINDS[source], _CAST_KINDS[target]
        in_quant = (
            (draw(st.sampled_from(_SCALES)), draw(_ZERO_POINTS)) if source == "quant8" else ()
        )
        out_quant = (
            (draw(st.sampled_from(_SCALES)), draw(_ZERO_POINTS)) if target == "quant8" else ()
        )
        x_array = _array(x, dims, in_dtype)
        operands = [builder.input(x_array, in_type, *in_quant)]
        out_array = _array(out, dims, out_dtype)
        builder.output(dims, out_type, *out_quant)
        parameters: dict[str, object] = {"input": tuple(dims), "from": source, "to": target}
    elif operation == "QUANTIZE":
        scale, zero_point = draw(st.sampled_from(_EXACT_SCALES)), draw(_ZERO_POINTS)
        x = [v * scale / 2 for v in draw(_exactly(st.integers(-600, 600), count))]
        out = [conversion.quantize(v, scale, zero_point) for v in x]
        x_array = _array(x, dims)
        operands = [builder.input(x_array)]
        out_array = _array(out, dims, np.uint8)
        builder.output(dims, quant8, scale, zero_point)
        parameters = {"input": tuple(dims), "quant (scale, zero point)": (scale, zero_point)}
    else:
        scale, zero_point = draw(st.sampled_from(_SCALES)), draw(_ZERO_POINTS)
        x = draw(_exactly(st.integers(0, 255), count))
        out = [conversion.dequantize(q, scale, zero_point) for q in x]
        x_array = _array(x, dims, np.uint8)
        operands = [builder.input(x_array, quant8, scale, zero_point)]
        out_array = _array(out, dims)
        builder.output(dims)
        parameters = {"input": tuple(dims), "quant (scale, zero point)": (scale, zero_point)}
    model = builder.model(operation, operands)
    return Corner(
        "convert", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "conversion_oracle",
    )  # fmt: skip


@st.composite
def dense(draw, operation: str | None = None) -> Corner:
    """FULLY_CONNECTED, float32: an input of rank 2-4 flattened into rows of the weights'
    input size (batch 1-3, so a rank-4 input of several rows), 1-3 units, a bias, each
    fused activation."""
    convolution = oracle("convolution_oracle")
    rank = draw(st.integers(2, 4))
    size, units, batch = (draw(st.integers(1, 3)) for _ in range(3))
    cells = batch * size
    dims = list(draw(st.sampled_from(_shapes_of(cells, rank))))
    x = _floats(draw, cells)
    weights = _floats(draw, units * size)
    bias = _floats(draw, units)
    act = draw(st.integers(0, 3))
    out, out_shape = convolution.fully_connected(x, weights, (units, size), bias, act)
    builder = _Builder()
    x_array = _array(x, dims)
    operands = [
        builder.input(x_array),
        builder.tensor(_array(weights, (units, size))),
        builder.tensor(_array(bias, (units,))),
        builder.int32(act),
    ]
    out_array = _array(out, out_shape)
    builder.output(out_array.shape)
    model = builder.model("FULLY_CONNECTED", operands)
    parameters = {"input": tuple(dims), "units": units, "input size": size,
                  "activation": ACTIVATIONS[act]}  # fmt: skip
    return Corner(
        "dense", "FULLY_CONNECTED", model, [x_array], [out_array],
        _classes(model, [out_array]), parameters, "convolution_oracle",
    )  # fmt: skip


_PICKS = ("EMBEDDING_LOOKUP", "HASHTABLE_LOOKUP", "SELECT", "TOPK_V2")
_PICKED = {
    "float32": (OperandType.TENSOR_FLOAT32, np.float32, st.integers(-3, 3).map(lambda v: v / 2)),
    "int32": (OperandType.TENSOR_INT32, np.int32, st.integers(-3, 3)),
    "quant8": (OperandType.TENSOR_QUANT8_ASYMM, np.uint8, st.integers(0, 255)),
}


@st.composite
def pick(draw, operation: str | None = None) -> Corner:
    """TOPK_V2, SELECT, EMBEDDING_LOOKUP, HASHTABLE_LOOKUP over TENSOR_FLOAT32,
    TENSOR_INT32 and TENSOR_QUANT8_ASYMM (EMBEDDING_LOOKUP float32: its other types are
    HAL 1.2's). TOPK_V2: ranks 1-4, k from 1 to the whole last axis, values from a small
    range so ties are common (the larger index first). SELECT: condition bytes 0, 1 and
    others, the two inputs and the output each with its own power-of-two scale and zero
    point (quant8 candidates requantized, halves rounded away from zero). The lookups:
    1-4 rows of rank 2-3, 1-4 lookups with repeats; HASHTABLE_LOOKUP's sorted keys
    negative too, its lookups hitting and missing."""
    operation = operation or draw(st.sampled_from(_PICKS))
    kind = "float32"
    if operation != "EMBEDDING_LOOKUP":
        kind = draw(st.sampled_from(sorted(_PICKED)))
    type_, dtype, element = _PICKED[kind]
    builder = _Builder()
    outputs: list[np.ndarray] = []
    if operation in ("SELECT", "TOPK_V2"):
        rank = draw(st.integers(1, 4))
        dims = [draw(st.integers(1, 3)) for _ in range(rank - 1)] + [draw(st.integers(1, 5))]
    else:
        rank = draw(st.integers(2, 3))
        dims = [draw(st.integers(1, 4)), *(draw(st.integers(1, 3)) for _ in range(rank - 1))]
    count = int(np.prod(dims))
    x = draw(_exactly(element, count))
    quant = ()
    if kind == "quant8":
        quant = (draw(st.sampled_from(_EXACT_SCALES)), draw(_ZERO_POINTS))
    x_array = _array(x, dims, dtype)
    parameters: dict[str, object] = {"input": tuple(dims), "type": kind}
    if operation == "TOPK_V2":
        k = draw(st.integers(1, dims[-1]))
        out_shape, values, positions = oracle("reduction_oracle").topk(x, tuple(dims), k)
        inputs = [x_array]
        operands = [builder.input(x_array, type_, *quant), builder.int32(k)]
        outputs = [_array(values, out_shape, dtype), _array(positions, out_shape, np.int32)]
        builder.output(out_shape, type_, *quant)
        builder.output(out_shape, OperandType.TENSOR_INT32)
        parameters["k"] = k
        oracle_name = "reduction_oracle"
    elif operation == "SELECT":
        comparison = oracle("comparison_oracle")
        condition = draw(_exactly(st.sampled_from([1, 0, 7, 255]), count))
        other = draw(_exactly(element, count))
        if kind == "quant8":
            params = [quant, *((draw(st.sampled_from(_EXACT_SCALES)), draw(_ZERO_POINTS))
                               for _ in "bo")]  # fmt: skip
            a = [comparison.requantize(q, params[0], params[2]) for q in x]
            b = [comparison.requantize(q, params[1], params[2]) for q in other]
            parameters["quant (scale, zero point) a, b, out"] = tuple(params)
        else:
            params, a, b = [(), (), ()], x, other
        out = [u if c else v for c, u, v in zip(condition, a, b, strict=True)]
        inputs = [_array(condition, dims, np.uint8), x_array, _array(other, dims, dtype)]
        operands = [
            builder.input(inputs[0], OperandType.TENSOR_BOOL8),
            builder.input(inputs[1], type_, *params[0]),
            builder.input(inputs[2], type_, *params[1]),
        ]
        outputs = [_array(out, dims, dtype)]
        builder.output(dims, type_, *params[2])
        oracle_name = "comparison_oracle"
    else:
        lookup = oracle("lookup_oracle")
        k = draw(st.integers(1, 4))
        if operation == "EMBEDDING_LOOKUP":
            lookups = draw(_exactly(st.integers(0, dims[0] - 1), k))
            values, out_shape = lookup.embedding_lookup(lookups, x, dims)
            hits = None
        else:
            keys = sorted(draw(st.lists(st.integers(-5, 5), min_size=dims[0], max_size=dims[0],
                                        unique=True)))  # fmt: skip
            lookups = draw(_exactly(st.integers(-6, 6), k))
            values, out_shape, hits = lookup.hashtable_lookup(lookups, keys, x, dims)
            parameters["keys"] = keys
        indexes = _array(lookups, (k,), np.int32)
        inputs = [indexes]
        operands = [builder.input(indexes, OperandType.TENSOR_INT32)]
        if hits is not None:
            key_array = _array(keys, (len(keys),), np.int32)
            inputs.append(key_array)
            operands.append(builder.input(key_array, OperandType.TENSOR_INT32))
        inputs.append(x_array)
        operands.append(builder.input(x_array, type_, *quant))
        outputs = [_array(values, out_shape, dtype)]
        builder.output(out_shape, type_, *quant)
        if hits is not None:
            outputs.append(_array(hits, (k,), np.uint8))
            builder.output((k,), OperandType.TENSOR_QUANT8_ASYMM, 1.0, 0)
        parameters["lookups"] = lookups
        oracle_name = "lookup_oracle"
    model = builder.model(operation, operands)
    return Corner(
        "pick", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        oracle_name,
    )  # fmt: skip


_RECURRENT = ("RNN", "UNIDIRECTIONAL_SEQUENCE_RNN")
_RNN_ACTIVATIONS = (0, 1, 3)
"""None, RELU, RELU6: the codes every Android 10 CPU path evaluates (RELU1 aborts it)."""


def _matrix(draw, rows: int, columns: int) -> list[list[float]]:
    values = _floats(draw, rows * columns)
    return [values[r * columns : (r + 1) * columns] for r in range(rows)]


@st.composite
def recurrent(draw, operation: str | None = None) -> Corner:
    """RNN (one step) and UNIDIRECTIONAL_SEQUENCE_RNN (1-3 steps, time-major or
    batch-major), float32: batch 1-2, 1-3 inputs and units, the weights, bias and state
    in [-4, 4] by halves (every sum exact), activation none, RELU or RELU6."""
    rnn = oracle("rnn_oracle")
    operation = operation or draw(st.sampled_from(_RECURRENT))
    batch, size, units = (draw(st.integers(1, 3 if i else 2)) for i in range(3))
    w, r = _matrix(draw, units, size), _matrix(draw, units, units)
    bias, code = _floats(draw, units), draw(st.sampled_from(_RNN_ACTIVATIONS))
    h0 = _matrix(draw, batch, units)
    builder = _Builder()
    weights = [
        builder.tensor(_array([v for row in w for v in row], (units, size))),
        builder.tensor(_array([v for row in r for v in row], (units, units))),
        builder.tensor(_array(bias, (units,))),
    ]
    parameters: dict[str, object] = {"batch": batch, "input size": size, "units": units,
                                     "activation": ACTIVATIONS[code]}  # fmt: skip
    if operation == "RNN":
        x = _matrix(draw, batch, size)
        out = rnn.rnn(x, w, r, bias, h0, code)
        inputs = [_array(x, (batch, size)), _array(h0, (batch, units))]
        x_operand, h_operand = (builder.input(a) for a in inputs)
        operands = [x_operand, *weights, h_operand, builder.int32(code)]
        outputs = [_array(out, (batch, units)), _array(out, (batch, units))]
    else:
        steps, time_major = draw(st.integers(1, 3)), draw(st.booleans())
        sequence = [_matrix(draw, batch, size) for _ in range(steps)]  # [t][b][i]
        states = rnn.run_direction(sequence, w, r, bias, h0, code, False)  # [t][b][u]
        if time_major:
            x_shape, out_shape, x, out = (
                (steps, batch, size),
                (steps, batch, units),
                sequence,
                states,
            )
        else:
            x_shape, out_shape = (batch, steps, size), (batch, steps, units)
            x = [[sequence[t][b] for t in range(steps)] for b in range(batch)]
            out = [[states[t][b] for t in range(steps)] for b in range(batch)]
        inputs = [_array(rnn.flat(x), x_shape), _array(h0, (batch, units))]
        x_operand, h_operand = (builder.input(a) for a in inputs)
        operands = [x_operand, *weights, h_operand, builder.int32(code),
                    builder.int32(int(time_major))]  # fmt: skip
        outputs = [_array(rnn.flat(out), out_shape)]
        parameters.update(steps=steps, time_major=time_major)
    for array in outputs:
        builder.output(array.shape)
    model = builder.model(operation, operands)
    return Corner(
        "recurrent", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        "rnn_oracle",
    )  # fmt: skip


_UNARY = {
    "ABS": "abs", "EXP": "exp", "FLOOR": "floor", "LOG": "log", "LOGISTIC": "logistic",
    "NEG": "neg", "RELU": "relu", "RELU1": "relu1", "RELU6": "relu6", "RSQRT": "rsqrt",
    "SIN": "sin", "SQRT": "sqrt", "TANH": "tanh",
}  # fmt: skip
"""The unary operations and their oracle functions (``unary_oracle.FUNCTIONS``)."""
_POSITIVE = frozenset({"LOG", "RSQRT", "SQRT"})
"""Drawn with positive inputs only (their values at 0 and below are the specs' business)."""
_CLAMPS = {"RELU": (0.0, None), "RELU1": (-1.0, 1.0), "RELU6": (0.0, 6.0)}


@st.composite
def unary(draw, operation: str | None = None) -> Corner:
    """ABS, EXP, FLOOR, LOG, LOGISTIC, NEG, RELU, RELU1, RELU6, RSQRT, SIN, SQRT, TANH:
    ranks 1-4, float32 values across each operation's bounds (LOG, RSQRT and SQRT
    positive), and for the RELU family also TENSOR_QUANT8_ASYMM with a scale and zero
    point near the ends of their ranges (the clamp bounds then collapse or pass 255)."""
    unary_oracle = oracle("unary_oracle")
    operation = operation or draw(st.sampled_from(sorted(_UNARY)))
    rank = draw(st.integers(1, 4))
    shape = tuple(draw(st.integers(1, 3)) for _ in range(rank))
    count = int(np.prod(shape))
    builder = _Builder()
    parameters: dict[str, object] = {"input": shape}
    if operation in _CLAMPS and draw(st.booleans()):
        scale, zero_point = draw(st.sampled_from(_SCALES)), draw(_ZERO_POINTS)
        q = draw(_exactly(st.integers(0, 255), count))
        low, high = unary_oracle.activation_range(_UNARY[operation], scale, zero_point)
        inputs = [_array(q, shape, np.uint8)]
        out_array = _array([min(high, max(low, v)) for v in q], shape, np.uint8)
        quant8 = OperandType.TENSOR_QUANT8_ASYMM
        operands = [builder.input(inputs[0], quant8, scale, zero_point)]
        builder.output(shape, quant8, scale, zero_point)
        parameters["quant (scale, zero point)"] = (scale, zero_point)
    else:
        x = _floats(draw, count)
        if operation in _POSITIVE:
            x = [abs(v) or 0.5 for v in x]
        function = unary_oracle.FUNCTIONS[_UNARY[operation]]
        out = [_f32(unary_oracle.in_float32_range(function(v))) for v in x]
        inputs = [_array(x, shape)]
        out_array = _array(out, shape)
        operands = [builder.input(inputs[0])]
        builder.output(shape)
    model = builder.model(operation, operands)
    return Corner(
        "unary", operation, model, inputs, [out_array], _classes(model, [out_array]),
        parameters, "unary_oracle",
    )  # fmt: skip


_COMPARISONS = {
    "EQUAL": "equal", "GREATER": "greater", "GREATER_EQUAL": "greater_equal", "LESS": "less",
    "LESS_EQUAL": "less_equal", "NOT_EQUAL": "not_equal",
}  # fmt: skip
"""The comparisons and their oracle functions (``comparison_oracle.COMPARISONS``)."""
_LOGICAL = ("LOGICAL_AND", "LOGICAL_NOT", "LOGICAL_OR")
_COMPARED = ("quant8", "float32", "int32", "bool8", "quant8")
"""The input types drawn: quant8 twice as often (its inputs' scales and zero points
differ: the corner the specs touch least)."""
_EXACT_SCALES = (1 / 256, 1 / 32, 0.5, 1.0, 2.0, 4.0)
"""Powers of two: a dequantized value is exact in float32, so equal means equal whatever
precision a driver compares in."""


@st.composite
def compare(draw, operation: str | None = None) -> Corner:
    """EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, NOT_EQUAL, LOGICAL_AND, LOGICAL_OR,
    LOGICAL_NOT: two shapes that broadcast (ranks and sizes of 1 differing), the
    comparisons over TENSOR_BOOL8, TENSOR_FLOAT32, TENSOR_INT32 and TENSOR_QUANT8_ASYMM
    (each input its own scale and zero point: equal real values from different bytes),
    values drawn from a small range so equal pairs are common; true bytes other than 1
    for the logical operations."""
    comparison = oracle("comparison_oracle")
    operation = operation or draw(st.sampled_from(sorted([*_COMPARISONS, *_LOGICAL])))
    sa, sb = draw(_broadcast_shapes())
    counts = (int(np.prod(sa)), int(np.prod(sb)))
    builder = _Builder()
    bool8 = OperandType.TENSOR_BOOL8
    parameters: dict[str, object] = {"a": sa, "b": sb}
    if operation == "LOGICAL_NOT":
        a = draw(_exactly(st.sampled_from([0, 1, 1, 255, 7]), counts[0]))
        inputs = [_array(a, sa, np.uint8)]
        out_array = _array([int(v == 0) for v in a], sa, np.bool_)
        operands = [builder.input(inputs[0], bool8)]
        parameters = {"input": sa}
    elif operation in _LOGICAL:
        a, b = (draw(_exactly(st.sampled_from([0, 1, 1, 255, 7]), n)) for n in counts)
        both = operation == "LOGICAL_AND"
        out = comparison.elementwise(
            (lambda x, y: (x != 0 and y != 0) if both else (x != 0 or y != 0)), a, sa, b, sb
        )
        inputs = [_array(a, sa, np.uint8), _array(b, sb, np.uint8)]
        out_array = _array([int(v) for v in out], comparison.broadcast_shape(sa, sb), np.bool_)
        operands = [builder.input(x, bool8) for x in inputs]
    else:
        kind = draw(st.sampled_from(_COMPARED))
        params = [(0.0, 0), (0.0, 0)]
        if kind == "quant8":
            params = [(draw(st.sampled_from(_EXACT_SCALES)), draw(_ZERO_POINTS)) for _ in "ab"]
            raw = [
                draw(_exactly(st.integers(max(0, z - 4), min(255, z + 4)), n))
                for n, (_, z) in zip(counts, params, strict=True)
            ]
            values = [
                [comparison.real(q, *p) for q in qs] for qs, p in zip(raw, params, strict=True)
            ]
            dtype, type_ = np.uint8, OperandType.TENSOR_QUANT8_ASYMM
            parameters["quant (scale, zero point) a, b"] = tuple(params)
        else:
            draw_value = {
                "bool8": st.sampled_from([0, 1]),
                "int32": st.integers(-3, 3),
                "float32": st.integers(-4, 4).map(lambda v: v / 2),
            }[kind]
            raw = [draw(_exactly(draw_value, n)) for n in counts]
            values = raw
            dtype, type_ = {
                "bool8": (np.uint8, bool8),
                "int32": (np.int32, OperandType.TENSOR_INT32),
                "float32": (np.float32, OperandType.TENSOR_FLOAT32),
            }[kind]
        function = comparison.COMPARISONS[_COMPARISONS[operation]]
        out = comparison.elementwise(function, values[0], sa, values[1], sb)
        inputs = [_array(raw[0], sa, dtype), _array(raw[1], sb, dtype)]
        out_array = _array([int(v) for v in out], comparison.broadcast_shape(sa, sb), np.bool_)
        operands = [builder.input(x, type_, *p) for x, p in zip(inputs, params, strict=True)]
        parameters["type"] = kind
    builder.output(out_array.shape, bool8)
    model = builder.model(operation, operands)
    return Corner(
        "compare", operation, model, inputs, [out_array], _classes(model, [out_array]),
        parameters, "comparison_oracle",
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
            classes += _output_classes(model, outputs) + _result_classes(model, name, outputs)
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


def _axis_position(chosen: int, rank: int) -> list[str]:
    """An axis given from either end: ``axis:negative`` and where it falls."""
    position = chosen % rank
    classes = ["axis:negative"] if chosen < 0 else []
    classes.append(
        "axis:last" if position == rank - 1 else "axis:first" if position == 0 else "axis:inner"
    )
    return classes


def _move_classes(model, operation, constants, name) -> list[str]:
    """The block rearrangements: layout and input list, the image's batch and channels
    (DEPTH_TO_SPACE: its output's; BATCH_TO_SPACE_ND: the batch its output has), block
    sizes, SPACE_TO_BATCH_ND's paddings."""
    inputs = operation.inputs
    layout_at = _MOVE_LAYOUT_AT.get(name, 2)
    with_layout = len(inputs) > layout_at
    nchw = with_layout and bool(constants[inputs[layout_at]].reshape(-1)[0])
    dims = list(model.operands[inputs[0]].dimensions)
    batch, _, _, channels = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    blocks = [int(v) for v in constants[inputs[1]].reshape(-1)]
    if name in ("SPACE_TO_DEPTH", "DEPTH_TO_SPACE"):
        (block,) = blocks
        if name == "DEPTH_TO_SPACE" and block > 0:
            channels //= block * block
    else:
        bh, bw = blocks
        if name == "BATCH_TO_SPACE_ND" and bh * bw > 0:
            batch //= bh * bw
    classes = ["layout:nchw" if nchw else "layout:nhwc"]
    classes.append("inputs:layout" if with_layout else "inputs:plain")
    classes += _count_classes(batch, channels)
    if max(blocks) > 2:
        classes.append("block>2")
    if len(blocks) == 2:
        if blocks[0] != blocks[1]:
            classes.append("block:unequal")
        if 1 in blocks:
            classes.append("block:1")
    if name == "SPACE_TO_BATCH_ND":
        (top, bottom), (left, right) = constants[inputs[2]].reshape(2, 2).tolist()
        if not any((top, bottom, left, right)):
            classes.append("pad:none")
        elif top != bottom or left != right:
            classes.append("pad:asymmetric")
    return classes


def _select_classes(model, operation, constants, name) -> list[str]:
    """SPLIT and GATHER: the axis, the number of outputs, the indices' rank, repeats and
    where they come from; STRIDED_SLICE: strides, begins and ends from the end or beyond
    the axis, and the mask bits set (a mask bit only counts on an axis of the input)."""
    inputs = operation.inputs
    dims = list(model.operands[inputs[0]].dimensions)
    rank = len(dims)
    if not rank:
        raise ValueError("an input of unknown rank")  # no axis to read against
    classes = [f"rank:{rank}"]
    if name in ("SPLIT", "GATHER"):
        classes += _axis_position(int(constants[inputs[1]].reshape(-1)[0]), rank)
    if name == "SPLIT":
        classes.append("splits:several" if len(operation.outputs) > 1 else "splits:1")
    elif name == "GATHER":
        where = inputs[2]
        classes.append(f"indices:rank-{len(model.operands[where].dimensions)}")
        if where in model.input_indexes:
            classes.append("indices:model-input")
        elif where in constants:
            classes.append("indices:constant")
            picked = constants[where].reshape(-1).tolist()
            if len(set(picked)) < len(picked):
                classes.append("indices:repeated")
    elif name == "STRIDED_SLICE":
        begin, end, strides = (
            [int(v) for v in constants[inputs[k]].reshape(-1)] for k in (1, 2, 3)
        )
        every = (1 << rank) - 1
        begin_mask, end_mask, shrink = (
            int(constants[inputs[k]].reshape(-1)[0]) & every for k in (4, 5, 6)
        )
        if any(s < 0 for s in strides):
            classes.append("stride:negative")
        if any(abs(s) > 1 for s in strides):
            classes.append("stride>1")
        plain_begins = [b for axis, b in enumerate(begin) if not begin_mask >> axis & 1]
        plain_ends = [
            (e, d) for axis, (e, d) in enumerate(zip(end, dims, strict=True))
            if not end_mask >> axis & 1
        ]  # fmt: skip
        if any(b < 0 for b in plain_begins):
            classes.append("begin:negative")
        if any(e < 0 for e, _ in plain_ends):
            classes.append("end:negative")
        if any(e > d or e < -d for e, d in plain_ends):
            classes.append("end:beyond")
        for mask, label in ((begin_mask, "begin"), (end_mask, "end"), (shrink, "shrink")):
            if mask:
                classes.append(f"mask:{label}")
    return classes


def _resize_classes(model, operation, constants, name) -> list[str]:
    """The resizes: how the size is given (INT32 sizes or FLOAT32 scales, and whether a
    scale's product has a fraction the floor drops), up or down per axis, ratios that are
    no whole number either way, layout and input list, batch and channels."""
    inputs = operation.inputs
    with_layout = len(inputs) > 3
    nchw = with_layout and bool(constants[inputs[3]].reshape(-1)[0])
    dims = list(model.operands[inputs[0]].dimensions)
    batch, h, w, channels = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    classes = []
    if model.operands[inputs[1]].type == OperandType.INT32:
        new_w, new_h = (int(constants[inputs[k]].reshape(-1)[0]) for k in (1, 2))
        classes.append("resize:size-input")
    else:
        scale_w, scale_h = (np.float32(constants[inputs[k]].reshape(-1)[0]) for k in (1, 2))
        if not (0 < scale_w < 2**16 and 0 < scale_h < 2**16):
            raise ValueError("a scale the family does not draw")
        wide, high = np.float32(w) * scale_w, np.float32(h) * scale_h  # in float32, as HAL does
        new_w, new_h = int(wide), int(high)
        classes.append("resize:scale-input")
        if new_w != wide or new_h != high:
            classes.append("resize:scale-floors")
    pairs = [(old, new) for old, new in ((h, new_h), (w, new_w)) if old > 0]  # known sizes
    if any(new > old for old, new in pairs):
        classes.append("resize:up")
    if any(new < old for old, new in pairs):
        classes.append("resize:down")
    if any(new > 0 and new % old and old % new for old, new in pairs):
        classes.append("resize:non-integer")
    classes.append("layout:nchw" if nchw else "layout:nhwc")
    classes.append("inputs:layout" if with_layout else "inputs:plain")
    return classes + _count_classes(batch, channels)


def _convx_classes(model, operation, constants, name) -> list[str]:
    """GROUPED_CONV_2D and TRANSPOSE_CONV_2D: padding (TRANSPOSE_CONV_2D's implicit SAME
    read from its output-shape tensor; a negative tail), strides (beyond the filter: output
    cells no tap reaches), groups (depthwise-like: one input channel each), layout, batch,
    channels, activation."""
    inputs = operation.inputs
    count = len(inputs)
    transpose = name == "TRANSPOSE_CONV_2D"
    explicit = count == (11 if transpose else 12)
    with_shape = transpose and not explicit
    first = 3 + with_shape  # the first padding input
    strides_at = first + (4 if explicit else 1)
    value = functools.partial(_scalar, constants)
    sw, sh = value(inputs[strides_at]), value(inputs[strides_at + 1])
    act_at = strides_at + 2 + (not transpose)
    nchw = bool(value(inputs[act_at + 1]))
    cout, fh, fw, per_group_in = model.operands[inputs[1]].dimensions
    dims = list(model.operands[inputs[0]].dimensions)
    batch, h, w, c = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    if explicit:
        pl, pr, pt, pb = (value(inputs[first + k]) for k in range(4))
        classes = [_padding_class((pt, pl), (pb, pr), "explicit")]
    else:
        scheme = {1: "SAME", 2: "VALID"}[value(inputs[first])]
        conv = oracle("convolution_oracle")
        if scheme == "VALID":
            pt = pb = pl = pr = 0
        elif transpose:
            requested = [int(v) for v in constants[inputs[3]].reshape(-1)]
            rh, rw = requested[2:4] if nchw else requested[1:3]
            (pt, pb), (pl, pr) = (
                conv.transpose_same_padding(rh, sh, fh),
                conv.transpose_same_padding(rw, sw, fw),
            )
        else:
            (pt, pb), (pl, pr) = conv.same_padding(h, sh, fh), conv.same_padding(w, sw, fw)
        classes = [_padding_class((pt, pl), (pb, pr), scheme)]
        if with_shape:
            classes.append("output-shape:tensor")
    if classes[0] != "padding:valid" and min(pb, pr) < 0:
        classes.append("padding:negative-tail")
    classes += _common_classes(batch, c, (sh, sw), (1, 1))
    if transpose and (sh > fh or sw > fw):
        classes.append("stride>filter")
    if not transpose:
        groups = value(inputs[act_at - 1])
        classes.append("groups>1" if groups > 1 else "groups:1")
        if groups > 1 and per_group_in == 1:
            classes.append("groups:depthwise-like")
        if cout > groups:
            classes.append("groups:outputs>1")
    classes += _activation(constants, inputs, act_at)
    classes.append("layout:nchw" if nchw else "layout:nhwc")
    return classes


def _norm_classes(model, operation, constants, name) -> list[str]:
    """LOG_SOFTMAX and LRN: rank, where the axis falls (given from either end, or LRN's
    plain form, the last), an axis of size 1, LOG_SOFTMAX's beta below or above 1, LRN's
    radius 0, its window inside the axis or the radius beyond the axis's size.
    INSTANCE_NORMALIZATION: layout, batch, channels, gamma negative, beta not 0, epsilon
    large (0.1 or more)."""
    inputs = operation.inputs
    dims = list(model.operands[inputs[0]].dimensions)
    number = lambda slot: float(constants[inputs[slot]].reshape(-1)[0])  # noqa: E731
    if name == "INSTANCE_NORMALIZATION":
        nchw = bool(_scalar(constants, inputs[4]))
        batch, _, _, channels = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
        classes = ["layout:nchw" if nchw else "layout:nhwc", *_count_classes(batch, channels)]
        gamma, beta, epsilon = (number(slot) for slot in (1, 2, 3))
        for holds, label in ((gamma < 0, "gamma:negative"), (beta != 0, "beta:not-0")):
            if holds:
                classes.append(label)
        if epsilon >= 0.1:
            classes.append("epsilon:large")
        return classes
    rank = len(dims)
    if not rank:
        raise ValueError("an input of unknown rank")
    classes = [f"rank:{rank}"]
    if name == "LOG_SOFTMAX":
        chosen = _scalar(constants, inputs[2])
        classes += _axis_position(chosen, rank)
        beta = number(1)
        if beta != 1:
            classes.append("beta<1" if beta < 1 else "beta>1")
    else:
        axis_form = len(inputs) > 5
        chosen = _scalar(constants, inputs[5]) if axis_form else -1
        classes.append("lrn:axis-form" if axis_form else "lrn:plain-form")
        classes += _axis_position(chosen, rank) if axis_form else ["axis:last"]
        radius, depth = _scalar(constants, inputs[1]), dims[chosen % rank]
        if radius == 0:
            classes.append("lrn:radius-0")
        elif depth and radius > depth:  # a size of 0 is unknown: no comparison
            classes.append("lrn:radius>channels")
        elif 2 * radius + 1 < depth:
            classes.append("lrn:window-inside")
    if dims[chosen % rank] == 1:
        classes.append("axis:size-1")
    return classes


def _layout_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    dims = list(model.operands[inputs[0]].dimensions)
    rank = len(dims)
    out_rank = len(model.operands[operation.outputs[0]].dimensions)
    classes = [f"rank:{rank}"]
    if name == "CHANNEL_SHUFFLE":
        groups, chosen = _scalar(constants, inputs[1]), _scalar(constants, inputs[2])
        classes += _axis_position(chosen, rank)
        channels = dims[chosen % rank]
        classes.append(
            "groups:1" if groups == 1 else "groups:all" if groups == channels else "groups:some"
        )
    elif name == "EXPAND_DIMS":
        chosen = _scalar(constants, inputs[1])
        classes += ["axis:negative"] if chosen < 0 else []
        position = chosen + rank + 1 if chosen < 0 else chosen
        classes.append(
            "axis:prepend" if position == 0 else "axis:append" if position == rank else "axis:inner"
        )
    elif name == "PAD_V2":
        pairs = constants[inputs[1]].reshape(-1, 2).tolist()
        if any(before != after for before, after in pairs):
            classes.append("pad:asymmetric")
        fill = constants[inputs[2]].reshape(-1)[0]
        classes.append("pad-value:nonzero" if fill != 0 else "pad-value:zero")
    elif name == "RESHAPE":
        given = [int(v) for v in constants[inputs[1]].reshape(-1)]
        classes += ["shape:-1"] if -1 in given else []
        classes.append("rank:changes" if out_rank != rank else "rank:kept")
    elif name == "SQUEEZE":
        given = [int(v) for v in constants[inputs[1]].reshape(-1)]
        classes += ["axis:negative"] if any(a < 0 for a in given) else []
        ones = sum(d == 1 for d in dims)
        classes.append("squeeze:every-1" if len(set(given)) == ones else "squeeze:some-1")
    else:
        multiples = [int(v) for v in constants[inputs[1]].reshape(-1)]
        classes.append("multiples:all-1" if set(multiples) == {1} else "multiples>1")
    kinds = {OperandType.TENSOR_INT32: "type:int32", OperandType.TENSOR_QUANT8_ASYMM: "quant8"}
    kind = kinds.get(model.operands[inputs[0]].type)
    return classes + ([kind] if kind else [])


def _convert_classes(model, operation, constants, name) -> list[str]:
    source = model.operands[operation.inputs[0]]
    target = model.operands[operation.outputs[0]]
    kinds = {v[0]: k for k, v in _CAST_KINDS.items()}
    classes = [f"rank:{len(source.dimensions)}"]
    if name == "CAST":
        classes += [f"cast:from-{kinds[source.type]}", f"cast:to-{kinds[target.type]}"]
    quantized = source if name == "DEQUANTIZE" else target
    if quantized.type == OperandType.TENSOR_QUANT8_ASYMM:
        classes += [c for c in _quant_classes_of(model, [model.operands.index(quantized)])
                    if c != "quant8"]  # fmt: skip
    return classes


def _dense_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    dims = list(model.operands[inputs[0]].dimensions)
    units, size = model.operands[inputs[1]].dimensions
    classes = [f"rank:{len(dims)}"]
    if int(np.prod(dims)) // size > 1:
        classes.append("batch>1")
    if units > 1:
        classes.append("units>1")
    return classes + _activation(constants, inputs, 3)


def _pick_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    data = model.operands[inputs[0 if name == "TOPK_V2" else -1]]
    kinds = {v[0]: k for k, v in _PICKED.items()}
    classes = [f"rank:{len(data.dimensions)}", f"type:{kinds.get(data.type, 'other')}"]
    if name == "TOPK_V2":
        k = _scalar(constants, inputs[1])
        classes.append("k:whole-axis" if k == data.dimensions[-1] else "k:part")
    elif name == "SELECT":
        classes += _quant_classes_of(model, [inputs[1], inputs[2], operation.outputs[0]])
    return classes


def _recurrent_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    x = list(model.operands[inputs[0]].dimensions)
    units = model.operands[inputs[1]].dimensions[0]
    classes = _activation(constants, inputs, 5)
    if units > 1:
        classes.append("units>1")
    if name == "RNN":
        return classes + (["batch>1"] if x[0] > 1 else [])
    time_major = _scalar(constants, inputs[6])
    steps, batch = (x[0], x[1]) if time_major else (x[1], x[0])
    classes.append("time-major" if time_major else "batch-major")
    return classes + ["batch>1"] * (batch > 1) + ["steps>1"] * (steps > 1)


def _unary_classes(model, operation, constants, name) -> list[str]:
    x = model.operands[operation.inputs[0]]
    classes = [f"rank:{len(x.dimensions)}"]
    return classes + _quant_classes_of(model, [operation.inputs[0]])


def _compare_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    kinds = {
        OperandType.TENSOR_BOOL8: "bool8",
        OperandType.TENSOR_FLOAT32: "float32",
        OperandType.TENSOR_INT32: "int32",
        OperandType.TENSOR_QUANT8_ASYMM: "quant8",
    }
    classes = [f"type:{kinds.get(model.operands[inputs[0]].type, 'other')}"]
    if len(inputs) == 2:
        classes += _binary_classes(model, operation, constants, name)
        classes += _quant_classes_of(model, inputs)
    return classes


def _result_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """What the expected result shows: a boolean result holding both answers
    (``result:mixed``); a RELU family result at its lower or upper bound; equal values
    among TOPK_V2's (``result:ties``); HASHTABLE_LOOKUP's hits and misses."""
    if not outputs or not outputs[0].size:
        return []
    out = outputs[0]
    operand = model.operands[model.output_indexes[0]]
    if name == "HASHTABLE_LOOKUP" and len(outputs) > 1:
        hits = outputs[1]
        return ["lookup:hit"] * bool(hits.any()) + ["lookup:miss"] * bool(not hits.all())
    if name == "TOPK_V2":
        rows = out.reshape(-1, out.shape[-1])
        return ["result:ties"] if np.any(rows[:, 1:] == rows[:, :-1]) else []
    if operand.type == OperandType.TENSOR_BOOL8:
        return ["result:mixed"] if out.any() and not out.all() else []
    if name not in _CLAMPS:
        return []
    low, high = _CLAMPS[name]
    if operand.type == OperandType.TENSOR_QUANT8_ASYMM:
        low, high = oracle("unary_oracle").activation_range(
            _UNARY[name], operand.scale, operand.zero_point
        )
    classes = ["clamp:low"] if np.any(out == low) else []
    return classes + (["clamp:high"] if high is not None and np.any(out == high) else [])


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
    **dict.fromkeys(_MOVES, _move_classes),
    **dict.fromkeys(_SELECTIONS, _select_classes),
    **dict.fromkeys(_RESIZES, _resize_classes),
    **dict.fromkeys(_CONVX, _convx_classes),
    **dict.fromkeys(_NORMS, _norm_classes),
    **dict.fromkeys(_UNARY, _unary_classes),
    **dict.fromkeys(_LAYOUTS, _layout_classes),
    **dict.fromkeys(_CONVERSIONS, _convert_classes),
    "FULLY_CONNECTED": _dense_classes,
    **dict.fromkeys(_PICKS, _pick_classes),
    **dict.fromkeys(_RECURRENT, _recurrent_classes),
    **dict.fromkeys([*_COMPARISONS, *_LOGICAL], _compare_classes),
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
    "moves": moves,
    "select": select,
    "resize": resize,
    "convx": convx,
    "norm": norm,
    "unary": unary,
    "compare": compare,
    "layout": layout,
    "convert": convert,
    "dense": dense,
    "pick": pick,
    "recurrent": recurrent,
}
"""Every family: its name, and the strategy drawing its cases (of one operation if named)."""

OPERATIONS: dict[str, tuple[str, ...]] = {
    "conv2d": ("CONV_2D", "DEPTHWISE_CONV_2D"),
    "pool2d": tuple(sorted(_POOLS)),
    "binary": tuple(sorted(_BINARY)),
    "reduce": tuple(sorted(_REDUCTIONS)),
    "axis": _AXIS_OPERATIONS,
    "shape": _SHAPE_OPERATIONS,
    "moves": _MOVES,
    "select": _SELECTIONS,
    "resize": tuple(sorted(_RESIZES)),
    "convx": _CONVX,
    "norm": _NORMS,
    "unary": tuple(sorted(_UNARY)),
    "compare": tuple(sorted([*_COMPARISONS, *_LOGICAL])),
    "layout": _LAYOUTS,
    "convert": _CONVERSIONS,
    "dense": ("FULLY_CONNECTED",),
    "pick": _PICKS,
    "recurrent": _RECURRENT,
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
    "moves": ("layout:nchw", "layout:nhwc", "inputs:plain", "inputs:layout", "batch>1",
              "channels>1", "block>2", "block:unequal", "block:1", "pad:none",
              "pad:asymmetric"),
    "select": ("rank:1", "rank:4", "axis:negative", "axis:first", "axis:inner", "axis:last",
               "splits:1", "splits:several", "indices:rank-2", "indices:repeated",
               "indices:model-input", "indices:constant", "stride:negative", "stride>1",
               "begin:negative", "end:negative", "end:beyond", "mask:begin", "mask:end",
               "mask:shrink"),
    "resize": ("resize:size-input", "resize:scale-input", "resize:scale-floors", "resize:up",
               "resize:down", "resize:non-integer", "layout:nchw", "layout:nhwc",
               "inputs:plain", "inputs:layout", "batch>1", "channels>1"),
    "convx": ("groups:1", "groups>1", "groups:depthwise-like", "groups:outputs>1",
              "output-shape:tensor", "padding:same-odd", "padding:same-even", "padding:valid",
              "padding:explicit", "padding:explicit-asymmetric", "padding:negative-tail",
              "stride>1", "stride>filter", "batch>1", "channels>1", "layout:nchw",
              "layout:nhwc", "activation:relu1", "activation:relu6"),
    "norm": ("rank:1", "rank:4", "axis:negative", "axis:first", "axis:inner", "axis:last",
             "axis:size-1", "beta<1", "beta>1", "lrn:axis-form", "lrn:plain-form",
             "lrn:radius-0", "lrn:radius>channels", "lrn:window-inside", "layout:nchw",
             "layout:nhwc", "batch>1", "channels>1", "gamma:negative", "beta:not-0",
             "epsilon:large"),
    "unary": ("rank:1", "rank:4", "clamp:low", "clamp:high", "quant8", "quant:zero-point-0",
              "quant:zero-point-255", "quant:scale-tiny", "quant:scale-large"),
    "compare": ("type:bool8", "type:float32", "type:int32", "type:quant8", "rank:4",
                "broadcast:ranks-differ", "broadcast:size-1", "broadcast:none",
                "quant:params-differ", "result:mixed"),
    "layout": ("rank:1", "rank:4", "axis:negative", "axis:first", "axis:inner", "axis:last",
               "axis:prepend", "axis:append", "groups:1", "groups:all", "groups:some",
               "pad:asymmetric", "pad-value:nonzero", "shape:-1", "rank:changes",
               "squeeze:every-1", "squeeze:some-1", "multiples>1", "type:int32", "quant8"),
    "convert": ("rank:1", "rank:4", "cast:from-float32", "cast:from-int32", "cast:from-quant8",
                "cast:to-float32", "cast:to-int32", "cast:to-quant8", "quant:zero-point-0",
                "quant:zero-point-255", "quant:scale-tiny", "quant:scale-large",
                "quant:output-at-range-end"),
    "dense": ("rank:2", "rank:4", "batch>1", "units>1", "activation:none", "activation:relu",
              "activation:relu1", "activation:relu6"),
    "pick": ("rank:1", "rank:2", "rank:4", "type:float32", "type:int32", "type:quant8",
             "k:whole-axis", "k:part", "quant:params-differ", "result:ties", "lookup:miss",
             "lookup:hit"),
    "recurrent": ("activation:none", "activation:relu", "activation:relu6", "units>1",
                  "batch>1", "steps>1", "time-major", "batch-major"),
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
