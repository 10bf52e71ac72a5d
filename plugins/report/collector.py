"""The pytest side of certification reports: ``--cert-report``, ``--shard``, ``--expect-fail``.

``ReportPlugin`` is registered by ``plugins.running`` when one of those
options is given. Under pytest-xdist every worker derives the facts of the
tests it runs and attaches them to its reports (``report.nnhal``, carried to
the controller with the report itself); its collection counts, the driver's
identity and its peak memory (``run.worker_memory``) travel in ``workeroutput``.
Only the controller (or a run without xdist) assembles the document and writes
the files: one report per run.
"""

from __future__ import annotations

import dataclasses
import enum
import platform
import re
import resource
import sys
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from conformance.harness.rerun import rerun_of
from hal.show import is_hal_type, printable, show, show_exception, show_text
from isolation.channel import DriverFault
from plugins import packs
from plugins.report import compact
from plugins.report import facts as F
from plugins.report.counts import selection
from plugins.report.shard import Shard

_FACTS = pytest.StashKey[dict]()
WORKER_KEY = "nnhal_report"
IDENTITY_TIMEOUT = 10.0
"""Seconds each identity query (capabilities, version string, ...) may take."""


# ---------------------------------------------------------------------------
# Option values
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Expectation:
    pattern: str
    reason: str
    line: int

    @property
    def wildcard(self) -> bool:
        """A pattern (``*`` or ``?``) rather than one test's id: a test it matches that
        passes is reported, not failed (only an exact id is a strict expectation)."""
        return "*" in self.pattern or "?" in self.pattern

    def describe(self) -> str:
        return f"{self.pattern!r} (line {self.line})"

    def matches(self, name: str) -> bool:
        """``*`` matches any run of characters, ``?`` one; brackets are literal (ids have them)."""
        regex = "".join(
            ".*" if c == "*" else "." if c == "?" else re.escape(c) for c in self.pattern
        )
        return re.fullmatch(regex, name, re.S) is not None


def read_expectations(path: Path) -> list[Expectation]:
    """Known failures: one ``PATTERN  # reason`` a line; ``#`` lines and blank lines are ignored.

    A pattern is a test id (``conformance.test_basic::test_status``, the form the
    report shows), a pytest node id, or a pattern over either where ``*`` and
    ``?`` are wildcards (``*[V1_2/add/*]``).
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise ValueError(f"--expect-fail={path}: cannot read: {e.strerror or e}") from None
    found = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        pattern, _, reason = text.partition("#")
        pattern, reason = pattern.strip(), reason.strip()
        if not reason:
            raise ValueError(
                f"--expect-fail={path}:{number}: {pattern!r} has no reason; write "
                "'PATTERN  # why it fails'"
            )
        found.append(Expectation(pattern, reason, number))
    return found


# ---------------------------------------------------------------------------
# Environment and driver identity
# ---------------------------------------------------------------------------


def environment() -> dict[str, Any]:
    packages = {}
    for name in ("nnhal-conformance", "pytest", "pytest-xdist", "hypothesis", "numpy", "jinja2"):
        try:
            packages[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            packages[name] = None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "packages": packages,
    }


def peak_rss_bytes() -> int:
    """This process's peak resident set size so far (``ru_maxrss``: kilobytes on Linux)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024


def _bounded(call, timeout: float) -> Any:
    """``call()`` in a daemon thread: its result, or TimeoutError if it does not return."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except (Exception, DriverFault) as e:  # the driver's failure is reported, not raised
            box["error"] = e

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"no answer within {timeout:g} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


PLAIN_ITEMS = 256
"""Most entries of a driver's list the report keeps (the rest are counted)."""
PLAIN_DEPTH = 8
PLAIN_TEXT = 200
"""Most characters of a driver's string the report keeps."""


def _plain(value: Any, depth: int = 0) -> Any:
    """The HAL's dataclasses, enums, lists and scalars a driver returned, as JSON values.

    Exact types only, bounded in depth, length and text (``hal.show`` for anything
    else): what the driver says of itself is never trusted to be small or well-formed.
    """
    kind = type(value)
    if value is None or kind is bool or kind is float:
        return value
    if kind is int:
        return value if value.bit_length() <= 64 else show(value)
    if kind is str:
        return show_text(value, PLAIN_TEXT)
    if depth >= PLAIN_DEPTH:
        return show(value)
    if is_hal_type(kind) and isinstance(value, enum.Enum):
        return value._name_
    if is_hal_type(kind) and dataclasses.is_dataclass(kind):
        return {
            f.name: _plain(object.__getattribute__(value, f.name), depth + 1)
            for f in dataclasses.fields(kind)
        }
    if kind is list or kind is tuple:
        items = [_plain(v, depth + 1) for v in value[:PLAIN_ITEMS]]
        if len(value) > PLAIN_ITEMS:
            items.append(f"... {len(value) - PLAIN_ITEMS} more")
        return items
    return show(value)


