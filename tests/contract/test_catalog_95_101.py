"""Catalog entries of HAL 1.3: operations 95-101 and what 1.3 changed in 0-94.

A table written by hand from the HAL 1.3 operation definitions (not derived
from the catalog) fixes each new operation's forms; models check the rules 1.3
brought with them: fixed signed quantizations, the TENSOR_INT32 activation, the
resize flags, the sequence operations' parallel linking, QUANTIZED_LSTM's
optional inputs.
"""

from __future__ import annotations

import pytest

from conformance.harness.models import signature_model
from hal.operations import Signature, match_signature, operation_info, signatures
from hal.types import (
    DataLocation,
    HalVersion,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    SymmPerChannelQuantParams,
)
from hal.validation import validate_model

Op = OperationType
T = OperandType
V1_2, V1_3 = HalVersion.V1_2, HalVersion.V1_3
STRICT_RULE = "operation.constraint_strict"

_RANK_INPUTS = (
    T.TENSOR_FLOAT16,
    T.TENSOR_FLOAT32,
    T.TENSOR_INT32,
    T.TENSOR_QUANT8_ASYMM,
    T.TENSOR_QUANT16_SYMM,
    T.TENSOR_BOOL8,
    T.TENSOR_QUANT8_SYMM_PER_CHANNEL,
    T.TENSOR_QUANT16_ASYMM,
    T.TENSOR_QUANT8_SYMM,
    T.TENSOR_QUANT8_ASYMM_SIGNED,
)

# op: every (inputs, outputs) form, all since 1.3 (the HAL 1.3 operation definitions).
EXPECTED = {
    Op.ELU: {
        ((T.TENSOR_FLOAT16, T.FLOAT16), (T.TENSOR_FLOAT16,)),
        ((T.TENSOR_FLOAT32, T.FLOAT32), (T.TENSOR_FLOAT32,)),
    },
    Op.HARD_SWISH: {
        ((t,), (t,))
        for t in (
            T.TENSOR_FLOAT16,
            T.TENSOR_FLOAT32,
            T.TENSOR_QUANT8_ASYMM,
            T.TENSOR_QUANT8_ASYMM_SIGNED,
        )
    },
    Op.FILL: {
        ((T.TENSOR_INT32, T.FLOAT16), (T.TENSOR_FLOAT16,)),
        ((T.TENSOR_INT32, T.FLOAT32), (T.TENSOR_FLOAT32,)),
        ((T.TENSOR_INT32, T.INT32), (T.TENSOR_INT32,)),
    },
    Op.RANK: {((t,), (T.INT32,)) for t in _RANK_INPUTS},
    Op.QUANTIZED_LSTM: {
        (
            (T.TENSOR_QUANT8_ASYMM_SIGNED,)
            + (T.TENSOR_QUANT8_SYMM,) * 8
            + (T.TENSOR_QUANT16_SYMM,) * 3
            + (T.TENSOR_INT32,) * 4
            + (T.TENSOR_QUANT8_SYMM, T.TENSOR_INT32)
            + (T.TENSOR_QUANT8_ASYMM_SIGNED, T.TENSOR_QUANT16_SYMM)
            + (T.TENSOR_QUANT16_SYMM,) * 4
            + (T.FLOAT32,) * 6
            + (T.INT32, T.FLOAT32),
            (T.TENSOR_QUANT8_ASYMM_SIGNED, T.TENSOR_QUANT16_SYMM, T.TENSOR_QUANT8_ASYMM_SIGNED),
        )
    },
}


@pytest.mark.parametrize("op", list(EXPECTED), ids=lambda op: op.name)
def test_new_operation_forms(op: OperationType) -> None:
    info = operation_info(op)
    assert info.introduced == V1_3
    assert {(s.inputs, s.outputs) for s in info.signatures} == EXPECTED[op]
    assert all(s.since == V1_3 for s in info.signatures)
    assert signatures(op, V1_2) == []


@pytest.mark.parametrize("op", [Op.IF, Op.WHILE], ids=lambda op: op.name)
def test_control_flow_has_no_signature_list(op: OperationType) -> None:
    # Any operand types: the control-flow validation rules match them to the subgraphs.
    info = operation_info(op)
    assert info.introduced == V1_3 and info.signatures == ()
    model = Model(
        operands=[Operand(T.TENSOR_FLOAT32, [1])],
        operations=[],
    )
    assert match_signature(model, Operation(op, [0], [0]), V1_3).signature is None
    assert match_signature(model, Operation(op, [0], [0]), V1_3).reason is None


