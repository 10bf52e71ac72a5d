"""Families of the operations applied element by element: ``binary`` (arithmetic between
two broadcast inputs), ``unary`` (one input, the RELU family quantized too), ``compare``
(comparisons and the logical operations, broadcast as ``binary``) and ``convert`` (CAST,
QUANTIZE, DEQUANTIZE)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from conformance.harness.corners.base import (
    _EXACT_SCALES,
    _SCALES,
    _ZERO_POINTS,
    ACTIVATIONS,
    Corner,
    _activation,
    _array,
    _boolean_result,
    _Builder,
    _classes,
    _exactly,
    _f32,
    _family,
    _floats,
    _quant_classes_of,
    oracle,
)
from hal.types import Model, OperandType

# ---------------------------------------------------------------------------
# binary: ADD, DIV, MAXIMUM, MINIMUM, MUL, POW, PRELU, SUB
# ---------------------------------------------------------------------------

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


_QUANT8 = frozenset({"ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM", "PRELU"})


def _quant_params(draw, operation: str) -> tuple[tuple[float, int], ...]:
    params = [(draw(st.sampled_from(_SCALES)), draw(_ZERO_POINTS)) for _ in range(3)]
    (sa, _), (sb, _), (so, zo) = params
    if operation == "MUL" and not so > sa * sb:  # the CPU's precondition
        params[2] = (sa * sb * draw(st.sampled_from([1.5, 2.0, 16.0])), zo)
    return tuple(params)


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


@_family(
    "binary",
    operations=tuple(sorted(_BINARY)),
    classes=(
        "broadcast:ranks-differ", "broadcast:size-1", "broadcast:none", "rank:4", "quant8",
        "quant:zero-point-0", "quant:zero-point-255", "quant:scale-tiny", "quant:scale-large",
        "quant:params-differ", "quant:output-at-range-end",
    ),
    classify=_binary_classes,
)  # fmt: skip
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


# ---------------------------------------------------------------------------
# unary: ABS, EXP, FLOOR, LOG, LOGISTIC, NEG, RELU, RELU1, RELU6, RSQRT, SIN, SQRT, TANH
# ---------------------------------------------------------------------------

_UNARY = {
    "ABS": "abs", "EXP": "exp", "FLOOR": "floor", "LOG": "log", "LOGISTIC": "logistic",
    "NEG": "neg", "RELU": "relu", "RELU1": "relu1", "RELU6": "relu6", "RSQRT": "rsqrt",
    "SIN": "sin", "SQRT": "sqrt", "TANH": "tanh",
}  # fmt: skip
"""The unary operations and their oracle functions (``unary_oracle.FUNCTIONS``)."""
_POSITIVE = frozenset({"LOG", "RSQRT", "SQRT"})
"""Drawn with positive inputs only (their values at 0 and below are the specs' business)."""
_CLAMPS = {"RELU": (0.0, None), "RELU1": (-1.0, 1.0), "RELU6": (0.0, 6.0)}


def _unary_classes(model, operation, constants, name) -> list[str]:
    x = model.operands[operation.inputs[0]]
    classes = [f"rank:{len(x.dimensions)}"]
    return classes + _quant_classes_of(model, [operation.inputs[0]])


def _unary_result_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """A RELU family result at its lower or upper bound (``clamp:low``, ``clamp:high``; a
    quantized result's bounds are the activation's range in bytes), a boolean result read
    as any other operation's (``_boolean_result``)."""
    out = outputs[0]
    operand = model.operands[model.output_indexes[0]]
    if operand.type == OperandType.TENSOR_BOOL8:
        return _boolean_result(model, outputs)
    low, high = _CLAMPS[name]
    if operand.type == OperandType.TENSOR_QUANT8_ASYMM:
        low, high = oracle("unary_oracle").activation_range(
            _UNARY[name], operand.scale, operand.zero_point
        )
    classes = ["clamp:low"] if np.any(out == low) else []
    return classes + (["clamp:high"] if high is not None and np.any(out == high) else [])


@_family(
    "unary",
    operations=tuple(sorted(_UNARY)),
    classes=(
        "rank:1", "rank:4", "clamp:low", "clamp:high", "quant8", "quant:zero-point-0",
        "quant:zero-point-255", "quant:scale-tiny", "quant:scale-large",
    ),
    classify=_unary_classes,
    results=_unary_result_classes,
    results_of=tuple(_CLAMPS),
)  # fmt: skip
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


# ---------------------------------------------------------------------------
# compare: the comparisons and LOGICAL_AND, LOGICAL_NOT, LOGICAL_OR
# ---------------------------------------------------------------------------

_COMPARISONS = {
    "EQUAL": "equal", "GREATER": "greater", "GREATER_EQUAL": "greater_equal", "LESS": "less",
    "LESS_EQUAL": "less_equal", "NOT_EQUAL": "not_equal",
}  # fmt: skip
"""The comparisons and their oracle functions (``comparison_oracle.COMPARISONS``)."""
_LOGICAL = ("LOGICAL_AND", "LOGICAL_NOT", "LOGICAL_OR")
_COMPARED = ("quant8", "float32", "int32", "bool8", "quant8")
"""The input types drawn: quant8 twice as often (its inputs' scales and zero points
differ: the corner the specs touch least)."""


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


@_family(
    "compare",
    operations=tuple(sorted([*_COMPARISONS, *_LOGICAL])),
    classes=(
        "type:bool8", "type:float32", "type:int32", "type:quant8", "rank:4",
        "broadcast:ranks-differ", "broadcast:size-1", "broadcast:none", "quant:params-differ",
        "result:mixed",
    ),
    classify=_compare_classes,
)  # fmt: skip
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
# convert: CAST, DEQUANTIZE, QUANTIZE
# ---------------------------------------------------------------------------

_CONVERSIONS = ("CAST", "DEQUANTIZE", "QUANTIZE")
_CAST_KINDS = {
    "float32": (OperandType.TENSOR_FLOAT32, np.float32),
    "int32": (OperandType.TENSOR_INT32, np.int32),
    "quant8": (OperandType.TENSOR_QUANT8_ASYMM, np.uint8),
}


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


@_family(
    "convert",
    operations=_CONVERSIONS,
    classes=(
        "rank:1", "rank:4", "cast:from-float32", "cast:from-int32", "cast:from-quant8",
        "cast:to-float32", "cast:to-int32", "cast:to-quant8", "quant:zero-point-0",
        "quant:zero-point-255", "quant:scale-tiny", "quant:scale-large",
        "quant:output-at-range-end",
    ),
    classify=_convert_classes,
)  # fmt: skip
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
