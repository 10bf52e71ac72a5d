"""Operation-specific invalid parameter values: cases the driver must reject.

Each family module lists ``CASES``: models that pass ``hal.validation`` (their
operand types and counts are right) but whose parameter values or shapes the
operation's definition forbids: a bad axis, a block size of 0, concatenated
shapes that do not match. ``conformance/test_invalid_values.py`` runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hal.types import Model


@dataclass(frozen=True)
class InvalidCase:
    """One invalid use of an operation.

    ``inputs`` is None when the bad value is in the model (a constant), and
    the driver must refuse at prepare: INVALID_ARGUMENT at launch and in the
    callback. Otherwise the model prepares, and executing it with ``inputs``
    (where the bad value or shape first appears) must give INVALID_ARGUMENT.
    """

    name: str
    """``OPERATION/what_is_wrong``: the test id."""
    model: Callable[[], Model]
    inputs: Callable[[], list[np.ndarray]] | None = None


def all_cases() -> list[InvalidCase]:
    from conformance.invalid import (
        comparison,
        conversion,
        convolution,
        detection,
        elementwise,
        lookup,
        lstm,
        pooling,
        proposals,
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
        lookup,
        detection,
        proposals,
    )
    return [case for module in modules for case in module.CASES]
