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

The TENSOR_QUANT8_ASYMM_SIGNED forms of HAL 1.3 run on the TENSOR_QUANT8_ASYMM
kernels: a family passes ``via_unsigned=True``, and ``checked`` then claims the signed
twin of every TENSOR_QUANT8_ASYMM form the family claims, shows its ``supports`` and
``execute`` the operation's unsigned view (``hal.checks.signed``: values and zero
points moved up by 128), and moves the signed outputs back down. The result is the
unsigned kernel's minus 128 exactly, as Android 11 computes most of these forms
(docs/writing-a-driver.md, "Signed forms").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hal.catalog.build import signed_twin
from hal.checks.base import OpArgs, OpFailure, OpInvalid, elements
from hal.checks.registry import CHECKS
from hal.checks.signed import Q8AS, has_signed, signed_results, unsigned_view
from hal.forms import Signature
from hal.operations import operation_info
from hal.types import HalVersion, OperandType, OperationType

KERNEL_LEVEL = HalVersion.V1_2
"""The newest HAL level all of whose operation forms the kernels implement: a form the
catalog dates later is unsupported unless its family names it (``checked``'s ``newer``)."""


def no_newer_form(form: Signature) -> bool:
    """``checked``'s default ``newer``: no form dated after ``KERNEL_LEVEL``."""
    return False


def signed_form(form: Signature) -> bool:
    """A form with a TENSOR_QUANT8_ASYMM_SIGNED operand (HAL 1.3)."""
    return Q8AS in form.inputs or Q8AS in form.outputs


def signed_twins(
    catalog: tuple[Signature, ...], claimed: tuple[Signature, ...]
) -> tuple[Signature, ...]:
    """The signed forms of ``catalog`` that are the twins (``hal.catalog.build.signed_twin``)
    of forms ``claimed``."""
    twins = (signed_twin(f) for f in claimed if not signed_form(f))
    return tuple(dict.fromkeys(t for t in twins if t in catalog and t not in claimed))


def int32_form(form: Signature) -> bool:
    """A form whose outputs are all TENSOR_INT32 (HAL 1.3's ADD, SUB, MUL, DIV and ABS
    forms among the newer ones)."""
    return bool(form.outputs) and all(t == OperandType.TENSOR_INT32 for t in form.outputs)


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
    *,
    via_unsigned: bool = False,
    quantized_scalars: tuple[int, ...] = (),
) -> OperationImpl:
    """The implementation of ``op_type`` whose ``validate`` and ``prepare`` are the
    public checks' (``hal.checks.registry.CHECKS``): one implementation for both. It
    supports only operand types (and counts) of a catalog form of ``KERNEL_LEVEL`` or
    older, or a newer form ``newer`` accepts (the family has its kernel), and among
    those what ``supports`` accepts.

    ``via_unsigned``: the signed twin of every claimed form is claimed too (HAL 1.3's
    TENSOR_QUANT8_ASYMM_SIGNED forms, ``signed_twins``); an operation with a signed
    operand is shown to ``supports`` and ``execute`` as its unsigned view, and its
    signed outputs are moved back (``quantized_scalars``: INT32 input slots holding a
    value in input 0's quantization, moved with it)."""
    check = CHECKS[op_type]
    info = operation_info(op_type)
    catalog = () if info is None else info.signatures
    forms = tuple(s for s in catalog if s.since <= KERNEL_LEVEL or newer(s))
    if via_unsigned:
        forms += signed_twins(catalog, forms)
        supports, execute = _through_unsigned(supports, execute, quantized_scalars)

    def supported(args: OpArgs) -> bool:
        inputs = tuple(operand.type for operand in args.inputs)
        outputs = tuple(operand.type for operand in args.outputs)
        return any(form.accepts_types(inputs, outputs) for form in forms) and supports(args)

    return OperationImpl(op_type, supported, check.validate, check.prepare, execute, forms)


_VIEW_NOTE = (
    "(computed on the unsigned view: TENSOR_QUANT8_ASYMM_SIGNED zero points and values "
    "shown moved up by 128)"
)


def _through_unsigned(
    supports: Callable[[OpArgs], bool],
    execute: Callable[[OpArgs, list[tuple[int, ...]]], list[np.ndarray]],
    quantized_scalars: tuple[int, ...],
) -> tuple[Callable[[OpArgs], bool], Callable[[OpArgs, list[tuple[int, ...]]], list[np.ndarray]]]:
    """``supports`` and ``execute`` of the unsigned kernels, given a signed operation's view."""

    def supports_view(args: OpArgs) -> bool:
        return supports(unsigned_view(args) if has_signed(args) else args)

    def execute_view(args: OpArgs, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
        if not has_signed(args):
            return execute(args, shapes)
        view = unsigned_view(args, quantized_scalars)
        try:
            results = execute(view, shapes)
        except OpFailure as error:  # its message may show the view's moved zero points
            raise type(error)(f"{error} {_VIEW_NOTE}") from None
        if len(results) != len(args.outputs):
            return results  # the executor refuses the count
        return signed_results(args, results)

    return supports_view, execute_view


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
    "int32_form",
    "no_newer_form",
    "recurrent_cost",
    "signed_form",
    "signed_twins",
]
