"""Invalid shapes of the comparison, logical and SELECT operations.

None of them takes a parameter: what their definitions forbid is inputs
whose shapes do not broadcast (comparisons, LOGICAL_AND/OR), SELECT operands
of different shapes, and a LOGICAL_NOT output shaped unlike its input. Each is
refused at prepare when the model declares the shapes, and at execution when
the request gives them.
"""

from __future__ import annotations

import numpy as np

from conformance.harness.models import signature_model
from conformance.invalid.case import InvalidCase
from hal.operations import signatures
from hal.types import HalVersion, Model, OperandType, OperationType

_B8 = OperandType.TENSOR_BOOL8
_F32 = OperandType.TENSOR_FLOAT32
_I32 = OperandType.TENSOR_INT32
_Q8A = OperandType.TENSOR_QUANT8_ASYMM
Dims = tuple[int, ...]


def _model(
    op: OperationType, variant: int, input_dims: list[Dims], output_dims: Dims = (0,)
) -> Model:
    """The catalog's ``variant`` form of ``op`` with these tensor shapes (0 = unknown)."""
    signature = next(s for s in signatures(op, HalVersion.V1_2) if s.variant == variant)
    model = signature_model(signature)
    for index, dims in zip(model.input_indexes, input_dims, strict=True):
        model.operands[index].dimensions = list(dims)
    model.operands[model.output_indexes[0]].dimensions = list(output_dims)
    return model


_COMPARISONS = (
    (OperationType.EQUAL, _F32),
    (OperationType.NOT_EQUAL, _I32),
    (OperationType.GREATER, _Q8A),
    (OperationType.GREATER_EQUAL, _B8),
    (OperationType.LESS, OperandType.TENSOR_FLOAT16),
    (OperationType.LESS_EQUAL, _F32),
)


def _comparison_cases() -> list[InvalidCase]:
    cases = []
    for op, variant in _COMPARISONS:
        cases.append(
            InvalidCase(
                f"{op.name}/declared_shapes_do_not_broadcast",
                lambda op=op, variant=variant: _model(op, variant, [(2, 3), (2,)]),
            )
        )
    cases.append(
        InvalidCase(
            "EQUAL/shapes_do_not_broadcast",
            lambda: _model(OperationType.EQUAL, _F32, [(0,), (0,)]),
            lambda: [np.ones(2, np.float32), np.ones(3, np.float32)],
        )
    )
    cases.append(
        InvalidCase(
            "LESS/ranks_do_not_broadcast",
            lambda: _model(OperationType.LESS, _I32, [(0, 0), (0,)], (0, 0)),
            lambda: [np.ones((4, 2), np.int32), np.ones(4, np.int32)],
        )
    )
    return cases


def _logical_cases() -> list[InvalidCase]:
    return [
        InvalidCase(
            "LOGICAL_AND/declared_shapes_do_not_broadcast",
            lambda: _model(OperationType.LOGICAL_AND, _B8, [(3, 2), (3,)]),
        ),
        InvalidCase(
            "LOGICAL_OR/shapes_do_not_broadcast",
            lambda: _model(OperationType.LOGICAL_OR, _B8, [(0,), (0,)]),
            lambda: [np.ones(4, np.uint8), np.zeros(2, np.uint8)],
        ),
        InvalidCase(
            "LOGICAL_NOT/output_shape_differs",
            lambda: _model(OperationType.LOGICAL_NOT, _B8, [(2, 3)], (3, 2)),
        ),
    ]


def _select_cases() -> list[InvalidCase]:
    return [
        InvalidCase(
            "SELECT/declared_input_shapes_differ",
            lambda: _model(OperationType.SELECT, _F32, [(2, 3), (2, 3), (3, 2)]),
        ),
        InvalidCase(
            "SELECT/declared_condition_rank_differs",
            lambda: _model(OperationType.SELECT, _Q8A, [(6,), (2, 3), (2, 3)]),
        ),
        InvalidCase(
            "SELECT/condition_shape_differs",
            lambda: _model(OperationType.SELECT, _I32, [(0,), (0,), (0,)]),
            lambda: [np.ones(2, np.uint8), np.ones(3, np.int32), np.ones(3, np.int32)],
        ),
    ]


CASES: list[InvalidCase] = [*_comparison_cases(), *_logical_cases(), *_select_cases()]
