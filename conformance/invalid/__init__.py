"""Operation-specific invalid parameter values: cases the driver must reject.

Each family module lists ``CASES``: models that pass ``hal.validation`` (their
operand types and counts are right) but whose parameter values or shapes the
operation's definition forbids: a bad axis, a block size of 0, concatenated
shapes that do not match. ``conformance/test_invalid_values.py`` runs them.
A case is an ``InvalidCase`` (``conformance.invalid.case``, a module of its own
so that the family modules need not import this package back).
"""

from __future__ import annotations

from conformance.invalid.case import InvalidCase

__all__ = ["InvalidCase", "all_cases"]


def all_cases() -> list[InvalidCase]:
    from conformance.invalid import (
        comparison,
        conversion,
        convolution,
        detection,
        elementwise,
        lookup,
        lstm,
        newops,
        pooling,
        proposals,
        qlstm,
        reduction,
        rnn,
        shape,
        unary,
    )

    modules = (
        elementwise,
        unary,
        comparison,
        conversion,
        shape,
        reduction,
        convolution,
        pooling,
        lstm,
        rnn,
        qlstm,
        lookup,
        detection,
        proposals,
        newops,
    )
    return [case for module in modules for case in module.CASES]
