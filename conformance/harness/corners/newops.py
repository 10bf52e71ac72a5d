"""The parameter-space family of four operations HAL 1.3 adds: ``newops`` (ELU, HARD_SWISH,
FILL, RANK). Its cases are HAL 1.3 models (``Corner.level``): a driver tested at an
older level sets every one aside.

* ELU: ranks 1-5, TENSOR_FLOAT32 or TENSOR_FLOAT16 (alpha then a FLOAT16), alpha below
  1, 1 and above 1, values halves in [-4, 4] and now and then a large negative one (the
  output then -alpha to float32's precision).
* HARD_SWISH: ranks 1-5; floats (halves in [-6, 6], so below -3 and above 3); and
  TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED over every byte, the input's scale
  and zero point drawn, the output's scale a drawn ratio of the input's (from just over
  1/128, the output exponent 0, to 400), its zero point drawn apart: the expected values
  are the integer procedure's, bit for bit (``newops_oracle.hard_swish_q``).
* FILL: an output of rank 1-5 (sizes 1-3) whose shape is a model input, TENSOR_FLOAT32,
  TENSOR_FLOAT16 or TENSOR_INT32, the value any of its type.
* RANK: an input of rank 1-6 of any type but the per-channel one (whose parameters a
  printed spec cannot carry), its values any of its type; the output an INT32 scalar.
  Its cases have no twin of unknown dimensions (a scalar output, and VTS 1.3 keeps RANK
  out of its dynamic-output-shape runs).

Expected outputs: ``conformance/specs/oracles/newops_oracle.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from conformance.harness.corners.base import (
    Corner,
    _array,
    _Builder,
    _classes,
    _exactly,
    _f32,
    _family,
    oracle,
)
from hal.types import Model, OperandType

T = OperandType
_ORACLE = "newops_oracle"
_OPERATIONS = ("ELU", "HARD_SWISH", "FILL", "RANK")
_TYPE_CLASSES = {
    T.TENSOR_FLOAT32: "type:float32",
    T.TENSOR_FLOAT16: "type:float16",
    T.TENSOR_INT32: "type:int32",
    T.TENSOR_QUANT8_ASYMM: "type:quant8",
    T.TENSOR_QUANT8_ASYMM_SIGNED: "type:quant8-signed",
    T.TENSOR_QUANT8_SYMM: "type:quant8-symm",
    T.TENSOR_QUANT16_ASYMM: "type:quant16",
    T.TENSOR_QUANT16_SYMM: "type:quant16",
    T.TENSOR_BOOL8: "type:bool8",
}
_QUANT8 = {T.TENSOR_QUANT8_ASYMM: "Q8A", T.TENSOR_QUANT8_ASYMM_SIGNED: "Q8AS"}
_ALPHAS = (0.1, 0.25, 0.5, 1.0, 2.0, 10.0)
_SCALES = (1 / 256, 1 / 128, 0.03125, 0.1, 0.5, 1.0, 2.5)
_RATIOS = (1 / 127.5, 1 / 100, 1 / 64, 1 / 16, 1 / 3, 0.5, 1.0, 2.0, 10.0, 100.0, 400.0)
"""Output scale over input scale for quantized HARD_SWISH: 1/127.5 and 1/100 give the
output exponent 0 (the multiplier (s_in / 128) / s_out is 0.996 and 0.78); below 1/128 it
would be above 0, which Android 11 fails; from 512 on, the exponent -16 and past,
rounds every value to one step from the zero point."""
_ZERO_POINTS = {
    T.TENSOR_QUANT8_ASYMM: st.one_of(st.sampled_from([0, 1, 127, 128, 254, 255]), st.integers(0, 255)),
    T.TENSOR_QUANT8_ASYMM_SIGNED: st.one_of(
        st.sampled_from([-128, -127, -1, 0, 1, 126, 127]), st.integers(-128, 127)
    ),
}  # fmt: skip
_RANK_TYPES = (
    T.TENSOR_FLOAT32, T.TENSOR_FLOAT16, T.TENSOR_INT32, T.TENSOR_QUANT8_ASYMM,
    T.TENSOR_QUANT8_ASYMM_SIGNED, T.TENSOR_QUANT8_SYMM, T.TENSOR_QUANT16_ASYMM,
    T.TENSOR_QUANT16_SYMM, T.TENSOR_BOOL8,
)  # fmt: skip
_FLOATS = {T.TENSOR_FLOAT32: np.float32, T.TENSOR_FLOAT16: np.float16}


def _shape(draw, low: int, high: int, largest: int = 3) -> tuple[int, ...]:
    rank = draw(st.integers(low, high))
    return tuple(draw(st.integers(1, largest)) for _ in range(rank))


def _floats(draw, count: int, bound: int) -> list[float]:
    """Halves in [-bound, bound]: exact in float16."""
    return [k / 2 for k in draw(_exactly(st.integers(-2 * bound, 2 * bound), count))]


def _expected(values: Sequence[float], shape: tuple[int, ...], type_: int) -> np.ndarray:
    """The oracle's doubles as the output's float type holds them."""
    dtype = _FLOATS[type_]
    return np.asarray([dtype(v) for v in values], dtype).reshape(shape)


# Drawing -------------------------------------------------------------------------------


def _elu(draw) -> Corner:
    newops = oracle(_ORACLE)
    type_ = draw(st.sampled_from(sorted(_FLOATS)))
    shape = _shape(draw, 1, 5)
    count = int(np.prod(shape))
    x = _floats(draw, count, 4)
    if draw(st.integers(0, 3)) == 0:  # now and then a large negative input
        x[draw(st.integers(0, count - 1))] = draw(st.sampled_from([-20.0, -30.0, -100.0]))
    alpha = draw(st.sampled_from(_ALPHAS))
    builder = _Builder()
    data = _array(x, shape, _FLOATS[type_])
    if type_ == T.TENSOR_FLOAT16:
        alpha = float(np.float16(alpha))
        alpha_index = builder.constant(T.FLOAT16, [], np.float16(alpha).tobytes())
    else:
        alpha = _f32(alpha)
        alpha_index = builder.float32(alpha)
    operands = [builder.input(data, type_), alpha_index]
    builder.output(shape, type_)
    model = builder.model("ELU", operands)
    out = _expected([newops.elu(v, alpha) for v in x], shape, type_)
    parameters = {"input": shape, "type": T(type_).name, "alpha": alpha}
    return _corner("ELU", model, [data], out, parameters)


def _hard_swish(draw) -> Corner:
    newops = oracle(_ORACLE)
    type_ = draw(
        st.sampled_from(
            [
                T.TENSOR_FLOAT32,
                T.TENSOR_FLOAT16,
                T.TENSOR_QUANT8_ASYMM,
                T.TENSOR_QUANT8_ASYMM_SIGNED,
            ]
        )
    )
    shape = _shape(draw, 1, 5)
    count = int(np.prod(shape))
    builder = _Builder()
    parameters: dict[str, object] = {"input": shape, "type": T(type_).name}
    if type_ in _FLOATS:
        x = _floats(draw, count, 6)
        data = _array(x, shape, _FLOATS[type_])
        operands = [builder.input(data, type_)]
        builder.output(shape, type_)
        out = _expected([newops.hard_swish(v) for v in x], shape, type_)
    else:
        kind = _QUANT8[type_]
        low, high = newops.RANGES[kind]
        s_in = _f32(draw(st.sampled_from(_SCALES)))
        s_out = _f32(s_in * draw(st.sampled_from(_RATIOS)))
        assume(newops.hard_swish_params(s_in, s_out)[1] <= 0)
        z_in, z_out = draw(_ZERO_POINTS[type_]), draw(_ZERO_POINTS[type_])
        q = draw(_exactly(st.integers(low, high), count))
        dtype = np.uint8 if kind == "Q8A" else np.int8
        data = _array(q, shape, dtype)
        operands = [builder.input(data, type_, s_in, z_in)]
        builder.output(shape, type_, s_out, z_out)
        expected = [newops.hard_swish_q(v, s_in, z_in, s_out, z_out, kind) for v in q]
        out = _array(expected, shape, dtype)
        parameters["in (scale, zero point)"] = (s_in, z_in)
        parameters["out (scale, zero point)"] = (s_out, z_out)
    model = builder.model("HARD_SWISH", operands)
    return _corner("HARD_SWISH", model, [data], out, parameters)


def _fill(draw) -> Corner:
    newops = oracle(_ORACLE)
    type_ = draw(st.sampled_from([T.TENSOR_FLOAT32, T.TENSOR_FLOAT16, T.TENSOR_INT32]))
    shape = _shape(draw, 1, 5)
    builder = _Builder()
    sizes = np.asarray(shape, np.int32)
    if type_ == T.TENSOR_INT32:
        value: float = draw(st.one_of(st.integers(-8, 8), st.integers(-(2**31), 2**31 - 1)))
        value_index = builder.int32(int(value))
        out = np.asarray(newops.fill(list(shape), value), np.int32).reshape(shape)
    else:
        value = draw(st.integers(-16, 16)) / 2
        if type_ == T.TENSOR_FLOAT16:
            value_index = builder.constant(T.FLOAT16, [], np.float16(value).tobytes())
        else:
            value_index = builder.float32(value)
        out = _expected(newops.fill(list(shape), value), shape, type_)
    operands = [builder.input(sizes, T.TENSOR_INT32), value_index]
    builder.output(shape, type_)
    model = builder.model("FILL", operands)
    parameters = {"shape": shape, "type": T(type_).name, "value": value}
    return _corner("FILL", model, [sizes], out, parameters)


def _rank(draw) -> Corner:
    newops = oracle(_ORACLE)
    type_ = draw(st.sampled_from(_RANK_TYPES))
    shape = _shape(draw, 1, 6, largest=2)
    count = int(np.prod(shape))
    scale, zero_point = 0.0, 0
    if type_ in _FLOATS:
        data = _array(_floats(draw, count, 4), shape, _FLOATS[type_])
    elif type_ == T.TENSOR_BOOL8:
        data = _array(draw(_exactly(st.integers(0, 1), count)), shape, np.uint8)
    else:
        dtype = {
            T.TENSOR_INT32: np.int32, T.TENSOR_QUANT8_ASYMM: np.uint8,
            T.TENSOR_QUANT8_ASYMM_SIGNED: np.int8, T.TENSOR_QUANT8_SYMM: np.int8,
            T.TENSOR_QUANT16_ASYMM: np.uint16, T.TENSOR_QUANT16_SYMM: np.int16,
        }[type_]  # fmt: skip
        info = np.iinfo(dtype)
        low = -127 if type_ == T.TENSOR_QUANT8_SYMM else int(info.min)
        data = _array(draw(_exactly(st.integers(low, int(info.max)), count)), shape, dtype)
        if type_ != T.TENSOR_INT32:
            scale = 0.5
            symmetric = type_ in (T.TENSOR_QUANT8_SYMM, T.TENSOR_QUANT16_SYMM)
            zero_point = 0 if symmetric else draw(st.integers(int(info.min), int(info.max)))
    builder = _Builder()
    operands = [builder.input(data, type_, scale, zero_point)]
    builder.output([], T.INT32)
    model = builder.model("RANK", operands)
    out = np.asarray(newops.rank(list(shape)), np.int32)
    parameters = {"input": shape, "type": T(type_).name}
    return _corner("RANK", model, [data], out, parameters, dynamic=False)


def _corner(
    operation: str,
    model: Model,
    inputs: list[np.ndarray],
    out: np.ndarray,
    parameters: dict[str, object],
    dynamic: bool = True,
) -> Corner:
    return Corner(
        "newops", operation, model, inputs, [out], _classes(model, [out]), parameters, _ORACLE,
        dynamic=dynamic, level="V1_3",
    )  # fmt: skip


_DRAW = {"ELU": _elu, "HARD_SWISH": _hard_swish, "FILL": _fill, "RANK": _rank}


# Classes read back from a model ---------------------------------------------------------


def _classify(model: Model, operation, constants, name: str) -> list[str]:
    source = model.operands[operation.inputs[0]]
    target = model.operands[operation.outputs[0]]
    typed = target if name == "FILL" else source
    classes = [_TYPE_CLASSES.get(typed.type, "type:other")]
    dims = target.dimensions if name == "FILL" else source.dimensions
    if len(dims) >= 5:
        classes.append("rank:5")
    if len(dims) >= 6:
        classes.append("rank:6")
    if name == "ELU":
        alpha = constants.get(operation.inputs[1])
        if alpha is not None:
            value = float(alpha.reshape(-1)[0])
            classes.append(
                "alpha:below-1" if value < 1 else "alpha:1" if value == 1 else "alpha:above-1"
            )
    if name == "HARD_SWISH" and source.type in _QUANT8:
        if target.scale < source.scale:
            classes.append("quant:output-smaller")
        exponent = oracle(_ORACLE).hard_swish_params(source.scale, target.scale)[1]
        if exponent == 0:
            classes.append("quant:output-exponent-0")
    return classes


def _results(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """What the expected output shows: ELU at -alpha (a large negative input); HARD_SWISH
    of an input at or below -3 (a float -0.0: x * 0), at or above 3 (the output x, 3 or
    more), or a quantized output at the end of its type's range."""
    out, target = outputs[0], model.operands[model.output_indexes[0]]
    classes: list[str] = []
    if name == "ELU":
        alpha = model.operands[model.operations[0].inputs[1]]
        constant = np.frombuffer(
            model.operand_values[
                alpha.location.offset : alpha.location.offset + alpha.location.length
            ],
            np.float16 if alpha.type == T.FLOAT16 else np.float32,
        )
        if constant.size and np.any(out == -constant[0]):
            classes.append("result:minus-alpha")
    if name == "HARD_SWISH" and target.type in _FLOATS:
        if np.any((out == 0) & np.signbit(out)):
            classes.append("result:below-3")
        if np.any(out >= 3):
            classes.append("result:above-3")
    if name == "HARD_SWISH" and target.type in _QUANT8:
        low, high = oracle(_ORACLE).RANGES[_QUANT8[target.type]]
        if np.any(out == low) or np.any(out == high):
            classes.append("result:saturated")
    return classes


@_family(
    "newops",
    operations=_OPERATIONS,
    classes=(
        "type:float32", "type:float16", "type:int32", "type:quant8", "type:quant8-signed",
        "type:quant8-symm", "type:quant16", "type:bool8", "rank:5", "rank:6", "alpha:below-1",
        "alpha:above-1", "result:minus-alpha", "result:below-3", "result:above-3",
        "quant:output-smaller", "quant:output-exponent-0", "result:saturated",
    ),
    classify=_classify,
    results=_results,
    results_of=("ELU", "HARD_SWISH"),
)  # fmt: skip
@st.composite
def newops(draw, operation: str | None = None) -> Corner:
    """ELU, HARD_SWISH, FILL, RANK (HAL 1.3): see the module's docstring."""
    operation = operation or draw(st.sampled_from(_OPERATIONS))
    return _DRAW[operation](draw)
