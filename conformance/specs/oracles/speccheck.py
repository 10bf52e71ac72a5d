"""The check mode every oracle script of this folder shares (``<oracle>.py --check``).

An oracle prints the golden values it computes; the specs carry copies of them.
``check`` reruns the oracle's printing function, reads every number it printed
(in order, as one stream), then loads every spec that names the oracle in its
text (``oracles/<script name>``) and requires each output list of each example
case (``IgnoredOutput`` data left out), as the spec writes it (before variations), to appear as a contiguous run
of that stream, equal within 1e-6 + 2e-6 * |value| (the oracles print 7
significant digits; NaN matches NaN, infinities match exactly). Outputs the
spec derives by hand (clamped copies, a few extremes) are listed by the oracle
in ``HAND_DERIVED`` with the reason, and skipped. Anything else that does not
match fails the check, naming the spec, the example, the case and the output.

The check also fails when no spec names the oracle, when a spec does not load,
and when a ``HAND_DERIVED`` entry names an output no spec has (a stale entry).

Limits: a match is by value only, so an output of a few 0/1 values can match
an unrelated run of the stream; inputs are not compared.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from hal.levels import spec_folders

REPO_ROOT = Path(__file__).resolve().parents[3]
SPECS_DIR = REPO_ROOT / "conformance" / "specs"
HAL_FOLDERS = spec_folders()

_NUMBER = re.compile(
    r"-?math\.inf|math\.nan|-?\binf\b|\bnan\b|[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"
)

HandDerived = Mapping[tuple[str, str], str]
"""(spec label such as ``V1_2/select.mod.py``, output operand name) -> why it is skipped."""


def printed_numbers(text: str) -> list[float]:
    """Every number of an oracle's printout, in order (``math.inf``/``nan`` included)."""
    return [float(match.group().replace("math.", "")) for match in _NUMBER.finditer(text)]


def _close(actual: float, golden: float) -> bool:
    if math.isnan(actual) or math.isnan(golden):
        return math.isnan(actual) and math.isnan(golden)
    if math.isinf(actual) or math.isinf(golden):
        return actual == golden
    return abs(actual - golden) <= 1e-6 + 2e-6 * abs(golden)


def contains_run(stream: Sequence[float], values: Sequence[float]) -> bool:
    """Whether ``values`` appears as a contiguous run of ``stream`` (within tolerance)."""
    count = len(values)
    if count == 0:
        return True
    for start in range(len(stream) - count + 1):
        if all(_close(stream[start + k], values[k]) for k in range(count)):
            return True
    return False


def _numbers(values: Sequence[object]) -> list[float]:
    return [float(v) for v in values]  # type: ignore[arg-type]


def citing_specs(oracle_name: str, specs_dir: Path) -> list[Path]:
    """The spec files whose text names ``oracles/<oracle_name>``."""
    needle = f"oracles/{oracle_name}"
    return [
        path
        for folder in HAL_FOLDERS
        for path in sorted((specs_dir / folder).glob("*.mod.py"))
        if needle in path.read_text(encoding="utf-8")
    ]


def check(
    oracle_file: str,
    print_goldens: Callable[[], None],
    hand_derived: HandDerived,
    specs_dir: Path = SPECS_DIR,
    out: io.TextIOBase | None = None,
) -> int:
    """Compare the specs citing ``oracle_file`` with what ``print_goldens`` prints; 0 if all agree."""
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    from generator.expand import SpecError, spec_examples

    report = out if out is not None else sys.stdout
    name = Path(oracle_file).name
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        print_goldens()
    stream = printed_numbers(buffer.getvalue())
    specs = citing_specs(name, specs_dir)
    problems: list[str] = []
    if not specs:
        problems.append(f"no spec under {specs_dir} names oracles/{name}")
    checked = skipped = 0
    seen: set[tuple[str, str]] = set()
    for path in specs:
        label = f"{path.parent.name}/{path.name}"
        try:
            examples = spec_examples(path, specs_dir.parent.parent)
        except SpecError as error:
            problems.append(f"{label}: does not load: {error}")
            continue
        for example_index, cases in enumerate(examples):
            for case_index, case in enumerate(cases):
                for operand, values in case.outputs.items():
                    key = (label, operand)
                    seen.add(key)
                    if key in hand_derived:
                        skipped += 1
                        continue
                    checked += 1
                    numbers = _numbers(values)
                    if not contains_run(stream, numbers):
                        shown = ", ".join(f"{v:g}" for v in numbers[:8])
                        more = ", ..." if len(numbers) > 8 else ""
                        problems.append(
                            f"{label}: example {example_index} case {case_index} output "
                            f"'{operand}' [{shown}{more}] is not what {name} computes"
                        )
    for key in sorted(set(hand_derived) - seen):
        problems.append(f"HAND_DERIVED names {key[0]} output '{key[1]}', which no spec has")
    for problem in problems:
        print(f"MISMATCH {problem}", file=report)
    print(
        f"{name}: {len(specs)} specs, {checked} outputs checked, {skipped} hand-derived, "
        f"{len(problems)} problems",
        file=report,
    )
    return 1 if problems else 0


def main_with_check(
    oracle_file: str,
    print_goldens: Callable[[], None],
    hand_derived: HandDerived,
    argv: Sequence[str] | None = None,
) -> bool:
    """Run the check when ``--check`` is on the command line (and exit); else return False.

    ``--specs DIR`` points the check at another spec folder (with V1_0, V1_1, V1_2).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if "--check" not in args:
        return False
    parser = argparse.ArgumentParser(prog=Path(oracle_file).name)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--specs", type=Path, default=SPECS_DIR)
    options = parser.parse_args(args)
    raise SystemExit(check(oracle_file, print_goldens, hand_derived, options.specs.resolve()))