def _identity_value(field: str, value: Any) -> tuple[Any, str]:
    """A driver's answer for one identity field, as the report's schema wants it, or
    (None, what is wrong with it)."""
    from hal.levels import LEVELS
    from hal.types import DeviceType

    if field == "version_string":
        if type(value) is str:
            return show_text(value, PLAIN_TEXT), ""
        return None, f"{show(value)}, not a string"
    if field == "device_type":
        if type(value) is DeviceType:
            return value.name, ""
        names = {int(t): t.name for t in DeviceType}
        if type(value) is int and value in names:
            return names[value], ""
        return None, f"{show(value)}, not a DeviceType"
    if field == "caching_supported":
        if type(value) is bool:
            return value, ""
        return None, f"{show(value)}, not a bool"
    if type(value) in {record.capabilities_type for record in LEVELS}:
        return _plain(value), ""
    return None, f"{show(value)}, not a Capabilities"


def driver_identity(config: pytest.Config) -> dict[str, Any]:
    """Who the driver is and what it says of itself, asked with a deadline."""
    from plugins.driver import loaded_driver, tested_level

    identity: dict[str, Any] = {
        "spec": config.getoption("--driver") or None,
        "is_default": config.getoption("--driver") is None,
        "level": None,
        "tested_level": None,
        "version_string": None,
        "device_type": None,
        "capabilities": None,
        "caching_supported": None,
        "memory_domains": None,
        "load_error": None,
    }
    try:
        loaded = loaded_driver(config)
    except pytest.UsageError as e:
        identity["load_error"] = str(e)
        return identity
    identity.update(
        spec=loaded.spec, level=str(loaded.level), tested_level=str(tested_level(config))
    )
    device = loaded.device
    from hal import interfaces
    from hal.levels import level as level_of
    from hal.types import ErrorStatus, HalVersion

    domains = [
        cls
        for name, cls in vars(interfaces).items()
        if "MemoryDomain" in name and isinstance(cls, type)
    ]
    # None while hal defines no memory-domain interface: nothing to decline yet.
    identity["memory_domains"] = any(isinstance(device, c) for c in domains) if domains else None
    level = tested_level(config)
    queries = {"capabilities": level_of(level).capabilities}
    if loaded.level >= HalVersion.V1_2:
        # Who the driver is does not depend on the level tested (--hal-version=1.0).
        queries.update(version_string="get_version_string", device_type="get_type")
    if level >= HalVersion.V1_2:
        queries.update(caching_supported="is_caching_supported")
    problems = []
    for field, name in queries.items():
        try:
            answer = _bounded(getattr(device, name), IDENTITY_TIMEOUT)
        except (Exception, DriverFault) as e:
            problems.append(f"{name}: {show_exception(e)}")
            continue
        if not (type(answer) is tuple and len(answer) == 2):
            problems.append(f"{name} returned {show(answer)}; expected (ErrorStatus, value)")
            continue
        status, value = answer
        if not (type(status) in (ErrorStatus, int) and status == 0):
            continue
        identity[field], problem = _identity_value(field, value)
        if problem:
            problems.append(f"{name} returned {problem}")
    if problems:
        identity["load_error"] = "; ".join(problems)
    return identity


def _isolation(config: pytest.Config) -> dict[str, Any]:
    from plugins.driver import isolation_facts

    return isolation_facts(config)


def hypothesis_seed(config: pytest.Config) -> str | None:
    """The run's seed (``--nnhal-seed``) as text, where its draws change from run to run
    (full and thorough); None under ci without a seed."""
    from plugins.profiles import hypothesis_seed as seed

    return seed(config)


def suite_categories() -> list[str]:
    """The categories of the installed suite's test modules (whatever this run selected)."""
    try:
        import conformance
    except ImportError:
        return []
    folder = Path(conformance.__file__).parent
    return sorted({F.module_category(p.stem) for p in folder.glob("test_*.py")})


# ---------------------------------------------------------------------------
# The plugin
# ---------------------------------------------------------------------------


