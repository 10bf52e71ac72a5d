"""How close an output must be to its expected value: the one table, and the comparison.

The rules are Android 10 VTS 1.2's (docs/vts-parity.md 3.4), the parity
tier: for TENSOR_FLOAT32 outputs ``|expected - actual| <= atol + rtol * |expected|``
with atol = rtol = 1e-5, loosened to 5 * 2**-10 (five float16 ULPs at 1.0) when
the model is relaxed or has any TENSOR_FLOAT16 input or output; quantized
8- and 16-bit outputs within 1 (2 for specs named in ``QUANT_OVERRIDES``);
TENSOR_INT32 and TENSOR_BOOL8 exact (BOOL8 as truth values). Output shapes are
compared exactly elsewhere. Every failure names the tolerance it applied.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hal.types import QUANTIZED_TENSOR_TYPES, Model, OperandType

FLOAT32_TOLERANCE = 1e-5
FLOAT16_TOLERANCE = 5 * 2**-10
QUANT_DEFAULT = 1

QUANT_OVERRIDES: dict[str, int] = {"mobilenet": 2}
"""Spec-name substrings whose quantized outputs may differ by more: spec name -> allowance."""

_FLOAT_TYPES = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT16)


@dataclass(frozen=True)
class Tolerance:
    atol: float
    rtol: float
    quant: int
    reason: str
    """Why these values: shown in every failure."""

    def describe(self) -> str:
        return f"atol={self.atol:g} rtol={self.rtol:g} quant=+-{self.quant} ({self.reason})"


def tolerance_for(model: Model, spec_name: str) -> Tolerance:
    """The tolerance for one generated case (its model and spec name)."""
    quant, quant_reason = QUANT_DEFAULT, "quantized within 1"
    for key, allowance in QUANT_OVERRIDES.items():
        if key in spec_name:
            quant, quant_reason = allowance, f"quantized within {allowance}: spec name has {key!r}"
    io_types = {model.operands[i].type for i in (*model.input_indexes, *model.output_indexes)}
    if model.relax_computation_float32_to_float16:
        return Tolerance(
            FLOAT16_TOLERANCE, FLOAT16_TOLERANCE, quant, f"relaxed model; {quant_reason}"
        )
    if OperandType.TENSOR_FLOAT16 in io_types:
        return Tolerance(
            FLOAT16_TOLERANCE, FLOAT16_TOLERANCE, quant, f"float16 input or output; {quant_reason}"
        )
    return Tolerance(FLOAT32_TOLERANCE, FLOAT32_TOLERANCE, quant, f"float32; {quant_reason}")


@dataclass(frozen=True)
class Comparison:
    ok: bool
    mismatches: int = 0
    max_abs_error: float = 0.0
    worst_index: tuple[int, ...] = ()
    excerpt: str = ""


def compare(
    expected: np.ndarray, actual: np.ndarray, type_: int, tolerance: Tolerance
) -> Comparison:
    """Element-wise comparison of one output under ``tolerance``; shapes must already agree."""
    same = expected.dtype == actual.dtype and expected.shape == actual.shape
    if same and expected.tobytes() == actual.tobytes():
        return Comparison(True)  # identical values meet every rule below
    if type_ in _FLOAT_TYPES:
        e, a = expected.astype(np.float64), actual.astype(np.float64)
        with np.errstate(invalid="ignore"):
            error = np.abs(e - a)
            close = np.isfinite(e) & (error <= tolerance.atol + tolerance.rtol * np.abs(e))
        # An infinite expected value matches only itself; NaN matches NaN.
        bad = ~(close | (e == a) | (np.isnan(e) & np.isnan(a)))
    elif type_ in QUANTIZED_TENSOR_TYPES:
        e, a = expected.astype(np.int64), actual.astype(np.int64)
        error = np.abs(e - a)
        bad = error > tolerance.quant
    elif type_ == OperandType.TENSOR_BOOL8:
        e, a = expected != 0, actual != 0
        error = (e != a).astype(np.int64)
        bad = e != a
    else:
        e, a = expected.astype(np.int64), actual.astype(np.int64)
        error = np.abs(e - a)
        bad = e != a
    count = int(np.count_nonzero(bad))
    if count == 0:
        return Comparison(True)
    finite = np.where(np.isnan(error), np.inf, error) if error.dtype.kind == "f" else error
    finite = np.where(bad, finite, -1)  # the worst of the values that differ
    worst = np.unravel_index(int(np.argmax(finite)), expected.shape) if expected.size else ()
    return Comparison(
        False,
        count,
        float(finite[worst]) if expected.size else 0.0,
        tuple(int(i) for i in worst),
        _excerpt(expected, actual, bad),
    )


def _excerpt(expected: np.ndarray, actual: np.ndarray, bad: np.ndarray, limit: int = 5) -> str:
    rows = []
    for index in zip(*np.nonzero(bad), strict=True):
        at = tuple(int(i) for i in index)
        rows.append(f"{list(at)}: expected {expected[at]!r}, got {actual[at]!r}")
        if len(rows) == limit:
            break
    return "; ".join(rows)


# ---------------------------------------------------------------------------
# Quantization bias (strict): the error's sign and size over a whole output
# ---------------------------------------------------------------------------

BIAS_LIMIT = 0.25
"""Largest |mean signed error| (actual - expected, in quantized units) of one output."""
MEAN_SQUARE_LIMIT = 0.5
"""Largest mean squared error (in quantized units squared) of one output."""
BIAS_MIN_ELEMENTS = 16
"""Fewest elements an output needs for its mean error to mean something."""


@dataclass(frozen=True)
class Bias:
    count: int
    mean: float
    """Mean of actual - expected."""
    mean_square: float

    @property
    def ok(self) -> bool:
        return abs(self.mean) <= BIAS_LIMIT and self.mean_square <= MEAN_SQUARE_LIMIT

    def describe(self) -> str:
        return (
            f"mean signed error {self.mean:+.3f} (limit +-{BIAS_LIMIT:g}), mean squared error "
            f"{self.mean_square:.3f} (limit {MEAN_SQUARE_LIMIT:g}) over {self.count} elements"
        )


def quant_bias(expected: np.ndarray, actual: np.ndarray) -> Bias:
    """The signed error's mean and the mean squared error of one quantized output."""
    error = actual.astype(np.int64) - expected.astype(np.int64)
    if error.size == 0:
        return Bias(0, 0.0, 0.0)
    return Bias(int(error.size), float(error.mean()), float((error * error).mean()))


def bias_applies(expected: np.ndarray, type_: int) -> bool:
    """Whether the strict bias criterion judges this output: every quantized output of
    ``BIAS_MIN_ELEMENTS`` or more. No spec is exempt: no golden the generator quantized
    is rounded from a tie (x.5 steps), where its rounding (half to even) and the HAL's
    (half away from zero) differ (``scripts/quant_ties.py`` checks every spec)."""
    return type_ in QUANTIZED_TENSOR_TYPES and expected.size >= BIAS_MIN_ELEMENTS
