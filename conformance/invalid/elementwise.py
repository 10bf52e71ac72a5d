"""Invalid parameter values of the element-wise arithmetic operations."""

from __future__ import annotations

import numpy as np

from conformance.harness.models import binary_model
from conformance.invalid import InvalidCase
from hal.types import OperationType

CASES: list[InvalidCase] = [
    InvalidCase("ADD/activation_7", lambda: binary_model(activation=7)),
    InvalidCase("MUL/activation_minus_1", lambda: binary_model(OperationType.MUL, activation=-1)),
    InvalidCase(
        "ADD/shapes_do_not_broadcast",
        lambda: binary_model(dims=(0,), other_dims=(0,), output_dims=(0,)),
        lambda: [np.ones(2, np.float32), np.ones(3, np.float32)],
    ),
]
