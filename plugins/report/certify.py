"""``nnhal-certify``: run the installed suite against a driver and print the verdict.

    nnhal-certify --driver X [--jobs N] [--hal-version V] [--profile full|thorough|ci]
                  [--driver-isolation none|process] [--out DIR] [pytest args]

Runs ``pytest --pyargs conformance`` in parallel (pytest-xdist) with
``--cert-report``, showing pytest's progress as it goes (one line a failure:
``--tb=line``, which a ``--tb`` of the caller's overrides), then prints the
verdict from the report. Exit status: 0 only for CERTIFIED, 1 when the run
finished NOT CERTIFIED, pytest's own status when it wrote no report (4 for a
bad driver or option). There is no default driver: a certificate names what
it certifies.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from plugins.report.document import ReportError, load

NOT_CERTIFIED = 1
DEFAULT_OUT = "nnhal-certification"
DEFAULT_TIME_LIMIT = 6 * 3600


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nnhal-certify",
        allow_abbrev=False,
        description="Certify a driver: the whole conformance suite, a report and a verdict. "
        "Arguments it does not know go to pytest.",
    )
    parser.add_argument(
        "--driver",
        metavar="SPEC",
        help="the driver to certify: module:Factory or a registered name (required)",
    )
    parser.add_argument(
        "--jobs",
        default="auto",
        metavar="N",
        help="pytest-xdist worker processes, or 'auto' (default); 0 runs in this process",
    )
    parser.add_argument("--hal-version", metavar="V", help="highest HAL level to test")
    parser.add_argument("--profile", choices=("full", "thorough", "ci"), default="full")
    parser.add_argument(
        "--driver-isolation",
        choices=("none", "process"),
        default="none",
        help="none (default): the driver in the test processes, each call under a timeout; "
        "process: the driver in a service process of its own, restarted after a crash",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(DEFAULT_OUT),
        metavar="DIR",
        help=f"where the report goes (default: ./{DEFAULT_OUT})",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help="stop the run after this long (default: 6 hours)",
    )
    return parser


def pytest_command(args: argparse.Namespace, extra: list[str]) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "pytest",
        "--pyargs",
        "conformance",
        f"--driver={args.driver}",
        f"--nnhal-profile={args.profile}",
        f"--cert-report={args.out}",
        "-p",
        "no:cacheprovider",
        # One line a failure: the report holds every message and rerun command.
        "--tb=line",
    ]
    if args.jobs != "0":
        command += ["-n", args.jobs]
    if args.hal_version:
        command.append(f"--hal-version={args.hal_version}")
    if args.driver_isolation != "none":
        command.append(f"--driver-isolation={args.driver_isolation}")
    return command + [a for a in extra if a != "--"]


def run_pytest(command: list[str], time_limit: float) -> int:
    """Run pytest with its output going straight to ours (its progress), within a time limit."""
    process = subprocess.Popen(command)
    try:
        return process.wait(timeout=time_limit)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=60)
        raise


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if not args.driver:
        parser.error(
            "--driver is required: a registered name (e.g. reference) or module:Factory; "
            "nothing is certified by default"
        )
    if args.jobs != "auto" and not (args.jobs.isdigit()):
        parser.error(f"--jobs={args.jobs}: expected a number of workers or 'auto'")
    report = args.out / "report.json"
    report.unlink(missing_ok=True)  # never read a verdict an earlier run left behind
    command = pytest_command(args, extra)
    print("nnhal-certify:", " ".join(command[2:]), flush=True)
    try:
        status = run_pytest(command, args.time_limit)
    except subprocess.TimeoutExpired:
        print(
            f"nnhal-certify: the run took longer than --time-limit={args.time_limit:g} s and "
            "was stopped: NOT CERTIFIED",
            file=sys.stderr,
        )
        return NOT_CERTIFIED
    if not report.exists():
        print(
            f"nnhal-certify: pytest exited with status {status} and wrote no report: "
            "nothing was certified",
            file=sys.stderr,
        )
        return status or NOT_CERTIFIED
    try:
        doc = load(report)
    except ReportError as e:
        print(f"nnhal-certify: {e}", file=sys.stderr)
        return NOT_CERTIFIED
    verdict = doc["verdict"]
    print(f"\nnnhal-certify: {verdict['headline']}")
    for line in verdict["reasons"] + verdict["notes"]:
        print(f"  - {line}")
    print(f"report: {args.out / 'report.html'} (also report.json, report.md)")
    return 0 if verdict["status"] == "CERTIFIED" else NOT_CERTIFIED


if __name__ == "__main__":
    sys.exit(main())
