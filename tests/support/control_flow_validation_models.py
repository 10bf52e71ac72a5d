"""Hand-built HAL 1.3 models with control flow, for the validation families' tests.

Each is valid at HAL 1.3 under every rule of ``hal.validation`` (strict ones included), and
holds its IF or WHILE in the main subgraph, as a generated control-flow case does:

* ``if_model``: IF(c > 0, computed in main, then = referenced[0] (RELU), else =
  referenced[1] (FLOOR), x) on [2] tensors;
* ``while_model``: WHILE(cond = referenced[0] (i < n), body = referenced[1], i, x, n) ->
  (i, x), n a state-only value (a body output no WHILE output takes);
* ``quant_if_model``: an IF over TENSOR_QUANT8_ASYMM values (scale and zero point ties);
* ``nested_model``: an IF whose then branch is itself a WHILE (control flow nested in a
  referenced subgraph).

Only ``hal`` and numpy are used: the models do not come from the code under test.
"""

from __future__ import annotations

import numpy as np

from hal.types import (
    DataLocation,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    Operation,
    OperationType,
    Subgraph,
)

LT = OperandLifeTime
T = OperandType
OP = OperationType
F32, I32, B8, Q8A, SUBGRAPH = (
    T.TENSOR_FLOAT32,
    T.INT32,
    T.TENSOR_BOOL8,
    T.TENSOR_QUANT8_ASYMM,
    T.SUBGRAPH,
)


def reference(k: int, consumers: int = 1) -> Operand:
    """A SUBGRAPH operand naming ``Model.referenced[k]``."""
    return Operand(SUBGRAPH, [], consumers, lifetime=LT.SUBGRAPH, location=DataLocation(0, k, 0))


def _constant(type_: int, dims: list[int], location: DataLocation, **fields) -> Operand:
    return Operand(type_, dims, 1, lifetime=LT.CONSTANT_COPY, location=location, **fields)


def _unary(operation: int, type_: int = F32, dims=(2,), **fields) -> Subgraph:
    """One unary operation from an input to an output of the same type and dimensions."""
    return Subgraph(
        operands=[
            Operand(type_, list(dims), 1, lifetime=LT.SUBGRAPH_INPUT, **fields),
            Operand(type_, list(dims), 0, lifetime=LT.SUBGRAPH_OUTPUT, **fields),
        ],
        operations=[Operation(operation, [0], [1])],
        input_indexes=[0],
        output_indexes=[1],
    )


def if_model() -> Model:
    """IF(c > 0 (operand 2, written by GREATER in main), then = referenced[0] (RELU),
    else = referenced[1] (FLOOR), x) -> y, x and y TENSOR_FLOAT32 [2], c [1]."""
    values = np.array([0.0], np.float32).tobytes()
    return Model(
        operands=[
            Operand(F32, [1], 1, lifetime=LT.MODEL_INPUT),  # 0: c
            _constant(F32, [1], DataLocation(0, 0, 4)),  # 1: 0.0
            Operand(B8, [1], 1, lifetime=LT.TEMPORARY_VARIABLE),  # 2: c > 0
            Operand(F32, [2], 1, lifetime=LT.MODEL_INPUT),  # 3: x
            reference(0),  # 4: then
            reference(1),  # 5: else
            Operand(F32, [2], 0, lifetime=LT.MODEL_OUTPUT),  # 6: y
        ],
        operations=[
            Operation(OP.GREATER, [0, 1], [2]),
            Operation(OP.IF, [2, 4, 5, 3], [6]),
        ],
        input_indexes=[0, 3],
        output_indexes=[6],
        operand_values=values,
        referenced=[_unary(OP.RELU), _unary(OP.FLOOR)],
    )


def quant_if_model() -> Model:
    """IF(b (a model input), then = referenced[0] (RELU), else = referenced[1] (RELU6), q)
    -> r, on TENSOR_QUANT8_ASYMM [3] of scale 0.5 and zero point 10."""
    quant = {"scale": 0.5, "zero_point": 10}
    return Model(
        operands=[
            Operand(B8, [1], 1, lifetime=LT.MODEL_INPUT),  # 0: b
            reference(0),  # 1
            reference(1),  # 2
            Operand(Q8A, [3], 1, lifetime=LT.MODEL_INPUT, **quant),  # 3: q
            Operand(Q8A, [3], 0, lifetime=LT.MODEL_OUTPUT, **quant),  # 4: r
        ],
        operations=[Operation(OP.IF, [0, 1, 2, 3], [4])],
        input_indexes=[0, 3],
        output_indexes=[4],
        referenced=[_unary(OP.RELU, Q8A, (3,), **quant), _unary(OP.RELU6, Q8A, (3,), **quant)],
    )


