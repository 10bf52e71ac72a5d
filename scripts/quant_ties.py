"""Find quantized goldens that the generator's converter rounded from an exact tie.

A spec writes its expected outputs as floats; a ``DataTypeConverter`` variation turns
them into quantized goldens: value / scale + zero point, then **round half to even**
(docs/spec-language.md 6). The HAL's arithmetic rounds half away from zero, and its
fixed-point requantization can land on either side of an exact .5, so a golden that
came from an exact tie is not the answer a correct driver gives: it is one unit off,
always the same way, and the strict quantization-bias check sees it. The same goes
for an activation bound (relu1, relu6) that ``ActivationConverter`` quantized from a
tie.

This script expands every spec (``conformance/specs`` by default) exactly as
``nnhal-generate`` does, watches every quantization of a model output or output bound
into a quantized type, and prints each test and output where a value before rounding
was an exact tie, unless the type's range clamps both neighbours to one value (-0.5 or
255.5 in quant8, -128.5 or 127.5 in signed quant8: both roundings saturate alike).
Not judged: inputs and constants (the driver receives their quantized values as they
are), and TENSOR_INT32 outputs (the
``int32`` variations of MAXIMUM, MINIMUM, EMBEDDING_LOOKUP, ...): their inputs went
through the same rounding, integer operations compute exactly, and the suite compares
INT32 outputs exactly, so a golden the rounding made wrong fails every run outright
instead of hiding in a tolerance.

Limits: a golden clear of a tie is the driver's answer only where the operation rounds
once to nearest. A fixed-point multiplier below 0.5 rounds twice (a result a third of a
step above a whole one can come out one higher), and a few operations truncate (MEAN;
Android 10's RESIZE_BILINEAR). This script does not model operations: the specs keep
those cases apart themselves (the convolution specs use power-of-two multipliers, the
pooling oracle checks RESIZE_BILINEAR's quant8 data, V1_1/mean documents its one
truncated golden).

    .venv/bin/python scripts/quant_ties.py [--specs DIR] [SPEC ...]

Exit status 0 when no golden came from a tie, 1 otherwise (one line per output, then a
summary). ``SPEC`` narrows the run to specs whose ``<folder>/<name>`` contains it.
Offline and not part of the suite: ``tests/spec_language/test_quant_ties.py`` runs it over the
repository's specs.
"""

from __future__ import annotations

import argparse
import contextvars
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from generator import expand, ir, variations  # noqa: E402

QUANTIZED_TYPES = frozenset(
    {
        "TENSOR_QUANT8_ASYMM",
        "TENSOR_QUANT8_ASYMM_SIGNED",
        "TENSOR_QUANT8_SYMM",
        "TENSOR_QUANT16_ASYMM",
        "TENSOR_QUANT16_SYMM",
        "TENSOR_QUANT8_SYMM_PER_CHANNEL",
    }
)
"""The types whose outputs the suite compares within a tolerance (and judges for bias)."""

_CURRENT_TEST: contextvars.ContextVar[str] = contextvars.ContextVar("test", default="?")
_CURRENT_OPERAND: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "operand", default=None
)


@dataclass(frozen=True)
class Tie:
    spec: str
    test: str
    operand: str
    type_name: str
    positions: tuple[int, ...]
    """Flat positions of the tied elements (of the output's values, or 0 for a bound)."""
    values: tuple[float, ...]
    """The values before rounding (in quantized units, zero point added)."""

    def describe(self) -> str:
        shown = ", ".join(
            f"[{p}] {v:g}" for p, v in list(zip(self.positions, self.values, strict=True))[:6]
        )
        more = f", ... ({len(self.positions)} in all)" if len(self.positions) > 6 else ""
        return f"{self.spec}: {self.test}: {self.operand} ({self.type_name}): {shown}{more}"


def tied_positions(before: Any, type_name: str) -> tuple[np.ndarray, np.ndarray]:
    """(flat positions, values) of ``before`` (scaled, zero point added, not yet rounded)
    that lie exactly halfway between two integers the type's range tells apart."""
    v = np.asarray(before, dtype=np.float64).reshape(-1)
    tie = (v - np.floor(v)) == 0.5
    low, high = ir._CLAMPS.get(type_name, (None, None))
    below, above = np.floor(v), np.floor(v) + 1
    if low is not None:
        below, above = np.maximum(below, low), np.maximum(above, low)
    if high is not None:
        below, above = np.minimum(below, high), np.minimum(above, high)
    tie &= below != above
    positions = np.nonzero(tie)[0]
    return positions, v[positions]


