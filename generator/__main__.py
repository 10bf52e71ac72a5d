"""``nnhal-generate`` (or ``python -m generator``): spec files -> generated test modules.

    nnhal-generate [SPEC...] [--out DIR] [--specs DIR] [--root DIR]
                   [--check | --list | --coverage]

Without a mode it regenerates every spec under ``--specs`` (default
``conformance/specs``, folders V1_0, V1_1, V1_2, files ``*.mod.py``), or only
the SPEC files named, into ``--out`` (default ``conformance/generated``),
rewriting only the files whose text changed. A full run also removes the
modules of specs that no longer exist. ``--check`` writes nothing and exits 1
when a module is stale, missing or orphaned (CI runs it); ``--list`` prints
the tests each spec produces; ``--coverage`` says which operation signatures
of ``hal.operations`` the generated tests exercise.

A spec that fails is reported in one line (``<spec>:<line>: <problem>``); the
other specs are still processed, and the exit status is 1.

This module is the command line only; the work is done by ``generator.build``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from generator import build


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nnhal-generate",
        description="Generate the conformance test modules from the spec files.",
    )
    parser.add_argument("specs_named", nargs="*", metavar="SPEC", help="spec files (default: all)")
    parser.add_argument("--out", type=Path, help="output folder (default: conformance/generated)")
    parser.add_argument("--specs", type=Path, help="spec folder (default: conformance/specs)")
    parser.add_argument("--root", type=Path, help="repository root (default: found)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if anything is out of date"
    )
    mode.add_argument("--list", action="store_true", help="print the test names of each spec")
    mode.add_argument(
        "--coverage", action="store_true", help="print which operation signatures are exercised"
    )
    mode.add_argument(
        "--parameters",
        action="store_true",
        help="print, for each operation of the parameter-space tests, which classes of its "
        "parameter space (padding, strides, dilations, axes, broadcasting, quantization, "
        "unknown input dimensions) the specs reach and the drawn cases reach",
    )
    parser.add_argument(
        "--draws",
        type=int,
        default=build.PARAMETER_DRAWS,
        metavar="N",
        help=f"with --parameters: cases drawn per operation (default {build.PARAMETER_DRAWS})",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader went away (``nnhal-generate --list | head``): not an error of ours
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stays open until exit
        return 0


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    try:
        root = args.root.resolve() if args.root else build.find_root()
        if root is None:
            # An installed suite: read its specs, never rewrite its generated modules.
            root = build.installed_root()
            if args.out is None and not (args.list or args.coverage or args.check or args.parameters):
                raise build.UsageError(
                    "no checkout here (no pyproject.toml in this folder or above) to regenerate "
                    "in place: name a folder for the generated modules with --out DIR"
                )
        specs_dir = (args.specs or root / "conformance" / "specs").resolve()
        out_dir = (args.out or root / "conformance" / "generated").resolve()
        full = not args.specs_named
        specs = (
            build.discover_specs(specs_dir, root)
            if full
            else [build.spec_file(Path(p), root) for p in args.specs_named]
        )
        build.check_distinct_modules(specs)
    except build.UsageError as error:
        print(f"nnhal-generate: {error}", file=sys.stderr)
        return 2
    try:
        interpreter = build.spec_interpreter()
    except ImportError as error:
        print(f"nnhal-generate: the spec interpreter is unavailable: {error}", file=sys.stderr)
        return 1
    if args.list:
        return build.list_tests(specs, root, interpreter)
    if args.coverage:
        return build.coverage(specs, root, interpreter)
    if args.parameters:
        if args.draws < 1:
            print(f"nnhal-generate: --draws={args.draws}: must be at least 1", file=sys.stderr)
            return 2
        return build.parameters(specs, root, interpreter, args.draws)
    if args.check:
        return build.check(specs, full, root, out_dir, interpreter)
    return build.generate(specs, full, root, out_dir, interpreter)


if __name__ == "__main__":
    sys.exit(main())
