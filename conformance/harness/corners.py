"""Parameter-space cases: an operation's corners drawn at random, checked against an oracle.

Hand-written specs pick a few parameter combinations per operation; a driver
wrong only where nobody wrote a case passes them. Each *family* here is a
hypothesis strategy over one group of operations' parameters and shapes
(padding schemes and explicit pads, strides, dilations, layouts, axes,
broadcast shapes, fused activations, batch and channel counts, block shapes,
slice bounds and masks, output sizes and scales), kept small so
one case runs in milliseconds. The expected outputs come from the independent
oracle scripts of ``conformance/specs/oracles`` (plain Python loops written
from the operation reference, docs/operations.md; never the reference driver),
imported here by
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
import importlib
import struct
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import ModuleType

import numpy as np
from hypothesis import strategies as st

from conformance.harness.cases import Feed, GeneratedTest
from conformance.harness.graphs import Graph, to_spec
from conformance.specs import oracles
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

ACTIVATIONS = ("none", "relu", "relu1", "relu6")
"""Fused activation codes 0..3 by name."""


ORACLE_PACKAGE = oracles.__name__
"""The package of the oracle scripts: installed with the suite, imported by name."""


@functools.cache
def oracle(name: str) -> ModuleType:
    """The oracle script ``conformance/specs/oracles/<name>.py``, imported as a module of
    ``ORACLE_PACKAGE``."""
    return importlib.import_module(f"{ORACLE_PACKAGE}.{name}")


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
    ignored: frozenset[int] = frozenset()
    """Output positions whose values are never compared (LSTM's scratch buffer); their
    expected arrays hold zeros."""

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
            ignored_outputs=self.ignored,
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
        return to_spec(graph, self.outputs, note=note, source=source, ignored=self.ignored)


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

    def constant(
        self,
        type_: int,
        dims: Sequence[int],
        data: bytes,
        scale: float = 0.0,
        zero_point: int = 0,
    ) -> int:
        while len(self.values) % 4:
            self.values.append(0)
        location = DataLocation(0, len(self.values), len(data))
        self.values += data
        return self._add(
            Operand(
                type_, list(dims), 1, scale, zero_point, OperandLifeTime.CONSTANT_COPY, location
            )
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
    channel, each (batch, channel) slice spread around a mean of 0, 1.5, -3 or 40 (a
    layer whose mean is not 0 tells the HAL text's variance, which Android 11 follows, from
    Android 10's mean square); gamma (negative too), beta, epsilon, NHWC/NCHW."""
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
                mean = draw(st.sampled_from([0.0, 1.5, -3.0, 40.0]))
                for cell, value in enumerate(_centred_slice(draw, h * w)):
                    x[((b * h + cell // w) * w + cell % w) * c + ch] = mean + value
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


_RECURRENT = ("RNN", "UNIDIRECTIONAL_SEQUENCE_RNN", "BIDIRECTIONAL_SEQUENCE_RNN", "SVDF")
_RNN_ACTIVATIONS = (0, 1, 3)
"""None, RELU, RELU6: the codes every Android 10 CPU path evaluates (RELU1 aborts it)."""


def _matrix(draw, rows: int, columns: int) -> list[list[float]]:
    values = _floats(draw, rows * columns)
    return [values[r * columns : (r + 1) * columns] for r in range(rows)]


@st.composite
def recurrent(draw, operation: str | None = None) -> Corner:
    """RNN (one step) and UNIDIRECTIONAL_SEQUENCE_RNN (1-3 steps, time-major or
    batch-major), float32: batch 1-2, 1-3 inputs and units, the weights, bias and state
    in [-4, 4] by halves (every sum exact), activation none, RELU or RELU6.
    BIDIRECTIONAL_SEQUENCE_RNN and SVDF: ``_bidirectional_rnn`` and ``_svdf``."""
    rnn = oracle("rnn_oracle")
    operation = operation or draw(st.sampled_from(_RECURRENT))
    if operation == "BIDIRECTIONAL_SEQUENCE_RNN":
        return _bidirectional_rnn(draw, rnn)
    if operation == "SVDF":
        return _svdf(draw, rnn)
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


def _omitted(
    builder: _Builder, dims: Sequence[int], type_: int = OperandType.TENSOR_FLOAT32
) -> int:
    """An omitted optional input: an operand of lifetime NO_VALUE (declared with the dims it
    would have, as the specs' ``Omitted`` operands are)."""
    return builder._add(Operand(type_, list(dims), 1, 0.0, 0, OperandLifeTime.NO_VALUE))


def _bidirectional_rnn(draw, rnn: ModuleType) -> Corner:
    """BIDIRECTIONAL_SEQUENCE_RNN, float32: batch 1-2, 1-3 steps, 1-3 inputs, 1-3 forward
    and (drawn apart) backward units, time-major or batch-major, the two outputs merged
    into one or apart, with or without the auxiliary input and its two weights (all
    three or none, as HAL 1.2 has it; the auxiliary size is the input's, which Android
    10 assumes: docs/operations.md, BIDIRECTIONAL_SEQUENCE_RNN (43)), activation none,
    RELU or RELU6; every value in [-4, 4] by halves."""
    batch, steps, size = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    time_major, merged, aux = (draw(st.booleans()) for _ in range(3))
    code = draw(st.sampled_from(_RNN_ACTIVATIONS))
    sequence = [_matrix(draw, batch, size) for _ in range(steps)]  # [t][b][i]
    aux_sequence = [_matrix(draw, batch, size) for _ in range(steps)] if aux else None

    def laid_out(nested: list, width: int) -> np.ndarray:  # [t][b][...] in the case's layout
        if time_major:
            return _array(rnn.flat(nested), (steps, batch, width))
        return _array(rnn.flat(rnn.to_time_major(nested)), (batch, steps, width))

    builder = _Builder()
    inputs = [laid_out(sequence, size)]
    operands = [builder.input(inputs[0])]
    directions, aux_weights = [], []
    for reverse in (False, True):
        units = draw(st.integers(1, 3))
        w, r = _matrix(draw, units, size), _matrix(draw, units, units)
        bias, h0 = _floats(draw, units), _matrix(draw, batch, units)
        w_aux = _matrix(draw, units, size) if aux else None
        directions.append(
            rnn.run_direction(sequence, w, r, bias, h0, code, reverse, w_aux, aux_sequence)
        )
        aux_weights.append((units, w_aux))
        inputs.append(_array(h0, (batch, units)))
        operands += [
            builder.tensor(_array(rnn.flat(w), (units, size))),
            builder.tensor(_array(rnn.flat(r), (units, units))),
            builder.tensor(_array(bias, (units,))),
            builder.input(inputs[-1]),
        ]
    if aux_sequence is not None:
        inputs.append(laid_out(aux_sequence, size))
        operands.append(builder.input(inputs[-1]))
        operands += [builder.tensor(_array(rnn.flat(w), (u, size))) for u, w in aux_weights]
    else:
        operands.append(_omitted(builder, inputs[0].shape))
        operands += [_omitted(builder, (u, size)) for u, _ in aux_weights]
    operands += [builder.int32(code), builder.bool(time_major), builder.bool(merged)]
    fw, bw = directions  # [t][b][units]
    if merged:
        results = [[[fw[t][b] + bw[t][b] for b in range(batch)] for t in range(steps)]]
    else:
        results = [fw, bw]
    outputs = [laid_out(states, len(states[0][0])) for states in results]
    for array in outputs:
        builder.output(array.shape)
    model = builder.model("BIDIRECTIONAL_SEQUENCE_RNN", operands)
    parameters = {"batch": batch, "steps": steps, "input size": size,
                  "units (fw, bw)": tuple(u for u, _ in aux_weights),
                  "activation": ACTIVATIONS[code], "time_major": time_major,
                  "merge_outputs": merged, "aux input": aux}  # fmt: skip
    return Corner(
        "recurrent", "BIDIRECTIONAL_SEQUENCE_RNN", model, inputs, outputs,
        _classes(model, outputs), parameters, "rnn_oracle",
    )  # fmt: skip


def _svdf(draw, rnn: ModuleType) -> Corner:
    """SVDF (one step), float32: batch 1-2, 1-3 inputs and units, rank 1-3, memory 1-3, the
    bias given or omitted, activation none, RELU or RELU6; the weights, bias, input and
    state in [-4, 4] by halves (every sum exact). The weights have units * rank filters
    and the state [batch, memory * units * rank], as Android 10 and the generated tests
    have them (docs/operations.md, SVDF (27): the HAL text's sizes differ)."""
    batch, size, units = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    rank, memory = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    filters = units * rank
    wf, wt = _matrix(draw, filters, size), _matrix(draw, filters, memory)
    bias = _floats(draw, units) if draw(st.booleans()) else None
    code = draw(st.sampled_from(_RNN_ACTIVATIONS))
    x, state = _matrix(draw, batch, size), _matrix(draw, batch, filters * memory)
    state_out, out = rnn.svdf(x, wf, wt, bias, state, rank, code)
    builder = _Builder()
    inputs = [_array(x, (batch, size)), _array(state, (batch, filters * memory))]
    operands = [
        builder.input(inputs[0]),
        builder.tensor(_array(rnn.flat(wf), (filters, size))),
        builder.tensor(_array(rnn.flat(wt), (filters, memory))),
        _omitted(builder, (units,)) if bias is None else builder.tensor(_array(bias, (units,))),
        builder.input(inputs[1]),
        builder.int32(rank),
        builder.int32(code),
    ]
    outputs = [_array(state_out, (batch, filters * memory)), _array(out, (batch, units))]
    for array in outputs:
        builder.output(array.shape)
    model = builder.model("SVDF", operands)
    parameters = {"batch": batch, "input size": size, "units": units, "rank": rank,
                  "memory": memory, "bias": bias is not None,
                  "activation": ACTIVATIONS[code]}  # fmt: skip
    return Corner(
        "recurrent", "SVDF", model, inputs, outputs, _classes(model, outputs), parameters,
        "rnn_oracle",
    )  # fmt: skip


_HASHING = ("LSH_PROJECTION", "RANDOM_MULTINOMIAL")
_LSH_TYPES = {1: "sparse-deprecated", 2: "dense", 3: "sparse"}
"""LSH_PROJECTION's type input: SPARSE_DEPRECATED (HAL 1.0's sparse), DENSE, SPARSE."""
_HALVES = st.integers(-16, 16).map(lambda v: v / 2)
_ANY_FLOAT32 = st.floats(width=32, allow_nan=False, allow_infinity=False)
_LSH_INPUTS = {
    "float32": (OperandType.TENSOR_FLOAT32, np.float32, "f32", st.one_of(_HALVES, _ANY_FLOAT32)),
    "int32": (OperandType.TENSOR_INT32, np.int32, "i32", st.integers(-(2**31), 2**31 - 1)),
    "quant8": (OperandType.TENSOR_QUANT8_ASYMM, np.uint8, "q8", st.integers(0, 255)),
}
"""The input types HAL 1.0 has (and their bytes' encodings in ``lookup_oracle``)."""
_LSH_ROW_SIZES = (12, 15, 16, 20, 40, 61, 70, 130)
"""Elements per input row beyond 1-8: with the 4-byte seed, keys in each of FarmHash's
length classes (0-16, 17-32, 33-64 bytes, and longer: 64-byte rounds), at their edges
(64 bytes: 15 four-byte elements; 65: 61 bytes) and of several rounds."""
_KEY_CLASSES = ((16, "key:0-16"), (32, "key:17-32"), (64, "key:33-64"))
_MARGIN = 1e-3
"""The least |score| / sum |term| of a drawn LSH_PROJECTION bit: a driver summing the
weighted fingerprints in another order or precision gets the same sign."""


def _lsh_projection(draw) -> Corner:
    """LSH_PROJECTION: SPARSE_DEPRECATED, SPARSE (without the weight) and DENSE (with it:
    Android 10 requires so, docs/operations.md, LSH_PROJECTION (15)); 1-4 hash functions of
    1-4, 16, 31 or 32 bits (the sparse types keep num_bits + ceil(log2(num_hash)) <= 32),
    seeds any finite float32; the input float32 (any finite value, -0 and subnormals too),
    int32 (any) or quant8 (any byte; its scale and zero point drawn, to be ignored), rank
    1-3 of 1-4 rows whose keys fall in every FarmHash length class; weights in [-4, 4] by
    halves, never 0. A case whose weighted sum nears 0 for some bit is not drawn
    (``_MARGIN``)."""
    from hypothesis import assume

    lookup = oracle("lookup_oracle")
    kind = draw(st.sampled_from(sorted(_LSH_TYPES)))
    num_bits = draw(st.one_of(st.integers(1, 4), st.sampled_from([16, 31, 32])))
    num_hash = draw(st.integers(1, 4 if num_bits <= 4 else 2))
    if kind != 2:
        num_hash = min(num_hash, 2 ** (32 - num_bits))
    input_kind = draw(st.sampled_from(sorted(_LSH_INPUTS)))
    type_, dtype, encoding, element = _LSH_INPUTS[input_kind]
    rank, rows = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    per_row = 1
    if rank > 1:
        per_row = draw(st.one_of(st.integers(1, 8), st.sampled_from(_LSH_ROW_SIZES)))
    dims = [rows, per_row]
    if rank == 3:
        inner = draw(st.sampled_from([d for d in range(1, per_row + 1) if per_row % d == 0]))
        dims = [rows, inner, per_row // inner]
    values = draw(_exactly(element, rows * per_row))
    hashes = draw(_exactly(st.one_of(_HALVES, _ANY_FLOAT32), num_hash * num_bits))
    weights = None
    if kind == 2:
        weights = [v / 2 for v in draw(_exactly(st.integers(-8, 8).filter(bool), rows))]
    keys = lookup.rows_bytes(values, rows, encoding)
    out, margin = lookup.lsh_projection(hashes, num_bits, keys, weights, kind)
    assume(margin >= _MARGIN)
    quant = ()
    if input_kind == "quant8":
        quant = (draw(st.sampled_from(_EXACT_SCALES)), draw(_ZERO_POINTS))
    builder = _Builder()
    x_array = _array(values, dims[:rank], dtype)
    operands = [
        builder.tensor(_array(hashes, (num_hash, num_bits))),
        builder.input(x_array, type_, *quant),
        _omitted(builder, (rows,)) if weights is None else builder.tensor(_array(weights, (rows,))),
        builder.int32(kind),
    ]
    outputs = [_array(out, (len(out),), np.int32)]
    builder.output((len(out),), OperandType.TENSOR_INT32)
    model = builder.model("LSH_PROJECTION", operands)
    parameters = {"type": _LSH_TYPES[kind], "hashes": num_hash, "bits": num_bits,
                  "input": (input_kind, tuple(dims[:rank])), "weights": weights,
                  "key bytes": len(keys[0]) + 4, "margin": f"{margin:.3g}"}  # fmt: skip
    return Corner(
        "hashing", "LSH_PROJECTION", model, [x_array], outputs, _classes(model, outputs),
        parameters, "lookup_oracle",
    )  # fmt: skip


def _random_multinomial(draw) -> Corner:
    """RANDOM_MULTINOMIAL, whose samples are random: only cases where they are certain.
    Each of 1-3 rows of 1-5 logits has one class 800 to 3000 above every other, so the
    others' probability exp(logit - max) is 0 even in double (in float32 from 104 below):
    every sample, whatever the generator and seeds, is that class. Its logit in [-20, 20]
    by halves, or -5000, 100 or 5000 (a softmax that does not subtract the maximum
    overflows or underflows); 1-5, 8 or 13 samples; the seeds a model input, a constant,
    or the constant {0, 0} (fresh randomness on Android 10: the samples stay certain)."""
    lookup = oracle("lookup_oracle")
    batches, classes = draw(st.integers(1, 3)), draw(st.integers(1, 5))
    samples = draw(st.one_of(st.integers(1, 5), st.sampled_from([8, 13])))
    logits: list[float] = []
    for _ in range(batches):
        top = draw(st.one_of(st.integers(-40, 40).map(lambda v: v / 2),
                             st.sampled_from([-5000.0, 100.0, 5000.0])))  # fmt: skip
        chosen = draw(st.integers(0, classes - 1))
        logits += [
            top if j == chosen else top - draw(st.integers(800, 3000)) for j in range(classes)
        ]
    seeding = draw(st.sampled_from(["model-input", "constant", "zero"]))
    seeds = [0, 0] if seeding == "zero" else draw(_exactly(st.integers(-(2**31), 2**31 - 1), 2))
    out = lookup.certain_multinomial(logits, classes, samples)
    builder = _Builder()
    inputs = [_array(logits, (batches, classes))]
    operands = [builder.input(inputs[0]), builder.int32(samples)]
    if seeding == "model-input":
        inputs.append(_array(seeds, (2,), np.int32))
        operands.append(builder.input(inputs[-1], OperandType.TENSOR_INT32))
    else:
        operands.append(builder.int32s(seeds))
    outputs = [_array(out, (batches, samples), np.int32)]
    builder.output((batches, samples), OperandType.TENSOR_INT32)
    model = builder.model("RANDOM_MULTINOMIAL", operands)
    parameters = {"logits": (batches, classes), "samples": samples,
                  "seeds": (seeding, tuple(seeds))}  # fmt: skip
    return Corner(
        "hashing", "RANDOM_MULTINOMIAL", model, inputs, outputs, _classes(model, outputs),
        parameters, "lookup_oracle",
    )  # fmt: skip


@st.composite
def hashing(draw, operation: str | None = None) -> Corner:
    """LSH_PROJECTION (``_lsh_projection``) and RANDOM_MULTINOMIAL, its cases of certain
    samples only (``_random_multinomial``)."""
    operation = operation or draw(st.sampled_from(_HASHING))
    if operation == "LSH_PROJECTION":
        return _lsh_projection(draw)
    return _random_multinomial(draw)


_ROI = ("ROI_ALIGN", "ROI_POOLING", "HEATMAP_MAX_KEYPOINT", "AXIS_ALIGNED_BBOX_TRANSFORM")
_ROI_RATIOS = (0.5, 1.0, 2.0)
"""Image-to-feature ratios: powers of two, so scaled roi coordinates are exact (and the
ROI_POOLING bin edges, floors and ceilings of small rationals, the same in float32, float16
and exact arithmetic)."""
_BOX = 0.125
"""TENSOR_QUANT16_ASYMM box coordinates: scale 0.125, zero point 0."""
_ROI_SCALES = (0.125, 0.25, 0.5, 1.0)
"""Power-of-two scales of the quantized detection tensors: dequantized values are exact."""


def _given(b: _Builder, array: np.ndarray, as_input: bool, type_: int, scale=0.0, zp=0) -> int:
    """``array`` as a model input or as a constant."""
    if as_input:
        return b.input(array, type_, scale, zp)
    return b.constant(type_, array.shape, array.tobytes(), scale, zp)


def _boxes_q16(values: Sequence[float]) -> np.ndarray:
    """Box coordinates (multiples of 0.125, not negative) as TENSOR_QUANT16_ASYMM bytes."""
    return np.asarray([round(v / _BOX) for v in values], np.uint16)


def _round_away(value: float) -> int:
    return int(np.floor(value + 0.5)) if value >= 0 else -int(np.floor(-value + 0.5))


def _roi_span(draw, length: int) -> tuple[float, float]:
    """One axis of a roi in feature coordinates, quarters in [0, length]: anywhere, up to
    the far edge (the samples past the last cell clamped, the pooling bins clipped) or
    shorter than a cell (widened to 1)."""
    low = draw(st.integers(0, 4 * length))
    end = draw(st.sampled_from(["edge", "tiny", "any"]))
    if end == "edge":
        high = 4 * length
    elif end == "tiny":
        high = draw(st.integers(low, min(low + 3, 4 * length)))
    else:
        high = draw(st.integers(low, 4 * length))
    return low / 4, high / 4


def _roi_window(draw, operation: str, quant: bool) -> tuple:
    """ROI_ALIGN or ROI_POOLING: the inputs, outputs and operands of a drawn case."""
    detection = oracle("detection_oracle")
    align = operation == "ROI_ALIGN"
    batch, h, w, c = (draw(st.integers(1, 2)), *(draw(st.integers(1, 5)) for _ in "hw"),
                      draw(st.integers(1, 3)))  # fmt: skip
    count, out_h, out_w = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    ratio_h, ratio_w = draw(st.sampled_from(_ROI_RATIOS)), draw(st.sampled_from(_ROI_RATIOS))
    samp_h, samp_w = (draw(st.integers(0, 3)), draw(st.integers(0, 3))) if align else (0, 0)
    nchw, rois_input = draw(st.booleans()), draw(st.booleans())
    indexes = draw(_exactly(st.integers(0, batch - 1), count))
    rois = []
    for _ in range(count):
        (x1, x2), (y1, y2) = _roi_span(draw, w), _roi_span(draw, h)
        rois += [x1 * ratio_w, y1 * ratio_h, x2 * ratio_w, y2 * ratio_h]
    shape = (batch, h, w, c)
    size = batch * h * w * c
    parameters: dict[str, object] = {
        "input": shape, "rois": rois, "batch indexes": indexes, "out (h, w)": (out_h, out_w),
        "ratios (h, w)": (ratio_h, ratio_w), "layout": "NCHW" if nchw else "NHWC",
    }  # fmt: skip
    if align:
        parameters["sampling (h, w)"] = (samp_h, samp_w)
    geometry = (out_h, out_w, ratio_h, ratio_w, *((samp_h, samp_w) if align else ()))
    if not quant:
        x = _floats(draw, size)
        run = detection.roi_align if align else detection.roi_pooling
        out = run(x, shape, rois, indexes, *geometry)
        x_array, out_array = _array(x, shape), _array(out, (count, out_h, out_w, c))
        q_in = q_out = (0.0, 0)
        x_type = rois_type = OperandType.TENSOR_FLOAT32
        roi_array = _array(rois, (count, 4))
    else:
        s_in, zp_in = draw(st.sampled_from(_ROI_SCALES)), draw(_ZERO_POINTS)
        if align:
            # Bytes within 40 of the zero point and an output scale of 1, 2 or 4 input
            # scales: the doc's integer path (weights rounded to 1/255) then stays within
            # 2 * 40 / 255 < 0.32 output steps of the real result, so a driver taking
            # either path rounds to within 1 of the rounded real result expected here.
            spread = 40
            s_out, zp_out = s_in * draw(st.sampled_from([1, 2, 4])), draw(_ZERO_POINTS)
        else:  # the maximum of raw bytes; the output quantized as the input (forced)
            spread, s_out, zp_out = 255, s_in, zp_in
        q = draw(_exactly(st.integers(max(0, zp_in - spread), min(255, zp_in + spread)), size))
        x = [(v - zp_in) * s_in for v in q]
        if align:
            out = detection.roi_align(x, shape, rois, indexes, *geometry)
            quantized = (s_in, zp_in, s_out, zp_out)
            integer = detection.roi_align(x, shape, rois, indexes, *geometry, quantized, True)
            assert all(abs(a - v / s_out) < 0.5 for a, v in zip(integer, out, strict=True)), (
                "the harness's integer and float ROI_ALIGN oracles differ by half a step"
            )
        else:
            out = detection.roi_pooling(x, shape, rois, indexes, *geometry)
        values = [min(255, max(0, _round_away(v / s_out) + zp_out)) for v in out]
        x_array = _array(q, shape, np.uint8)
        out_array = _array(values, (count, out_h, out_w, c), np.uint8)
        q_in, q_out = (s_in, zp_in), (s_out, zp_out)
        x_type, rois_type = OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT16_ASYMM
        roi_array = _boxes_q16(rois).reshape(count, 4)
        parameters["quant (scale, zero point) in, out"] = (q_in, q_out)
    if nchw:
        x_array, out_array = _to_nchw(x_array), _to_nchw(out_array)
    b = _Builder()
    inputs = [x_array]
    operands = [b.input(x_array, x_type, *q_in)]
    index_array = _array(indexes, (count,), np.int32)
    roi_quant = (_BOX, 0) if quant else (0.0, 0)
    operands.append(_given(b, roi_array, rois_input, rois_type, *roi_quant))
    operands.append(_given(b, index_array, rois_input, OperandType.TENSOR_INT32))
    if rois_input:
        inputs += [roi_array, index_array]
    operands += [b.int32(out_h), b.int32(out_w), b.float32(ratio_h), b.float32(ratio_w)]
    if align:
        operands += [b.int32(samp_h), b.int32(samp_w)]
    operands.append(b.bool(nchw))
    b.output(out_array.shape, x_type, *q_out)
    return b, operands, inputs, [out_array], parameters, "detection_oracle"


def _peaked_map(draw, size: int, low: int, high: int) -> list[list[int]]:
    """A size x size map of integers with one maximum whose quadratic fit (neighbours
    mirrored at the border) is far from singular: |det A| >= 4 in these units, so the
    fit never takes the singular branch and the offset is well conditioned."""
    cells = draw(_exactly(st.integers(low, high), size * size))
    top = max(cells)
    peak = draw(st.sampled_from([i for i, v in enumerate(cells) if v == top]))
    cells[peak] += 1  # the one maximum
    grid = [cells[r * size : (r + 1) * size] for r in range(size)]
    row, col = divmod(peak, size)
    mirror = oracle("proposals_oracle").mirror
    while True:
        g = [[grid[mirror(row + i, size)][mirror(col + j, size)] for j in (-1, 0, 1)]
             for i in (-1, 0, 1)]  # fmt: skip
        a00, a11 = g[1][0] - 2 * g[1][1] + g[1][2], g[0][1] - 2 * g[1][1] + g[2][1]
        a01 = (g[2][2] - g[2][0] - g[0][2] + g[0][0]) / 4
        if abs(a00 * a11 - a01 * a01) >= 4:
            return grid
        grid[row][col] += 1  # a sharper peak: both curvatures grow


def _heatmap(draw, quant: bool) -> tuple:
    """HEATMAP_MAX_KEYPOINT: the inputs, outputs and operands of a drawn case."""
    boxes_count, size = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    points = draw(st.integers(1, 3))
    nchw = draw(st.booleans())
    if quant:
        scale, zero_point = draw(st.sampled_from(_ROI_SCALES)), draw(_ZERO_POINTS)
    maps = [[_peaked_map(draw, size, -8, 8) for _ in range(points)] for _ in range(boxes_count)]
    if quant:  # bytes: the map about the zero point, shifted into [0, 255] where needed
        for per_box in maps:
            for grid in per_box:
                shift = zero_point + min(0, 255 - zero_point - max(map(max, grid)))
                shift = max(shift, -min(map(min, grid)))
                for row in grid:
                    row[:] = [v + shift for v in row]
        unit = lambda v: (v - zero_point) * scale  # noqa: E731
    else:
        unit = lambda v: v / 2  # noqa: E731
    # heatmaps[n][y][x][k] for the oracle
    heat = [[[[unit(maps[n][k][y][x]) for k in range(points)] for x in range(size)]
             for y in range(size)] for n in range(boxes_count)]  # fmt: skip
    boxes = []
    for _ in range(boxes_count):
        low = 0 if quant else -16
        x1, y1 = draw(st.integers(low, 48)), draw(st.integers(low, 48))
        x2, y2 = draw(st.integers(x1, x1 + 32)), draw(st.integers(y1, y1 + 32))
        boxes.append(tuple(v / 4 for v in (x1, y1, x2, y2)))
    scores, keypoints = oracle("proposals_oracle").heatmap_max_keypoint(heat, boxes)
    flat_boxes = [v for box in boxes for v in box]
    raw = [maps[n][k][y][x] for n in range(boxes_count) for y in range(size)
           for x in range(size) for k in range(points)]  # fmt: skip
    shape = (boxes_count, size, size, points)
    parameters: dict[str, object] = {
        "heatmaps": shape, "boxes": boxes, "layout": "NCHW" if nchw else "NHWC",
    }  # fmt: skip
    if quant:
        s_out, zp_out = draw(st.sampled_from(_ROI_SCALES)), draw(_ZERO_POINTS)
        heat_array = _array(raw, shape, np.uint8)
        box_array = _boxes_q16(flat_boxes).reshape(boxes_count, 4)
        score_array = _array([min(255, max(0, _round_away(s / s_out) + zp_out)) for s in scores],
                             (boxes_count, points), np.uint8)  # fmt: skip
        point_array = _array([min(65535, max(0, _round_away(v / _BOX))) for v in keypoints],
                             (boxes_count, points, 2), np.uint16)  # fmt: skip
        types = (OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT16_ASYMM)
        quants = ((scale, zero_point), (_BOX, 0), (s_out, zp_out), (_BOX, 0))
        parameters["quant (scale, zero point) heatmaps, scores"] = (quants[0], quants[2])
    else:
        heat_array = _array([v / 2 for v in raw], shape)
        box_array = _array(flat_boxes, (boxes_count, 4))
        score_array = _array(scores, (boxes_count, points))
        point_array = _array(keypoints, (boxes_count, points, 2))
        types = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT32)
        quants = ((0.0, 0),) * 4
    if nchw:
        heat_array = np.ascontiguousarray(heat_array.transpose(0, 3, 1, 2))
    b = _Builder()
    operands = [b.input(heat_array, types[0], *quants[0]), b.input(box_array, types[1], *quants[1])]
    operands.append(b.bool(nchw))
    b.output(score_array.shape, types[0], *quants[2])
    b.output(point_array.shape, types[1], *quants[3])
    outputs = [score_array, point_array]
    return b, operands, [heat_array, box_array], outputs, parameters, "proposals_oracle"


def _bbox(draw, quant: bool) -> tuple:
    """AXIS_ALIGNED_BBOX_TRANSFORM: the inputs, outputs and operands of a drawn case."""
    count, classes = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    images = draw(st.integers(1, 2))
    info = [v / 2 for v in draw(_exactly(st.integers(4, 24), 2 * images))]  # (height, width)
    indexes = draw(_exactly(st.integers(0, images - 1), count))
    rois = []
    for _ in range(count):  # quarters in [0, 14]: inside, across or past the image's edges
        x1, y1 = draw(st.integers(0, 56)), draw(st.integers(0, 56))
        x2, y2 = draw(st.integers(x1, 56)), draw(st.integers(y1, 56))
        rois += [v / 4 for v in (x1, y1, x2, y2)]
    given = draw(st.booleans())  # batch indexes and image sizes as model inputs, or constants
    size = count * classes * 4
    parameters: dict[str, object] = {"rois": rois, "classes": classes, "batch indexes": indexes,
                                     "image sizes (h, w)": info}  # fmt: skip
    if quant:
        # Deltas of at most 1 (exp(1) < 3), eighths to thirty-seconds.
        scale, zero_point = draw(st.sampled_from([0.125, 0.0625, 0.03125])), draw(_ZERO_POINTS)
        reach = round(1 / scale)
        steps = draw(_exactly(st.integers(max(-zero_point, -reach), min(255 - zero_point, reach)),
                              size))  # fmt: skip
        deltas = [k * scale for k in steps]
        delta_array = _array([k + zero_point for k in steps], (count, classes * 4), np.uint8)
        roi_array = _boxes_q16(rois).reshape(count, 4)
        info_array = _boxes_q16(info).reshape(images, 2)
        types = (OperandType.TENSOR_QUANT16_ASYMM, OperandType.TENSOR_QUANT8_ASYMM)
        quants = ((_BOX, 0), (scale, zero_point))
        parameters["deltas quant (scale, zero point)"] = quants[1]
    else:
        deltas = [k / 8 for k in draw(_exactly(st.integers(-8, 8), size))]
        delta_array = _array(deltas, (count, classes * 4))
        roi_array, info_array = _array(rois, (count, 4)), _array(info, (images, 2))
        types = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT32)
        quants = ((0.0, 0), (0.0, 0))
    out = oracle("detection_oracle").bbox_transform(rois, deltas, indexes, info)
    if quant:
        out_array = _array([min(65535, max(0, _round_away(v / _BOX))) for v in out],
                           (count, classes * 4), np.uint16)  # fmt: skip
    else:
        out_array = _array(out, (count, classes * 4))
    index_array = _array(indexes, (count,), np.int32)
    b = _Builder()
    operands = [b.input(roi_array, types[0], *quants[0])]
    operands.append(b.input(delta_array, types[1], *quants[1]))
    operands.append(_given(b, index_array, given, OperandType.TENSOR_INT32))
    operands.append(_given(b, info_array, given, types[0], *quants[0]))
    inputs = [roi_array, delta_array, *((index_array, info_array) if given else ())]
    b.output(out_array.shape, types[0], *quants[0])
    return b, operands, inputs, [out_array], parameters, "detection_oracle"


@st.composite
def roi(draw, operation: str | None = None) -> Corner:
    """ROI_ALIGN, ROI_POOLING, HEATMAP_MAX_KEYPOINT and AXIS_ALIGNED_BBOX_TRANSFORM, float32
    or quantized (TENSOR_QUANT8_ASYMM data, TENSOR_QUANT16_ASYMM boxes at 0.125).
    ROI_ALIGN and ROI_POOLING: batch 1-2, 1-5 rows and columns, 1-3 channels, 1-3 rois of
    quarter coordinates anywhere in the feature map, up to its far edge or shorter than a
    cell, each with its batch index, as model inputs or constants; outputs of 1-3 by 1-3,
    ratios 0.5, 1 or 2 per axis, ROI_ALIGN's sampling 0 (adaptive) to 3 per axis, NHWC or
    NCHW. HEATMAP_MAX_KEYPOINT: 1-3 boxes, 2x2 to 4x4 maps of 1-3 keypoints, each map with
    one maximum and a fit far from singular. AXIS_ALIGNED_BBOX_TRANSFORM: 1-3 rois (inside,
    across and past the image), 1-3 classes, 1-2 images, deltas of at most 1."""
    operation = operation or draw(st.sampled_from(_ROI))
    quant = draw(st.booleans())
    if operation in ("ROI_ALIGN", "ROI_POOLING"):
        b, operands, inputs, outputs, parameters, oracle_name = _roi_window(draw, operation, quant)
    elif operation == "HEATMAP_MAX_KEYPOINT":
        b, operands, inputs, outputs, parameters, oracle_name = _heatmap(draw, quant)
    else:
        b, operands, inputs, outputs, parameters, oracle_name = _bbox(draw, quant)
    parameters["type"] = "quant" if quant else "float32"
    model = b.model(operation, operands)
    return Corner(
        "roi", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        oracle_name,
    )  # fmt: skip


_DETECT = ("BOX_WITH_NMS_LIMIT", "DETECTION_POSTPROCESSING", "GENERATE_PROPOSALS")
_NMS_KERNELS = ("hard", "linear", "gaussian")
_DETECT_MARGIN = 1e-3
"""How near a BOX_WITH_NMS_LIMIT score may come to another it is ranked against, or to a
threshold, or an IoU to the IoU threshold, before the draw is refused (a float32 driver
computes them within about 1e-6 of the oracle's doubles)."""
_IOU_CHOICES = tuple(_f32(k / 20) for k in range(5, 16))
"""IoU thresholds drawn: 0.25 to 0.75 by 0.05, of those 0.01 or more from every IoU the
selection may compare with them."""


def _detect_refuse() -> None:
    """Give the draw up: its selection would hang on float rounding (rare by design)."""
    from hypothesis import reject

    reject()


def _detect_distinct(draw, count: int, steps: int) -> list[int]:
    """``count`` distinct integers in [1, steps): scores k / steps that never tie."""
    return draw(st.lists(st.integers(1, steps - 1), min_size=count, max_size=count, unique=True))


def _detect_clear_of(draw, values: Sequence[float], choices: Sequence[float]) -> float:
    """One of ``choices`` 0.01 or more from each of ``values`` (IoUs, box sizes), so a float32
    driver compares each with it as the oracle does; refused if none is."""
    clear = [c for c in choices if all(abs(v - c) >= 0.01 for v in values)]
    if not clear:
        _detect_refuse()
    return draw(st.sampled_from(clear))


def _detect_overlaps(boxes: Sequence[Sequence[float]]) -> list[float]:
    """The IoU of each pair of ``boxes``."""
    iou = oracle("proposals_oracle").iou
    return [iou(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]]


def _box_with_nms_limit(draw, builder: _Builder) -> tuple[list, list, list, dict]:
    """1-2 images (batch indices 0-2, in order) of 1-4 rois, 1-3 classes besides the
    background; per image the scores of the classes 1 and up distinct multiples of 1/32,
    the score threshold halfway between two of them and below each image's best (so each
    image keeps a box); boxes of sides 2-4 from corners 0-2, so they overlap often."""
    detection = oracle("detection_oracle")
    images = draw(st.integers(1, 2))
    ids = sorted(draw(st.lists(st.integers(0, 2), min_size=images, max_size=images, unique=True)))
    counts = [draw(st.integers(1, 4)) for _ in ids]
    classes = draw(st.integers(2, 4))
    batches = [image for image, count in zip(ids, counts, strict=True) for _ in range(count)]
    scores: list[float] = []
    tops = []
    for count in counts:
        picks = _detect_distinct(draw, count * (classes - 1), 32)
        tops.append(max(picks))
        for r in range(count):
            own = picks[r * (classes - 1) : (r + 1) * (classes - 1)]
            scores += [draw(st.integers(0, 31)) / 32, *(k / 32 for k in own)]
    score_threshold = (draw(st.integers(0, min(tops) - 1)) + 0.5) / 32
    corner = st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(2, 4), st.integers(2, 4))
    boxes = [[float(x), float(y), float(x + w), float(y + h)]
             for x, y, w, h in draw(_exactly(corner, len(batches) * classes))]  # fmt: skip
    kernel = draw(st.integers(0, 2))
    overlaps, start = [], 0
    for count in counts:
        for c in range(1, classes):
            group = [boxes[r * classes + c] for r in range(start, start + count)]
            overlaps += _detect_overlaps(group)
        start += count
    iou_threshold = _detect_clear_of(draw, overlaps if kernel < 2 else [], _IOU_CHOICES)
    sigma = draw(st.sampled_from((0.25, 0.5, 1.0)))
    # Low for the soft kernels, so rescored boxes are often kept.
    nms_threshold = (draw(st.integers(0, 11 if kernel == 0 else 3)) + 0.25) / 32
    limit = draw(st.sampled_from((-1, 1, 2, 3)))
    params = (score_threshold, limit, _NMS_KERNELS[kernel], iou_threshold, sigma, nms_threshold)
    rois = [v for box in boxes for v in box]
    try:
        kept = detection.box_with_nms_limit(scores, rois, batches, params, _DETECT_MARGIN)
    except detection.Ambiguous:
        _detect_refuse()
    out_scores, out_boxes, out_classes, out_batches = kept
    rows, found = len(batches), len(out_scores)
    inputs = [_array(scores, (rows, classes)), _array(rois, (rows, 4 * classes)),
              _array(batches, (rows,), np.int32)]  # fmt: skip
    operands = [builder.input(inputs[0]), builder.input(inputs[1]),
                builder.input(inputs[2], OperandType.TENSOR_INT32),
                builder.float32(score_threshold), builder.int32(limit), builder.int32(kernel),
                builder.float32(iou_threshold), builder.float32(sigma),
                builder.float32(nms_threshold)]  # fmt: skip
    outputs = [_array(out_scores, (found,)), _array(out_boxes, (found, 4)),
               *(_array(v, (found,), np.int32) for v in (out_classes, out_batches))]  # fmt: skip
    builder.output((found,))
    builder.output((found, 4))
    builder.output((found,), OperandType.TENSOR_INT32)
    builder.output((found,), OperandType.TENSOR_INT32)
    parameters = {
        "rois per image": dict(zip(ids, counts, strict=True)), "classes": classes,
        "score threshold": score_threshold, "max detections": limit,
        "kernel": _NMS_KERNELS[kernel], "IoU threshold": iou_threshold, "sigma": sigma,
        "NMS score threshold": nms_threshold,
    }  # fmt: skip
    return inputs, outputs, operands, parameters


def _generate_proposals(draw, builder: _Builder) -> tuple[list, list, list, dict]:
    """1-2 images of their own sizes, a feature map of 1-2 rows and 1-3 columns, 1-2
    anchors, strides 2-4, deltas of eighths (shifts) and quarters (log sizes), scores
    distinct multiples of 1/64; pre-NMS limits -1, 0, cutting or not, post-NMS limits -1
    or 1-3 (0, where Android 10 and the HAL text disagree, is the specs' business); the
    min size and the IoU threshold 0.01 or more from every size and IoU they meet."""
    proposals = oracle("proposals_oracle")
    batch, height, width, count = (draw(st.integers(1, top)) for top in (2, 2, 3, 2))
    strides = (float(draw(st.integers(2, 4))), float(draw(st.integers(2, 4))))  # (h, w)
    sizes = [draw(st.tuples(st.integers(-1, 2), st.integers(-1, 2))) for _ in range(batch)]
    info = [(height * strides[0] + dh, width * strides[1] + dw) for dh, dw in sizes]  # (h, w)
    anchor = st.tuples(st.integers(-2, 1), st.integers(-2, 1), st.integers(2, 5), st.integers(2, 5))
    anchors = [(float(x), float(y), float(x + w), float(y + h))
               for x, y, w, h in draw(_exactly(anchor, count))]  # fmt: skip
    cells = height * width * count
    flat_scores = [k / 64 for _ in range(batch) for k in _detect_distinct(draw, cells, 64)]
    shift, size = st.integers(-3, 3).map(lambda v: v / 8), st.integers(-2, 2).map(lambda v: v / 4)
    flat_deltas = [v for _ in range(batch * cells)
                   for v in draw(st.tuples(shift, shift, size, size))]  # fmt: skip
    scores = proposals.nest(flat_scores, [batch, height, width, count])
    deltas = proposals.nest(flat_deltas, [batch, height, width, 4 * count])
    pre = draw(st.sampled_from([-1, 0, *range(1, cells + 2)]))
    post = draw(st.sampled_from((-1, 1, 2, 3)))
    entering = []
    for b in range(batch):
        cand_scores, cand_boxes = proposals.proposal_boxes(
            scores[b], deltas[b], anchors, info[b], strides
        )
        entering.append([cand_boxes[i] for i in proposals.pre_nms(cand_scores, pre)])
    sides = [box[k + 2] - box[k] for boxes in entering for box in boxes for k in (0, 1)]
    min_size = _detect_clear_of(draw, sides, (0.25, 0.5, 1.0, 1.5))
    overlaps = []
    for (image_h, image_w), boxes in zip(info, entering, strict=True):
        # A clipped box whose sides pass the min size has its centre that far inside the
        # image: the centre test never hangs on rounding.
        kept = [box for box in boxes if proposals.keeps(box, min_size, image_w, image_h)]
        overlaps += _detect_overlaps(kept)
    iou_threshold = _detect_clear_of(draw, overlaps, _IOU_CHOICES)
    out_scores, out_rois, out_batches = proposals.generate_proposals(
        scores, deltas, anchors, info, strides, pre, post, iou_threshold, min_size
    )
    if not out_scores:
        _detect_refuse()  # no proposal at all: zero-sized outputs are the specs' business
    nchw = draw(st.booleans())
    found = len(out_scores)
    inputs = [_array(flat_scores, (batch, height, width, count)),
              _array(flat_deltas, (batch, height, width, 4 * count)),
              _array([v for a in anchors for v in a], (count, 4)),
              _array([v for i in info for v in i], (batch, 2))]  # fmt: skip
    if nchw:
        inputs[:2] = [_to_nchw(a) for a in inputs[:2]]
    operands = [builder.input(a) for a in inputs]
    operands += [builder.float32(strides[0]), builder.float32(strides[1]), builder.int32(pre),
                 builder.int32(post), builder.float32(iou_threshold), builder.float32(min_size),
                 builder.bool(nchw)]  # fmt: skip
    outputs = [_array(out_scores, (found,)), _array(out_rois, (found, 4)),
               _array(out_batches, (found,), np.int32)]  # fmt: skip
    builder.output((found,))
    builder.output((found, 4))
    builder.output((found,), OperandType.TENSOR_INT32)
    parameters = {
        "scores (NHWC)": (batch, height, width, count), "strides (h, w)": strides,
        "image sizes (h, w)": info, "pre-NMS top n": pre, "post-NMS top n": post,
        "IoU threshold": iou_threshold, "min size": min_size,
        "layout": "NCHW" if nchw else "NHWC",
    }  # fmt: skip
    return inputs, outputs, operands, parameters


def _detection_postprocessing(draw, builder: _Builder) -> tuple[list, list, list, dict]:
    """1-2 images, 1-4 anchors, 1-3 classes besides the background, encodings of 4 or 5
    values (halves in [-1, 1]), scales 1, 2, 10 (centres) and 1, 2, 5 (sizes); per image
    the scores of the classes 1 and up distinct multiples of 1/64, the score threshold
    halfway between two; regular or fast NMS, 1-3 detections, classes per detection and
    detections per class, the background in the labels or not; the IoU threshold 0.01 or
    more from every IoU of two decoded boxes."""
    proposals = oracle("proposals_oracle")
    batch, count, classes = (draw(st.integers(low, high)) for low, high in ((1, 2), (1, 4), (2, 4)))
    length = draw(st.sampled_from((4, 5)))
    anchor = st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3))
    anchors = [tuple(float(v) for v in a) for a in draw(_exactly(anchor, count))]
    scales = tuple(float(draw(st.sampled_from(c))) for c in ((1, 2, 10),) * 2 + ((1, 2, 5),) * 2)
    flat_scores: list[float] = []
    for _ in range(batch):
        picks = _detect_distinct(draw, count * (classes - 1), 64)
        for a in range(count):
            own = picks[a * (classes - 1) : (a + 1) * (classes - 1)]
            flat_scores += [draw(st.integers(0, 63)) / 64, *(k / 64 for k in own)]
    flat_codes = [v / 2 for v in draw(_exactly(st.integers(-2, 2), batch * count * length))]
    scores = proposals.nest(flat_scores, [batch, count, classes])
    codes = proposals.nest(flat_codes, [batch, count, length])
    overlaps = []
    for b in range(batch):
        boxes = [proposals.box_from_anchor(anchors[a], codes[b][a], scales) for a in range(count)]
        overlaps += _detect_overlaps(boxes)
    iou_threshold = _detect_clear_of(draw, overlaps, _IOU_CHOICES)
    score_threshold = (draw(st.integers(0, 40)) + 0.5) / 64
    regular, with_background = draw(st.booleans()), draw(st.booleans())
    most, per_detection, per_class = (draw(st.integers(1, 3)) for _ in range(3))
    out_scores, out_boxes, out_classes, out_counts = proposals.detection_postprocess(
        scores, codes, anchors, scales, regular, most, per_detection, per_class,
        score_threshold, iou_threshold, with_background,
    )  # fmt: skip
    slots = most if regular else most * per_detection
    inputs = [_array(flat_scores, (batch, count, classes)),
              _array(flat_codes, (batch, count, length)),
              _array([v for a in anchors for v in a], (count, 4))]  # fmt: skip
    operands = [builder.input(a) for a in inputs]
    operands += [builder.float32(v) for v in scales]
    operands += [builder.bool(regular), builder.int32(most), builder.int32(per_detection),
                 builder.int32(per_class), builder.float32(score_threshold),
                 builder.float32(iou_threshold), builder.bool(with_background)]  # fmt: skip
    outputs = [_array(out_scores, (batch, slots)), _array(out_boxes, (batch, slots, 4)),
               _array(out_classes, (batch, slots), np.int32),
               _array(out_counts, (batch,), np.int32)]  # fmt: skip
    builder.output((batch, slots))
    builder.output((batch, slots, 4))
    builder.output((batch, slots), OperandType.TENSOR_INT32)
    builder.output((batch,), OperandType.TENSOR_INT32)
    parameters = {
        "scores": (batch, count, classes), "encoding length": length,
        "scales (y, x, h, w)": scales, "NMS": "regular" if regular else "fast",
        "max detections": most, "max classes per detection": per_detection,
        "max detections per class": per_class, "score threshold": score_threshold,
        "IoU threshold": iou_threshold, "background in label": with_background,
    }  # fmt: skip
    return inputs, outputs, operands, parameters