class ReportPlugin:
    """Sharding, known failures and the certification report of one pytest process."""

    def __init__(
        self,
        config: pytest.Config,
        out_dir: Path | None,
        shard: Shard | None,
        expectations: list[Expectation],
        expect_file: str | None,
    ) -> None:
        self.config = config
        self.out_dir = out_dir
        self.shard = shard
        self.expectations = expectations
        self.expect_file = expect_file
        self.is_worker = hasattr(config, "workerinput")
        self.started = time.time()
        self.selected = 0
        self.phases: dict[str, list[dict]] = {}
        self.facts: dict[str, dict] = {}
        self.durations: dict[str, float] = {}
        self.order: list[str] = []
        self.worker_outputs: list[dict] = []
        self.written: list[Path] = []
        self.document: dict[str, Any] | None = None

    # -- collection -------------------------------------------------------

    def _deselected_by(self) -> dict[str, int]:
        """Tests deselected by reason (``plugins.report.counts``), the cases a selection
        left unbuilt and the other shards' included."""
        from plugins.collection import deselected_by

        return deselected_by(self.config)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]):
        if self.shard is not None:
            from plugins.collection import deselect

            kept, dropped = [], []
            for item in items:
                (kept if self.shard.keeps(F.test_id(item)) else dropped).append(item)
            if dropped:
                deselect(config, dropped, "shard")
                items[:] = kept
        for item in items:
            self._mark_expected(item)
        self.selected = len(items)

    def _mark_expected(self, item: pytest.Item) -> None:
        if not self.expectations:
            return
        names = (F.test_id(item), item.nodeid)
        for expectation in self.expectations:
            if any(expectation.matches(name) for name in names):
                strict = not expectation.wildcard
                item.add_marker(pytest.mark.xfail(reason=expectation.reason, strict=strict))
                if not strict:
                    item.user_properties.append((F.PATTERN_PROPERTY, expectation.describe()))
                return

    # -- running (any process that runs tests) -----------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):
        report: pytest.TestReport = yield
        if self.out_dir is None:
            return report
        # A report attribute travels to the xdist controller with the report itself; the
        # item's facts ride on its first report only (the controller keeps the first).
        report.nnhal = {"phase": F.classify_phase(report, call.excinfo)}
        if _FACTS not in item.stash:
            item.stash[_FACTS] = F.item_facts(item)
            report.nnhal["facts"] = item.stash[_FACTS]
        return report

    # -- assembling (the controller, or a run without xdist) ---------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.is_worker or self.out_dir is None:
            return
        nodeid = report.nodeid
        extra = getattr(report, "nnhal", None)
        if nodeid not in self.phases:
            self.phases[nodeid] = []
            self.order.append(nodeid)
        if extra is not None:
            if "facts" in extra:
                self.facts.setdefault(nodeid, extra["facts"])
            phase = extra["phase"]
        else:
            phase = F.classify_foreign(report)
        phase = dict(phase, when=report.when)
        self.phases[nodeid].append(phase)
        self.durations[nodeid] = self.durations.get(nodeid, 0.0) + (report.duration or 0.0)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        output = getattr(node, "workeroutput", {}).get(WORKER_KEY)
        if output is not None:
            self.worker_outputs.append(output)

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.out_dir is None:
            return
        if self.is_worker:
            self.config.workeroutput[WORKER_KEY] = {
                "selected": self.selected,
                "deselected_by": self._deselected_by(),
                "driver": driver_identity(self.config),
                "id": self.config.workerinput.get("workerid"),
                "peak_rss_bytes": peak_rss_bytes(),
            }
            return
        self.document = self._document(int(exitstatus))
        from plugins.driver import close_driver
        from plugins.report import seal
        from plugins.report.document import json_text, write

        # The driver's service is gone before a file is written: nothing of it is left
        # to touch them.
        close_driver(self.config)
        self.written = write(self.document, self.out_dir)
        key = self.config.stash.get(seal.RUN_KEY, None)
        if key is not None:
            data = json_text(self.document).encode()
            self.written.append(seal.write_seal(self.out_dir, key, data))

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.document is None:
            return
        verdict = self.document["verdict"]
        terminalreporter.write_sep("-", "nnhal certification report")
        terminalreporter.write_line(f"verdict: {printable(verdict['headline'])}")
        for reason in verdict["reasons"] + verdict["notes"]:
            terminalreporter.write_line(f"  - {printable(reason)}")
        terminalreporter.write_line(f"tests: {selection(self.document['run'])}")
        terminalreporter.write_line(f"written to {self.out_dir}/ (report.json, .html, .md)")

    # -- the document -------------------------------------------------------

    def _document(self, exitstatus: int) -> dict[str, Any]:
        from plugins.report.document import new_document

        if self.worker_outputs:
            first = self.worker_outputs[0]
            selected, by = first["selected"], first["deselected_by"]
            driver = next(
                (o["driver"] for o in self.worker_outputs if not o["driver"]["load_error"]),
                first["driver"],
            )
            memory = sorted(
                (
                    {"id": str(o.get("id")), "peak_rss_bytes": o["peak_rss_bytes"]}
                    for o in self.worker_outputs
                    if "peak_rss_bytes" in o
                ),
                key=lambda w: (len(w["id"]), w["id"]),  # gw2 before gw10
            )
        else:
            selected = self.selected
            by = self._deselected_by()
            driver = driver_identity(self.config)
            memory = [{"id": "main", "peak_rss_bytes": peak_rss_bytes()}]
        tests = [self._test(nodeid) for nodeid in self.order]
        run = {
            "profile": self.config.getoption("--nnhal-profile"),
            "hal_version_cap": self.config.getoption("--hal-version"),
            "shard": (
                {"index": self.shard.index, "count": self.shard.count} if self.shard else None
            ),
            "merged_shards": [],
            "selected": selected,
            "deselected": sum(by.values()),
            "deselected_by": by,
            "started": datetime.fromtimestamp(self.started, UTC).isoformat(timespec="seconds"),
            "duration": round(time.time() - self.started, 3),
            "exit_status": exitstatus,
            "workers": max(1, len(self.worker_outputs)),
            "worker_memory": memory,
            "command": " ".join(["pytest", *self.config.invocation_params.args]),
            "rerun": compact.rerun_template(self._rerun),
            "expect_fail": self.expect_file,
            "smoke": bool(self.config.getoption("--nnhal-smoke")),
            "seed": hypothesis_seed(self.config),
            "hypothesis_seed": hypothesis_seed(self.config),
            "suite_categories": suite_categories(),
            "isolation": _isolation(self.config),
            "packs": packs.report_entries(self.config),
        }
        return new_document(run, driver, environment(), tests)

    def _test(self, nodeid: str) -> dict[str, Any]:
        phases = self.phases[nodeid]
        facts = self.facts.get(nodeid) or _facts_from_nodeid(nodeid)
        outcome = F.combine_phases([p["outcome"] for p in phases])
        ending = [p for p in phases if p["outcome"] == outcome]
        chosen = next((p for p in ending if p.get("reason")), ending[0])
        test = dict(facts)
        test.update(
            outcome=outcome,
            duration=compact.precise(self.durations.get(nodeid, 0.0)),
            reason=chosen.get("reason"),
            details=chosen.get("details"),
            metrics=chosen.get("metrics"),
            rerun=None,
        )
        if outcome in (*F.BAD_OUTCOMES, "expected-failure"):
            test["rerun"] = self._rerun(test["id"])
        return test

    def _rerun(self, identifier: str) -> str:
        return rerun_of(self.config, identifier)


