"""The reference driver never claims a 1.3 form it has no kernel for.

For every catalog form dated 1.3 of an operation the driver implements (signed and
TENSOR_INT32 forms, RESIZE_*'s flags, the sequence operations' state outputs, CAST's
identity forms, EMBEDDING_LOOKUP's F16 values) that its family does not name as
implemented (``checked``'s ``newer``), the implementation's ``supports`` answers False
(and does not raise); every 1.3 form a family names is supported (its signed forms,
TENSOR_INT32 arithmetic, CAST identity, EMBEDDING_LOOKUP float16: test_ops_signed.py runs
them); the 1.2 forms it ran before are still supported where the family supported them.
"""

from __future__ import annotations

import pytest

from conformance.harness.models import signature_model
from hal.operations import operation_info
from hal.types import HalVersion, OperationType
from reference_driver.executor import operation_args, read_constants
from reference_driver.ops import REGISTRY, implementation
from reference_driver.ops.base import KERNEL_LEVEL

NEW_FORMS = [
    pytest.param(
        s, id=f"{s.operation.name}-{s.describe().split(' since')[0][len(s.operation.name) :]}"
    )
    for op in REGISTRY
    for s in operation_info(op).signatures
    if s.since > KERNEL_LEVEL and s not in REGISTRY[op].forms
]


CLAIMED_FORMS = [
    pytest.param(
        s, id=f"{s.operation.name}-{s.describe().split(' since')[0][len(s.operation.name) :]}"
    )
    for op in REGISTRY
    for s in REGISTRY[op].forms
    if s.since > KERNEL_LEVEL
]


def _supports(signature) -> bool:
    model = signature_model(signature)
    operation = model.operations[0]
    impl = implementation(model, operation.type)
    if impl is None:
        return False
    args = operation_args(
        model, tuple(operation.inputs), tuple(operation.outputs), read_constants(model)
    )
    return impl.supports(args)


def test_kernel_level_is_1_2() -> None:
    assert KERNEL_LEVEL == HalVersion.V1_2


@pytest.mark.parametrize("signature", NEW_FORMS)
def test_new_form_is_unsupported(signature) -> None:
    assert _supports(signature) is False


@pytest.mark.parametrize("signature", CLAIMED_FORMS)
def test_claimed_new_form_is_supported(signature) -> None:
    assert _supports(signature) is True


def test_the_claimed_new_forms() -> None:
    # 108 signed forms (the twins of the 1.2 forms of section 5.1's operations, CAST's
    # signed identity among them), 5 TENSOR_INT32 (ADD, SUB, MUL, DIV, ABS), 4 more CAST
    # identities and EMBEDDING_LOOKUP's float16 values; 24 RESIZE_BILINEAR and
    # RESIZE_NEAREST_NEIGHBOR forms with align_corners/half_pixel_centers (float32, float16,
    # quant8) and their 8 signed twins; 12 final-state forms of the sequence operations;
    # 20 forms of the new operations: ELU (2), FILL (3), HARD_SWISH (4), RANK (10) and
    # QUANTIZED_LSTM (1), signed ones included.
    assert len(CLAIMED_FORMS) == 182


@pytest.mark.parametrize("op", [OperationType.IF, OperationType.WHILE])
def test_control_flow_has_no_implementation(op: OperationType) -> None:
    assert op not in REGISTRY


@pytest.mark.parametrize(
    "op", [OperationType.ADD, OperationType.CAST, OperationType.RESIZE_BILINEAR]
)
def test_older_forms_are_still_supported(op: OperationType) -> None:
    older = [s for s in operation_info(op).signatures if s.since <= KERNEL_LEVEL]
    assert older and all(_supports(s) for s in older)
