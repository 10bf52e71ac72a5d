"""Invalid uses of the unary operations.

None of them takes a parameter. What their definitions forbid:

* an output shaped unlike the input (every one of them: "output 0 has the
  input's shape"), refused at prepare when the model declares both shapes;
* for FLOOR, LOGISTIC, TANH, RELU, RELU1 and RELU6, an input of rank above 4.
  A model declaring one fails ``hal.validation`` already, so these cases give
  the input an unknown rank and the request a rank-5 tensor: refused at
  execution.

The quantized outputs of LOGISTIC (1/256, 0), TANH (1/128, 128) and the RELUs
(the input's) are fixed too, but a model breaking that fails
``hal.validation`` (the catalog's strict constraints), so it belongs to the
model-validation suite, not here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.invalid.case import InvalidCase
from hal.types import Model, Operand, OperandLifeTime, OperandType, Operation, OperationType

Op = OperationType
_F32 = OperandType.TENSOR_FLOAT32
_F16 = OperandType.TENSOR_FLOAT16
_I32 = OperandType.TENSOR_INT32
_Q8A = OperandType.TENSOR_QUANT8_ASYMM
_QUANT = {
    Op.LOGISTIC: ((0.5, 128), (1 / 256, 0)),
    Op.TANH: ((0.5, 128), (1 / 128, 128)),
}
"""(input, output) quantization of the quant8 forms; the RELUs use (0.5, 128) for both."""


def unary_model(
    op: int, type_: int, input_dims: Sequence[int], output_dims: Sequence[int]
) -> Model:
    """``out = op(in)`` with both operands of ``type_`` (empty dims: unknown rank)."""
    in_quant, out_quant = _QUANT.get(op, ((0.5, 128), (0.5, 128)))
    if type_ != _Q8A:
        in_quant = out_quant = (0.0, 0)
    source = Operand(type_, list(input_dims), 1, *in_quant, OperandLifeTime.MODEL_INPUT)
    target = Operand(type_, list(output_dims), 0, *out_quant, OperandLifeTime.MODEL_OUTPUT)
    return Model(
        operands=[source, target],
        operations=[Operation(op, [0], [1])],
        input_indexes=[0],
        output_indexes=[1],
    )


def _ones(type_: int, shape: tuple[int, ...]):
    dtype = {_F32: np.float32, _F16: np.float16, _I32: np.int32, _Q8A: np.uint8}[type_]
    return lambda: [np.ones(shape, dtype)]


def _output_shape_case(op: Op, type_: int) -> InvalidCase:
    return InvalidCase(
        f"{op.name}/output_shape_differs", lambda: unary_model(op, type_, (2, 3), (3, 2))
    )


def _rank_5_case(op: Op, type_: int) -> InvalidCase:
    return InvalidCase(
        f"{op.name}/rank_5_at_execution",
        lambda: unary_model(op, type_, (), ()),
        _ones(type_, (1, 2, 1, 2, 1)),
    )


_SHAPED = (
    (Op.ABS, _F32),
    (Op.EXP, _F16),
    (Op.LOG, _F32),
    (Op.NEG, _I32),
    (Op.RSQRT, _F16),
    (Op.SIN, _F32),
    (Op.SQRT, _F32),
    (Op.FLOOR, _F16),
    (Op.LOGISTIC, _Q8A),
    (Op.TANH, _F32),
    (Op.RELU, _F16),
    (Op.RELU1, _Q8A),
    (Op.RELU6, _F32),
)
_RANK_LIMITED = (
    (Op.FLOOR, _F32),
    (Op.LOGISTIC, _F16),
    (Op.TANH, _Q8A),
    (Op.RELU, _Q8A),
    (Op.RELU1, _F32),
    (Op.RELU6, _F16),
)

CASES: list[InvalidCase] = [
    *(_output_shape_case(op, type_) for op, type_ in _SHAPED),
    *(_rank_5_case(op, type_) for op, type_ in _RANK_LIMITED),
    InvalidCase("NEG/output_rank_differs", lambda: unary_model(Op.NEG, _F32, (2, 3), (6,))),
]