_DETECT_DRAWS = {
    "BOX_WITH_NMS_LIMIT": (_box_with_nms_limit, "detection_oracle"),
    "GENERATE_PROPOSALS": (_generate_proposals, "proposals_oracle"),
    "DETECTION_POSTPROCESSING": (_detection_postprocessing, "proposals_oracle"),
}


@st.composite
def detect(draw, operation: str | None = None) -> Corner:
    """BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS, DETECTION_POSTPROCESSING, float32: discrete
    selections, so scores are distinct multiples of 1/32 or 1/64 (no ties, thresholds
    halfway between two), and the IoU thresholds (and GENERATE_PROPOSALS' min size) are
    drawn 0.01 or more from every IoU (and size) they meet, so a float32 driver selects
    exactly the oracle's boxes; a draw whose soft-NMS rescoring still comes within 1e-3 of
    a tie or threshold is refused (rare). Every case keeps at least one box. The outputs
    are declared with the number of boxes kept (as the specs do); the twin of unknown
    dimensions is lawful (the driver reports that number)."""
    operation = operation or draw(st.sampled_from(_DETECT))
    builder = _Builder()
    make, oracle_name = _DETECT_DRAWS[operation]
    inputs, outputs, operands, parameters = make(draw, builder)
    model = builder.model(operation, operands)
    return Corner(
        "detect", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        oracle_name,
    )  # fmt: skip


