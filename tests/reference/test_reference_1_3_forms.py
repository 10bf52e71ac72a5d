"""The reference driver claims exactly the 1.3 forms it has kernels for: all of them.

Each family names the catalog forms dated after ``KERNEL_LEVEL`` it implements
(``checked``'s ``newer`` and ``via_unsigned``); a form no family names would be
unsupported. Every 1.3 form of every operation the driver implements is named, and
every named form is supported (its signed forms,
TENSOR_INT32 arithmetic, CAST identity, EMBEDDING_LOOKUP float16: test_ops_signed.py runs
them); the 1.2 forms it ran before are still supported where the family supported them.
IF and WHILE, which the catalog gives no forms (any operand types, tied to their
subgraphs'), are the executor's own and claimed by the driver for every model whose
subgraphs it runs (tests/reference/test_ops_control_flow.py runs them).
"""

from __future__ import annotations

import pytest
from control_flow_models import fib_model, if_model

from conformance.harness.models import signature_model
from hal.operations import operation_info
from hal.types import ErrorStatus, HalVersion, OperationType
from reference_driver import ReferenceDriver
from reference_driver.executor import CONTROL_FLOW, operation_args, read_constants
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


def test_every_1_3_form_of_an_implemented_operation_is_claimed() -> None:
    """HAL 1.3's forms are all implemented (issue [hal13-ops]): none is left unclaimed."""
    assert [p.id for p in NEW_FORMS] == []


@pytest.mark.parametrize("signature", CLAIMED_FORMS)
def test_claimed_new_form_is_supported(signature) -> None:
    assert _supports(signature) is True


def test_the_claimed_new_forms() -> None:
    # 108 signed forms (the twins of the 1.2 forms of section 5.1's operations, CAST's
    # signed identity among them), 5 TENSOR_INT32 (ADD, SUB, MUL, DIV, ABS), 4 more CAST
    # identities and EMBEDDING_LOOKUP's float16 values; 24 RESIZE_BILINEAR and
    # RESIZE_NEAREST_NEIGHBOR forms with align_corners/half_pixel_centers (float32, float16,
    # quant8) and their 8 signed twins; 12 final-state forms of the sequence operations;
    # the operations 1.3 adds: ELU 2, HARD_SWISH 4, FILL 3, RANK 10, QUANTIZED_LSTM 1.
    assert len(CLAIMED_FORMS) == 182


@pytest.mark.parametrize("op", [OperationType.IF, OperationType.WHILE])
def test_control_flow_is_the_executors_and_claimed(op: OperationType) -> None:
    assert op not in REGISTRY  # no family kernel: the executor runs its subgraphs
    assert operation_info(op).signatures == ()
    assert op in CONTROL_FLOW
    driver = ReferenceDriver()
    assert op in driver._operations
    model = {OperationType.IF: if_model, OperationType.WHILE: fib_model}[op]()
    assert driver.get_supported_operations_1_3(model) == (ErrorStatus.NONE, [True])


@pytest.mark.parametrize(
    "op", [OperationType.ADD, OperationType.CAST, OperationType.RESIZE_BILINEAR]
)
def test_older_forms_are_still_supported(op: OperationType) -> None:
    older = [s for s in operation_info(op).signatures if s.since <= KERNEL_LEVEL]
    assert older and all(_supports(s) for s in older)
