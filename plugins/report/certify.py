"""``nnhal-certify``: run the installed suite against a driver and print the verdict.

    nnhal-certify --driver X [--jobs N] [--hal-version V] [--profile full|thorough|ci]
                  [--driver-isolation process|none] [--driver-containment KIND]
                  [--smoke] [--out DIR] [pytest args]
    nnhal-certify --rerun-failed DIR [the same options]

The driver runs in a contained service process of its own by default
(``--driver-isolation process``: ``isolation.sandbox``), so it can neither
forge the verdict nor crash, freeze or outlive the run; ``none`` is faster and
its certificate says not tamper-proof.

``--smoke`` is a first try: a small deterministic sample of every category
(``--nnhal-smoke``, of items the driver supports) under profile ci, in about a minute;
never a certificate.

With ``--jobs N`` (N >= 2; ``auto``: one per processor, the default) it runs
N pytest processes side by side, process K running shard K/N of the suite
(``--shard``) with ``--cert-report DIR/shards/K``, its output in
``DIR/shards/K.log``; it prints a progress line every half minute, then
merges the shard reports into DIR (as ``nnhal-report merge`` does). Shards in
separate processes, rather than one pytest-xdist run, spare every test the
round trip of its reports to an xdist controller: the whole suite finishes
about a fifth sooner. A shard process that dies without a report (a driver
crash in the process: a status pytest never uses) is run again under
pytest-xdist, which replaces a crashed worker and records the crash as the
test's outcome. ``--jobs 0`` (or 1) runs one pytest in the foreground,
showing its progress (one line a failure: ``--tb=line``, which a ``--tb`` of
the caller's overrides).

Then it prints the verdict from the report. Exit status: 0 only for
CERTIFIED, 1 when the run finished NOT CERTIFIED, pytest's own status when it
wrote no report (4 for a bad driver or option), 2 for a usage error. There is
no default driver: a certificate names what it certifies.

``--rerun-failed DIR`` runs again only the bad items (failed, crash, timeout,
blocked, error) of the earlier report DIR/report.json, by node id (an argument
file, ``@DIR/rerun-ids.txt``, however many there are; ``plugins.report.selection``
passes over the items the suite no longer has), with the driver, profile, seed,
HAL cap and isolation that report records unless given here. Its report goes to
``--out`` (default DIR/rerun), with ``comparison.json`` and ``comparison.md``
(``plugins.report.compare``): fixed, still failing, newly failing, gone. A
rerun is never a certificate: it exits 0 when nothing it reran is bad any
more (fixed, set aside or gone), 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hal.show import printable
from isolation.sandbox import CONTAINMENTS, ContainmentUnavailable, Sandbox, strongest
from plugins.report import compare, seal
from plugins.report.counts import selection
from plugins.report.document import ReportError, finalize, load, merge, write
from plugins.report.facts import BAD_OUTCOMES

NOT_CERTIFIED = 1
DEFAULT_OUT = "nnhal-certification"
PROFILES = ("full", "thorough", "ci")
ISOLATIONS = ("none", "process")
DEFAULT_ISOLATION = "process"
RERUN_OUT = "rerun"
"""The folder of a rerun's report inside the earlier report's folder (without --out)."""
RERUN_IDS = "rerun-ids.txt"
"""The argument file naming the items a rerun runs, one node id a line, in its --out."""
SELECTION_PLUGIN = "plugins.report.selection"
"""The pytest plugin a rerun loads: it runs the named items the suite still has."""
DEFAULT_TIME_LIMIT = 6 * 3600
PROGRESS_EVERY = 30.0
"""Seconds between two progress lines of a sharded run."""
QUIET_NOTE = 60.0
"""Seconds without any output from a shard after which its progress says so."""
FAILURES_SHOWN = 20
"""FAILED/ERROR lines printed per shard; the report has every one."""
PYTEST_STATUSES = range(6)
"""Exit statuses pytest itself uses (0 passed .. 5 no tests); any other means the process died."""
_PERCENT = re.compile(rb"\[\s*(\d+)%\]")
_CATEGORY = re.compile(rb"^nnhal: (?:still )?running ([\w.:-]+)", re.M)
"""The category a shard is running, as its progress lines name it (``plugins.running``)."""
_COLLECTED = re.compile(rb"^nnhal: collected ([\d,]+) tests in ([\d.]+) s(?: \((.+)\))?$", re.M)
READ_CHUNK = 1 << 20
"""Bytes of a shard's log read at a time for its progress."""
LINE_CARRY = 4096
"""Bytes of an unfinished line kept for the next read of a shard's log."""
COLLECTION_LOOK = 1 << 18
"""Bytes at the head of a shard's log searched for its collection line."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nnhal-certify",
        allow_abbrev=False,
        description="Certify a driver: the whole conformance suite, a report and a verdict. "
        "Arguments it does not know go to pytest.",
        epilog="Exit status: 0 CERTIFIED, 1 NOT CERTIFIED, 2 a usage error, else pytest's own "
        "when it wrote no report (4: a bad driver or option). With --rerun-failed: 0 when "
        "nothing rerun is bad any more, 1 when something still fails.",
    )
    parser.add_argument(
        "--driver",
        metavar="SPEC",
        help="the driver to certify: module:Factory or a registered name (required, but for "
        "--rerun-failed, which takes the earlier report's)",
    )
    parser.add_argument(
        "--jobs",
        default="auto",
        metavar="N",
        help="test processes, each a shard of the suite, or 'auto' (default: one per "
        "processor); 0 or 1: one pytest in the foreground",
    )
    parser.add_argument("--hal-version", metavar="V", help="highest HAL level to test")
    parser.add_argument("--profile", choices=PROFILES, default=None)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a first try in about a minute: a small deterministic sample of every category, "
        "of items the driver says it supports, under profile ci (never a certificate)",
    )
    parser.add_argument(
        "--driver-isolation",
        choices=ISOLATIONS,
        default=None,
        help="process (default): the driver in a contained service process of its own, "
        "restarted after a crash or hang; none: the driver in the test processes, each call "
        "under a timeout (faster, but its certificate says not tamper-proof)",
    )
    parser.add_argument(
        "--driver-containment",
        choices=CONTAINMENTS,
        default="auto",
        help="how the service process is contained (default: auto, the strongest that works)",
    )
    parser.add_argument(
        "--nnhal-specs",
        dest="specs",
        type=Path,
        action="append",
        default=None,
        metavar="DIR",
        help="also run the specs of vendor test pack DIR (repeatable): generated into a cache "
        "and run like the suite's own cases, ids prefixed with the folder's name (NAME:V1_2/...)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"where the report goes (default: ./{DEFAULT_OUT}; with --rerun-failed: "
        f"DIR/{RERUN_OUT}, beside the earlier report, which it may not overwrite)",
    )
    parser.add_argument(
        "--rerun-failed",
        type=Path,
        default=None,
        metavar="DIR",
        help="run again only the failed, crash, timeout, blocked and error items of the earlier "
        "report DIR/report.json, then compare: comparison.json and comparison.md in --out "
        "(fixed, still failing, newly failing, gone). The driver, profile, --hal-version and "
        "--driver-isolation are the ones that report records, unless given here: an option "
        "given wins, then the report's, then the default",
    )
    parser.add_argument(
        "--nnhal-seed",
        dest="seed",
        type=int,
        default=None,
        metavar="N",
        help="the run's seed, given to every shard (default: drawn anew from os.urandom under "
        "profiles full and thorough, none under ci; --rerun-failed takes the earlier report's)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help="stop the run after this long (default: 6 hours)",
    )
    return parser


def pytest_command(
    args: argparse.Namespace,
    extra: list[str],
    *,
    out: Path | None = None,
    shard: tuple[int, int] | None = None,
    xdist_workers: int = 0,
) -> list[str]:
    """The pytest command of one test process: the report goes to ``out`` (default
    ``--out``); ``shard`` (K, N) runs shard K/N; ``xdist_workers`` > 0 adds ``-n``."""
    command = [
        *harness_prefix(args),
        "--pyargs",
        "conformance",
        f"--driver={args.driver}",
        f"--nnhal-profile={profile_of(args)}",
        f"--cert-report={(out_of(args) if out is None else out).absolute()}",
        "-p",
        "no:cacheprovider",
        # One line a failure: the report holds every message and rerun command.
        "--tb=line",
    ]
    folder = getattr(args, "driver_folder", None)
    if folder is not None:
        command += [f"--driver-folder={folder}", f"--driver-hide={out_of(args).absolute()}"]
    if shard is not None:
        command.append(f"--shard={shard[0]}/{shard[1]}")
    if xdist_workers:
        command += ["-n", str(xdist_workers)]
    if args.hal_version:
        command.append(f"--hal-version={args.hal_version}")
    isolation = isolation_of(args)
    command.append(f"--driver-isolation={isolation}")
    if isolation == "process" and args.driver_containment != "auto":
        command.append(f"--driver-containment={args.driver_containment}")
    if getattr(args, "seed", None) is not None:  # every shard draws the same cases
        command.append(f"--nnhal-seed={args.seed}")
    if getattr(args, "smoke", False):
        command.append("--nnhal-smoke")
    for folder in getattr(args, "specs", None) or []:
        command.append(f"--nnhal-specs={folder.expanduser().resolve()}")
    selection = getattr(args, "selection", None)
    if selection is not None:
        command += ["-p", SELECTION_PLUGIN, f"@{selection}"]
    return command + [a for a in extra if a != "--"]


HARNESS_INI = "pytest.ini"
"""The configuration file of the harness's own folder: empty, so nothing configures the run
but nnhal-certify's own options."""
PLUGINS = ("plugins.pytest_nnhal", "xdist.plugin", "xdist.looponfail", "_hypothesis_pytestplugin")
"""The pytest plugins a certification loads, by name: plugin autoloading is off, so no other
installed package (a driver's among them) adds code to the harness."""
CLEARED_VARIABLES = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTHONSTARTUP", "PYTHONINSPECT")
"""Variables that would add options or code to the test processes: not passed on."""


