"""``nnhal-report``: merge the shard reports of one run, or re-render a report.

    nnhal-report merge out-1/report.json out-2/report.json ... -o final/
    nnhal-report render final/report.json -o html/

Both write report.json, report.html and report.md into the output folder and
print the verdict. A refusal (shards of different drivers, profiles or schema
versions, overlapping or missing shards, a file that is not a report) is one
line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from plugins.report.document import ReportError, finalize, load, merge, write

REFUSED = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nnhal-report", description="Merge or re-render nnhal certification reports."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    merging = commands.add_parser("merge", help="merge the shard reports of one run into one")
    merging.add_argument("reports", nargs="+", type=Path, metavar="REPORT.json")
    merging.add_argument("-o", "--out", required=True, type=Path, metavar="DIR")
    rendering = commands.add_parser("render", help="write report.html and report.md again")
    rendering.add_argument("report", type=Path, metavar="REPORT.json")
    rendering.add_argument("-o", "--out", required=True, type=Path, metavar="DIR")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "merge":
            doc = merge([(str(path), load(path)) for path in args.reports])
        else:
            doc = finalize(load(args.report))
        write(doc, args.out)
    except ReportError as e:
        print(f"nnhal-report {args.command}: {e}", file=sys.stderr)
        return REFUSED
    print(f"{doc['verdict']['headline']}: {doc['summary']['total']} tests; written to {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