def _facts_from_nodeid(nodeid: str) -> dict[str, Any]:
    """What a report the plugin never saw made (a crash before setup) still tells."""
    path, _, rest = nodeid.partition("::")
    module = path.removesuffix(".py").replace("/", ".")
    if "conformance." in module:
        module = "conformance." + module.rsplit("conformance.", 1)[1]
    return {
        "id": f"{module}::{rest}" if rest else nodeid,
        "category": F.module_category(path),
        "hal_version": None,
        "operations": [],
        "operand_type": None,
        "path": None,
        "tier": None,
        "family": None,
        "computed": None,
    }


def configure(config: pytest.Config) -> None:
    """Register ``ReportPlugin`` if the run asked for a report, a shard or known failures."""
    out = config.getoption("--cert-report")
    shard_text = config.getoption("--shard")
    expect_file = config.getoption("--expect-fail")
    if out is None and shard_text is None and expect_file is None:
        return
    try:
        shard = Shard.parse(shard_text) if shard_text is not None else None
        expectations = read_expectations(Path(expect_file)) if expect_file else []
    except ValueError as e:
        raise pytest.UsageError(str(e)) from None
    out_dir = Path(out) if out is not None else None
    plugin = ReportPlugin(config, out_dir, shard, expectations, expect_file)
    config.pluginmanager.register(plugin, "nnhal-report")