def harness_prefix(args: argparse.Namespace) -> list[str]:
    """How a test process starts: Python without the current folder on its path (``-P``),
    pytest with the harness folder's empty configuration as its only one, no conftest.py
    anywhere, and the certification's plugins named one by one."""
    command = [sys.executable, "-P", "-m", "pytest"]
    harness = getattr(args, "harness", None)
    if harness is not None:
        command += ["-c", str(harness / HARNESS_INI), "--rootdir", str(harness)]
    command.append("--noconftest")
    for plugin in PLUGINS:
        command += ["-p", plugin]
    return command


def make_harness_folder() -> Path:
    """A folder of the harness's own for the test processes to run in: an empty
    configuration file and nothing else (the driver's folder, where nnhal-certify was
    started, goes to the driver service only)."""
    folder = Path(tempfile.mkdtemp(prefix="nnhal-harness-"))
    (folder / HARNESS_INI).write_text("[pytest]\n", encoding="utf-8")
    return folder


def harness_environment(key: str) -> dict[str, str]:
    """The test processes' environment: this one's, without ``CLEARED_VARIABLES``, with
    plugin autoloading off and the run's report key (``plugins.report.seal``)."""
    environment = {k: v for k, v in os.environ.items() if k not in CLEARED_VARIABLES}
    environment["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    environment[seal.KEY_VARIABLE] = key
    return environment


def profile_of(args: argparse.Namespace) -> str:
    """The run's profile: ``--profile``, else ci for ``--smoke`` and full otherwise."""
    return args.profile or ("ci" if getattr(args, "smoke", False) else "full")


def isolation_of(args: argparse.Namespace) -> str:
    """The run's driver isolation: ``--driver-isolation``, else process."""
    return args.driver_isolation or DEFAULT_ISOLATION


def out_of(args: argparse.Namespace) -> Path:
    """Where the run's report goes: ``--out``, else ./nnhal-certification."""
    return args.out or Path(DEFAULT_OUT)


def launch(args: argparse.Namespace) -> dict:
    """Where and with what environment a test process starts (``main`` sets ``args.harness``
    and ``args.key``; without them, here and with this environment)."""
    harness = getattr(args, "harness", None)
    key = getattr(args, "key", None)
    return {
        "cwd": harness,
        "env": harness_environment(key) if key is not None else None,
    }


def run_pytest(command: list[str], time_limit: float, **where) -> int:
    """Run pytest with its output going straight to ours (its progress), within a time limit."""
    process = subprocess.Popen(command, **where)
    try:
        return process.wait(timeout=time_limit)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=60)
        raise


