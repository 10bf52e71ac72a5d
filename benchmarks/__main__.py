"""``python -m benchmarks [NAME...] [--all] [--json OUT]``: run benchmarks, print a table of figures.

Without names, every benchmark runs (certify included: a whole certification,
minutes long) except the opt-in ones (performance: it refreshes the reference
driver's PerformanceInfo constants), which run only when named or with --all. Each
benchmark prints its line(s) as it finishes; at the end a table lists every
figure with its ratio to the baseline and, where one applies, its target and
whether it was met. A benchmark that raises prints ``NAME: failed: ...`` and
the others still run; the exit status is then 1. NNHAL_BENCH_QUICK=1 makes
every benchmark a short smoke run (see benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from benchmarks import (
    caching,
    certify,
    codec,
    fenced,
    fuzz,
    generator,
    isolation,
    memory,
    memory_growth,
    networks,
    paths,
    performance,
    rerun,
    suite,
    validation,
)
from benchmarks.result import QUICK_ENV, Figure, Result, quick

BENCHMARKS: dict[str, Callable[[], Result]] = {
    "generator": generator.run,
    "suite": suite.run,
    "networks": networks.run,
    "memory-growth": memory_growth.run,
    "caching": caching.run,
    "paths": paths.run,
    "fenced": fenced.run,
    "memory": memory.run,
    "codec": codec.run,
    "isolation": isolation.run,
    "certify": certify.run,
    "fuzz": fuzz.run,
    "rerun": rerun.run,
    "validation": validation.run,
    "performance": performance.run,
}
"""Name -> a function that runs the benchmark and returns its ``Result``."""

ALIASES = {"mobilenet": "networks"}
"""Other names a benchmark answers to (``mobilenet`` was the networks benchmark's name)."""

OPT_IN = {"performance"}
"""Benchmarks run only when named or with ``--all``."""

COLUMNS = ("benchmark", "figure", "value", "unit", "ratio", "target", "met")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    default = ", ".join(n for n in BENCHMARKS if n not in OPT_IN)
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"benchmarks to run (default: {default}); "
        f"{', '.join(sorted(OPT_IN))} runs only when named or with --all; "
        + "; ".join(f"{alias} is another name of {name}" for alias, name in ALIASES.items()),
    )
    parser.add_argument(
        "--all", action="store_true", help="run every benchmark, the opt-in ones included"
    )
    parser.add_argument(
        "--json", metavar="OUT", type=Path, help="also write every line and figure to OUT"
    )
    parser.add_argument(
        "--fuzz-cases",
        metavar="N",
        type=_positive,
        help=f"cases the fuzz benchmark runs (default {fuzz.DEFAULT_CASES}; sets {fuzz.CASES_ENV})",
    )
    parser.add_argument(
        "--fuzz-seed",
        metavar="S",
        type=int,
        help=f"the fuzz benchmark's seed (default 0; sets {fuzz.SEED_ENV})",
    )
    return parser


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number of cases")
    return value


def _selected(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    known = [*BENCHMARKS, *ALIASES]
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)} (known: {', '.join(known)})")
    if args.all and args.names:
        parser.error("give benchmark names or --all, not both")
    if args.all:
        return list(BENCHMARKS)
    if not args.names:
        return [n for n in BENCHMARKS if n not in OPT_IN]
    chosen: list[str] = []
    for name in args.names:
        name = ALIASES.get(name, name)
        if name not in chosen:
            chosen.append(name)
    return chosen


# ---------------------------------------------------------------------------
# The table and the JSON document
# ---------------------------------------------------------------------------


def _number(value: float | int | str | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool | str | int):
        return str(value)
    return f"{value:.4g}"


def _row(benchmark: str, figure: Figure) -> tuple[str, ...]:
    met = "-" if figure.met is None else ("yes" if figure.met else "NO")
    return (
        benchmark,
        figure.name,
        _number(figure.value),
        figure.unit,
        "-" if figure.ratio is None else f"{figure.ratio:.2f}",
        figure.target or "-",
        met,
    )


def table(results: Sequence[Result]) -> str:
    """Every figure of ``results`` as aligned plain-text columns (COLUMNS), one row each."""
    rows = [COLUMNS] + [_row(r.name, f) for r in results for f in r.figures]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    numeric = {2, 4}  # value and ratio: right-aligned

    def cells(row: tuple[str, ...]) -> str:
        return "  ".join(
            cell.rjust(w) if i in numeric else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([cells(rows[0]), rule, *(cells(row) for row in rows[1:])])


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def machine() -> dict[str, object]:
    """What the figures were measured on (torch's version without importing it)."""
    return {
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "torch": _version("torch"),
    }


def document(results: Sequence[Result], errors: dict[str, str]) -> dict[str, object]:
    """The ``--json`` document: date, machine, and each benchmark's line and figures."""
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "quick": quick(),
        "benchmarks": [
            {
                "name": r.name,
                "line": r.line,
                "figures": [asdict(f) for f in r.figures],
                "error": errors.get(r.name),
            }
            for r in results
        ],
    }


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    names = _selected(parser, args)
    if args.fuzz_cases is not None:
        os.environ[fuzz.CASES_ENV] = str(args.fuzz_cases)
    if args.fuzz_seed is not None:
        os.environ[fuzz.SEED_ENV] = str(args.fuzz_seed)
    results: list[Result] = []
    errors: dict[str, str] = {}
    if quick():
        print(f"{QUICK_ENV} is set: a smoke run; its figures are not measurements", flush=True)
    for name in names:
        try:
            result = BENCHMARKS[name]()
        except Exception as error:  # one broken benchmark must not hide the others' figures
            traceback.print_exc(file=sys.stderr)
            message = f"{type(error).__name__}: {error}"
            errors[name] = message
            result = Result(name, f"{name}: failed: {message}")
        print(result.line, flush=True)
        results.append(result)
    print()
    print(table(results))
    if args.json is not None:
        args.json.write_text(json.dumps(document(results, errors), indent=2) + "\n")
        print(f"\nwritten to {args.json}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