def test_quantized_lstm_optional_inputs() -> None:
    (signature,) = operation_info(Op.QUANTIZED_LSTM).signatures
    assert signature.omittable == {1, 5, 9, 10, 11, 12, 16, 17, 20, 21, 22, 23, 24, 25}


@pytest.mark.parametrize("op", sorted(EXPECTED), ids=lambda op: op.name)
def test_new_operations_are_invalid_before_1_3(op: OperationType) -> None:
    model = signature_model(operation_info(op).signatures[0])
    assert validate_model(model, V1_3).ok
    assert "operation.type_version" in validate_model(model, V1_2).rule_names


# ---------------------------------------------------------------------------
# Rules 1.3 brought
# ---------------------------------------------------------------------------


def _signature(op: OperationType, variant: int, n_inputs: int, form: str = "") -> Signature:
    for s in operation_info(op).signatures:
        if s.variant == variant and len(s.inputs) == n_inputs and (not form or s.form == form):
            return s
    raise LookupError(f"{op.name} has no {n_inputs}-input {T(variant).name} form")


def _operand(model: Model, side: str, slot: int) -> Operand:
    return model.operands[getattr(model.operations[0], side)[slot]]


def _set_scalar(model: Model, slot: int, value: int) -> None:
    """Input ``slot`` (a CONSTANT_COPY scalar) gets ``value``."""
    operand = _operand(model, "inputs", slot)
    size = operand.location.length
    data = bytearray(model.operand_values)
    start = operand.location.offset
    data[start : start + size] = value.to_bytes(size, "little", signed=True)
    model.operand_values = bytes(data)


def _omit(model: Model, *slots: int) -> Model:
    for slot in slots:
        index = model.operations[0].inputs[slot]
        operand = model.operands[index]
        operand.lifetime = OperandLifeTime.NO_VALUE
        operand.location = DataLocation()
        model.input_indexes = [i for i in model.input_indexes if i != index]
    return model


@pytest.mark.parametrize(
    ("op", "n_inputs", "scale", "zero_point"),
    [
        (Op.LOGISTIC, 1, 1 / 256, -128),
        (Op.SOFTMAX, 2, 1 / 256, -128),
        (Op.TANH, 1, 1 / 128, 0),
        (Op.L2_NORMALIZATION, 1, 1 / 128, 0),
    ],
)
def test_signed_fixed_output_moves_by_128(
    op: OperationType, n_inputs: int, scale: float, zero_point: int
) -> None:
    model = signature_model(_signature(op, T.TENSOR_QUANT8_ASYMM_SIGNED, n_inputs))
    out = _operand(model, "outputs", 0)
    assert (out.scale, out.zero_point) == (scale, zero_point)
    assert validate_model(model, V1_3).ok
    out.zero_point = zero_point + 1
    result = validate_model(model, V1_3)
    assert result.rule_names == {STRICT_RULE}
    assert f"must be ({scale}, {zero_point})" in str(result)


def test_signed_mul_has_no_output_scale_rule() -> None:
    # Android 11 does not check the product rule for the signed form.
    model = signature_model(_signature(Op.MUL, T.TENSOR_QUANT8_ASYMM_SIGNED, 3))
    _operand(model, "outputs", 0).scale = 0.1
    assert validate_model(model, V1_3).ok


def test_signed_forms_need_1_3() -> None:
    model = signature_model(_signature(Op.ADD, T.TENSOR_QUANT8_ASYMM_SIGNED, 3))
    assert validate_model(model, V1_3).ok
    assert "operand.type_version" in validate_model(model, V1_2).rule_names


def test_signed_per_channel_conv() -> None:
    forms = [
        s
        for s in signatures(Op.CONV_2D, V1_3)
        if s.inputs[:2] == (T.TENSOR_QUANT8_ASYMM_SIGNED, T.TENSOR_QUANT8_SYMM_PER_CHANNEL)
    ]
    assert forms and all(s.since == V1_3 for s in forms)
    model = signature_model(forms[0])
    _operand(model, "inputs", 1).extra_params = SymmPerChannelQuantParams((1.0,), 0)
    assert validate_model(model, V1_3).ok


@pytest.mark.parametrize("op", [Op.ADD, Op.SUB, Op.MUL, Op.DIV])
def test_int32_arithmetic_takes_no_activation(op: OperationType) -> None:
    model = signature_model(_signature(op, T.TENSOR_INT32, 3))
    assert validate_model(model, V1_3).ok
    assert "operation.signature" in validate_model(model, V1_2).rule_names
    _set_scalar(model, 2, 1)  # RELU
    result = validate_model(model, V1_3)
    assert result.rule_names == {STRICT_RULE}
    assert "input 2 (fused activation) is 1; TENSOR_INT32 forms take NONE (0)" in str(result)