class _Recorder:
    def __init__(self) -> None:
        self.ties: list[Tie] = []
        self.spec = "?"
        self.judged = 0
        """Output values (and bounds) quantized into a non-float type."""

    def quantize(self, original):
        recorder = self

        def watched(v: Any, t: ir.TypeDesc) -> Any:
            target = _CURRENT_OPERAND.get()
            if target is None or t.type not in QUANTIZED_TYPES:
                return original(v, t)
            # The same steps as ir.quantize up to the rounding, on a copy.
            # (float32 arrays stay float32 as there; a Python float bound is float64.)
            before = np.array(v, dtype=np.asarray(v).dtype if np.ndim(v) else np.float64)
            if t.scale != 0:
                before /= t.scale
            if t.extra is not None:
                before = before / t.extra.broadcast(t.dims)
            before += t.zero_point
            recorder.judged += int(np.size(before))
            positions, values = tied_positions(before, t.type)
            if positions.size:
                name, what = target
                recorder.ties.append(
                    Tie(
                        recorder.spec,
                        _CURRENT_TEST.get(),
                        f"{what} '{name}'",
                        t.type,
                        tuple(int(p) for p in positions),
                        tuple(float(x) for x in values),
                    )
                )
            return original(v, t)

        return watched


@contextmanager
def _watching(recorder: _Recorder) -> Iterator[None]:
    """Patch the generator so every output quantization is judged before it rounds."""
    saved = (
        ir.quantize,
        variations.quantize,
        variations.DataTypeConverter.transform_operand,
        variations.ActivationConverter.transform_operand,
        expand._applied,
    )
    convert_operand = variations.DataTypeConverter.transform_operand
    clamp_operand = variations.ActivationConverter.transform_operand
    apply_variations = expand._applied

    def converted(self, op, arg):
        if op.kind != "output" or op.value is None:
            return convert_operand(self, op, arg)
        token = _CURRENT_OPERAND.set((op.name, "output"))
        try:
            return convert_operand(self, op, arg)
        finally:
            _CURRENT_OPERAND.reset(token)

    def clamped(self, op, arg):
        if op.kind != "output" or op.value is None:
            return clamp_operand(self, op, arg)
        token = _CURRENT_OPERAND.set((op.name, f"{self.act} bound of output"))
        try:
            return clamp_operand(self, op, arg)
        finally:
            _CURRENT_OPERAND.reset(token)

    def applied(example, variation_list, name):
        token = _CURRENT_TEST.set(name)
        ties, judged = len(recorder.ties), recorder.judged
        try:
            result = apply_variations(example, variation_list, name)
        finally:
            _CURRENT_TEST.reset(token)
        if result is None:  # a variation skipped: no test, nothing judged
            del recorder.ties[ties:]
            recorder.judged = judged
        return result

    ir.quantize = recorder.quantize(saved[0])
    variations.quantize = recorder.quantize(saved[1])
    variations.DataTypeConverter.transform_operand = converted
    variations.ActivationConverter.transform_operand = clamped
    expand._applied = applied
    try:
        yield
    finally:
        (
            ir.quantize,
            variations.quantize,
            variations.DataTypeConverter.transform_operand,
            variations.ActivationConverter.transform_operand,
            expand._applied,
        ) = saved


def spec_paths(specs_dir: Path, only: Sequence[str] = ()) -> list[Path]:
    paths = sorted(
        path
        for folder in sorted(specs_dir.iterdir())
        if folder.is_dir() and folder.name.startswith("V")
        for path in folder.glob("*.mod.py")
    )
    label = lambda p: f"{p.parent.name}/{p.name.split('.', 1)[0]}"  # noqa: E731
    return [p for p in paths if not only or any(s in label(p) for s in only)]


def find_ties(paths: Sequence[Path], root: Path = REPO_ROOT) -> tuple[list[Tie], int, int]:
    """(ties, tests expanded, output values judged) over the spec files ``paths``."""
    recorder = _Recorder()
    tests = 0
    with _watching(recorder):
        for path in paths:
            recorder.spec = f"{path.parent.name}/{path.name.split('.', 1)[0]}"
            tests += len(expand.evaluate_spec(path, root))
    return recorder.ties, tests, recorder.judged


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--specs", type=Path, default=REPO_ROOT / "conformance" / "specs")
    parser.add_argument("only", nargs="*", help="folder/spec substrings to narrow the run to")
    args = parser.parse_args(argv)
    paths = spec_paths(args.specs, args.only)
    ties, tests, judged = find_ties(paths)
    for tie in ties:
        print("TIE " + tie.describe())
    elements = sum(len(t.positions) for t in ties)
    print(
        f"quant_ties.py: {len(paths)} specs, {tests} tests, {judged} quantized output values "
        f"judged, {elements} from exact ties in {len(ties)} outputs"
    )
    return 1 if ties else 0


if __name__ == "__main__":
    sys.exit(main())
