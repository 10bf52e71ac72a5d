"""What every operation implementation sees and provides.

``OpArgs``, ``OpFailure`` and ``OpInvalid`` are ``hal.checks``'s (re-exported here):
an implementation's ``validate`` and ``prepare`` are the public checks of its
operation type, and ``checked`` builds an implementation around them.

``checked`` also keeps an implementation to the forms its kernels were written for:
those the operation catalog accepts at ``KERNEL_LEVEL``. A newer form of a known
operation (HAL 1.3's signed and TENSOR_INT32 forms, RESIZE_*'s extra flags, the
sequence operations' state outputs, CAST's identity forms) is answered
"unsupported" before the family's own ``supports`` is asked, so the driver never
claims, prepares or runs a form it has no kernel for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hal.checks.base import OpArgs, OpFailure, OpInvalid, elements
from hal.checks.registry import CHECKS
from hal.forms import Signature
from hal.operations import operation_info
from hal.types import HalVersion, OperationType

KERNEL_LEVEL = HalVersion.V1_2
"""The newest HAL level all of whose operation forms the kernels implement: a form the
catalog dates later is unsupported unless its family names it (``checked``'s ``newer``)."""


def no_newer_form(form: Signature) -> bool:
    """``checked``'s default ``newer``: no form dated after ``KERNEL_LEVEL``."""
    return False


class OverBudget(OpFailure):
    """The operation would need more memory or work than the execution may spend.

    A valid model the device cannot run: GENERAL_FAILURE (at prepare when constants
    already decide it, at execution otherwise).
    """


@dataclass(frozen=True)
class OperationImpl:
    type: OperationType
    supports: Callable[[OpArgs], bool]
    validate: Callable[[OpArgs], str | None]
    prepare: Callable[[OpArgs], list[tuple[int, ...]]]
    execute: Callable[[OpArgs, list[tuple[int, ...]]], list[np.ndarray]]
    forms: tuple[Signature, ...] = ()
    """The catalog forms it implements (every other form is unsupported)."""


def checked(
    op_type: OperationType,
    supports: Callable[[OpArgs], bool],
    execute: Callable[[OpArgs, list[tuple[int, ...]]], list[np.ndarray]],
    newer: Callable[[Signature], bool] = no_newer_form,
) -> OperationImpl:
    """The implementation of ``op_type`` whose ``validate`` and ``prepare`` are the
    public checks' (``hal.checks.registry.CHECKS``): one implementation for both. It
    supports only operand types (and counts) of a catalog form of ``KERNEL_LEVEL`` or
    older, or a newer form ``newer`` accepts (the family has its kernel), and among
    those what ``supports`` accepts."""
    check = CHECKS[op_type]
    info = operation_info(op_type)
    catalog = () if info is None else info.signatures
    forms = tuple(s for s in catalog if s.since <= KERNEL_LEVEL or newer(s))

    def supported(args: OpArgs) -> bool:
        inputs = tuple(operand.type for operand in args.inputs)
        outputs = tuple(operand.type for operand in args.outputs)
        return any(form.accepts_types(inputs, outputs) for form in forms) and supports(args)

    return OperationImpl(op_type, supported, check.validate, check.prepare, execute, forms)


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


__all__ = [
    "PYTHON_STEP",
    "Cost",
    "OpArgs",
    "OpFailure",
    "OpInvalid",
    "OperationImpl",
    "OverBudget",
    "Shapes",
    "checked",
    "default_cost",
    "elements",
    "no_newer_form",
    "recurrent_cost",
]
