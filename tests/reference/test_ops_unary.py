"""The reference driver's unary operations: the numerics that are easy to get wrong.

Quantized LOGISTIC and TANH (fixed output quantization, saturation, the input
scale limit), the quantized RELU ranges (rounding of the bounds, collapsed
ranges), the float clamps on NaN, -0.0 and infinities, float16 rounding, IEEE
special values, INT32 NEG, rank limits and zero-sized inputs. Every expected
value is derived by hand in the comment beside it; none comes from the
driver's code.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
)
from reference_driver import ReferenceDriver
from reference_driver.ops import REGISTRY, OpArgs, OpFailure, OpInvalid

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
I32 = OperandType.TENSOR_INT32
Q8 = OperandType.TENSOR_QUANT8_ASYMM
Op = OperationType
FLT_MAX = float(np.finfo(np.float32).max)
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
_DTYPES = {F32: np.float32, F16: np.float16, I32: np.int32, Q8: np.uint8}


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _model(
    op: int,
    type_: int,
    dims: Sequence[int],
    in_quant: tuple[float, int] = (0.0, 0),
    out_quant: tuple[float, int] | None = None,
    out_dims: Sequence[int] | None = None,
) -> Model:
    """``out = op(in)``; ``out_quant`` defaults to ``in_quant``, ``out_dims`` to ``dims``."""
    source = Operand(type_, list(dims), 1, *in_quant, OperandLifeTime.MODEL_INPUT)
    target = Operand(
        type_,
        list(dims if out_dims is None else out_dims),
        0,
        *(in_quant if out_quant is None else out_quant),
        OperandLifeTime.MODEL_OUTPUT,
    )
    return Model(
        operands=[source, target],
        operations=[Operation(op, [0], [1])],
        input_indexes=[0],
        output_indexes=[1],
    )


def _prepare_status(driver: ReferenceDriver, model: Model):
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    return launch, notification


def _run(driver: ReferenceDriver, model: Model, values) -> tuple[ErrorStatus, np.ndarray | None]:
    """Prepare ``model``, execute it on ``values``: the status and the output array."""
    launch, notification = _prepare_status(driver, model)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    x = np.asarray(values, dtype=_DTYPES[model.operands[0].type])
    with pack_request(model, [x], [1 << 12]) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        output = packed.output(0, shapes[0].dimensions) if status == ErrorStatus.NONE else None
    return status, output


def _values(driver, op, type_, values, in_quant=(0.0, 0), out_quant=None) -> np.ndarray:
    x = np.asarray(values)
    status, output = _run(driver, _model(op, type_, x.shape, in_quant, out_quant), x)
    assert status == ErrorStatus.NONE
    assert output is not None
    return output


# Quantized LOGISTIC and TANH ----------------------------------------------------------


def test_logistic_quant8_rounds_256_sigmoid(driver) -> None:
    # scale 1/16, zp 128: x = (q - 128)/16 = [-8, -2.5, -1, -0.25, 0, 0.5, 1.5, 7.9375];
    # 256*sigmoid(x) = [0.086, 19.42, 68.85, 112.08, 128, 159.35, 209.30, 255.91]
    # -> [0, 19, 69, 112, 128, 159, 209, 256 -> 255]
    q = [0, 88, 112, 124, 128, 136, 152, 255]
    out = _values(driver, Op.LOGISTIC, Q8, q, (1 / 16, 128), (1 / 256, 0))
    np.testing.assert_array_equal(out, [0, 19, 69, 112, 128, 159, 209, 255])


def test_logistic_quant8_saturates_at_the_radius(driver) -> None:
    # scale 1: the Q4.27 rescaling multiplier 2**27 = 0.5 * 2**28 -> left shift 28,
    # radius floor(15 * 2**27 / 2**28) = 7. q - zp = -7 and 7 saturate to 0 and 255;
    # -6 and 6 go through the function: 256*sigmoid(-6) = 0.633 -> 1, 256*sigmoid(6) =
    # 255.37 -> 255.
    out = _values(driver, Op.LOGISTIC, Q8, [121, 122, 134, 135], (1.0, 128), (1 / 256, 0))
    np.testing.assert_array_equal(out, [0, 1, 255, 255])


def test_logistic_quant8_input_scale_limit(driver) -> None:
    # The fixed-point rescaling needs scale * 2**27 > 1: exactly 2**-27 fails the execution.
    model = _model(Op.LOGISTIC, Q8, [2], (2.0**-27, 128), (1 / 256, 0))
    status, _ = _run(driver, model, [0, 255])
    assert status == ErrorStatus.GENERAL_FAILURE
    # At 2**-26 the inputs are within 2e-6 of 0: 256*sigmoid = 128 - 0.0001 -> 128.
    out = _values(driver, Op.LOGISTIC, Q8, [0, 255], (2.0**-26, 128), (1 / 256, 0))
    np.testing.assert_array_equal(out, [128, 128])


def test_tanh_quant8_rounds_128_tanh(driver) -> None:
    # scale 1/16, zp 128: x = [-8, -2, -0.625, -0.125, 0, 0.375, 1, 7.9375];
    # 128*tanh(x) = [-128, -123.40, -70.99, -15.92, 0, 45.87, 97.48, 128] and
    # q = 128 + round(.) = [0 (saturated), 5, 57, 112, 128, 174, 225, 256 -> 255]
    q = [0, 96, 118, 126, 128, 134, 144, 255]
    out = _values(driver, Op.TANH, Q8, q, (1 / 16, 128), (1 / 128, 128))
    np.testing.assert_array_equal(out, [0, 5, 57, 112, 128, 174, 225, 255])


@pytest.mark.parametrize(
    ("op", "in_quant", "out_quant"),
    [
        (Op.LOGISTIC, (0.5, 128), (0.5, 0)),  # must be (1/256, 0)
        (Op.TANH, (0.5, 128), (1 / 128, 0)),  # must be (1/128, 128)
        (Op.RELU, (0.5, 128), (0.5, 127)),  # must be the input's
    ],
    ids=["logistic", "tanh", "relu"],
)
def test_wrong_output_quantization_is_refused(op, in_quant, out_quant) -> None:
    # hal.validation rejects these models already; the operation refuses them too.
    driver = ReferenceDriver(disabled_rules={"operation.constraint_strict"})
    launch, notification = _prepare_status(driver, _model(op, Q8, [2], in_quant, out_quant))
    assert (launch, notification.status) == (
        ErrorStatus.INVALID_ARGUMENT,
        ErrorStatus.INVALID_ARGUMENT,
    )


# Quantized RELU ranges ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "quant", "q", "expected"),
    [
        # zp 255: every value is <= 0, the range collapses to [255, 255]
        (Op.RELU, (0.5, 255), [0, 100, 254, 255], [255, 255, 255, 255]),
        # scale 3: round(+-1/3) = 0, the range collapses to [10, 10]
        (Op.RELU1, (3.0, 10), [0, 9, 10, 11, 255], [10, 10, 10, 10, 10]),
        # scale 4: 6/4 = 1.5 rounds half away from zero to 2 -> [2, 4]
        (Op.RELU6, (4.0, 2), [0, 1, 2, 3, 4, 5, 255], [2, 2, 2, 3, 4, 4, 4]),
        # scale 0.4: in float32 1/0.4f = 2.5 exactly (in double 2.49999996), and
        # round(2.5) = 3 -> [125, 131]
        (
            Op.RELU1,
            (0.4, 128),
            [0, 124, 125, 126, 130, 131, 132, 255],
            [125, 125, 125, 126, 130, 131, 131, 131],
        ),
        # zp 250, scale 0.5: 250 + 12 = 262 is capped at 255
        (Op.RELU6, (0.5, 250), [0, 249, 250, 255], [250, 250, 250, 255]),
    ],
    ids=["relu-zp255", "relu1-collapsed", "relu6-half-away", "relu1-float32-bound", "relu6-cap"],
)
def test_relu_quant8_ranges(driver, op, quant, q, expected) -> None:
    np.testing.assert_array_equal(_values(driver, op, Q8, q, quant), expected)


# Float clamps -------------------------------------------------------------------------


def test_relu_float_edge_values(driver) -> None:
    # std::min(std::max(low, x), high): NaN and -0.0 fail "low < x" and become low (+0.0);
    # RELU's high is FLT_MAX, so +inf becomes FLT_MAX.
    out = _values(driver, Op.RELU, F32, [np.nan, -0.0, np.inf, -np.inf, 3.0])
    np.testing.assert_array_equal(out, [0.0, 0.0, FLT_MAX, 0.0, 3.0])
    assert not np.signbit(out[1])
    # RELU1: NaN -> -1; -0.0 is above -1 and stays -0.0.
    out = _values(driver, Op.RELU1, F32, [np.nan, -np.inf, np.inf, -0.0])
    np.testing.assert_array_equal(out, [-1.0, -1.0, 1.0, 0.0])
    assert np.signbit(out[3])
    np.testing.assert_array_equal(_values(driver, Op.RELU6, F32, [np.nan, 7.0]), [0.0, 6.0])
    # In float16, FLT_MAX rounds to inf.
    np.testing.assert_array_equal(_values(driver, Op.RELU, F16, [np.inf, -1.0]), [np.inf, 0.0])


# Float16, special values, INT32 -------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "x", "expected"),
    [
        # e**12 = 162754.8 is beyond float16's 65504: inf
        (Op.EXP, [12.0], [np.inf]),
        # ln 3 = 1.0986123; float16 steps by 2**-10 in [1, 2): 1125 * 2**-10 = 1.0986328125
        (Op.LOG, [3.0], [1.0986328125]),
        # sqrt 2 = 1.4142136 -> 1448 * 2**-10 = 1.4140625
        (Op.SQRT, [2.0], [1.4140625]),
        # 1/sqrt(3) = 0.57735027; steps of 2**-11 in [0.5, 1): 1182 * 2**-11 = 0.5771484375
        (Op.RSQRT, [3.0], [0.5771484375]),
    ],
    ids=["exp-overflow", "log", "sqrt", "rsqrt"],
)
def test_float16_rounds_the_float32_result(driver, op, x, expected) -> None:
    np.testing.assert_array_equal(_values(driver, op, F16, x), expected)


@pytest.mark.parametrize(
    ("op", "x", "expected"),
    [
        (Op.LOG, [0.0, -1.0, np.inf], [-np.inf, np.nan, np.inf]),
        (Op.RSQRT, [0.0, -4.0, np.inf], [np.inf, np.nan, 0.0]),
        (Op.SQRT, [-1.0, np.inf], [np.nan, np.inf]),
        (Op.EXP, [100.0, -np.inf], [np.inf, 0.0]),
        (Op.FLOOR, [-0.5, np.inf, np.nan], [-1.0, np.inf, np.nan]),
        (Op.SIN, [np.inf], [np.nan]),
        (Op.ABS, [-np.inf, np.nan], [np.inf, np.nan]),
    ],
    ids=["log", "rsqrt", "sqrt", "exp", "floor", "sin", "abs"],
)
def test_ieee_special_values(driver, op, x, expected) -> None:
    np.testing.assert_array_equal(_values(driver, op, F32, x), expected)


def test_neg_int32(driver) -> None:
    # -(2**31 - 1) and back; INT32_MIN has no negation in int32 and wraps to itself.
    out = _values(driver, Op.NEG, I32, [INT32_MIN, INT32_MAX, -5, 0])
    np.testing.assert_array_equal(out, [INT32_MIN, -INT32_MAX, 5, 0])


# Shapes -------------------------------------------------------------------------------


def test_rank_limits(driver) -> None:
    # FLOOR takes ranks 1 to 4: a rank-5 input given by the request is refused.
    status, _ = _run(driver, _model(Op.FLOOR, F32, []), np.ones((1, 1, 1, 1, 2)))
    assert status == ErrorStatus.INVALID_ARGUMENT
    # ABS has no upper rank limit: rank 6 works.
    x = -np.arange(4.0).reshape(1, 2, 1, 1, 2, 1)
    status, out = _run(driver, _model(Op.ABS, F32, []), x)
    assert status == ErrorStatus.NONE
    np.testing.assert_array_equal(out, np.arange(4.0).reshape(1, 2, 1, 1, 2, 1))


def test_declared_output_shape(driver) -> None:
    # Unknown output dimensions are filled in; conflicting ones are refused at prepare.
    status, out = _run(driver, _model(Op.SIN, F32, [2, 3], out_dims=[0, 0]), np.zeros((2, 3)))
    assert status == ErrorStatus.NONE
    assert out.shape == (2, 3)
    launch, _ = _prepare_status(driver, _model(Op.SIN, F32, [2, 3], out_dims=[2, 2]))
    assert launch == ErrorStatus.INVALID_ARGUMENT


def _args(op: int, type_: int, shape: tuple[int, ...], quant=(0.0, 0), out_quant=None):
    values = np.zeros(shape, _DTYPES[type_])
    model = _model(op, type_, shape, quant, out_quant)
    return OpArgs([model.operands[0]], [model.operands[1]], [values])


@pytest.mark.parametrize(
    ("op", "type_", "out_quant"),
    [
        (Op.LOGISTIC, Q8, (1 / 256, 0)),
        (Op.TANH, F16, None),
        (Op.RELU, F32, None),
        (Op.RELU1, Q8, None),
        (Op.RELU6, F32, None),
    ],
)
def test_zero_sized_input_accepted(op, type_, out_quant) -> None:
    # The activations take a zero-sized input (1.2): same shape out, nothing computed.
    impl = REGISTRY[op]
    args = _args(op, type_, (0, 3), (0.5, 128) if type_ == Q8 else (0.0, 0), out_quant)
    shapes = impl.prepare(args)
    assert shapes == [(0, 3)]
    (out,) = impl.execute(args, shapes)
    assert out.shape == (0, 3)
    assert out.dtype == _DTYPES[type_]


@pytest.mark.parametrize(
    "op", [Op.ABS, Op.EXP, Op.LOG, Op.NEG, Op.RSQRT, Op.SIN, Op.SQRT, Op.FLOOR]
)
def test_zero_sized_input_rejected(op) -> None:
    # The other unary operations fail the execution (GENERAL_FAILURE, not INVALID_ARGUMENT).
    with pytest.raises(OpFailure) as error:
        REGISTRY[op].prepare(_args(op, F32, (2, 0)))
    assert not isinstance(error.value, OpInvalid)
