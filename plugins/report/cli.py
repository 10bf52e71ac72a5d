"""``nnhal-report``: merge the shard reports of one run, re-render a report, or compare two.

    nnhal-report merge out-1/report.json out-2/report.json ... -o final/
    nnhal-report render final/report.json -o html/
    nnhal-report diff before/report.json after/report.json [-o DIR]

``merge`` and ``render`` write report.json, report.html and report.md into the
output folder and print the verdict. ``diff`` compares every item of two
reports (``plugins.report.compare``: fixed, still failing, newly failing, gone,
new; and how many were not rerun when the second report ran only a selection, a
rerun of some items for one), prints the counts and the items of each group, writes comparison.json and
comparison.md with ``-o``, and exits 1 when an item is newly failing, 0
otherwise: a gate for CI. A refusal (shards of different drivers, profiles or
schema versions, overlapping or missing shards, a file that is not a report)
is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from hal.show import printable
from plugins.report import compare, seal
from plugins.report.document import ReportError, finalize, load, merge, refresh_verdict, write

REFUSED = 2
NEWLY_FAILING = 1
"""``diff``'s exit status when an item is bad in the report after and was not before."""
NOT_CERTIFIED = 1
"""``merge --require-certified``'s exit status when the merged verdict is not CERTIFIED."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nnhal-report", description="Merge or re-render nnhal certification reports."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    merging = commands.add_parser("merge", help="merge the shard reports of one run into one")
    merging.add_argument("reports", nargs="+", type=Path, metavar="REPORT.json")
    merging.add_argument("-o", "--out", required=True, type=Path, metavar="DIR")
    merging.add_argument(
        "--key-file",
        type=Path,
        metavar="FILE",
        help="the run's report key (else $NNHAL_REPORT_KEY): every shard's report.seal is "
        "checked against it and a shard that fails is refused; without a key the merged "
        "report says it is not tamper-proof",
    )
    merging.add_argument(
        "--require-certified",
        action="store_true",
        help=f"exit {NOT_CERTIFIED} when the merged run is not CERTIFIED (the last job of a "
        "sharded CI run)",
    )
    rendering = commands.add_parser("render", help="write report.html and report.md again")
    rendering.add_argument("report", type=Path, metavar="REPORT.json")
    rendering.add_argument("-o", "--out", required=True, type=Path, metavar="DIR")
    diffing = commands.add_parser(
        "diff",
        help="compare two reports item by item; exit 1 when an item is newly failing (a CI gate)",
        description="Compare report BEFORE with report AFTER over all their items: fixed, still "
        "failing, newly failing (bad in AFTER, good or absent in BEFORE), gone (absent from "
        "AFTER; when AFTER ran a selection, such as a rerun of some items, those it did not "
        "select are counted as not rerun) and new (absent from BEFORE). Exit status: 0 when nothing is newly failing, "
        "1 when something is, 2 when a report cannot be read.",
    )
    diffing.add_argument("before", type=Path, metavar="BEFORE", help="a report.json or its folder")
    diffing.add_argument("after", type=Path, metavar="AFTER", help="a report.json or its folder")
    diffing.add_argument(
        "-o",
        "--out",
        type=Path,
        metavar="DIR",
        help="also write comparison.json and comparison.md there",
    )
    return parser


def diff(before: Path, after: Path, out: Path | None) -> int:
    """``nnhal-report diff``: compare, print, write; 1 when an item is newly failing."""
    paths = (compare.report_path(before), compare.report_path(after))
    docs = [load(path) for path in paths]
    comparison = compare.compare(*docs, before_path=paths[0], after_path=paths[1])
    print(f"{paths[0]} -> {paths[1]}: {compare.summary(comparison)}")
    for line in compare.terminal_lines(comparison):
        print(printable(line))
    if out is not None:
        compare.write(comparison, out)
        print(f"written to {out}/ (comparison.json, comparison.md)")
    return NEWLY_FAILING if comparison["counts"]["newly_failing"] else 0


def merge_checked(reports: list[Path], key_file: Path | None) -> dict:
    """The merged document of ``reports``, each shard's seal checked when a key is known
    (ReportError naming the shard that fails); unchecked, it is not tamper-proof."""
    if key_file is not None:
        try:
            key = key_file.read_text(encoding="utf-8").strip().encode()
        except OSError as e:
            raise ReportError(f"--key-file={key_file}: cannot read: {e.strerror}") from None
    else:
        key = os.environ.get(seal.KEY_VARIABLE, "").encode() or None
    if key is not None:
        for path in reports:
            problem = seal.check(path, key)
            if problem is not None:
                raise ReportError(f"refused: {problem}")
    doc = merge([(str(path), load(path)) for path in reports])
    isolation = doc["run"].get("isolation")
    if key is None and isolation is not None and isolation["tamper_proof"]:
        doc["run"]["isolation"] = dict(
            isolation,
            tamper_proof=False,
            why_not_tamper_proof="the shard reports' seals were not checked (give the run's "
            "key: --key-file or NNHAL_REPORT_KEY)",
        )
        doc = refresh_verdict(doc)  # the isolation is read by the verdict alone
    return doc


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "diff":
        try:
            return diff(args.before, args.after, args.out)
        except ReportError as e:
            print(f"nnhal-report diff: {e}", file=sys.stderr)
            return REFUSED
    try:
        if args.command == "merge":
            doc = merge_checked(args.reports, args.key_file)
        else:
            doc = finalize(load(args.report))
        write(doc, args.out)
    except ReportError as e:
        print(f"nnhal-report {args.command}: {e}", file=sys.stderr)
        return REFUSED
    headline = doc["verdict"]["headline"]
    print(f"{printable(headline)}: {doc['summary']['total']} tests; written to {args.out}/")
    if args.command == "merge" and args.require_certified and not headline.startswith("CERTIFIED"):
        for reason in doc["verdict"]["reasons"][:10]:
            print(f"  {printable(reason)}")
        return NOT_CERTIFIED
    return 0


if __name__ == "__main__":
    sys.exit(main())