def _detect_classes(model, operation, constants, name) -> list[str]:
    """BOX_WITH_NMS_LIMIT: the kernel, classes besides the background, no limit.
    GENERATE_PROPOSALS: layout, batch, anchors, a pre-NMS limit that cuts or none (0 or
    less, or not below the candidates), no post-NMS limit. DETECTION_POSTPROCESSING:
    regular or fast NMS, the background in the labels or not, batch, classes, several
    classes per detection (fast), encodings longer than 4. What the expected outputs
    show: ``_detect_result_classes``."""
    inputs = operation.inputs
    dims = list(model.operands[inputs[0]].dimensions)
    classes: list[str] = []
    if name == "BOX_WITH_NMS_LIMIT":
        kernel, limit = _scalar(constants, inputs[5]), _scalar(constants, inputs[4])
        if kernel in range(3):
            classes.append(f"nms:{_NMS_KERNELS[kernel]}")
        if limit is not None and limit < 0:
            classes.append("limit:none")
        return classes + ["classes>1"] * (dims[1] > 2)
    if name == "GENERATE_PROPOSALS":
        nchw = _scalar(constants, inputs[10])
        if nchw is not None:
            classes.append("layout:nchw" if nchw else "layout:nhwc")
        anchors = model.operands[inputs[2]].dimensions[0]
        classes += ["batch>1"] * (dims[0] > 1) + ["anchors>1"] * (anchors > 1)
        pre, post = _scalar(constants, inputs[6]), _scalar(constants, inputs[7])
        cells = dims[1] * dims[2] * dims[3]  # H * W * A in either layout (0: unknown)
        if pre is not None and (pre <= 0 or 0 < cells <= pre):
            classes.append("pre-nms:none")
        elif pre is not None and cells:
            classes.append("pre-nms:cuts")
        return classes + ["post-nms:none"] * (post is not None and post < 0)
    regular, background = _scalar(constants, inputs[7]), _scalar(constants, inputs[13])
    if regular is not None:
        classes.append("regular-nms" if regular else "fast-nms")
    if background is not None:
        classes.append("background:included" if background else "background:excluded")
    length = model.operands[inputs[1]].dimensions[2]
    classes += ["batch>1"] * (dims[0] > 1) + ["classes>1"] * (dims[2] > 2)
    if regular == 0 and (_scalar(constants, inputs[9]) or 0) > 1:
        classes.append("max-classes>1")
    return classes + ["encoding>4"] * (length > 4)


