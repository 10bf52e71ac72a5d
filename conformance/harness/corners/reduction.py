"""Families of the operations along one or more axes of a tensor: ``reduce`` (MEAN and
the REDUCE_ operations), ``axis`` (ARGMAX, ARGMIN, CONCATENATION, L2_NORMALIZATION,
SOFTMAX) and ``norm`` (LOG_SOFTMAX, LOCAL_RESPONSE_NORMALIZATION, INSTANCE_NORMALIZATION)."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import strategies as st

from conformance.harness.corners.base import (
    Corner,
    _array,
    _axis_position,
    _Builder,
    _classes,
    _count_classes,
    _exactly,
    _f32,
    _family,
    _floats,
    _scalar,
    _to_nchw,
    oracle,
)
from hal.types import OperandType

# ---------------------------------------------------------------------------
# reduce: MEAN and the REDUCE_ operations
# ---------------------------------------------------------------------------

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


@_family(
    "reduce",
    operations=tuple(sorted(_REDUCTIONS)),
    classes=(
        "axis:negative", "axis:several", "axis:repeated", "axis:all", "keep-dims", "drop-dims",
    ),
    classify=_reduce_classes,
)  # fmt: skip
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


# ---------------------------------------------------------------------------
# axis: ARGMAX, ARGMIN, CONCATENATION, L2_NORMALIZATION, SOFTMAX
# ---------------------------------------------------------------------------

_AXIS_OPERATIONS = ("ARGMAX", "ARGMIN", "CONCATENATION", "L2_NORMALIZATION", "SOFTMAX")


_AXIS_ORACLES = {
    "ARGMAX": "reduction_oracle",
    "ARGMIN": "reduction_oracle",
    "CONCATENATION": "shape_oracle",
    "L2_NORMALIZATION": "pooling_oracle",
    "SOFTMAX": "pooling_oracle",
}


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


@_family(
    "axis",
    operations=_AXIS_OPERATIONS,
    classes=(
        "axis:negative", "axis:first", "axis:inner", "axis:last", "rank:1", "rank:4",
    ),
    classify=_axis_classes,
)  # fmt: skip
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


# ---------------------------------------------------------------------------
# norm: INSTANCE_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION, LOG_SOFTMAX
# ---------------------------------------------------------------------------

_NORMS = ("INSTANCE_NORMALIZATION", "LOCAL_RESPONSE_NORMALIZATION", "LOG_SOFTMAX")


def _centred_slice(draw, count: int) -> list[float]:
    """``count`` (2 or more) values of ``_floats`` with mean 0 and spread: the last is minus
    the sum of the others (exact), and an all-zero draw becomes 1, 0, ..., -1."""
    values = _floats(draw, count - 1)
    if not any(values):
        values[0] = 1.0
    return [*values, -sum(values)]


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


@_family(
    "norm",
    operations=_NORMS,
    classes=(
        "rank:1", "rank:4", "axis:negative", "axis:first", "axis:inner", "axis:last", "axis:size-1",
        "beta<1", "beta>1", "lrn:axis-form", "lrn:plain-form", "lrn:radius-0",
        "lrn:radius>channels", "lrn:window-inside", "layout:nchw", "layout:nhwc", "batch>1",
        "channels>1", "gamma:negative", "beta:not-0", "epsilon:large",
    ),
    classify=_norm_classes,
)  # fmt: skip
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
