"""``python -m benchmarks [NAME...]``: run the named benchmarks (default: all) and print one line each."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from benchmarks import caching, generator, isolation, memory, mobilenet, paths, suite

BENCHMARKS: dict[str, Callable[[], str]] = {
    "generator": generator.run,
    "suite": suite.run,
    "mobilenet": mobilenet.run,
    "caching": caching.run,
    "paths": paths.run,
    "memory": memory.run,
    "isolation": isolation.run,
}
"""Name -> a function that runs the benchmark and returns its result line."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help=f"benchmarks to run: {', '.join(BENCHMARKS)}"
    )
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)} (known: {', '.join(BENCHMARKS)})")
    for name in args.names or BENCHMARKS:
        print(BENCHMARKS[name](), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