def _detect_result_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """What the expected detections show: boxes of several images (``batch>1``), an image
    keeping as many boxes as BOX_WITH_NMS_LIMIT's max_detections (``limit:reached``) or
    GENERATE_PROPOSALS' post_nms_top_n (``post-nms:reached``); DETECTION_POSTPROCESSING's
    counts filling an image's slots or leaving some zero."""
    if len(outputs) < (3 if name == "GENERATE_PROPOSALS" else 4):
        return []
    if name == "DETECTION_POSTPROCESSING":
        counts, slots = outputs[3].reshape(-1), outputs[0].shape[-1]
        full, short = bool(np.any(counts == slots)), bool(np.any(counts < slots))
        return ["detections:full"] * full + ["detections:zero-fill"] * short
    per_image = Counter(outputs[-1].reshape(-1).tolist())  # the batch index of each box
    classes = ["batch>1"] * (len(per_image) > 1)
    slot = 4 if name == "BOX_WITH_NMS_LIMIT" else 7
    try:
        constants = read_constants(model)
    except Exception:  # a pool that cannot be opened: no limit read
        constants = {}
    for operation in model.operations:
        if list(operation.outputs) == list(model.output_indexes) and len(operation.inputs) > slot:
            limit = _scalar(constants, operation.inputs[slot])
            if limit is not None and limit > 0 and limit in per_image.values():
                label = "limit:reached" if slot == 4 else "post-nms:reached"
                classes.append(label)
    return classes