@pytest.mark.parametrize(
    ("op", "variant", "n_inputs"),
    [
        (Op.RESIZE_BILINEAR, T.TENSOR_FLOAT32, 6),
        (Op.RESIZE_NEAREST_NEIGHBOR, T.TENSOR_QUANT8_ASYMM_SIGNED, 6),
    ],
)
def test_resize_flags_not_both_true(op: OperationType, variant: int, n_inputs: int) -> None:
    model = signature_model(_signature(op, variant, n_inputs))
    assert validate_model(model, V1_3).ok
    _set_scalar(model, 4, 1)
    assert validate_model(model, V1_3).ok
    _set_scalar(model, 5, 1)
    result = validate_model(model, V1_3)
    assert result.rule_names == {STRICT_RULE}
    assert "inputs 4 and 5 (align_corners and half_pixel_centers) are both true" in str(result)


@pytest.mark.parametrize(
    ("op", "n_outputs"),
    [
        (Op.BIDIRECTIONAL_SEQUENCE_LSTM, 6),
        (Op.BIDIRECTIONAL_SEQUENCE_LSTM, 5),
        (Op.BIDIRECTIONAL_SEQUENCE_RNN, 4),
        (Op.BIDIRECTIONAL_SEQUENCE_RNN, 3),
        (Op.UNIDIRECTIONAL_SEQUENCE_LSTM, 3),
        (Op.UNIDIRECTIONAL_SEQUENCE_RNN, 2),
    ],
)
def test_sequence_state_outputs_need_1_3(op: OperationType, n_outputs: int) -> None:
    forms = [s for s in operation_info(op).signatures if len(s.outputs) == n_outputs]
    assert forms and all(s.since == V1_3 for s in forms)
    model = signature_model(forms[0])
    assert validate_model(model, V1_3).ok
    assert "operation.signature" in validate_model(model, V1_2).rule_names


@pytest.mark.parametrize(
    ("op", "n_inputs", "aux", "weights"),
    [
        (Op.BIDIRECTIONAL_SEQUENCE_RNN, 15, 9, (10, 11)),
        (Op.BIDIRECTIONAL_SEQUENCE_LSTM, 61, 39, (40, 41, 42, 43, 44, 45, 46, 47)),
    ],
)
def test_parallel_linking_needs_1_3(
    op: OperationType, n_inputs: int, aux: int, weights: tuple[int, ...]
) -> None:
    signature = _signature(op, T.TENSOR_FLOAT32, n_inputs, "merged outputs")
    model = _omit(signature_model(signature), *weights)
    assert validate_model(model, V1_3).ok
    result = validate_model(model, V1_2)
    assert result.rule_names == {STRICT_RULE}
    assert "(parallel linking) needs HAL 1.3, model is 1.2" in str(result)
    # Auxiliary weights without the auxiliary input stay invalid.
    orphan = _omit(signature_model(signature), aux)
    assert validate_model(orphan, V1_3).rule_names == {STRICT_RULE}


class TestQuantizedLstmPresence:
    def _model(self) -> Model:
        return signature_model(operation_info(Op.QUANTIZED_LSTM).signatures[0])

    def test_cifg_with_layer_norm(self) -> None:
        assert validate_model(_omit(self._model(), 1, 5, 12, 20, 9), V1_3).ok

    def test_half_of_cifg(self) -> None:
        result = validate_model(_omit(self._model(), 1), V1_3)
        assert result.rule_names == {STRICT_RULE}
        assert "inputs 1 and 5 (CIFG) must be omitted together" in str(result)

    def test_partial_layer_norm(self) -> None:
        result = validate_model(_omit(self._model(), 21), V1_3)
        assert "layer-norm inputs [20, 21, 22, 23] must be omitted together" in str(result)

    def test_required_input(self) -> None:
        result = validate_model(_omit(self._model(), 2), V1_3)
        assert result.rule_names == {"operation.omitted_input"}


def test_embedding_lookup_float16_values() -> None:
    model = signature_model(_signature(Op.EMBEDDING_LOOKUP, T.TENSOR_FLOAT16, 2))
    assert validate_model(model, V1_3).ok
    assert not validate_model(model, V1_2).ok


def test_rank_of_a_per_channel_tensor() -> None:
    model = signature_model(_signature(Op.RANK, T.TENSOR_QUANT8_SYMM_PER_CHANNEL, 1))
    assert validate_model(model, V1_3).ok
    assert _operand(model, "outputs", 0).dimensions == []


def test_nnhal_op_knows_the_new_operations() -> None:
    from plugins.collection import check_operation_names

    check_operation_names([op.name for op in EXPECTED] + ["IF", "WHILE"])
