"""What every operation check sees and gives: its operands (``OpArgs``), the two ways a
check refuses (``OpInvalid``, ``OpFailure``) and the record a family registers
(``OperationCheck``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hal.types import Operand, OperationType


class OpFailure(Exception):
    """The operation cannot run on these values: a valid model the device cannot run
    (GENERAL_FAILURE). The checks raise it where the Android 10 CPU reference fails an
    execution the HAL does not forbid; ``hal.checks`` never reports it as a violation."""


class OpInvalid(OpFailure):
    """A parameter value or shape the operation's definition forbids: INVALID_ARGUMENT.

    Given by ``validate`` at preparation (the constants), and raised by ``prepare``
    when the bad value only appears at execution (an axis given as a model input,
    input dimensions given by the request).
    """


@dataclass
class OpArgs:
    """One operation's operands, and their values where known.

    ``values[i]`` is the numpy array of input ``i`` (a 0-d array for a
    scalar), or None when the value is not known yet (at preparation, a
    non-constant input) or the input was omitted.
    """

    inputs: list[Operand]
    outputs: list[Operand]
    values: list[np.ndarray | None]

    def scalar(self, index: int) -> int | float | bool:
        value = self.values[index]
        if value is None:
            raise OpFailure(f"input {index} has no value")
        return value.item()


Shapes = list[tuple[int, ...]]


@dataclass(frozen=True)
class OperationCheck:
    """The checks of one operation type.

    ``validate(args)``: why the values known at preparation (constants; ``values`` is
    None for every other input) and the declared dimensions break the operation's
    definition, or None. ``prepare(args)``: the output shapes for actual input values
    (every input given, but omitted ones); raises ``OpInvalid`` for a value or shape
    the definition forbids, ``OpFailure`` for one the HAL allows but the Android 10
    CPU reference fails on.
    """

    type: OperationType
    validate: Callable[[OpArgs], str | None]
    prepare: Callable[[OpArgs], Shapes]
    value_inputs: frozenset[int] = frozenset()
    """Input slots whose *values* ``prepare`` reads, besides scalars and TENSOR_INT32
    tensors (whose values every check may read): the boxes and scores of the detection
    operations, the logits of RANDOM_MULTINOMIAL. Every other input's value is free:
    its shape alone decides ``prepare``'s answer."""


def elements(shape: tuple[int, ...] | list[int]) -> int:
    return math.prod(int(d) for d in shape)