_LSTMS = (
    "LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_LSTM", "QUANTIZED_16BIT_LSTM",
)  # fmt: skip
_LSTM_ACTIVATIONS = {0: "none", 1: "relu", 2: "relu1", 3: "relu6", 4: "tanh", 5: "sign-bit",
                     6: "sigmoid"}  # fmt: skip
"""The float LSTMs' activation codes (TensorFlow Lite's set, docs/operations.md, Recurrent
activation codes) by name."""
_LSTM_DRAWN_ACTIVATIONS = (1, 3, 4, 6)
"""RELU, RELU6, tanh, sigmoid. Not NONE: the HAL text gives m = o * c there, while Android
10's CPU path leaves g(c) unwritten and in effect computes o * g(cell input)
(reference_driver/ops/lstm.py), so which to expect is the specs' business; not RELU1 (2)
nor the sign bit (5), outside the operations' documented set (docs/operations.md,
UNIDIRECTIONAL_SEQUENCE_LSTM (92))."""
_CELL_CLIPS = (0.0, 0.25, 0.5, 1.0)
_PROJECTION_CLIPS = (0.0, 0.125, 0.25, 0.5)
"""Clip values (0: none): small against cell states up to 2 and more, so often reached."""
_LN_SPREAD = 0.02
"""The least variance / mean square of the gate sums a layer normalisation of several
units is drawn with. The variance is mean(z^2) - mean(z)^2 (docs/operations.md,
UNIDIRECTIONAL_SEQUENCE_LSTM (92)), which float32 gets to about 2^-22 * mean(z^2): a
narrower spread would judge rounding (a spread of exactly 0 in double can be a tiny one in
float32, normalised to +-1 instead of 0)."""
_QLSTM_SCALES = (1 / 1024, 1 / 256, 3 / 1024, 0.005, 1 / 128, 1 / 64)
"""QUANTIZED_16BIT_LSTM weight scales: from gate sums inside the fixed-point activations'
curved range to sums saturating the Q3.12 pre-activation (|pre| >= 8)."""
_QLSTM_GATES = ("input", "forget", "cell", "output")
_QLSTM_STATE = 2.0**-11
"""The cell state's fixed quantization: TENSOR_QUANT16_SYMM, Q4.11 (docs/operations.md,
QUANTIZED_16BIT_LSTM (73))."""