def _while_subgraphs(dims: list[int], base: int) -> tuple[Subgraph, Subgraph]:
    """The condition (i < n) and the body (i + 1, x + x, n + 0) of a WHILE over (i, x, n),
    x of dimensions ``dims``; the body's constants at operand_values offset ``base``."""
    one = DataLocation(0, base, 4)
    act = DataLocation(0, base + 4, 4)
    cond = Subgraph(
        operands=[
            Operand(F32, [1], 1, lifetime=LT.SUBGRAPH_INPUT),  # 0: i
            Operand(F32, list(dims), 0, lifetime=LT.SUBGRAPH_INPUT),  # 1: x
            Operand(F32, [1], 1, lifetime=LT.SUBGRAPH_INPUT),  # 2: n
            Operand(B8, [1], 0, lifetime=LT.SUBGRAPH_OUTPUT),  # 3
        ],
        operations=[Operation(OP.LESS, [0, 2], [3])],
        input_indexes=[0, 1, 2],
        output_indexes=[3],
    )
    body = Subgraph(
        operands=[
            Operand(F32, [1], 1, lifetime=LT.SUBGRAPH_INPUT),  # 0: i
            Operand(F32, list(dims), 2, lifetime=LT.SUBGRAPH_INPUT),  # 1: x
            Operand(F32, [1], 1, lifetime=LT.SUBGRAPH_INPUT),  # 2: n
            _constant(F32, [1], one),  # 3: 1.0
            _constant(I32, [], act),  # 4: fused activation NONE
            Operand(F32, [1], 0, lifetime=LT.SUBGRAPH_OUTPUT),  # 5: i + 1
            Operand(F32, list(dims), 0, lifetime=LT.SUBGRAPH_OUTPUT),  # 6: x + x
            Operand(F32, [1], 0, lifetime=LT.SUBGRAPH_OUTPUT),  # 7: n
            _constant(F32, [1], DataLocation(0, base + 8, 4)),  # 8: 0.0
        ],
        operations=[
            Operation(OP.ADD, [0, 3, 4], [5]),
            Operation(OP.ADD, [1, 1, 4], [6]),
            Operation(OP.ADD, [2, 8, 4], [7]),
        ],
        input_indexes=[0, 1, 2],
        output_indexes=[5, 6, 7],
    )
    body.operands[4].number_of_consumers = 3
    return cond, body


def _while_values() -> bytes:
    return np.array([1.0], np.float32).tobytes() + bytes(4) + np.float32(0).tobytes()


def while_model() -> Model:
    """WHILE(cond = referenced[0], body = referenced[1], i, x, n) -> (i, x): while i < n,
    i = i + 1 and x = x + x; n is a state-only value (the body's output 2, which no WHILE
    output takes). i and n are TENSOR_FLOAT32 [1], x [2]."""
    cond, body = _while_subgraphs([2], 0)
    return Model(
        operands=[
            reference(0),  # 0
            reference(1),  # 1
            Operand(F32, [1], 1, lifetime=LT.MODEL_INPUT),  # 2: i
            Operand(F32, [2], 1, lifetime=LT.MODEL_INPUT),  # 3: x
            Operand(F32, [1], 1, lifetime=LT.MODEL_INPUT),  # 4: n
            Operand(F32, [1], 0, lifetime=LT.MODEL_OUTPUT),  # 5: i
            Operand(F32, [2], 0, lifetime=LT.MODEL_OUTPUT),  # 6: x
        ],
        operations=[Operation(OP.WHILE, [0, 1, 2, 3, 4], [5, 6])],
        input_indexes=[2, 3, 4],
        output_indexes=[5, 6],
        operand_values=_while_values(),
        referenced=[cond, body],
    )


def nested_model() -> Model:
    """IF(b, then = referenced[0], else = referenced[1] (RELU), i) -> r on TENSOR_FLOAT32
    [1], whose then branch is WHILE(cond = referenced[2], body = referenced[3], i, x, n)
    -> i, with x and n constants of the branch: control flow nested in a subgraph."""
    cond, body = _while_subgraphs([1], 0)
    values = _while_values() + np.array([5.0, 3.0], np.float32).tobytes()
    then = Subgraph(
        operands=[
            reference(2),  # 0
            reference(3),  # 1
            Operand(F32, [1], 1, lifetime=LT.SUBGRAPH_INPUT),  # 2: i
            _constant(F32, [1], DataLocation(0, 12, 4)),  # 3: x
            _constant(F32, [1], DataLocation(0, 16, 4)),  # 4: n
            Operand(F32, [1], 0, lifetime=LT.SUBGRAPH_OUTPUT),  # 5: i
        ],
        operations=[Operation(OP.WHILE, [0, 1, 2, 3, 4], [5])],
        input_indexes=[2],
        output_indexes=[5],
    )
    return Model(
        operands=[
            Operand(B8, [1], 1, lifetime=LT.MODEL_INPUT),  # 0: b
            reference(0),  # 1
            reference(1),  # 2
            Operand(F32, [1], 1, lifetime=LT.MODEL_INPUT),  # 3: i
            Operand(F32, [1], 0, lifetime=LT.MODEL_OUTPUT),  # 4: r
        ],
        operations=[Operation(OP.IF, [0, 1, 2, 3], [4])],
        input_indexes=[0, 3],
        output_indexes=[4],
        operand_values=values,
        referenced=[then, _unary(OP.RELU, dims=(1,)), cond, body],
    )


MODELS = {
    "if": if_model,
    "quant_if": quant_if_model,
    "while": while_model,
    "nested": nested_model,
}
"""Every model of this module by name: a fresh one each call."""
