"""Invalid shapes of the conversion operations (CAST, QUANTIZE, DEQUANTIZE).

They take no parameter; their definitions fix the output shape to the
input's, and DEQUANTIZE takes ranks 1 to 4. A model declaring another output
shape is refused at prepare; a DEQUANTIZE input of rank 5, given by the
request for an input of unknown rank, at execution.
"""

from __future__ import annotations

import numpy as np

from conformance.harness.models import signature_model
from conformance.invalid.case import InvalidCase
from hal.operations import signatures
from hal.types import HalVersion, Model, OperandType, OperationType

_F16 = OperandType.TENSOR_FLOAT16
_F32 = OperandType.TENSOR_FLOAT32
_I32 = OperandType.TENSOR_INT32
_Q8A = OperandType.TENSOR_QUANT8_ASYMM
_Q8S = OperandType.TENSOR_QUANT8_SYMM
Dims = tuple[int, ...]


def _model(
    op: OperationType, source: int, target: int, input_dims: Dims, output_dims: Dims
) -> Model:
    """The ``source -> target`` form of ``op`` with these shapes (0 = unknown; () = unknown rank)."""
    signature = next(
        s
        for s in signatures(op, HalVersion.V1_2)
        if s.inputs == (source,) and s.outputs == (target,)
    )
    model = signature_model(signature)
    model.operands[model.input_indexes[0]].dimensions = list(input_dims)
    model.operands[model.output_indexes[0]].dimensions = list(output_dims)
    return model


CASES: list[InvalidCase] = [
    InvalidCase(
        "CAST/output_rank_differs",
        lambda: _model(OperationType.CAST, _F32, _I32, (2, 3), (6,)),
    ),
    InvalidCase(
        "CAST/output_shape_differs",
        lambda: _model(OperationType.CAST, _Q8A, _F16, (2, 3), (3, 2)),
    ),
    InvalidCase(
        "QUANTIZE/output_shape_differs",
        lambda: _model(OperationType.QUANTIZE, _F32, _Q8A, (4,), (5,)),
    ),
    InvalidCase(
        "DEQUANTIZE/output_shape_differs",
        lambda: _model(OperationType.DEQUANTIZE, _Q8S, _F32, (2, 2), (2, 1)),
    ),
    InvalidCase(
        "DEQUANTIZE/input_rank_5",
        lambda: _model(OperationType.DEQUANTIZE, _Q8A, _F32, (), ()),
        lambda: [np.zeros((1, 1, 1, 1, 2), np.uint8)],
    ),
]
