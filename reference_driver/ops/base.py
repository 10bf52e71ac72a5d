"""What every operation implementation sees and provides."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hal.types import Operand, OperationType


class OpFailure(Exception):
    """The operation cannot run on these values (the execution fails: GENERAL_FAILURE)."""


class OpInvalid(OpFailure):
    """A parameter value or shape the operation's definition forbids: INVALID_ARGUMENT.

    Raised by ``validate`` reasons at prepare time (through the executor) and by
    ``prepare`` or ``execute`` when the bad value only appears at execution
    (an axis given as a model input, input dimensions given by the request).
    """


@dataclass
class OpArgs:
    """One operation's operands, and their values where known.

    ``values[i]`` is the numpy array of input ``i`` (a 0-d array for a
    scalar), or None when the value is not known yet (at prepare time, a
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


@dataclass(frozen=True)
class OperationImpl:
    type: OperationType
    supports: Callable[[OpArgs], bool]
    validate: Callable[[OpArgs], str | None]
    prepare: Callable[[OpArgs], list[tuple[int, ...]]]
    execute: Callable[[OpArgs, list[tuple[int, ...]]], list[np.ndarray]]