def _eighths(draw, count: int, scale: float = 1.0) -> list[float]:
    """Multiples of 1/8 in [-1, 1] (as the LSTM specs' data), times ``scale``."""
    return [scale * v / 8 for v in draw(_exactly(st.integers(-8, 8), count))]


def _eighth_rows(draw, rows: int, columns: int, scale: float = 1.0) -> list[list[float]]:
    values = _eighths(draw, rows * columns, scale)
    return [values[r * columns : (r + 1) * columns] for r in range(rows)]


def _lstm_cell(draw, cells: ModuleType, inputs: int, aux: int, layer_norm: bool):
    """One direction's cell: (weights by the oracle's names, None where omitted; config).
    CIFG, peephole, projection (its bias or not) and, where the form has it, layer
    normalisation are drawn apart; 1-3 units, 1-3 outputs with a projection."""
    units = draw(st.integers(1, 3))
    cifg, peephole, projection = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    output = draw(st.integers(1, 3)) if projection else units
    projection_bias = projection and draw(st.booleans())
    normalised = layer_norm and draw(st.booleans())
    cfg = cells.CellConfig(
        units, output, cifg, peephole, projection, projection_bias, normalised, aux > 0
    )
    cell: dict[str, object] = {}
    for g in cells.GATES:
        absent = g == "i" and cifg
        cell["w_x" + g] = None if absent else _eighth_rows(draw, units, inputs)
        cell["w_h" + g] = None if absent else _eighth_rows(draw, units, output)
        cell["b_" + g] = None if absent else _eighths(draw, units)
        cell["aux_" + g] = _eighth_rows(draw, units, aux) if aux and not absent else None
        gamma = [v or 0.5 for v in _eighths(draw, units)] if normalised and not absent else None
        cell["ln_" + g] = gamma
    for g in "ifo":
        cell["w_c" + g] = _eighths(draw, units) if peephole and not (g == "i" and cifg) else None
    cell["w_proj"] = _eighth_rows(draw, output, units) if projection else None
    cell["b_proj"] = _eighths(draw, output) if projection_bias else None
    return cell, cfg


def _cell_dims(name: str, cfg, inputs: int) -> tuple[int, ...]:
    n, p = cfg.units, cfg.output
    by_name = {"w_proj": (p, n), "b_proj": (p,)}
    return by_name.get(name) or {"w_x": (n, inputs), "w_h": (n, p)}.get(name[:3], (n,))


def _lstm_tensor(builder: _Builder, cells: ModuleType, values, dims: Sequence[int]) -> int:
    """A float32 constant, or an omitted input (NO_VALUE) where ``values`` is None."""
    if values is None:
        return _omitted(builder, dims)
    return builder.tensor(_array(cells.flat(values), dims))


def _well_spread(trace: Sequence[tuple[list[float], float, float]]) -> bool:
    """Whether every layer normalisation the oracle made is well conditioned: one unit
    (mean z, variance 0 in any precision: normalised to 0) or a spread of ``_LN_SPREAD``."""
    return all(
        len(z) == 1 or (var > 0 and var >= _LN_SPREAD * (var + mean * mean))
        for z, mean, var in trace
    )


def _cell_shown(cfg) -> str:
    flags = [name for name in ("cifg", "peephole", "projection", "projection_bias",
                               "layer_norm") if getattr(cfg, name)]  # fmt: skip
    return f"units={cfg.units} output={cfg.output} " + ("+".join(flags) or "plain")


def _float_lstm(draw, operation: str) -> Corner:
    """LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM, BIDIRECTIONAL_SEQUENCE_LSTM, float32."""
    from hypothesis import assume

    cells = oracle("lstm_oracle")
    bidi = operation == "BIDIRECTIONAL_SEQUENCE_LSTM"
    batch, size = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    steps = 1 if operation == "LSTM" else draw(st.integers(1, 3))
    time_major = operation != "LSTM" and draw(st.booleans())
    code = draw(st.sampled_from(_LSTM_DRAWN_ACTIVATIONS))
    cell_clip = draw(st.sampled_from(_CELL_CLIPS))
    proj_clip = draw(st.sampled_from(_PROJECTION_CLIPS))
    # LSTM: HAL 1.0's 23 inputs or HAL 1.2's 27 (the layer-norm weights given or omitted).
    form = draw(st.sampled_from(["plain", "layer-norm"])) if operation == "LSTM" else "layer-norm"
    aux = draw(st.integers(1, 3)) if bidi and draw(st.booleans()) else 0
    merged = bidi and draw(st.booleans())
    directions = [_lstm_cell(draw, cells, size, aux, form == "layer-norm") for _ in range(1 + bidi)]
    xs = [_eighth_rows(draw, batch, size) for _ in range(steps)]  # [t][b][i]
    auxs = [_eighth_rows(draw, batch, aux) for _ in range(steps)] if aux else None
    states = []  # h0 in [-1, 1], c0 in [-2, 2], per direction
    for _, cfg in directions:
        states += [_eighth_rows(draw, batch, cfg.output), _eighth_rows(draw, batch, cfg.units, 2)]
    trace: list = []
    args = (code, cell_clip, proj_clip, trace)
    if operation == "LSTM":
        ((cell, cfg),) = directions
        h_out, c_out = cells.lstm(cell, cfg, xs[0], *states, *args)
        gates = 3 if cfg.cifg else 4
        results = [[[0.0] * (cfg.units * gates)] * batch, h_out, c_out, h_out]  # scratch: zeros
    elif bidi:
        fw, bw = cells.bidirectional_lstm(*directions, xs, auxs, states, *args)
        results = [[[fw[t][b] + bw[t][b] for b in range(batch)] for t in range(steps)]]
        results = results if merged else [fw, bw]
    else:
        results = [cells.sequence_lstm(*directions[0], xs, *states, *args)]
    assume(_well_spread(trace))

    def laid_out(sequence: list) -> np.ndarray:  # [t][b][k] in the case's layout
        data = sequence if time_major else cells.batch_major(sequence)
        return _array(cells.flat(data), (len(data), len(data[0]), len(data[0][0])))

    builder = _Builder()
    inputs = [_array(cells.flat(xs[0]), (batch, size)) if operation == "LSTM" else laid_out(xs)]
    operands = [builder.input(inputs[0])]
    for cell, cfg in directions:
        operands += [_lstm_tensor(builder, cells, cell[name], _cell_dims(name, cfg, size))
                     for name in cells.CELL_NAMES]  # fmt: skip
    for state in states:
        inputs.append(_array(cells.flat(state), (batch, len(state[0]))))
        operands.append(builder.input(inputs[-1]))
    if bidi:
        if auxs is None:
            operands.append(_omitted(builder, inputs[0].shape))
        else:
            inputs.append(laid_out(auxs))
            operands.append(builder.input(inputs[-1]))
        for cell, cfg in directions:
            operands += [_lstm_tensor(builder, cells, cell["aux_" + g], (cfg.units, aux or size))
                         for g in cells.GATES]  # fmt: skip
    operands += [builder.int32(code), builder.float32(cell_clip), builder.float32(proj_clip)]
    if bidi:
        operands += [builder.bool(merged), builder.bool(time_major)]
    elif operation != "LSTM":
        operands.append(builder.bool(time_major))
    if form == "layer-norm":
        for cell, cfg in directions:
            operands += [_lstm_tensor(builder, cells, cell["ln_" + g], (cfg.units,))
                         for g in cells.GATES]  # fmt: skip
    if operation == "LSTM":
        outputs = [_array(cells.flat(r), (batch, len(r[0]))) for r in results]
    else:
        outputs = [laid_out(r) for r in results]
    for array in outputs:
        builder.output(array.shape)
    model = builder.model(operation, operands)
    parameters: dict[str, object] = {"batch": batch, "input size": size}
    if operation != "LSTM":
        parameters.update(steps=steps, time_major=time_major)
    else:
        parameters["inputs"] = 23 if form == "plain" else 27
    parameters["cell" if len(directions) == 1 else "cells (fw, bw)"] = tuple(
        _cell_shown(cfg) for _, cfg in directions
    )
    parameters.update(activation=_LSTM_ACTIVATIONS[code], cell_clip=cell_clip,
                      proj_clip=proj_clip)  # fmt: skip
    if bidi:
        parameters.update(merge_outputs=merged, aux_input_size=aux)
    return Corner(
        "lstm", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        "lstm_oracle", ignored=frozenset({0}) if operation == "LSTM" else frozenset(),
    )  # fmt: skip


def _quantized_lstm(draw) -> Corner:
    """QUANTIZED_16BIT_LSTM: batch 1-2, 1-3 inputs and 1-3 outputs (apart, so the
    reference's pairing of [x, h] with the columns [recurrent | input] shows:
    docs/operations.md, QUANTIZED_16BIT_LSTM (73), which the specs' goldens follow), the
    eight weights' common scale and zero point drawn (bytes over the whole range), biases up
    to 4 in real terms, the input, output state and cell state of fixed quantization any
    bytes and int16 (the state's extremes often); in a quarter of the cases the forget and
    output gates held open (biases of 8, the Q3.12 end), so the cell state saturates and the
    output nears its ends. The oracle follows the operation's integer steps bit for bit."""
    rnn = oracle("rnn_oracle")
    batch, size, units = (draw(st.integers(1, 3 if i else 2)) for i in range(3))
    scale = float(np.float32(draw(st.sampled_from(_QLSTM_SCALES))))
    zero = draw(_ZERO_POINTS)
    bias_scale = float(np.float32(scale) / np.float32(128))
    byte = st.integers(0, 255)
    w_in = {g: [draw(_exactly(byte, size)) for _ in range(units)] for g in _QLSTM_GATES}
    w_rec = {g: [draw(_exactly(byte, units)) for _ in range(units)] for g in _QLSTM_GATES}
    bound = int(4 / bias_scale)
    biases = {g: draw(_exactly(st.integers(-bound, bound), units)) for g in _QLSTM_GATES}
    if draw(st.integers(0, 3)) == 0:
        biases["forget"] = biases["output"] = [int(8 / bias_scale)] * units
    x = [draw(_exactly(byte, size)) for _ in range(batch)]
    state = st.one_of(st.sampled_from([-32768, 32767]), st.integers(-32768, 32767))
    c_prev = [draw(_exactly(state, units)) for _ in range(batch)]
    h_prev = [draw(_exactly(byte, units)) for _ in range(batch)]
    c_out, h_out = rnn.qlstm(x, w_in, w_rec, biases, c_prev, h_prev, zero, scale)
    quant8, quant16 = OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT16_SYMM
    builder = _Builder()
    inputs = [
        _array(rnn.flat(x), (batch, size), np.uint8),
        _array(rnn.flat(c_prev), (batch, units), np.int16),
        _array(rnn.flat(h_prev), (batch, units), np.uint8),
    ]
    operands = [builder.input(inputs[0], quant8, 1 / 128, 128)]

    def weights(rows: list[list[int]], columns: int) -> int:
        array = _array(rnn.flat(rows), (units, columns), np.uint8)
        return builder.constant(quant8, array.shape, array.tobytes(), scale, zero)

    operands += [weights(w_in[g], size) for g in _QLSTM_GATES]
    operands += [weights(w_rec[g], units) for g in _QLSTM_GATES]
    int32 = OperandType.TENSOR_INT32
    operands += [
        builder.constant(int32, (units,), np.asarray(biases[g], np.int32).tobytes(), bias_scale)
        for g in _QLSTM_GATES
    ]
    operands.append(builder.input(inputs[1], quant16, _QLSTM_STATE))
    operands.append(builder.input(inputs[2], quant8, 1 / 128, 128))
    outputs = [
        _array(rnn.flat(c_out), (batch, units), np.int16),
        _array(rnn.flat(h_out), (batch, units), np.uint8),
    ]
    builder.output((batch, units), quant16, _QLSTM_STATE)
    builder.output((batch, units), quant8, 1 / 128, 128)
    model = builder.model("QUANTIZED_16BIT_LSTM", operands)
    parameters = {"batch": batch, "input size": size, "output size": units,
                  "weights (scale, zero point)": (scale, zero)}  # fmt: skip
    return Corner(
        "lstm", "QUANTIZED_16BIT_LSTM", model, inputs, outputs, _classes(model, outputs),
        parameters, "rnn_oracle",
    )  # fmt: skip


