"""How close an output must be to its expected value: the one table, and the comparison.

Two releases' rules (docs/vts-parity.md 3.4 and 9.1), chosen by the level the
driver is tested at (``rules_for``):

* ``ANDROID_10`` (HAL 1.0-1.2, VTS 1.2's): for TENSOR_FLOAT32 outputs
  ``|expected - actual| <= atol + rtol * |expected|`` with atol = rtol = 1e-5,
  loosened to 5 * 2**-10 (five float16 ULPs at 1.0) when the model is relaxed or
  has any TENSOR_FLOAT16 input or output; quantized 8- and 16-bit outputs within 1
  (2 for specs named in the overrides); TENSOR_INT32 exact.
* ``ANDROID_11`` (HAL 1.3, VTS 1.3's): float32 atol 1e-5 and rtol five float32
  ULPs (5 * 2**-23), loosened as above when the model is relaxed or holds a
  TENSOR_FLOAT16 operand anywhere (any subgraph); INT32 tensors and scalars
  within 1; TENSOR_QUANT8_ASYMM_SIGNED within 1 as the other quantized types;
  the mobilenet override 3. The strict tier's items keep INT32 exact
  (``ANDROID_11_STRICT``): an index or a count one off is wrong.

TENSOR_BOOL8 is exact (as truth values) in both. Output shapes are compared
exactly elsewhere. Every failure names the tolerance it applied.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from hal.types import QUANTIZED_TENSOR_TYPES, HalVersion, Model, OperandType

FLOAT32_TOLERANCE = 1e-5
FLOAT32_ULPS_TOLERANCE = 5 * 2**-23
FLOAT16_TOLERANCE = 5 * 2**-10
QUANT_DEFAULT = 1

_FLOAT_TYPES = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT16)
_QUANTIZED_TYPES = QUANTIZED_TENSOR_TYPES | {OperandType.TENSOR_QUANT8_ASYMM_SIGNED}
"""The types judged within the quantized allowance: HAL 1.2's, and 1.3's signed bytes
(VTS 1.3 gives TENSOR_QUANT8_ASYMM_SIGNED the allowance of TENSOR_QUANT8_ASYMM)."""
_INT32_TYPES = (OperandType.TENSOR_INT32, OperandType.INT32)


@dataclass(frozen=True)
class Rules:
    """One release's tolerance rules."""

    name: str
    float32_rtol: float
    int32: int
    """How far an INT32 value may be from the expected one."""
    quant_overrides: tuple[tuple[str, int], ...]
    """Spec-name substrings whose quantized outputs may differ by more: (substring, allowance)."""
    float16_anywhere: bool
    """Whether a TENSOR_FLOAT16 operand anywhere loosens the float tolerance (else: only an
    input or output of the main graph)."""


ANDROID_10 = Rules("Android 10", FLOAT32_TOLERANCE, 0, (("mobilenet", 2),), False)
ANDROID_11 = Rules("Android 11", FLOAT32_ULPS_TOLERANCE, 1, (("mobilenet", 3),), True)
ANDROID_11_STRICT = replace(ANDROID_11, name="Android 11, INT32 exact", int32=0)


def rules_for(level: HalVersion, strict: bool = False) -> Rules:
    """The rules of the release whose VTS tests drivers of ``level``; ``strict`` for the
    strict tier's items (INT32 exact at every level)."""
    if level < HalVersion.V1_3:
        return ANDROID_10
    return ANDROID_11_STRICT if strict else ANDROID_11


@dataclass(frozen=True)
class Tolerance:
    atol: float
    rtol: float
    quant: int
    reason: str
    """Why these values: shown in every failure."""
    int32: int = 0

    def describe(self) -> str:
        int32 = f" int32=+-{self.int32}" if self.int32 else ""
        return f"atol={self.atol:g} rtol={self.rtol:g} quant=+-{self.quant}{int32} ({self.reason})"


def _float16_in(model: Model, anywhere: bool) -> bool:
    if anywhere:
        graphs = (model, *model.referenced)
        return any(o.type == OperandType.TENSOR_FLOAT16 for g in graphs for o in g.operands)
    io = (*model.input_indexes, *model.output_indexes)
    return any(model.operands[i].type == OperandType.TENSOR_FLOAT16 for i in io)


def tolerance_for(model: Model, spec_name: str, rules: Rules = ANDROID_10) -> Tolerance:
    """The tolerance for one generated case (its model and spec name) under ``rules``."""
    quant, quant_reason = QUANT_DEFAULT, "quantized within 1"
    for key, allowance in rules.quant_overrides:
        if key in spec_name:
            quant, quant_reason = allowance, f"quantized within {allowance}: spec name has {key!r}"
    reason = f"{quant_reason}; {rules.name}"
    if model.relax_computation_float32_to_float16:
        return Tolerance(
            FLOAT16_TOLERANCE, FLOAT16_TOLERANCE, quant, f"relaxed model; {reason}", rules.int32
        )
    if _float16_in(model, rules.float16_anywhere):
        where = "a float16 operand" if rules.float16_anywhere else "float16 input or output"
        return Tolerance(
            FLOAT16_TOLERANCE, FLOAT16_TOLERANCE, quant, f"{where}; {reason}", rules.int32
        )
    return Tolerance(
        FLOAT32_TOLERANCE, rules.float32_rtol, quant, f"float32; {reason}", rules.int32
    )


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
    elif type_ in _QUANTIZED_TYPES:
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
        bad = error > (tolerance.int32 if type_ in _INT32_TYPES else 0)
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
    for index in np.argwhere(bad):  # a 0-d output (a scalar, RANK's) gives one index ()
        at = tuple(int(i) for i in index)
        # A value as its type prints it ("0.1", "-3", "nan"): the tolerance line names the
        # type, so numpy's repr ("np.float32(0.1)") would only repeat it, five times over.
        rows.append(f"{list(at)}: expected {expected[at]!s}, got {actual[at]!s}")
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
    return type_ in _QUANTIZED_TYPES and expected.size >= BIAS_MIN_ELEMENTS
