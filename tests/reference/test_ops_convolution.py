"""The convolution family's numerics that are easy to get wrong.

Fixed-point rounding of quant8 results (ties, per-channel multipliers, a
multiplier above 1), float16 results computed in float32, padding codes other
than SAME, dilation, transposed-convolution output sizes, zero-sized batches,
and the bias-scale failure. Every expected value is derived by hand in the
comment beside it.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.requests import pack_request
from hal.callbacks import PreparedModelCallback
from hal.types import (
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    SymmPerChannelQuantParams,
    numpy_dtype,
)
from reference_driver import ReferenceDriver
from reference_driver.ops import REGISTRY, OpArgs, OpFailure
from reference_driver.ops.convolution import _column_phases, _fixed_point, _Geometry, _requantize
from reference_driver.quant import multiply_by_quantized_multiplier, quantize_multiplier

F32 = OperandType.TENSOR_FLOAT32
F16 = OperandType.TENSOR_FLOAT16
Q8 = OperandType.TENSOR_QUANT8_ASYMM
Q8C = OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL
I32T = OperandType.TENSOR_INT32
INT32 = OperandType.INT32
BOOL = OperandType.BOOL
Op = OperationType


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def _tensor(type_, dims, scale=0.0, zero_point=0, channel_scales=None) -> Operand:
    extra = None if channel_scales is None else SymmPerChannelQuantParams(tuple(channel_scales), 0)
    return Operand(type_, list(dims), 1, scale, zero_point, extra_params=extra)


def _model(op: int, inputs: list[tuple[Operand, object]], output: Operand) -> Model:
    """``op`` over ``inputs``: (operand, value) with value None for the one model input."""
    values = bytearray()
    operands = []
    for operand, value in inputs:
        if value is None:
            operand.lifetime = OperandLifeTime.MODEL_INPUT
        else:
            data = np.asarray(value, dtype=numpy_dtype(operand.type)).tobytes()
            operand.lifetime = OperandLifeTime.CONSTANT_COPY
            operand.location = DataLocation(0, len(values), len(data))
            values += data
        operands.append(operand)
    output.lifetime = OperandLifeTime.MODEL_OUTPUT
    output.number_of_consumers = 0
    operands.append(output)
    n = len(inputs)
    return Model(
        operands=operands,
        operations=[Operation(op, list(range(n)), [n])],
        input_indexes=[i for i, (_, value) in enumerate(inputs) if value is None],
        output_indexes=[n],
        operand_values=bytes(values),
    )


def _scalars(*values) -> list[tuple[Operand, object]]:
    return [(Operand(BOOL if isinstance(v, bool) else INT32, [], 1), v) for v in values]


def _run(driver, model, inputs, output_size=1 << 12):
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    with pack_request(model, inputs, [output_size]) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        if status != ErrorStatus.NONE:
            return status, None, None
        return status, shapes[0].dimensions, packed.output(0, shapes[0].dimensions)


# ---------------------------------------------------------------------------
# Fixed-point requantization
# ---------------------------------------------------------------------------


def test_quant8_ties_follow_the_fixed_point_rounding(driver) -> None:
    # FC with 4 rows of input_size 1, weight 1 (scale 1), input scale 0.5 zp 10, output
    # scale 1 zp 100: M = 0.5 = 2**30 / 2**31, so the result is the doubling high
    # multiply alone, (acc * 2**30 + 2**30) >> 31 = floor((acc + 1) / 2):
    # acc = q - 10 = 3, -3, 1, -1 -> 2, -1, 1, 0 (ties go up, not away from zero).
    model = _model(
        Op.FULLY_CONNECTED,
        [
            (_tensor(Q8, [4, 1], 0.5, 10), None),
            (_tensor(Q8, [1, 1], 1.0, 0), [[1]]),
            (_tensor(I32T, [1], 0.5), [0]),
            *_scalars(0),
        ],
        _tensor(Q8, [4, 1], 1.0, 100),
    )
    status, shape, out = _run(driver, model, [np.array([[13], [7], [11], [9]], np.uint8)])
    assert status == ErrorStatus.NONE and shape == (4, 1)
    assert out.ravel().tolist() == [102, 99, 101, 100]


def test_quant8_quarter_multiplier_rounds_half_away_in_the_shift(driver) -> None:
    # As above with output scale 2: M = 0.25 = 2**30 / 2**31 * 2**-1. acc = -6: high
    # multiply floor(-5 / 2) = -3, then -3 / 2 rounded half away = -2; acc = -2: -1 then
    # -0.5 -> -1; acc = 2: 1 then 0.5 -> 1; acc = 6: 3 then 1.5 -> 2.
    model = _model(
        Op.FULLY_CONNECTED,
        [
            (_tensor(Q8, [4, 1], 0.5, 10), None),
            (_tensor(Q8, [1, 1], 1.0, 0), [[1]]),
            (_tensor(I32T, [1], 0.5), [0]),
            *_scalars(0),
        ],
        _tensor(Q8, [4, 1], 2.0, 100),
    )
    status, _, out = _run(driver, model, [np.array([[4], [8], [12], [16]], np.uint8)])
    assert status == ErrorStatus.NONE
    assert out.ravel().tolist() == [98, 99, 101, 102]


def test_per_channel_multipliers_below_and_above_one(driver) -> None:
    # 1x1 CONV_2D, one input pixel q = 7 (scale 1, zp 0), filter channel scales 0.5 and
    # 4 with q = 3 and 2, per-channel bias 0 and -1, output scale 1 zp 20.
    # Channel 0: acc 21, M 0.5 -> floor(22 / 2) = 11 -> 31.
    # Channel 1: acc 14 - 1 = 13, M 4 = 0.5 * 2**3: 13 * 8 = 104, floor(105 / 2) = 52 -> 72.
    model = _model(
        Op.CONV_2D,
        [
            (_tensor(Q8, [1, 1, 1, 1], 1.0, 0), None),
            (_tensor(Q8C, [2, 1, 1, 1], channel_scales=[0.5, 4.0]), [3, 2]),
            (_tensor(I32T, [2]), [0, -1]),
            *_scalars(2, 1, 1, 0),
        ],
        _tensor(Q8, [1, 1, 1, 2], 1.0, 20),
    )
    status, _, out = _run(driver, model, [np.full((1, 1, 1, 1), 7, np.uint8)])
    assert status == ErrorStatus.NONE
    assert out.ravel().tolist() == [31, 72]


@pytest.mark.parametrize("real", [0.5, 0.3, 1 / 3, 0.999999, 1.0, 1.5, 7.25, 2.0**-20])
def test_vectorised_requantization_matches_the_scalar_scheme(real: float) -> None:
    # The kernel's int64 form must agree exactly with reference_driver.quant's MBQM.
    acc = np.arange(-70000, 70000, 7, dtype=np.int64)
    m0, shift = _fixed_point(np.array([real]))
    assert (int(m0[0]), int(shift[0])) == quantize_multiplier(real)
    expected = multiply_by_quantized_multiplier(acc, *quantize_multiplier(real))
    assert (_requantize(acc.copy(), m0, shift) == expected).all()


# ---------------------------------------------------------------------------
# Float16, padding codes, dilation, transposed output sizes
# ---------------------------------------------------------------------------


def test_float16_sums_in_float32_then_rounds(driver) -> None:
    # 2048 + 1 + 1: float32 gives 2050, representable in float16. Accumulating in
    # float16 would lose each 1 (2049 rounds to 2048) and give 2048.
    model = _model(
        Op.FULLY_CONNECTED,
        [
            (_tensor(F16, [1, 3]), None),
            (_tensor(F16, [1, 3]), [[1.0, 1.0, 1.0]]),
            (_tensor(F16, [1]), [0.0]),
            *_scalars(0),
        ],
        _tensor(F16, [1, 1]),
    )
    status, _, out = _run(driver, model, [np.array([[2048.0, 1.0, 1.0]], np.float16)])
    assert status == ErrorStatus.NONE
    assert out.ravel().tolist() == [2050.0]


@pytest.mark.parametrize("code", [0, 2, 7])
def test_padding_codes_other_than_same_behave_like_valid(driver, code: int) -> None:
    # 3x3 input of ones, 2x2 filter of ones, no padding: 2x2 output of 4s.
    model = _model(
        Op.CONV_2D,
        [
            (_tensor(F32, [1, 3, 3, 1]), None),
            (_tensor(F32, [1, 2, 2, 1]), np.ones((1, 2, 2, 1))),
            (_tensor(F32, [1]), [0.0]),
            *_scalars(code, 1, 1, 0),
        ],
        _tensor(F32, [0, 0, 0, 0]),
    )
    status, shape, out = _run(driver, model, [np.ones((1, 3, 3, 1), np.float32)])
    assert status == ErrorStatus.NONE and shape == (1, 2, 2, 1)
    assert out.ravel().tolist() == [4.0] * 4


def test_dilated_same_convolution(driver) -> None:
    # Input 1..9 in a 3x3 image, 2x2 filter of ones dilated by 2 (effective 3x3), SAME:
    # pads 1 on each side. out[0, 0] sees (-1,-1) (-1,1) (1,-1) (1,1): only 5 is inside;
    # out[1, 1] sees the corners 1 + 3 + 7 + 9 = 20; out[0, 1] sees (1, 0) and (1, 2):
    # 4 + 6 = 10.
    model = _model(
        Op.CONV_2D,
        [
            (_tensor(F32, [1, 3, 3, 1]), None),
            (_tensor(F32, [1, 2, 2, 1]), np.ones((1, 2, 2, 1))),
            (_tensor(F32, [1]), [0.0]),
            *_scalars(1, 1, 1, 0, False, 2, 2),
        ],
        _tensor(F32, [1, 3, 3, 1]),
    )
    image = np.arange(1, 10, dtype=np.float32).reshape(1, 3, 3, 1)
    status, _, out = _run(driver, model, [image])
    assert status == ErrorStatus.NONE
    assert out[0, 0, 0, 0] == 5.0 and out[0, 1, 1, 0] == 20.0 and out[0, 0, 1, 0] == 10.0


def test_transpose_output_size_comes_from_the_formula(driver) -> None:
    # Input 2x2, 3x3 filter, stride 2, SAME, requested 5x5: t = (ceil(5/2) - 1) * 2 + 3
    # = 7, pads 1 and 1, so out = (2 - 1) * 2 + 3 - 2 = 3, not the requested 5.
    model = _model(
        Op.TRANSPOSE_CONV_2D,
        [
            (_tensor(F32, [1, 2, 2, 1]), None),
            (_tensor(F32, [1, 3, 3, 1]), np.ones((1, 3, 3, 1))),
            (_tensor(F32, [1]), [0.0]),
            (_tensor(I32T, [4]), [1, 5, 5, 1]),
            *_scalars(1, 2, 2, 0, False),
        ],
        _tensor(F32, [0, 0, 0, 0]),
    )
    status, shape, out = _run(driver, model, [np.ones((1, 2, 2, 1), np.float32)])
    assert status == ErrorStatus.NONE and shape == (1, 3, 3, 1)
    # The centre (1, 1) of the cropped canvas is full-canvas (2, 2): every input pixel's
    # 3x3 footprint covers it, so 4 contributions of 1.
    assert out[0, 1, 1, 0] == 4.0


def test_bias_scale_mismatch_fails_the_execution() -> None:
    # With the strict validation rule off, the model prepares; the CPU reference then
    # fails the execution because bias scale 0.3 != 0.5 x 1.0.
    lenient = ReferenceDriver(disabled_rules={"operation.constraint_strict"})
    model = _model(
        Op.FULLY_CONNECTED,
        [
            (_tensor(Q8, [1, 1], 0.5, 0), None),
            (_tensor(Q8, [1, 1], 1.0, 0), [[1]]),
            (_tensor(I32T, [1], 0.3), [0]),
            *_scalars(0),
        ],
        _tensor(Q8, [1, 1], 1.0, 0),
    )
    status, _, _ = _run(lenient, model, [np.array([[2]], np.uint8)])
    assert status == ErrorStatus.GENERAL_FAILURE


# ---------------------------------------------------------------------------
# Zero-sized batches (only reachable as an intermediate: called directly)
# ---------------------------------------------------------------------------


def _args(op, x_shape, f, bias, scalars, type_=F32) -> OpArgs:
    operands = [_tensor(type_, x_shape), _tensor(type_, f.shape), _tensor(type_, bias.shape)]
    values = [np.zeros(x_shape, np.float32), f.astype(np.float32), bias.astype(np.float32)]
    for value in scalars:
        operands.append(Operand(BOOL if isinstance(value, bool) else INT32, []))
        values.append(np.array(value, np.uint8 if isinstance(value, bool) else np.int32))
    return OpArgs(operands, [_tensor(type_, [])], values)


@pytest.mark.parametrize(
    ("op", "filter_shape", "scalars", "expected"),
    [
        # CONV_2D 2x2 VALID on 3x3 with 2 output channels: [0, 2, 2, 2].
        (Op.CONV_2D, (2, 2, 2, 1), (2, 1, 1, 0), (0, 2, 2, 2)),
        # TRANSPOSE_CONV_2D explicit, no pads, stride 1, 2x2: 3 + 2 - 1 = 4.
        (Op.TRANSPOSE_CONV_2D, (2, 2, 2, 1), (0, 0, 0, 0, 1, 1, 0, False), (0, 4, 4, 2)),
    ],
)
def test_zero_batch_gives_an_empty_output(op, filter_shape, scalars, expected) -> None:
    args = _args(op, (0, 3, 3, 1), np.ones(filter_shape), np.zeros(filter_shape[0]), scalars)
    impl = REGISTRY[op]
    shapes = impl.prepare(args)
    assert shapes == [expected]
    assert impl.execute(args, shapes)[0].shape == expected


def test_fully_connected_zero_batch() -> None:
    args = _args(Op.FULLY_CONNECTED, (0, 3), np.ones((2, 3)), np.zeros(2), (0,))
    impl = REGISTRY[Op.FULLY_CONNECTED]
    assert impl.prepare(args) == [(0, 2)]
    assert impl.execute(args, [(0, 2)])[0].shape == (0, 2)


@pytest.mark.parametrize(
    ("op", "filter_shape", "scalars"),
    [
        (Op.DEPTHWISE_CONV_2D, (1, 2, 2, 1), (2, 1, 1, 1, 0)),
        (Op.GROUPED_CONV_2D, (1, 2, 2, 1), (2, 1, 1, 1, 0, False)),
    ],
)
def test_zero_batch_is_refused_where_the_hal_does_not_allow_it(op, filter_shape, scalars) -> None:
    args = _args(op, (0, 3, 3, 1), np.ones(filter_shape), np.zeros(1), scalars)
    with pytest.raises(OpFailure):
        REGISTRY[op].prepare(args)


def test_filter_cache_cleanup_survives_cleared_module_globals(monkeypatch) -> None:
    """At interpreter shutdown the module's globals are None while filter arrays still die;
    the cache's cleanup callback must not reach for them (it once raised AttributeError:
    'NoneType' object has no attribute 'pop')."""
    import gc
    import sys

    from reference_driver.ops import convolution

    raised = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: raised.append(u.exc_value))
    table = convolution._DERIVED
    array = np.ones((1, 2, 2, 1), np.float32)
    assert convolution._derived(array, ("probe",), lambda: "made") == "made"
    key = (id(array), "probe")
    assert key in table
    monkeypatch.setattr(convolution, "_DERIVED", None)  # what shutdown does to the module
    del array
    gc.collect()
    assert raised == []
    assert key not in table


def test_filter_cache_keeps_a_newer_entry_of_a_reused_id() -> None:
    """An array dying after another took its key (same id) leaves the newer entry alone."""
    import weakref

    from reference_driver.ops import convolution

    old = np.zeros(3, np.float32)
    newer = np.ones(3, np.float32)
    key = ("reused-id-probe",)
    convolution._DERIVED[key] = (weakref.ref(newer), "newer")
    dying_ref = weakref.ref(old)
    convolution._forget(convolution._DERIVED, key, dying_ref)
    assert convolution._DERIVED.pop(key)[1] == "newer"


@pytest.mark.parametrize("offset", [0, 3])
def test_an_unpadded_transposed_input_is_laid_out_in_c_order_for_the_kernels(offset) -> None:
    """An NCHW input reaches the kernels as a transposed NHWC view. Unpadded, it was passed
    on as it was, and the depthwise kernel's strided windows (which assume C order) read
    past its end: found by the parameter-space tests as an occasional NaN in
    DEPTHWISE_CONV_2D's output (input [1, 3, 1, 5] NCHW, 1x1 filter, SAME)."""
    nchw = np.arange(15, dtype=np.float32).reshape(1, 3, 1, 5)
    nhwc = nchw.transpose(0, 2, 3, 1)
    assert not nhwc.flags.c_contiguous
    g = _Geometry(
        pads=(0, 0, 0, 0), strides=(1, 1), dilations=(1, 1), filter_hw=(1, 1), out_hw=(1, 5)
    )
    planes = _column_phases(nhwc, g, offset, np.dtype(np.float32))
    assert planes.flags.c_contiguous
    np.testing.assert_array_equal(planes.reshape(1, 1, 5, 3), nhwc - offset)
