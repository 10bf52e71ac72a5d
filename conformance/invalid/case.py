"""One invalid use of an operation, as the family modules of ``conformance.invalid`` list it."""

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