@st.composite
def lstm(draw, operation: str | None = None) -> Corner:
    """LSTM (one step; HAL 1.0's 23 inputs or 1.2's 27), UNIDIRECTIONAL_SEQUENCE_LSTM and
    BIDIRECTIONAL_SEQUENCE_LSTM (1-3 steps, time-major or batch-major), float32: batch
    1-2, 1-3 inputs, per direction 1-3 units with CIFG, peephole, projection (with its
    bias or not, 1-3 outputs) and layer normalisation (HAL 1.2 forms) drawn apart, the
    omitted tensors NO_VALUE; activation RELU, RELU6, tanh or sigmoid; cell and projection
    clips 0 or small (reached); BIDIRECTIONAL_SEQUENCE_LSTM's outputs merged or apart and
    its aux input (1-3 wide, with its weights) or none. Weights, inputs and the output
    state multiples of 1/8 in [-1, 1], the cell state in [-2, 2]. LSTM's scratch output is
    not compared. QUANTIZED_16BIT_LSTM: ``_quantized_lstm``."""
    operation = operation or draw(st.sampled_from(_LSTMS))
    if operation == "QUANTIZED_16BIT_LSTM":
        return _quantized_lstm(draw)
    return _float_lstm(draw, operation)


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
    if name == "SVDF":
        return _svdf_classes(model, inputs, constants, x)
    bidirectional = name == "BIDIRECTIONAL_SEQUENCE_RNN"
    units = model.operands[inputs[1]].dimensions[0]
    if bidirectional:
        units = max(units, model.operands[inputs[5]].dimensions[0])
    classes = _activation(constants, inputs, 12 if bidirectional else 5)
    if units > 1:
        classes.append("units>1")
    if name == "RNN":
        return classes + (["batch>1"] if x[0] > 1 else [])
    time_major = _scalar(constants, inputs[13 if bidirectional else 6])
    steps, batch = (x[0], x[1]) if time_major else (x[1], x[0])
    classes.append("time-major" if time_major else "batch-major")
    classes += ["batch>1"] * (batch > 1) + ["steps>1"] * (steps > 1)
    if bidirectional:
        classes += _bidirectional_classes(model, operation, constants)
    return classes


def _bidirectional_classes(model, operation, constants) -> list[str]:
    """BIDIRECTIONAL_SEQUENCE_RNN: merged or separate outputs, forward and backward units
    differing, the auxiliary input given (a rank-3 operand with constant weights: an
    auxiliary input declared but sent empty, as specs omit it, gives no class)."""
    inputs = operation.inputs
    classes = ["merged-outputs" if len(operation.outputs) == 1 else "separate-outputs"]
    if model.operands[inputs[1]].dimensions[0] != model.operands[inputs[5]].dimensions[0]:
        classes.append("units:fw-bw-differ")
    aux = model.operands[inputs[9]]
    if (
        aux.lifetime != OperandLifeTime.NO_VALUE
        and len(aux.dimensions) == 3
        and inputs[10] in constants
    ):
        classes.append("aux-input")
    return classes