def jobs_of(value: str) -> int:
    """The number of test processes ``--jobs`` asks for (``auto``: one per processor)."""
    return (os.cpu_count() or 1) if value == "auto" else int(value)


@dataclass
class _Shard:
    """One test process of a sharded run."""

    index: int
    count: int
    folder: Path
    process: subprocess.Popen | None = None
    log: Path | None = None
    collection: str | None = None
    """``N tests (M selected, K deselected by --shard) in T s`` once the shard's pytest has
    collected."""
    last_percent: int | None = None
    """The last progress percentage read from the log."""
    last_category: str | None = None
    """The last category the log said it was running."""
    log_size: int = -1
    read_at: int = 0
    """How far ``percent`` has read the log."""
    carry: bytes = b""
    """The unfinished last line of what ``percent`` read last."""
    quiet_since: float = 0.0
    """When the log last grew (``time.monotonic``)."""

    @property
    def name(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def report(self) -> Path:
        return self.folder / str(self.index) / "report.json"

    def start(self, command: list[str], log: Path, **where) -> None:
        self.log = log
        with open(log, "wb") as output:
            self.process = subprocess.Popen(
                command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, **where
            )

    def collected(self) -> str | None:
        """What the shard collected, read once from its log's collection line."""
        if self.collection is None:
            try:
                with open(self.log, "rb") as f:
                    found = _COLLECTED.search(f.read(COLLECTION_LOOK))
            except OSError:
                return None
            if found:
                total, seconds, selection = (g.decode() if g else None for g in found.groups())
                # As the shard counted them: "(65,583 selected, 65,435 deselected by --shard)".
                kept = f" ({selection})" if selection else ""
                self.collection = f"{total} tests{kept} in {seconds} s"
        return self.collection

    def percent(self) -> int | None:
        """The last progress percentage pytest wrote to the log, if any (kept while the log
        grows without one: the end of a run with thousands of failures is a long summary
        without any). Reads what the log gained since the last call, ``READ_CHUNK`` bytes
        at a time, so a category line followed by many dots before the next call is not
        missed."""
        try:
            with open(self.log, "rb") as f:
                f.seek(self.read_at)
                while chunk := f.read(READ_CHUNK):
                    self._scan(self.carry + chunk)
                self.read_at = f.tell()
        except OSError:
            pass
        return self.last_percent

    def _scan(self, text: bytes) -> None:
        """Take the last percentage and category named in ``text``; keep its unfinished
        last line (at most ``LINE_CARRY`` bytes) for the next read."""
        found = _PERCENT.findall(text)
        if found:
            self.last_percent = int(found[-1])
        category = _CATEGORY.findall(text)
        if category:
            self.last_category = category[-1].decode()
        self.carry = text[text.rfind(b"\n") + 1 :][-LINE_CARRY:]

    def state(self, now: float) -> str:
        """The shard's progress for the progress line: its percentage, and how long it has
        been quiet once that is long (a slow test, or the driver not answering)."""
        if self.process is not None and self.process.poll() is not None:
            return "done"
        if self.collection is None:
            return "collecting"
        try:
            size = os.stat(self.log).st_size
        except OSError:
            size = self.log_size
        if size != self.log_size:
            self.log_size, self.quiet_since = size, now
        state = f"{self.percent() or 0}%"
        if self.last_category:
            state += f" in {self.last_category}"
        quiet = now - self.quiet_since
        if quiet >= QUIET_NOTE:
            state += (
                f" (no test ended for {quiet:.0f} s: a slow test, or a driver call waiting "
                "out --hal-timeout)"
            )
        return state

    def summary(self) -> tuple[str, list[str]]:
        """The last line pytest wrote (``N passed, M failed in T s``) and its FAILED/ERROR
        lines (the short test summary: one line a failure), fit to print: a driver's text
        in them has its control characters escaped (``hal.show.printable``)."""
        try:
            lines = self.log.read_text(errors="replace").strip().splitlines()
        except OSError:
            return "", []
        failures = [printable(line) for line in lines if line.startswith(("FAILED ", "ERROR "))]
        return (printable(lines[-1].strip("= ")) if lines else ""), failures


def _wait(shards: list[_Shard], deadline: float, started: float) -> None:
    """Wait for every shard's process, printing progress; past ``deadline`` kill them all."""
    last = time.monotonic()
    announced: set[str] = set()
    while any(s.process.poll() is None for s in shards):
        now = time.monotonic()
        for s in shards:
            if s.name not in announced and s.collected():
                announced.add(s.name)
                print(f"nnhal-certify: shard {s.name} collected {s.collection}", flush=True)
        if now > deadline:
            for s in shards:
                if s.process.poll() is None:
                    s.process.kill()
                    s.process.wait(timeout=60)
            raise subprocess.TimeoutExpired("nnhal-certify shards", deadline - started)
        if now - last >= PROGRESS_EVERY:
            last = now
            parts = [f"shard {s.name} {s.state(now)}" for s in shards]
            print(f"nnhal-certify: {', '.join(parts)} ({now - started:.0f} s)", flush=True)
        time.sleep(0.5)


def run_shards(args: argparse.Namespace, extra: list[str], jobs: int, time_limit: float) -> int:
    """Run the suite as ``jobs`` shard processes and merge their reports into ``--out``.

    Returns 0 once the merged report is written, else the status to exit with.
    """
    started = time.monotonic()
    deadline = started + time_limit
    folder = args.out / "shards"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    shards = [_Shard(k, jobs, folder) for k in range(1, jobs + 1)]
    for s in shards:
        command = pytest_command(args, extra, out=folder / str(s.index), shard=(s.index, jobs))
        s.start(command, folder / f"{s.index}.log", **launch(args))
    collecting = (
        ""
        if getattr(args, "selection", None)
        else "; each first collects the suite (a minute or more)"
    )
    print(
        f"nnhal-certify: {jobs} test processes, process K running shard K/{jobs}; "
        f"their output: {folder}/K.log{collecting}",
        flush=True,
    )
    _wait(shards, deadline, started)
    crashed = [
        s for s in shards if not s.report.exists() and s.process.returncode not in PYTEST_STATUSES
    ]
    for s in crashed:
        print(
            f"nnhal-certify: shard {s.name} died with status {s.process.returncode} and wrote no "
            f"report (a driver crash? see {s.log}); running it again under pytest-xdist, which "
            "replaces a crashed worker and records the crash",
            file=sys.stderr,
            flush=True,
        )
        command = pytest_command(
            args, extra, out=folder / str(s.index), shard=(s.index, jobs), xdist_workers=1
        )
        s.start(command, folder / f"{s.index}.retry.log", **launch(args))
    if crashed:
        _wait(crashed, deadline, started)
    for s in shards:
        last, failures = s.summary()
        print(f"nnhal-certify: shard {s.name}: {last}", flush=True)
        for line in failures[:FAILURES_SHOWN]:
            print(f"  {line}")
        if len(failures) > FAILURES_SHOWN:
            print(f"  ... and {len(failures) - FAILURES_SHOWN} more (the report lists them all)")
    missing = [s for s in shards if not s.report.exists()]
    if missing:
        for s in missing:
            print(
                f"nnhal-certify: shard {s.name} exited with status {s.process.returncode} and "
                f"wrote no report (see {s.log}): nothing was certified",
                file=sys.stderr,
            )
        return missing[0].process.returncode or NOT_CERTIFIED
    key = getattr(args, "key", None)
    unsealed = [(s, seal.check(s.report, key.encode())) for s in shards] if key else []
    unsealed = [(s, problem) for s, problem in unsealed if problem is not None]
    if unsealed:
        for s, problem in unsealed:
            print(f"nnhal-certify: shard {s.name}: {problem}", file=sys.stderr)
        print("nnhal-certify: a shard report was tampered with: NOT CERTIFIED", file=sys.stderr)
        return NOT_CERTIFIED
    try:
        reports = [(str(s.report), load(s.report)) for s in shards]
        write(merge(reports, command=getattr(args, "command", None)), args.out)
    except ReportError as e:
        print(f"nnhal-certify: the shard reports do not merge: {e}", file=sys.stderr)
        return NOT_CERTIFIED
    return 0


@dataclass
class _Rerun:
    """What ``--rerun-failed`` reruns: the earlier report and its bad items."""

    given: Path
    """The folder (or report.json) as given."""
    report: Path
    doc: dict
    ids: list[str]
    settings: list[str]
    """How the rerun runs, and where each setting comes from: ``profile ci (recorded)``."""

    def announcement(self) -> str:
        outcomes = compare.items(self.doc, str(self.report))
        counts = Counter(outcomes[i]["outcome"] for i in self.ids)
        listing = ", ".join(f"{counts[o]} {o}" for o in BAD_OUTCOMES if counts[o])
        return (
            f"nnhal-certify: rerunning the {len(self.ids)} bad items of {self.report} "
            f"({listing}) with {', '.join(self.settings)}"
        )


_BAD_LISTING = f"{', '.join(BAD_OUTCOMES[:-1])} or {BAD_OUTCOMES[-1]}"


def plan_rerun(parser: argparse.ArgumentParser, args: argparse.Namespace) -> _Rerun:
    """The earlier report ``--rerun-failed`` names and its bad items; fills in the driver,
    profile, HAL cap and isolation it records where the options leave them open. A report
    that cannot be read, or a rerun that cannot run, is a usage error (exit status 2)."""
    given: Path = args.rerun_failed
    option = f"--rerun-failed={given}"
    if args.smoke:
        parser.error(
            f"--smoke and {option} do not go together: a rerun runs exactly the "
            "earlier run's bad items"
        )
    if not given.exists():
        parser.error(f"{option}: no such folder")
    report = compare.report_path(given)
    if given.is_dir() and not report.is_file():
        parser.error(
            f"{option}: no report.json in that folder (give the --out folder of an earlier "
            "nnhal-certify, or a --cert-report folder)"
        )
    try:
        doc = load(report)
        ids = compare.bad_ids(doc, str(report))
    except ReportError as e:
        parser.error(f"{option}: {e}")
    default_out = report.parent / RERUN_OUT
    if args.out is None:
        args.out = default_out
    elif args.out.resolve() == report.parent.resolve():
        parser.error(
            f"--out={args.out}: that is the folder of the report being rerun, which the rerun "
            f"would overwrite (without --out it goes to {default_out})"
        )
    run = doc.get("run") if isinstance(doc.get("run"), dict) else {}
    driver = doc.get("driver") if isinstance(doc.get("driver"), dict) else {}
    isolation = (run.get("isolation") or {}).get("mode")
    recorded = {
        "driver": driver.get("spec"),
        "profile": run.get("profile") if run.get("profile") in PROFILES else None,
        "hal_version": run.get("hal_version_cap"),
        "seed": int(run["seed"]) if str(run.get("seed") or "").isdigit() else None,
        "driver_isolation": isolation if isolation in ISOLATIONS else None,
        "specs": [
            Path(p["folder"])
            for p in run.get("packs") or []
            if isinstance(p, dict) and isinstance(p.get("folder"), str)
        ]
        or None,
    }
    settings = []
    for name, shown in (
        ("driver", "driver"),
        ("profile", "profile"),
        ("hal_version", "--hal-version"),
        ("seed", "seed"),
        ("driver_isolation", "isolation"),
        ("specs", "--nnhal-specs"),
    ):
        if getattr(args, name) is not None:
            source = "given"
        elif recorded[name] is not None:
            setattr(args, name, recorded[name])
            source = "recorded"
        else:
            continue
        value = getattr(args, name)
        value = " ".join(map(str, value)) if isinstance(value, list) else value
        settings.append(f"{shown} {value} ({source})")
    if not args.driver and ids:
        parser.error(f"{option}: {report} does not say which driver it tested; give --driver")
    return _Rerun(given, report, doc, ids, settings)


def finish_rerun(rerun: _Rerun, doc: dict, out: Path) -> int:
    """Compare the rerun's report with the earlier one, write and print the comparison;
    the exit status: 0 when nothing rerun is bad any more, else 1."""
    comparison = compare.compare(
        rerun.doc,
        doc,
        before_path=rerun.report,
        after_path=out / "report.json",
        only=rerun.ids,
    )
    compare.write(comparison, out)
    print(f"compared with {rerun.given}: {compare.summary(comparison)}")
    for line in compare.terminal_lines(comparison):
        print(printable(line))
    print(f"comparison: {out / 'comparison.md'} (also comparison.json)")
    counts = comparison["counts"]
    return NOT_CERTIFIED if counts["still_failing"] or counts["newly_failing"] else 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    args.command = shlex.join(["nnhal-certify", *(sys.argv[1:] if argv is None else argv)])
    if args.jobs != "auto" and not (args.jobs.isdigit()):
        parser.error(f"--jobs={args.jobs}: expected a number of workers or 'auto'")
    rerun = plan_rerun(parser, args) if args.rerun_failed is not None else None
    if rerun is not None and not rerun.ids:
        print(f"nnhal-certify: {rerun.report} has no {_BAD_LISTING} items: nothing to rerun")
        return 0
    if not args.driver:
        parser.error(
            "--driver is required: a registered name (e.g. reference) or module:Factory; "
            "nothing is certified by default"
        )
    if args.seed is None and profile_of(args) != "ci":
        args.seed = int.from_bytes(os.urandom(4), "big")  # the run's fresh draws, every shard's
    if args.seed is not None:
        print(f"nnhal-certify: seed {args.seed} (--nnhal-seed={args.seed} draws the same cases)")
    args.out = out_of(args)
    report = args.out.absolute() / "report.json"
    report.unlink(missing_ok=True)  # never read a verdict an earlier run left behind
    (args.out / seal.SEAL_FILE).unlink(missing_ok=True)
    jobs = jobs_of(args.jobs)
    if rerun is not None:
        for name in ("comparison.json", "comparison.md"):
            (args.out / name).unlink(missing_ok=True)
        args.out.mkdir(parents=True, exist_ok=True)
        args.selection = (args.out / RERUN_IDS).resolve()
        args.selection.write_text("".join(f"{i}\n" for i in rerun.ids), encoding="utf-8")
        jobs = min(jobs, len(rerun.ids))  # no shard without an item to run
        print(rerun.announcement(), flush=True)
    try:
        launched = launch_isolation(args)
    except ContainmentUnavailable as e:
        parser.error(str(e))
    # The test processes run in a folder of the harness's own; the folder this command
    # was started from is the driver's, and only the driver service looks there.
    args.driver_folder = os.getcwd()
    extra = absolute_paths(extra)
    args.harness = make_harness_folder()
    args.key = seal.new_key()
    try:
        return _run(args, extra, jobs, report, launched, rerun)
    finally:
        shutil.rmtree(args.harness, ignore_errors=True)


def absolute_paths(extra: list[str]) -> list[str]:
    """Pytest arguments that name files, made absolute (the test processes run elsewhere):
    ``@FILE`` and ``--option=PATH`` where PATH names a file or folder here. Node ids and
    the suite's names are left alone: a folder here never stands in for the suite."""
    here = Path.cwd()
    fixed = []
    for argument in extra:
        if argument.startswith("@") and (here / argument[1:]).is_file():
            argument = f"@{(here / argument[1:]).resolve()}"
        elif argument.startswith("--") and "=" in argument:
            option, _, value = argument.partition("=")
            if (
                value
                and "::" not in value
                and not Path(value).is_absolute()
                and (here / value).exists()
            ):
                argument = f"{option}={(here / value).resolve()}"
        fixed.append(argument)
    return fixed


def launch_isolation(args: argparse.Namespace) -> dict:
    """The isolation this command launches, as the report will state it: decided here (an
    ``auto`` containment resolved once, for every test process), never taken from what a
    test process wrote (in-process, the driver shares that process)."""
    if isolation_of(args) != "process":
        return {"mode": "none", "containment": None, "tamper_proof": False}
    if args.driver_containment == "auto":
        args.driver_containment = strongest()
    box = Sandbox(args.driver_containment)
    facts = {"mode": "process", "containment": box.describe(), "tamper_proof": box.tamper_proof}
    if box.namespaces and not box.tamper_proof:
        facts["why_not_tamper_proof"] = "; ".join(box.weaknesses)
    return facts


def _run(
    args: argparse.Namespace,
    extra: list[str],
    jobs: int,
    report: Path,
    launched: dict,
    rerun: _Rerun | None,
) -> int:
    try:
        if jobs >= 2:
            status = run_shards(args, extra, jobs, args.time_limit)
            if status and not report.exists():
                return status
        else:
            command = pytest_command(args, extra)
            print("nnhal-certify:", " ".join(command[3:]), flush=True)
            status = run_pytest(command, args.time_limit, **launch(args))
            problem = seal.check(report, args.key.encode()) if report.exists() else None
            if problem is not None:
                print(f"nnhal-certify: {problem}: NOT CERTIFIED", file=sys.stderr)
                return NOT_CERTIFIED
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
    # The verdict is this command's: from the observations, with the isolation it launched.
    logs = (doc["run"].get("isolation") or {}).get("driver_logs")
    doc["run"]["isolation"] = dict(launched, driver_logs=logs)
    doc = finalize(doc)
    write(doc, args.out)
    (args.out / seal.SEAL_FILE).unlink(missing_ok=True)  # the key dies with this run
    verdict = doc["verdict"]
    print(f"\nnnhal-certify: {printable(verdict['headline'])}")
    for line in verdict["reasons"] + verdict["notes"]:
        print(f"  - {printable(line)}")
    print(f"tests: {selection(doc['run'])}")
    print(f"report: {args.out / 'report.html'} (also report.json, report.md)")
    if rerun is not None:
        return finish_rerun(rerun, doc, args.out)
    return 0 if verdict["status"] == "CERTIFIED" else NOT_CERTIFIED


if __name__ == "__main__":
    sys.exit(main())
