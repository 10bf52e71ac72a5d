"""What every operation implementation sees and provides."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hal.types import Operand, OperationType


class OpFailure(Exception):
    """The operation cannot run on these values (the execution fails: GENERAL_FAILURE)."""


class OverBudget(OpFailure):
    """The operation would need more memory or work than the execution may spend.

    A valid model the device cannot run: GENERAL_FAILURE (at prepare when constants
    already decide it, at execution otherwise).
    """


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


@dataclass(frozen=True)
class Cost:
    """What one operation will spend, estimated from shapes and values before it runs.

    ``work``: elementary steps (multiply-adds, compared or copied elements, each
    iteration of a Python loop counted as many); ``scratch``: bytes of temporaries
    it allocates besides its outputs (padded copies, im2col matrices, float64
    working copies). Both are upper estimates: an operation whose estimate fits the
    execution's budgets stays within a small factor of them.
    """

    work: int
    scratch: int


PYTHON_STEP = 10_000
"""Work units one iteration of a Python-level loop counts for (tens of microseconds of
interpreter and numpy call overhead, as many elementary steps as numpy does meanwhile)."""


def elements(shape: tuple[int, ...] | list[int]) -> int:
    return math.prod(int(d) for d in shape)


Shapes = list[tuple[int, ...]]


def default_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    """Every input and output touched a few times, with a float64 working copy of each.

    ``shapes`` is None when asked before ``prepare`` (inputs alone), else the output
    shapes ``prepare`` computed; every family's cost takes both forms.

    Right for operations whose work and temporaries are proportional to their
    operands (elementwise, reductions, reshapes, gathers, copies like TILE and PAD
    whose large part is the output itself); families whose operand *values* drive
    loops or temporaries (windows, sample counts, box counts) register their own.
    """
    total = sum(v.size for v in args.values if v is not None)
    total += sum(elements(s) for s in shapes or ())
    return Cost(work=total, scratch=8 * total)


def recurrent_cost(args: OpArgs, shapes: Shapes | None) -> Cost:
    """Recurrent operations (LSTM, RNN, SVDF families): every input row (a time step of a
    batch entry) meets every weight matrix, one Python-level step at a time at most."""
    base = default_cost(args, shapes)
    x = args.values[0]
    if x is None or x.ndim == 0 or x.shape[-1] == 0:
        return base
    weights = sum(v.size for v in args.values[1:] if v is not None and v.ndim == 2)
    rows = x.size // x.shape[-1]
    return Cost(work=base.work + rows * (weights + PYTHON_STEP), scratch=base.scratch)
