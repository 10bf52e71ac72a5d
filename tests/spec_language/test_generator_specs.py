"""The corpus's own specs expand as the NNAPI generator would expand them.

Three specs are pinned down here: the CONV_2D spec (layouts, weights as
inputs, relaxed, quant8, per-channel quant8, float16), the L2_NORMALIZATION
spec (every rank and axis) and the two-operation model with an internal
operand. Every expected name, operand and datum below is derived by hand in
the comment beside it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from generator.expand import evaluate_spec
from hal.types import (
    HalVersion,
    OperandLifeTime,
    OperandType,
    OperationType,
    SymmPerChannelQuantParams,
)
from hal.validation import validate_model

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "conformance" / "specs"
LT = OperandLifeTime


LIFETIME = frozenset({"all_tensors_as_inputs", "all_inputs_as_internal"})


def _tests(relative: str) -> dict:
    """The spec's tests but those of Android 11's automatic lifetime variations (tested in
    tests/spec_language/test_generator_13.py)."""
    return {
        t.name: t
        for t in evaluate_spec(SPECS / relative, ROOT)
        if not LIFETIME & set(t.provenance.variations)
    }


@pytest.fixture(scope="module")
def conv() -> dict:
    return _tests("V1_2/conv2d_v1_2.mod.py")


def test_conv2d_names(conv: dict) -> None:
    # AddNchw (nhwc default, nchw) x AddInput (default, weight_as_input) x
    # (default, relaxed, quant8, channelQuant8, float16), in product order.
    variations = ["", "_relaxed", "_quant8", "_channelQuant8", "_float16"]
    expected = [
        f"conv2d_v1_2_{layout}{weights}{variation}"
        for layout in ("nhwc", "nchw")
        for weights in ("", "_weight_as_input")
        for variation in variations
    ]
    assert list(conv) == expected
    assert conv["conv2d_v1_2_nchw_quant8"].dynamic_name == (
        "conv2d_v1_2_dynamic_output_shape_nchw_quant8"
    )


def test_conv2d_base_model(conv: dict) -> None:
    test = conv["conv2d_v1_2_nhwc"]
    model = test.model
    # Operands in order of first appearance: op1, op2, op3, the implicit 2, 1, 1, 0
    # (param .. param3), layout, op4.
    types = [o.type for o in model.operands]
    assert types == [
        OperandType.TENSOR_FLOAT32,
        OperandType.TENSOR_FLOAT32,
        OperandType.TENSOR_FLOAT32,
        OperandType.INT32,
        OperandType.INT32,
        OperandType.INT32,
        OperandType.INT32,
        OperandType.BOOL,
        OperandType.TENSOR_FLOAT32,
    ]
    assert [o.lifetime for o in model.operands] == [LT.MODEL_INPUT] + [LT.CONSTANT_COPY] * 7 + [
        LT.MODEL_OUTPUT
    ]
    assert model.operations[0].type == OperationType.CONV_2D
    assert model.operations[0].inputs == list(range(8)) and model.operations[0].outputs == [8]
    assert (model.input_indexes, model.output_indexes) == ([0], [8])
    # Constants packed unaligned: filter 64 bytes, bias 8, four INT32s 16, BOOL 1.
    assert [o.location.offset for o in model.operands[1:8]] == [0, 64, 72, 76, 80, 84, 88]
    assert len(model.operand_values) == 89
    ints = np.frombuffer(model.operand_values[72:88], "<i4")
    assert ints.tolist() == [2, 1, 1, 0]  # VALID, stride 1 x 1, no activation
    assert model.operand_values[88:] == b"\x00"  # layout false: NHWC
    assert test.hal_folder == "V1_2" and test.version == "V1_2"
    assert validate_model(model, HalVersion.V1_2).ok
    feed = test.feeds[0]
    assert feed.inputs[0].shape == (1, 3, 3, 2)
    assert feed.outputs[0].reshape(-1).tolist() == [4.0, 5.0, 5.5, 7.0, 8.5, 11.0, 10.0, 13.0]


def test_conv2d_nchw_transposes_data(conv: dict) -> None:
    test = conv["conv2d_v1_2_nchw"]
    feed = test.feeds[0]
    # NHWC value at (h, w, c) is 0.5 * (1 + 2 * (3h + w) + c): channel 0 holds the
    # odd halves 0.5, 1.5, ... 8.5, channel 1 the whole numbers 1 .. 9.
    assert feed.inputs[0].shape == (1, 2, 3, 3)
    assert feed.inputs[0][0, 0].reshape(-1).tolist() == [0.5 + k for k in range(9)]
    assert feed.inputs[0][0, 1].reshape(-1).tolist() == [1.0 + k for k in range(9)]
    # Output pairs (4, 5), (5.5, 7), (8.5, 11), (10, 13) split by channel.
    assert feed.outputs[0].reshape(-1).tolist() == [4.0, 5.5, 8.5, 10.0, 5.0, 7.0, 11.0, 13.0]
    assert test.model.operand_values[-1:] == b"\x01"  # layout true


def test_conv2d_quant8(conv: dict) -> None:
    test = conv["conv2d_v1_2_nhwc_quant8"]
    operands = test.model.operands
    assert (operands[0].type, operands[0].scale, operands[0].zero_point) == (
        OperandType.TENSOR_QUANT8_ASYMM,
        0.5,
        0,
    )
    # Filter / 0.25 + 128.
    filt = np.frombuffer(test.model.operand_values[0:16], np.uint8).tolist()
    assert filt == [132, 126, 130, 128, 124, 134, 130, 126, 129, 130, 127, 131, 128, 126, 132, 129]
    # Bias at scale 0.5 * 0.25 = 0.125: 1.0 -> 8, -0.5 -> -4.
    assert np.frombuffer(test.model.operand_values[16:24], "<i4").tolist() == [8, -4]
    assert operands[2].scale == 0.125
    feed = test.feeds[0]
    assert feed.inputs[0].reshape(-1).tolist() == list(range(1, 19))  # value / 0.5
    # Output / 0.5 + 100.
    assert feed.outputs[0].reshape(-1).tolist() == [108, 110, 111, 114, 117, 122, 120, 126]
    assert validate_model(test.model, HalVersion.V1_2).ok


def test_conv2d_per_channel(conv: dict) -> None:
    test = conv["conv2d_v1_2_nhwc_channelQuant8"]
    filt, bias = test.model.operands[1], test.model.operands[2]
    assert filt.type == OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL
    assert filt.extra_params == SymmPerChannelQuantParams((0.5, 0.25), 0)
    # Channel 0 / 0.5, channel 1 / 0.25, as signed bytes.
    values = np.frombuffer(test.model.operand_values[0:16], np.int8).tolist()
    assert values == [2, -1, 1, 0, -2, 3, 1, -1, 1, 2, -1, 3, 0, -2, 4, 1]
    # The bias's per-channel scales are hidden: scale 0, no extra params, data
    # divided by 0.25 and 0.125: 1.0 -> 4, -0.5 -> -4.
    assert (bias.type, bias.scale, bias.extra_params) == (OperandType.TENSOR_INT32, 0.0, None)
    assert np.frombuffer(test.model.operand_values[16:24], "<i4").tolist() == [4, -4]
    assert validate_model(test.model, HalVersion.V1_2).ok


def test_conv2d_weights_as_inputs_and_float16(conv: dict) -> None:
    test = conv["conv2d_v1_2_nhwc_weight_as_input_float16"]
    model = test.model
    # Filter and bias keep their operand indexes and become inputs 1 and 2.
    assert model.input_indexes == [0, 1, 2]
    assert all(model.operands[i].type == OperandType.TENSOR_FLOAT16 for i in (0, 1, 2, 8))
    feed = test.feeds[0]
    assert feed.inputs[2].dtype == np.float16 and feed.inputs[2].tolist() == [1.0, -0.5]
    assert feed.inputs[1].shape == (2, 2, 2, 2)
    assert conv["conv2d_v1_2_nhwc_relaxed"].model.relax_computation_float32_to_float16
    assert conv["conv2d_v1_2_nhwc_relaxed"].version is None  # relaxed: no version upstream


def test_l2_normalization_every_rank_and_axis() -> None:
    tests = _tests("V1_2/l2_normalization_all_axes.mod.py")
    # AddAllDimsAndAxis on rank 4: for rank r = 4..1, axis j in 4-r..3 mapped to
    # j - (4 - r), positive then negative; then (default, relaxed, float16, quant8).
    axes = []
    for dropped in range(4):
        for j in range(dropped, 4):
            axis = j - dropped
            axes += [f"dim{4 - dropped}_axis{axis}", f"dim{4 - dropped}_axis{axis}_neg"]
    expected = [
        f"l2_normalization_all_axes_{a}{v}"
        for a in axes
        for v in ("", "_relaxed", "_float16", "_quant8")
    ]
    assert list(tests) == expected
    # dim2_axis0: the last axis moved first, then the first two remaining axes
    # dropped (index 0 kept): the pairs (3, 4) and (-3, 4) of the original
    # become the columns of a [2, 2] tensor normalised along axis 0.
    test = tests["l2_normalization_all_axes_dim2_axis0"]
    feed = test.feeds[0]
    assert feed.inputs[0].tolist() == [[3.0, -3.0], [4.0, 4.0]]
    np.testing.assert_allclose(feed.outputs[0], [[0.6, -0.6], [0.8, 0.8]], rtol=1e-7)
    axis = test.model.operands[1]
    assert np.frombuffer(test.model.operand_values[axis.location.offset :][:4], "<i4")[0] == 0
    # The quant8 output is fixed at 1/128, zero point 128: 0.6 -> 204.8 -> 205.
    quant = tests["l2_normalization_all_axes_dim2_axis0_quant8"]
    out = quant.model.operands[quant.model.output_indexes[0]]
    assert (out.scale, out.zero_point) == (1 / 128, 128)
    assert quant.feeds[0].outputs[0][0].tolist() == [205, 51]
    assert all(validate_model(t.model, HalVersion.V1_2).ok for t in tests.values())


def test_two_operations_through_an_internal_operand() -> None:
    tests = _tests("V1_0/add_mul_internal.mod.py")
    assert list(tests) == ["add_mul_internal"]
    model = tests["add_mul_internal"].model
    # Operand order: a, b, param (0), t, c, param1 (0), out.
    assert [o.lifetime for o in model.operands] == [
        LT.MODEL_INPUT,
        LT.MODEL_INPUT,
        LT.CONSTANT_COPY,
        LT.TEMPORARY_VARIABLE,
        LT.MODEL_INPUT,
        LT.CONSTANT_COPY,
        LT.MODEL_OUTPUT,
    ]
    assert [(op.type, op.inputs, op.outputs) for op in model.operations] == [
        (OperationType.ADD, [0, 1, 2], [3]),
        (OperationType.MUL, [3, 4, 5], [6]),
    ]
    assert model.input_indexes == [0, 1, 4] and model.output_indexes == [6]
    assert model.operands[3].number_of_consumers == 1
    assert tests["add_mul_internal"].feeds[0].outputs[0].tolist() == [6.0, -1.0, -3.0, 2.0]
    assert validate_model(model, HalVersion.V1_0).ok
