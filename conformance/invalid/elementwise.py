"""Invalid parameter values of the element-wise arithmetic operations.

ADD, SUB, MUL and DIV take a fused activation that must be 0..3 and inputs of
rank 4 at most; every element-wise operation needs input shapes that
broadcast. A bad value in the model is refused at prepare; one that first
appears in a request (an activation given as a model input, input shapes the
request fills in) is refused at execution.
"""

from __future__ import annotations

import numpy as np

from conformance.harness.models import binary_model, signature_model
from conformance.invalid.case import InvalidCase
from hal.operations import signatures
from hal.types import (
    DataLocation,
    HalVersion,
    Model,
    OperandLifeTime,
    OperandType,
    OperationType,
)

_F32 = OperandType.TENSOR_FLOAT32
_F16 = OperandType.TENSOR_FLOAT16
_I32 = OperandType.TENSOR_INT32
_Q8A = OperandType.TENSOR_QUANT8_ASYMM
Dims = tuple[int, ...]


def _two_inputs(op: OperationType, variant: int, a: Dims, b: Dims) -> Model:
    """The catalog's ``variant`` form of a two-input ``op`` with these input shapes
    (0 = unknown); the output has the broadcast rank and unknown sizes."""
    signature = next(s for s in signatures(op, HalVersion.V1_2) if s.variant == variant)
    model = signature_model(signature)
    for index, dims in zip(model.input_indexes, (a, b), strict=True):
        model.operands[index].dimensions = list(dims)
    model.operands[model.output_indexes[0]].dimensions = [0] * max(len(a), len(b))
    return model


def _activation_as_input(model: Model) -> Model:
    """``model`` (from ``binary_model``) with its activation scalar a model input."""
    activation = model.operands[2]
    activation.lifetime = OperandLifeTime.MODEL_INPUT
    activation.location = DataLocation()
    model.operand_values = b""
    model.input_indexes = [*model.input_indexes, 2]
    return model


def _unknown_rank(op: OperationType) -> Model:
    """``op`` on two float32 inputs of unknown rank, the output of unknown rank too."""
    model = binary_model(op, dims=(0,), other_dims=(0,), output_dims=(0,))
    for index in (0, 1, 3):
        model.operands[index].dimensions = []
    return model


def _floats(*shapes: Dims) -> list[np.ndarray]:
    return [np.ones(shape, np.float32) for shape in shapes]


CASES: list[InvalidCase] = [
    InvalidCase("ADD/activation_7", lambda: binary_model(activation=7)),
    InvalidCase("MUL/activation_minus_1", lambda: binary_model(OperationType.MUL, activation=-1)),
    InvalidCase(
        "ADD/shapes_do_not_broadcast",
        lambda: binary_model(dims=(0,), other_dims=(0,), output_dims=(0,)),
        lambda: [np.ones(2, np.float32), np.ones(3, np.float32)],
    ),
    InvalidCase(
        "SUB/activation_4",
        lambda: binary_model(OperationType.SUB, _Q8A, activation=4, quant=((0.5, 0),) * 3),
    ),
    InvalidCase(
        "SUB/activation_input_5",
        lambda: _activation_as_input(binary_model(OperationType.SUB)),
        lambda: [*_floats((2, 2), (2, 2)), np.array(5, np.int32)],
    ),
    InvalidCase(
        "MUL/declared_shapes_do_not_broadcast",
        lambda: binary_model(OperationType.MUL, dims=(2, 3), other_dims=(2,), output_dims=(2, 3)),
    ),
    InvalidCase(
        "DIV/activation_minus_1",
        lambda: binary_model(OperationType.DIV, _F16, activation=-1),
    ),
    InvalidCase(
        "DIV/rank_5",
        lambda: _unknown_rank(OperationType.DIV),
        lambda: _floats((1, 1, 1, 1, 2), (2,)),
    ),
    InvalidCase(
        "DIV/shapes_do_not_broadcast",
        lambda: binary_model(OperationType.DIV, dims=(0, 0), other_dims=(0,), output_dims=(0, 0)),
        lambda: _floats((2, 3), (2,)),
    ),
    InvalidCase(
        "MAXIMUM/declared_shapes_do_not_broadcast",
        lambda: _two_inputs(OperationType.MAXIMUM, _I32, (3, 2), (3,)),
    ),
    InvalidCase(
        "MAXIMUM/shapes_do_not_broadcast",
        lambda: _two_inputs(OperationType.MAXIMUM, _F32, (0,), (0,)),
        lambda: _floats((4,), (3,)),
    ),
    InvalidCase(
        "MINIMUM/declared_shapes_do_not_broadcast",
        lambda: _two_inputs(OperationType.MINIMUM, _Q8A, (2, 2, 4), (2, 3, 1)),
    ),
    InvalidCase(
        "MINIMUM/shapes_do_not_broadcast",
        lambda: _two_inputs(OperationType.MINIMUM, _F32, (0, 2), (0,)),
        lambda: _floats((3, 2), (3,)),
    ),
    InvalidCase(
        "POW/declared_shapes_do_not_broadcast",
        lambda: _two_inputs(OperationType.POW, _F16, (2, 2), (4,)),
    ),
    InvalidCase(
        "POW/shapes_do_not_broadcast",
        lambda: _two_inputs(OperationType.POW, _F32, (0, 0), (0, 0)),
        lambda: _floats((2, 3), (3, 2)),
    ),
    InvalidCase(
        "PRELU/alpha_does_not_broadcast",
        lambda: _two_inputs(OperationType.PRELU, _F32, (1, 2, 2, 3), (2,)),
    ),
    InvalidCase(
        "PRELU/alpha_shape_does_not_broadcast",
        lambda: _two_inputs(OperationType.PRELU, _Q8A, (0, 0, 3), (0,)),
        lambda: [np.zeros((1, 2, 3), np.uint8), np.zeros(2, np.uint8)],
    ),
]