def _svdf_classes(model, inputs, constants, x) -> list[str]:
    """SVDF: rank, memory size, units (filters / rank), batch, the bias omitted."""
    filters, memory = model.operands[inputs[2]].dimensions
    rank = _scalar(constants, inputs[5])
    classes = _activation(constants, inputs, 6)
    if rank is not None and rank > 0:
        classes += ["rank>1"] * (rank > 1) + ["units>1"] * (filters // rank > 1)
    classes += ["memory>1"] * (memory > 1) + ["batch>1"] * (x[0] > 1)
    if model.operands[inputs[3]].lifetime == OperandLifeTime.NO_VALUE:
        classes.append("bias:omitted")
    return classes


def _hashing_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    if name == "RANDOM_MULTINOMIAL":
        batches, count = model.operands[inputs[0]].dimensions
        samples = _scalar(constants, inputs[1])
        classes = ["batch>1"] * (batches > 1) + ["classes:1"] * (count == 1)
        if samples is not None and samples > 1:
            classes.append("samples>1")
        if inputs[2] in model.input_indexes:
            classes.append("seeds:model-input")
        elif inputs[2] in constants:
            classes.append("seeds:constant" if constants[inputs[2]].any() else "seeds:zero")
        return classes
    num_hash, num_bits = model.operands[inputs[0]].dimensions
    data, weight = model.operands[inputs[1]], model.operands[inputs[2]]
    kind = _scalar(constants, inputs[3])
    kinds = {v[0]: k for k, v in _LSH_INPUTS.items()}
    classes = [f"type:{_LSH_TYPES[kind]}"] if kind in _LSH_TYPES else []
    if weight.lifetime == OperandLifeTime.NO_VALUE:
        classes.append("unweighted")
    elif inputs[2] in constants:
        classes.append("weighted")
    classes += [f"input:{kinds.get(data.type, 'other')}", f"rank:{len(data.dimensions)}"]
    classes += ["hashes>1"] * (num_hash > 1) + ["bits:32"] * (num_bits == 32)
    dims = list(data.dimensions)
    if dims[0] > 1:
        classes.append("rows>1")
    if 0 not in dims and data.type in kinds:
        size = 1 if data.type == OperandType.TENSOR_QUANT8_ASYMM else 4
        key = 4 + size * int(np.prod(dims[1:], dtype=np.int64))
        classes.append(next((c for limit, c in _KEY_CLASSES if key <= limit), "key>64"))
    return classes


def _real_constant(model: Model, constants, index: int) -> np.ndarray:
    """A constant's real values (a quantized one dequantized)."""
    operand = model.operands[index]
    values = constants[index].astype(np.float64)
    if operand.type in (OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT16_ASYMM):
        values = (values - operand.zero_point) * operand.scale
    return values


def _roi_classes(model, operation, constants, name) -> list[str]:
    """The detection operations. ROI_ALIGN and ROI_POOLING: layout, batch, channels, rois,
    ratios below or above 1 and unequal, unequal output sizes, ROI_ALIGN's adaptive or fixed
    sampling, rois as model inputs or constants, and from constant rois: a roi shorter than
    a cell (widened to 1), one whose samples pass the last cell (clamped) or whose pooling
    bins pass the edge (clipped), an empty bin, a coordinate rounding from a half.
    HEATMAP_MAX_KEYPOINT: layout, boxes, keypoints, 2x2 maps (every neighbour of the
    maximum mirrored) or larger. AXIS_ALIGNED_BBOX_TRANSFORM: rois, classes, images, the
    image sizes and batch indexes as constants or model inputs, boxes clipped at the
    image's near (0) or far edge."""
    inputs = operation.inputs
    if name == "HEATMAP_MAX_KEYPOINT":
        nchw = bool(_scalar(constants, inputs[2]))
        count, s1, s2, points = model.operands[inputs[0]].dimensions
        if nchw:
            points, s1, s2 = s1, s2, points
        classes = ["layout:nchw" if nchw else "layout:nhwc"]
        for holds, label in ((count > 1, "boxes>1"), (points > 1, "keypoints>1"),
                             (s1 == 2, "heatmap:2x2"), (s1 > 2, "heatmap>2x2")):  # fmt: skip
            if holds:
                classes.append(label)
        return classes + _quant_classes_of(model, [inputs[0], operation.outputs[0]])
    if name == "AXIS_ALIGNED_BBOX_TRANSFORM":
        count, width = model.operands[inputs[1]].dimensions
        images = model.operands[inputs[3]].dimensions[0]
        classes = []
        for holds, label in ((count > 1, "rois>1"), (width > 4, "classes>1"),
                             (images > 1, "batch>1")):  # fmt: skip
            if holds:
                classes.append(label)
        given = inputs[2] not in constants or inputs[3] not in constants
        classes.append("image-info:model-input" if given else "image-info:constant")
        return classes + _quant_classes_of(model, [inputs[1]])
    align = name == "ROI_ALIGN"
    nchw = bool(_scalar(constants, inputs[9 if align else 7]))
    dims = list(model.operands[inputs[0]].dimensions)
    batch, h, w, c = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    out_h, out_w = _scalar(constants, inputs[3]), _scalar(constants, inputs[4])
    ratio_h, ratio_w = (float(constants[inputs[k]].reshape(-1)[0]) for k in (5, 6))
    classes = ["layout:nchw" if nchw else "layout:nhwc", *_count_classes(batch, c)]
    if model.operands[inputs[1]].dimensions[0] > 1:
        classes.append("rois>1")
    for holds, label in ((min(ratio_h, ratio_w) < 1, "ratio<1"),
                         (max(ratio_h, ratio_w) > 1, "ratio>1"),
                         (ratio_h != ratio_w, "ratio:unequal"),
                         (out_h != out_w, "out:unequal")):  # fmt: skip
        if holds:
            classes.append(label)
    samples = (_scalar(constants, inputs[7]), _scalar(constants, inputs[8])) if align else ()
    if 0 in samples:
        classes.append("sampling:adaptive")
    if any(s > 0 for s in samples):
        classes.append("sampling:fixed")
    classes.append("rois:model-input" if inputs[1] not in constants else "rois:constant")
    if inputs[1] in constants and h > 0 and w > 0:
        classes += _roi_geometry(
            _real_constant(model, constants, inputs[1]).reshape(-1, 4),
            align, (h, w), (out_h, out_w), (ratio_h, ratio_w), samples,
        )  # fmt: skip
    return classes + _quant_classes_of(model, [inputs[0], operation.outputs[0]])


def _roi_geometry(rois, align: bool, lengths, bins, ratios, samples) -> list[str]:
    """Where constant rois fall on the feature map (see ``_roi_classes``)."""
    detection = oracle("detection_oracle")
    classes = []
    for x1, y1, x2, y2 in rois.tolist():
        for low, high, length, count, ratio, given in zip(
            (y1, x1), (y2, x2), lengths, bins, ratios, samples or (0, 0), strict=True
        ):
            low, high = low / ratio, high / ratio
            if align:
                if high - low < 1:
                    classes.append("roi:tiny")
                points = detection.align_samples(low, high - low, count, given, length)
                if any(a == b for bin_ in points for a, b, _ in bin_):
                    classes.append("roi:edge-clamped")
                continue
            start, end = detection.round_half_away(low), detection.round_half_away(high)
            if start + max(end - start + 1, 1) > length:
                classes.append("roi:edge-clamped")
            if any(a >= b for a, b in detection.pool_edges(low, high, count, length, np.float32)):
                classes.append("bin:empty")
            if 0.5 in (low % 1, high % 1):
                classes.append("roi:half-coordinate")
    return classes


def _clip_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """AXIS_ALIGNED_BBOX_TRANSFORM boxes clipped: a coordinate at 0 (``clip:low``) or, where
    the image sizes and batch indexes are constants, at its image's width or height."""
    out = outputs[0].reshape(outputs[0].shape[0], -1, 2).astype(np.float64)
    operand = model.operands[model.output_indexes[0]]
    if operand.type == OperandType.TENSOR_QUANT16_ASYMM:
        out = (out - operand.zero_point) * operand.scale
    classes = ["clip:low"] if np.any(out == 0) else []
    inputs = model.operations[0].inputs
    constants = read_constants(model)
    if inputs[2] in constants and inputs[3] in constants:
        info = _real_constant(model, constants, inputs[3]).reshape(-1, 2)
        sizes = info[constants[inputs[2]].reshape(-1)][:, None, ::-1]  # (width, height) per roi
        if np.any(out == sizes):
            classes.append("clip:high")
    return classes


def _lstm_present(model: Model, inputs: Sequence[int], slot: int) -> bool:
    """Whether the optional input at ``slot`` is given: not NO_VALUE, not a spec's "{0}"."""
    if slot >= len(inputs):
        return False
    operand = model.operands[inputs[slot]]
    return operand.lifetime != OperandLifeTime.NO_VALUE and 0 not in operand.dimensions


def _float_scalar(constants: dict[int, np.ndarray], index: int) -> float | None:
    value = constants.get(index)
    return None if value is None else float(value.reshape(-1)[0])


_LSTM_SLOTS = {  # cells (first slot, layer-norm slots), activation, time_major, merge
    "LSTM": (((1, (23, 24, 25, 26)),), 20, None, None),
    "UNIDIRECTIONAL_SEQUENCE_LSTM": (((1, (24, 25, 26, 27)),), 20, 23, None),
    "BIDIRECTIONAL_SEQUENCE_LSTM": (
        ((1, (53, 54, 55, 56)), (18, (57, 58, 59, 60))), 48, 52, 51,
    ),
}  # fmt: skip


def _lstm_classes(model, operation, constants, name) -> list[str]:
    """The float LSTMs: each cell's CIFG, peephole, projection (and bias), layer norm,
    sizes; activation, clips, batch, steps, layout; LSTM's input list; the bidirectional
    form's merged outputs, aux input and directions of different cells. QUANTIZED_16BIT_LSTM:
    batch, sizes, the weights' quantization."""
    inputs = operation.inputs
    x = list(model.operands[inputs[0]].dimensions)
    if name == "QUANTIZED_16BIT_LSTM":
        units, size = model.operands[inputs[1]].dimensions
        classes = ["batch>1"] * (x[0] > 1) + ["units>1"] * (units > 1)
        classes += ["input-size!=output-size"] * (size != units)
        return classes + _quant_classes_of(model, inputs[1:9])
    cells, act, time_major_slot, merge_slot = _LSTM_SLOTS[name]
    classes, shapes = [], []
    for first, layer_norm in cells:

        def has(k: int, first: int = first) -> bool:
            return _lstm_present(model, inputs, first + k - 1)

        found = [flag for flag, present in (
            ("cifg", not has(1)), ("peephole", has(10)), ("projection", has(16)),
            ("projection-bias", has(16) and has(17)),
            ("layer-norm", any(_lstm_present(model, inputs, s) for s in layer_norm)),
        ) if present]  # fmt: skip
        units = model.operands[inputs[first + 12]].dimensions[0]  # the forget gate's bias
        output = model.operands[inputs[first + 5]].dimensions[1]  # recurrent-to-forget
        found += ["units>1"] * (units > 1) + ["output-size!=units"] * (0 < output != units > 0)
        classes += found
        shapes.append((found, units, output))
    if len(shapes) > 1 and shapes[0] != shapes[1]:
        classes.append("directions-differ")
    if name == "LSTM":
        classes.append("inputs:layer-norm" if len(inputs) > 23 else "inputs:plain")
    code = _scalar(constants, inputs[act])
    if code in _LSTM_ACTIVATIONS:
        classes.append(f"activation:{_LSTM_ACTIVATIONS[code]}")
    cell_clip = _float_scalar(constants, inputs[act + 1])
    proj_clip = _float_scalar(constants, inputs[act + 2])
    if cell_clip:
        classes.append("clip:cell")
    if proj_clip and "projection" in classes:
        classes.append("clip:projection")
    batch, steps = x[0], 1
    if time_major_slot is not None:
        time_major = _scalar(constants, inputs[time_major_slot])
        if time_major is not None:
            classes.append("time-major" if time_major else "batch-major")
            steps, batch = (x[0], x[1]) if time_major else (x[1], x[0])
    classes += ["batch>1"] * (batch > 1) + ["steps>1"] * (steps > 1)
    if merge_slot is not None:
        merged = _scalar(constants, inputs[merge_slot])
        if merged is not None:
            classes.append("merged-outputs" if merged else "separate-outputs")
        if _lstm_present(model, inputs, 41):  # the forward cell's aux forget weights
            classes.append("aux-input")
    return classes


def _lstm_result_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """A clip reached (an output at +-clip: LSTM's cell state, the output state of a cell
    with a projection); QUANTIZED_16BIT_LSTM's cell state saturated at an int16 end."""
    if name == "QUANTIZED_16BIT_LSTM":
        cell = outputs[0]
        return ["quant:cell-saturated"] if np.any(cell == 32767) or np.any(cell == -32768) else []
    try:
        constants = read_constants(model)
    except Exception:
        return []
    operation = next(o for o in model.operations if list(o.outputs) == list(model.output_indexes))
    inputs = operation.inputs
    act = _LSTM_SLOTS[name][1]
    cell_clip = _float_scalar(constants, inputs[act + 1])
    proj_clip = _float_scalar(constants, inputs[act + 2])
    classes = []
    cell_state = outputs[2] if name == "LSTM" and len(outputs) > 2 else None
    if cell_clip and cell_state is not None and np.any(np.abs(cell_state) == cell_clip):
        classes.append("clip:cell-reached")
    projected = any(_lstm_present(model, inputs, first + 15) for first, _ in _LSTM_SLOTS[name][0])
    states = outputs[1:2] if name == "LSTM" else outputs
    if proj_clip and projected and any(np.any(np.abs(s) == np.float32(proj_clip)) for s in states):
        classes.append("clip:projection-reached")
    return classes


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
    among TOPK_V2's (``result:ties``); HASHTABLE_LOOKUP's hits and misses; the readers of
    ``_RESULT_READERS`` for their operations."""
    if not outputs or not outputs[0].size:
        return []
    reader = _RESULT_READERS.get(name)
    if reader is not None:
        return reader(model, name, outputs)
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
    **dict.fromkeys(_LSTMS, _lstm_classes),
    **dict.fromkeys(_DETECT, _detect_classes),
    **dict.fromkeys(_ROI, _roi_classes),
    **dict.fromkeys(_HASHING, _hashing_classes),
    **dict.fromkeys([*_COMPARISONS, *_LOGICAL], _compare_classes),
}


_RESULT_READERS = {
    **dict.fromkeys(_LSTMS, _lstm_result_classes),
    "AXIS_ALIGNED_BBOX_TRANSFORM": _clip_classes,
    **dict.fromkeys(_DETECT, _detect_result_classes),
}
"""Operations whose expected outputs a reader of their own reads (see ``_result_classes``)."""


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
    "lstm": lstm,
    "detect": detect,
    "roi": roi,
    "hashing": hashing,
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
    "lstm": _LSTMS,
    "detect": _DETECT,
    "roi": _ROI,
    "hashing": _HASHING,
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
                  "batch>1", "steps>1", "time-major", "batch-major", "aux-input",
                  "merged-outputs", "separate-outputs", "units:fw-bw-differ", "rank>1",
                  "memory>1", "bias:omitted"),
    "lstm": ("cifg", "peephole", "projection", "projection-bias", "layer-norm", "clip:cell",
             "clip:projection", "clip:cell-reached", "clip:projection-reached", "batch>1",
             "units>1", "output-size!=units", "steps>1", "time-major", "batch-major",
             "activation:relu", "activation:relu6", "activation:tanh", "activation:sigmoid",
             "inputs:plain", "inputs:layer-norm", "merged-outputs", "separate-outputs",
             "aux-input", "directions-differ", "input-size!=output-size",
             "quant:zero-point-0", "quant:zero-point-255", "quant:output-at-range-end",
             "quant:cell-saturated"),
    "detect": ("nms:hard", "nms:linear", "nms:gaussian", "limit:none", "limit:reached",
               "classes>1", "batch>1", "layout:nchw", "layout:nhwc", "anchors>1",
               "pre-nms:cuts", "pre-nms:none", "post-nms:none", "post-nms:reached",
               "regular-nms", "fast-nms", "background:included", "background:excluded",
               "max-classes>1", "encoding>4", "detections:full", "detections:zero-fill"),
    "roi": ("layout:nchw", "layout:nhwc", "batch>1", "channels>1", "rois>1", "ratio<1",
            "ratio>1", "ratio:unequal", "out:unequal", "sampling:adaptive", "sampling:fixed",
            "rois:model-input", "rois:constant", "roi:tiny", "roi:edge-clamped", "bin:empty",
            "roi:half-coordinate", "boxes>1", "keypoints>1", "heatmap:2x2", "heatmap>2x2",
            "classes>1", "image-info:model-input", "image-info:constant", "clip:low",
            "clip:high", "quant8"),
    "hashing": ("type:sparse", "type:sparse-deprecated", "type:dense", "weighted",
                "unweighted", "input:float32", "input:int32", "input:quant8", "rank:1",
                "rank:3", "rows>1", "hashes>1", "bits:32", "key:0-16", "key:17-32",
                "key:33-64", "key>64", "batch>1", "classes:1", "samples>1",
                "seeds:model-input", "seeds:constant", "seeds:zero"),
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
