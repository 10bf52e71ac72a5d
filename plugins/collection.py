"""Collecting the suite: node ids, the items a run names, case items, selection, progress.

Registered by ``plugins.pytest_nnhal`` in a run that uses the suite (its
docstring has the rule). ``configure`` and ``check_operation_names`` (called by
``plugins.running.configure``) make the suite's node ids work from any folder,
register its markers and check ``--nnhal-op``; the hooks here give the suite's
modules their node ids, collect ``cases``-marked functions as ``CaseItem``s
(only those the run's node ids, ``-k``, ``-m`` and ``--nnhal-op`` keep, and of a
smoke run its sample), apply ``--nnhal-op`` and then ``--nnhal-smoke`` to what
else was built, count what every selection left out (``deselected_by``: the
meaning is ``plugins.report.counts``'s), and print the collection's progress.
``--shard`` and ``--expect-fail`` are applied by ``plugins.report``
(``ReportPlugin.pytest_collection_modifyitems``).
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.harness.marks import CASE_PICK, CASES_WANTED, every_case
from plugins.report.facts import params_operations, test_id
from plugins.suite import (
    SMOKE_PER_TEST,
    SUITE,
    in_suite,
    innermost_run,
    is_xdist_controller,
    suite_folder,
)

_UNBUILT = pytest.StashKey["list[UnbuiltCases]"]()
"""Cases a selection left out before their items were built (``unbuilt_cases``)."""
_DESELECTED = pytest.StashKey["dict[str, int]"]()
"""Tests deselected so far: ``total`` (every ``pytest_deselected``), and of those, the ones
deselected by a named reason (``deselect``)."""
_WANTED = pytest.StashKey["dict[str, set[str] | None] | None"]()
_ABOVE_LEVEL = pytest.StashKey["int"]()
"""Cases not built because they need a HAL level above the tested one (``above_level``)."""
_SHARD = pytest.StashKey["object"]()
"""``_shard_before_building``'s answer, worked out once."""
_ABOVE = pytest.StashKey["dict[str, bool]"]()
"""``_above_level``'s answer for each ``hal_level`` mark's argument."""
_SUPPORT = pytest.StashKey["DriverSupport"]()
"""The smoke sample's ``DriverSupport`` (``smoke_support``)."""


def configure(config: pytest.Config) -> None:
    """The suite's node ids made to work from any folder (and the items they name), its
    markers."""
    config.args[:] = suite_arguments(config.args, config.invocation_params.dir, config)
    config.stash[_WANTED] = wanted_items(config.args, config.invocation_params.dir)
    add_markers(config)


def add_markers(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "hal_level(version): the test needs a driver of at least this HAL level"
    )
    config.addinivalue_line(
        "markers", "tier(name): parity (what Android 10 VTS checks) or strict (beyond it)"
    )
    config.addinivalue_line(
        "markers",
        "generated_case(folder, operations): a generated case; -k also matches its HAL folder "
        "and operation names",
    )
    config.addinivalue_line("markers", "generated: category: generated test cases")
    config.addinivalue_line("markers", "validate_model: category: model validation (mutations)")
    config.addinivalue_line("markers", "validate_request: category: request validation (mutations)")
    config.addinivalue_line(
        "markers", "validation_family(name): the mutation family a validation test runs"
    )
    config.addinivalue_line(
        "markers",
        "category(name): the report category of a test, where its module name does not say it",
    )
    from hal.levels import spec_folders

    for folder in spec_folders():
        config.addinivalue_line("markers", f"{folder}: a test from the {folder} spec folder")


# -- node ids -------------------------------------------------------------------------


def suite_arguments(args: list[str], cwd: Path, config: pytest.Config) -> list[str]:
    """The run's arguments with the suite's node ids made to work from any folder.

    Under ``--pyargs``, ``conformance/test_x.py::item`` (the node id a failure prints)
    names the installed module when no such file is under the current folder: it
    becomes ``conformance.test_x::item``. When arguments name items or
    modules inside the suite, a bare ``conformance`` beside them is dropped, so
    ``pytest --pyargs conformance <id>`` runs that one item, not the suite and the item.
    """
    if not config.option.pyargs:
        return list(args)
    prefix = f"{SUITE}/"
    converted = []
    for arg in args:
        path, sep, rest = arg.partition("::")
        if path.startswith(prefix) and path.endswith(".py") and not (cwd / path).exists():
            arg = f"{path.removesuffix('.py').replace('/', '.')}{sep}{rest}"
        converted.append(arg)
    if any(a.startswith((prefix, f"{SUITE}.")) for a in converted):
        converted = [a for a in converted if a not in (SUITE, prefix)]
    return converted


def wanted_items(args: list[str], cwd: Path) -> dict[str, set[str] | None] | None:
    """Suite module -> the items the arguments name in it (``test_x[id]``, or ``test_x``
    for all of a function's), or None for a module an argument names whole; None in all
    when an argument may hold more of the suite than whole modules (a folder or package
    of the suite, or one holding it), so collection builds everything as usual. An
    argument holding nothing of the suite (a file or folder outside it) changes nothing."""
    if not args:
        return None
    named: dict[str, set[str]] = {}
    whole: set[str] = set()
    for arg in args:
        path, sep, rest = arg.partition("::")
        module = _suite_module(path, cwd)
        if module is None:
            if _may_hold_suite(path, cwd):
                return None
        elif not sep:
            whole.add(module)
        elif not rest or "::" in rest:
            return None
        else:
            named.setdefault(module, set()).add(rest)
    if not named:
        return None
    return {**named, **dict.fromkeys(whole)}


def _may_hold_suite(path: str, cwd: Path) -> bool:
    """Whether an argument that names no suite module may still hold some of the suite: a
    package of it (dotted) or a folder of it, holding it, or a file of it."""
    target = (cwd / path).resolve()
    if not target.exists():  # a dotted name (--pyargs)
        return path == SUITE or path.startswith(f"{SUITE}.")
    folder = suite_folder()
    if folder is None:
        return False
    return in_suite(target) is not None or target == folder or target in folder.parents


def _suite_module(path: str, cwd: Path) -> str | None:
    """The dotted name of the suite module ``path`` names (dotted or a file), or None."""
    if path.startswith(f"{SUITE}.") and not path.endswith(".py"):
        return path if _is_module(path) else None
    relative = in_suite(cwd / path) if path.endswith(".py") else None
    return ".".join(relative.with_suffix("").parts) if relative else None


def _is_module(dotted: str) -> bool:
    """Whether the suite's ``dotted`` name is a module of it (not a package)."""
    folder = suite_folder()
    if folder is None:
        return True
    return not folder.parent.joinpath(*dotted.split(".")).is_dir()


def _cases_wanted(collector: pytest.Module, name: str) -> set[str] | None:
    """The case ids of function ``name`` the run's node ids select (None: every case)."""
    wanted = collector.config.stash.get(_WANTED, None)
    if wanted is None:
        return None
    names = wanted.get(collector.obj.__name__)
    if names is None:  # named whole, or not named at all: pytest will not keep its items
        return None
    if name in names:
        return None
    return {n[len(name) + 1 : -1] for n in names if n.startswith(f"{name}[") and n.endswith("]")}


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector):
    """A suite module's node id is ``conformance/test_x.py`` wherever pytest runs (run from
    another folder, pytest would call it ``test_x.py`` or nothing at all)."""
    relative = None if module_path.name == "__init__.py" else in_suite(module_path)
    if relative is None:
        return None
    return pytest.Module.from_parent(parent, path=module_path, nodeid=relative.as_posix())


# -- case items -----------------------------------------------------------------------

CASES_ATTRIBUTE = "nnhal_cases"
"""A test function carrying ``(argnames, make)`` under this name is collected as one item
per ``pytest.param`` that ``make(config)`` gives (``conformance.harness.marks.cases``)."""


class CaseItem(pytest.Function):
    """One case of a test function collected through ``CASES_ATTRIBUTE``.

    Like an item of ``pytest.mark.parametrize`` (the same node id, marks and
    keywords), but the values are bound to the function beforehand: pytest
    sets up no fixture for the arguments, which for a parametrized argument
    costs every test a fixture definition, a sub-request and its teardown.
    ``case_params`` and ``case_id`` stand for ``callspec``'s ``params`` and ``id``.
    """

    def __init__(self, *, case_params: dict, case_id: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.case_params = case_params
        self.case_id = case_id

    @property
    def ihook(self):
        """The hooks pytest calls for this item: its path's, the per-test ones without the
        plugins that have nothing to do for a case item (``lean_hooks``)."""
        return lean_hooks(self)

    @functools.cached_property
    def location(self) -> tuple[str, int | None, str]:
        """pytest's ``Item.location`` (the file relative to the root, the function's line,
        the name within the module), its first two parts worked out once for all the items
        of one function: pytest's own finds the function's source line and relative path
        for every item, a hundredth of a millisecond each of the suite's items."""
        shared = self.parent.stash.setdefault(_LOCATIONS, {})
        known = shared.get(self.originalname)
        if known is None:
            path, line, name = super().location
            known = shared[self.originalname] = (path, line, name[: len(name) - len(self.name)])
        path, line, prefix = known
        return (path, line, prefix + self.name)


_LOCATIONS = pytest.StashKey["dict[str, tuple[str, int | None, str]]"]()
"""On a module (or class) node: a case function's name -> its items' location but the name."""


PER_TEST_HOOKS = (
    "pytest_runtest_logstart",
    "pytest_runtest_setup",
    "pytest_runtest_call",
    "pytest_runtest_teardown",
    "pytest_runtest_makereport",
    "pytest_runtest_logreport",
    "pytest_runtest_logfinish",
)
"""The hooks pytest calls for every test, three of them once per phase."""
IDLE_PLUGINS = ("unittest", "tmpdir", "hypothesispytest")
"""Plugins with per-test hooks that do nothing for a case item: it is no unittest case, takes
no temporary folder and is no hypothesis test (each checks and returns)."""
_LOGGING = "logging-plugin"
_LEAN = pytest.StashKey["dict[Path, object]"]()


class _LeanHooks:
    """``config.hook`` with ``PER_TEST_HOOKS`` leaving some plugins out (pluggy's subset
    callers: what pytest itself uses to leave out conftests of other folders)."""

    def __init__(self, config: pytest.Config, left_out: list) -> None:
        self._hook = config.hook
        for name in PER_TEST_HOOKS:
            setattr(self, name, config.pluginmanager.subset_hook_caller(name, left_out))

    def __getattr__(self, name: str):
        return getattr(self._hook, name)


def lean_hooks(item: pytest.Item):
    """A case item's hooks: those of its path, but for every test of the suite's hundreds
    of thousands the per-test hooks leave out ``IDLE_PLUGINS``, and pytest's logging plugin
    unless the run configures logging (``--log-level``, ``--log-cli-level``, ``--log-file``
    or their ini settings): log records of the harness are then not attached to the test's
    report (the driver's are in its service's log, or on stderr in-process, which pytest
    still captures). pytest's per-test cost, about 0.47 ms, fell by a fifth. An item whose
    path has conftests of its own keeps its path's hooks as they are."""
    config = item.config
    known = config.stash.setdefault(_LEAN, {})
    path = item.path
    if path not in known:
        proxy = item.session.gethookproxy(path)
        if proxy is not config.hook:
            known[path] = proxy
        else:
            names = [*IDLE_PLUGINS, *(() if _logging_asked(config) else (_LOGGING,))]
            plugins = [config.pluginmanager.get_plugin(name) for name in names]
            known[path] = _LeanHooks(config, [p for p in plugins if p is not None])
    return known[path]


def _logging_asked(config: pytest.Config) -> bool:
    """Whether the run configures pytest's logging (then it keeps every test's records)."""
    options = ("log_level", "log_cli_level", "log_file")
    settings = ("log_cli", "log_level", "log_cli_level", "log_file")
    return any(config.getoption(o, None) for o in options) or any(_ini(config, s) for s in settings)


def _ini(config: pytest.Config, name: str) -> object:
    try:
        return config.getini(name)
    except ValueError:
        return None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object):
    spec = getattr(obj, CASES_ATTRIBUTE, None)
    if spec is None or not callable(obj) or not isinstance(collector, pytest.Module):
        return None
    argnames, make = spec
    own_marks = list(getattr(obj, "pytestmark", []))
    items: list[CaseItem] = []
    wanted = _cases_wanted(collector, name)
    if wanted is not None and not wanted:
        return items  # the run names other items only: skip making this function's cases
    config = collector.config
    seen: set[str] = set()
    levels = _ByMarks(functools.partial(_within_level, config))
    named_operations = frozenset(config.getoption("--nnhal-op", None) or ())
    if any(getattr(m, "name", "") == "generated_case" for m in own_marks):
        named_operations = frozenset()  # its items' operations: pytest_collection_modifyitems
    by_marks = _ByMarks(functools.partial(_names_one_of, named_operations))
    left = {"filter": 0, "smoke": 0, "shard": 0, "above": 0}
    shard = _shard_before_building(config)
    prefix = f"{collector.obj.__name__}::{name}[" if shard is not None else ""
    selects: Callable[[str, object], bool] = every_case
    if _filtered(config):
        probe = _Probe(tuple(None for _ in argnames))
        selects = _selection(
            collector, _case_item(collector, name, obj, own_marks, argnames, probe, None)
        )
        if selects is every_case:
            shard = None  # -k or -m that _selection cannot read: pytest deselects first

    def of_operations(marks, operations) -> bool:
        """Whether ``--nnhal-op`` may keep the case: its ``generated_case`` mark, else the
        ``operations`` its item exercises (when known), names one of those it names."""
        answer = by_marks.answer(marks)
        if answer is None and operations is not None:
            return not named_operations.isdisjoint(map(str, operations))
        return answer is not False

    def builds(case_id: str, marks, operations=None) -> bool:
        """Whether the item of ``case_id`` with ``marks`` is built: within the tested level,
        named by the run, kept by its ``-k``, ``-m`` and ``--nnhal-op`` (by ``operations``,
        the operations its item exercises, where its marks do not name them) and in its own
        shard. What is not is counted by why (``left``)."""
        within = levels.known.get(id(marks))  # inline, not a call: per case of 500,000
        if within is None or within[0] is not marks:
            within = levels.miss(marks)
        if not within[1]:
            left["above"] += 1
        elif (
            (wanted is not None and case_id not in wanted)
            or not selects(case_id, marks)
            or (named_operations and not of_operations(marks, operations))
        ):
            left["filter"] += 1
        elif shard is not None and not shard.keeps(f"{prefix}{case_id}]"):
            left["shard"] += 1
        else:
            return True
        return False

    def picks(case_id: str, marks, operations=None) -> bool:
        """``builds``, for a ``make`` that asks before it makes a case (``marks.case_pick``):
        the id of a case it will not list is checked for a twin here."""
        if builds(case_id, marks, operations):
            return True
        if case_id in seen:
            raise _twins(collector, name, case_id)
        seen.add(case_id)
        return False

    def kept(param) -> bool:
        """Whether a listed parameter's item is built (``builds``), its id checked for a
        twin."""
        if param.id in seen:
            raise _twins(collector, name, param.id)
        seen.add(param.id)
        listed = None
        if named_operations:  # what the item's facts will say it exercises (item_operations)
            listed = params_operations(dict(zip(argnames, param.values, strict=True)))
        return builds(param.id, param.marks, listed)

    fixtures: list = []  # the first item's fixture info, once it is built

    def build(param) -> CaseItem:
        # Every case has the fixtures of the first (resolved once: per item it made a full
        # collection half as long again).
        item = _case_item(
            collector, name, obj, own_marks, argnames, param, fixtures[0] if fixtures else None
        )
        if not fixtures:
            fixtures.append(item._fixtureinfo)
        for marker in param.marks:
            item.add_marker(marker)
        return item

    if config.getoption("--nnhal-smoke", False):
        twin = functools.partial(_twins, collector, name)
        sample = _SmokeSample(config, f"{collector.obj.__name__}::{name}[", build, twin)
        items += sample.items(make, wanted, picks, kept)
        left["smoke"] = sample.left_out
    else:
        items += [build(param) for param in _made(config, make, wanted, picks) if kept(param)]
    nodeid = f"{collector.nodeid}::{name}"
    for reason in ("filter", "smoke", "shard"):
        if left[reason]:
            config.stash.setdefault(_UNBUILT, []).append(UnbuiltCases(nodeid, left[reason], reason))
    if left["above"]:
        config.stash[_ABOVE_LEVEL] = above_level(config) + left["above"]
    return items


@dataclass(frozen=True)
class _Probe:
    """A case of no id and no marks, whose item ``_selection`` reads the names and marks every
    case of a function shares from."""

    values: tuple
    id: str = ""
    marks: tuple = ()


def _twins(collector: pytest.Collector, name: str, case_id: str) -> pytest.Collector.CollectError:
    return pytest.Collector.CollectError(
        f"{collector.nodeid}::{name}: two cases have the id {case_id!r}; every case "
        "needs its own id (each item must be rerunnable alone)"
    )


class _SmokeSample:
    """``--nnhal-smoke``'s sample of one ``cases`` function, chosen before its items are
    built: the items ``smoke_sample`` would keep of them all, built with as few others as it
    takes to tell which.

    The cases the run keeps are listed first without being made (``make``'s asks are
    answered no and noted; what it lists anyway is kept), in ``smoke_sample``'s order (the
    hashes of their test ids). Then the first few in that order are built and sampled as
    ``smoke_sample`` samples a whole function; when the driver supports fewer of them than
    the sample takes, four times as many are, until the sample is decided or every case
    was built. Cases left out are counted as deselected by ``smoke``."""

    FIRST = 16
    """Cases built in the first round."""

    def __init__(self, config: pytest.Config, prefix: str, build: Callable, twin: Callable):
        self.config, self.prefix, self.build, self.twin = config, prefix, build, twin
        self.left_out = 0

    def items(self, make: Callable, wanted, picks: Callable, kept: Callable) -> list:
        import hashlib

        listed: dict[str, object] = {}  # case id -> its parameter, None when not made yet
        twins: set[str] = set()

        def noted(case_id: str, marks, operations=None) -> bool:
            if picks(case_id, marks, operations):
                if case_id in twins:
                    raise self.twin(case_id)
                twins.add(case_id)
                listed[case_id] = None
            return False

        for param in _made(self.config, make, wanted, noted):
            if kept(param):
                listed[param.id] = param
        key = {i: hashlib.sha256(f"{self.prefix}{i}]".encode()).digest() for i in listed}
        order = sorted(listed, key=key.__getitem__)
        support = smoke_support(self.config)
        built: dict[str, pytest.Item] = {}
        count = self.FIRST
        while True:
            front = order[:count]
            missing = {i for i in front if listed[i] is None}
            if missing:
                for param in _made(self.config, make, wanted, _among(missing)):
                    if param.id in missing:
                        listed[param.id] = param
            for case_id in front:
                if case_id not in built:
                    built[case_id] = self.build(listed[case_id])
            in_order = [built[i] for i in front]
            chosen = smoke_sample(in_order, support)
            # Decided once the sample's scan stopped among them: it stops at the
            # SMOKE_PER_TEST-th supported item that compares output values.
            strong = [
                i for i in in_order if support.supports(i) is not False and not _compares_nothing(i)
            ]
            if count >= len(order) or len(strong) >= SMOKE_PER_TEST:
                break
            count *= 4
        keep = {id(item) for item in chosen}
        self.left_out = len(order) - len(keep)
        return [built[i] for i in listed if i in built and id(built[i]) in keep]


def _among(case_ids: set[str]) -> Callable[..., bool]:
    """A ``case_pick`` answer: yes for ``case_ids`` only."""
    return lambda case_id, marks, operations=None: case_id in case_ids


def smoke_support(config: pytest.Config) -> DriverSupport:
    """The run's ``DriverSupport``: one for its whole collection (each model asked once)."""
    if _SUPPORT not in config.stash:
        config.stash[_SUPPORT] = DriverSupport(config)
    return config.stash[_SUPPORT]


def _made(config: pytest.Config, make: Callable, wanted: set[str] | None, picks: Callable) -> list:
    """What ``make(config)`` lists, made knowing the case ids the run names (``wanted``;
    ``conformance.harness.marks.cases_wanted``) and able to ask which cases the run builds
    (``picks``; ``conformance.harness.marks.case_pick``)."""
    config.stash[CASES_WANTED] = None if wanted is None else frozenset(wanted)
    config.stash[CASE_PICK] = picks
    try:
        return make(config)
    finally:
        config.stash[CASES_WANTED] = None
        config.stash[CASE_PICK] = None


def _shard_before_building(config: pytest.Config):
    """The run's ``--shard`` (``plugins.report.shard.Shard``) when case items of other
    shards can be left unbuilt: a test's shard is a hash of its id alone
    (``plugins.report.shard.shard_key``), so a case item
    the run's node ids, ``-k`` and ``-m`` keep is built only in its own shard (the rest
    are counted as collected and deselected by ``shard``, as if built and dropped). None
    without ``--shard``, and with ``--nnhal-smoke`` or ``--nnhal-op``, which choose
    among the whole collection before the shard split."""
    if _SHARD not in config.stash:
        text = config.getoption("--shard", None)
        early = not (
            config.getoption("--nnhal-smoke", False) or config.getoption("--nnhal-op", None)
        )
        if text is None or not early:
            config.stash[_SHARD] = None
        else:
            from plugins.report.shard import Shard

            config.stash[_SHARD] = Shard.parse(text)
    return config.stash[_SHARD]


def _above_level(config: pytest.Config, mark) -> bool:
    """Whether a ``hal_level`` mark from ``conformance.harness.marks.level_marks`` (a level
    from 1.3 on) asks for more than the tested level. Such a test is not collected at all:
    a driver tested at HAL 1.2 collects exactly what it always did, whatever later levels
    add (lower ``hal_level`` marks keep the run-time skip of ``plugins.running``)."""
    known = config.stash.setdefault(_ABOVE, {})
    text = str(mark.args[0])
    if text not in known:  # asked per case of 520,000: the answer per level is kept
        from conformance.harness.marks import UNBUILT_FROM
        from hal.types import HalVersion
        from plugins.driver import tested_level

        needed = HalVersion.parse(text)
        known[text] = needed >= UNBUILT_FROM and needed > tested_level(config)
    return known[text]


def _within_level(config: pytest.Config, marks) -> bool:
    """Whether a case is within the tested level (``_above_level``) by every ``hal_level``
    mark it has (``marks``: its run's and its case's): one that is not is not built."""
    for decorator in marks:
        mark = getattr(decorator, "mark", decorator)
        if mark.name == "hal_level" and _above_level(config, mark):
            return False
    return True


def _drop_above_level(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Take out the tests pytest parametrized itself that are above the tested level
    (``_above_level``), as the case items of such a level are never built: uncounted,
    neither collected nor deselected. Case items were judged when they were built."""

    def above(item: pytest.Item) -> bool:
        if isinstance(item, CaseItem):
            return False
        marker = item.get_closest_marker("hal_level")
        return marker is not None and _above_level(config, marker)

    kept = [item for item in items if not above(item)]
    dropped = len(items) - len(kept)
    if dropped:
        items[:] = kept
        config.stash[_ABOVE_LEVEL] = above_level(config) + dropped
        terminal = config.pluginmanager.get_plugin("terminalreporter")
        if terminal is not None and hasattr(terminal, "_numcollected"):
            terminal._numcollected -= dropped
        stage = config.stash.get(_STAGE, None)
        if stage is not None:
            stage.count -= dropped


def above_level(config: pytest.Config) -> int:
    """How many cases this process left unbuilt for needing a HAL level above the tested
    one (they are no tests of this run: neither collected nor deselected)."""
    return config.stash.get(_ABOVE_LEVEL, 0)


def _case_item(collector, name, obj, own_marks, argnames, param, fixtureinfo) -> CaseItem:
    """The item of one case (without the case's own marks)."""
    bound = dict(zip(argnames, param.values, strict=True))
    call = functools.partial(obj, **bound)
    call.pytestmark = own_marks  # the function's own marks, read where pytest reads them
    return CaseItem.from_parent(
        collector,
        name=f"{name}[{param.id}]",
        callobj=call,
        fixtureinfo=fixtureinfo,
        case_params=bound,
        case_id=param.id,
    )


# -- selection ------------------------------------------------------------------------


def _selection(collector: pytest.Collector, probe: CaseItem) -> Callable[[str, object], bool]:
    """Whether a case's item would survive the run's ``-k`` and ``-m``, told from its id and
    marks (``selects(case_id, marks)``) before the item is built (building 65,000 items to
    keep ten took most of a selective run's collection).

    Every case of a function shares its module, function and markers in scope: they are
    read once off ``probe`` (an item of the first case without its own marks), the way
    pytest's own matchers read them; each case adds its name, its marks and the folder
    and operations ``pytest_collection_modifyitems`` adds as keywords. Anything this
    cannot read as pytest would (pytest internals changed, a bad expression, known
    failures adding xfail marks) keeps every case, and pytest's own deselection decides.
    """
    config = collector.config
    keyword, markexpr = config.option.keyword.strip(), config.option.markexpr.strip()
    if not _filtered(config) or config.getoption("--expect-fail", None):
        return every_case
    try:
        from _pytest.mark import KeywordMatcher, MarkMatcher
        from _pytest.mark.expression import Expression

        by_keyword = Expression.compile(keyword) if keyword else None
        by_mark = Expression.compile(markexpr) if markexpr else None
        markers = list(probe.iter_markers())
        names = set(KeywordMatcher.from_item(probe)._names) - {probe.name}
        names |= _case_keywords(markers)
    except Exception:
        return every_case
    function = probe.name.partition("[")[0]
    shared = [name.lower() for name in names]
    in_shared: dict[str, bool] = {}
    """Whether an identifier of ``-k`` matches one of the names every case has: asked once
    per identifier, not once per case."""

    def matcher(own: str) -> Callable[..., bool]:
        def matches(subname: str, /, **kwargs) -> bool:  # KeywordMatcher's, split in two
            if kwargs:
                return KeywordMatcher(set())(subname, **kwargs)  # pytest's refusal
            sub = subname.lower()
            if sub not in in_shared:
                in_shared[sub] = any(sub in name for name in shared)
            return in_shared[sub] or (sub in own and "\0" not in sub)

        return matches

    # The expression's verdict depends only on which of its identifiers match: those no
    # shared name matches are searched in each case's names, and the expression is
    # evaluated once per pattern of answers (pytest's evaluation, made for each of
    # 400,000 cases, was a fifth of a selective run's collection).
    own_idents: tuple[str, ...] | None = None
    verdicts: dict[tuple[bool, ...], bool] = {}
    if by_keyword is not None:
        try:
            lowered = {ident.lower() for ident in by_keyword.idents()}
        except Exception:  # an older pytest: evaluated case by case
            lowered = None
        if lowered is not None:
            for sub in lowered:
                in_shared[sub] = any(sub in name for name in shared)
            own_idents = tuple(sorted(s for s in lowered if "\0" not in s and not in_shared[s]))

    def of_marks(sequence) -> tuple[str, bool]:
        """A case's marks' names and keywords, lowered and joined, and whether ``-m`` keeps
        them."""
        marks = [getattr(m, "mark", m) for m in sequence]
        text = "\0".join([*(m.name for m in marks), *_case_keywords(marks)]).lower()
        kept = by_mark is None or by_mark.evaluate(MarkMatcher.from_markers(markers + marks))
        return text, kept

    by_marks = _ByMarks(of_marks)

    def selects(case_id: str, marks) -> bool:
        known = by_marks.known.get(id(marks))
        if known is None or known[0] is not marks:
            known = by_marks.miss(marks)
        marks_text, kept = known[1]
        if not kept:
            return False
        if by_keyword is not None:
            # The case's own names, lowered and joined by a character no identifier of an
            # expression holds: one search finds a substring of any of them, and none
            # that would span two (pytest's own deselection would drop what such a span
            # kept, but only after building it).
            own = f"{function}[{case_id}]".lower()
            if marks_text:
                own = f"{own}\0{marks_text}"
            if own_idents is None:
                verdict = by_keyword.evaluate(matcher(own))
            else:
                pattern = tuple([sub in own for sub in own_idents])
                verdict = verdicts.get(pattern)
                if verdict is None:
                    verdict = verdicts[pattern] = by_keyword.evaluate(matcher(own))
            if not verdict:
                return False
        return True

    return selects


class _ByMarks:
    """What ``work`` gives for a case's marks, worked out once for each set of marks.

    ``known`` holds the answer by the identity of the marks' sequence (the cases of one
    generated case share theirs), with the sequence beside it, so that no id is reused
    while it is a key; the caller looks there first, inline (it is asked for each of
    500,000 cases). On a miss, the answer is looked up by the identities of the marks in the
    sequence, which the suite's cases share (``conformance.harness.marks.mark``): each
    generated case has a sequence of its own but there are a few hundred sets of marks."""

    def __init__(self, work: Callable[[object], object]) -> None:
        self.work = work
        self.known: dict[int, tuple[object, object]] = {}
        self.by_marks: dict[tuple[int, ...], tuple[object, object]] = {}

    def answer(self, sequence) -> object:
        """What ``work`` gives for ``sequence`` (the lookup callers on the hottest path
        write inline)."""
        known = self.known.get(id(sequence))
        if known is None or known[0] is not sequence:
            known = self.miss(sequence)
        return known[1]

    def miss(self, sequence) -> tuple[object, object]:
        key = tuple(map(id, sequence))
        found = self.by_marks.get(key)
        if found is None:  # the first sequence of these marks is held: their ids stay theirs
            found = self.by_marks[key] = (sequence, self.work(sequence))
        entry = self.known[id(sequence)] = (sequence, found[1])
        return entry


def _filtered(config: pytest.Config) -> bool:
    """Whether the run has a ``-k`` or ``-m`` expression."""
    return bool(config.option.keyword.strip() or config.option.markexpr.strip())


def _names_one_of(operations: frozenset[str], marks) -> bool | None:
    """Whether the ``generated_case`` mark among a case's ``marks`` names one of
    ``operations`` (``--nnhal-op``); None when no such mark names operations. The first one
    is the one its item's ``get_closest_marker`` finds (``item_operations``)."""
    for decorator in marks:
        mark = getattr(decorator, "mark", decorator)
        if mark.name == "generated_case" and len(mark.args) > 1:
            return not operations.isdisjoint(str(op) for op in mark.args[1])
    return None


def _case_keywords(marks) -> set[str]:
    """The keywords ``pytest_collection_modifyitems`` gives a generated case's item."""
    found: set[str] = set()
    for mark in marks:
        if mark.name == "generated_case":
            found.update({mark.args[0], *mark.args[1]})
    return found


@dataclass(frozen=True)
class UnbuiltCases:
    """The cases of one function a selection left out before their items were built."""

    nodeid: str
    """The function's node id (``conformance/test_generated.py::test_generated``)."""
    count: int
    reason: str = "filter"
    """Why: ``filter`` (node ids, ``-k``, ``-m``) or ``shard`` (``_shard_before_building``)."""


@dataclass(frozen=True)
class DeselectedCase:
    """What ``pytest_deselected`` is given for a test deselected without an item here: a
    case left unbuilt (its function's node id), or under xdist, on the controller, a test
    a worker deselected (the worker's id). pytest's terminal only counts them."""

    nodeid: str


def unbuilt_cases(config: pytest.Config) -> int:
    """Cases a selection (node ids, ``-k``, ``-m``, ``--shard``) left out before their items
    were built.

    pytest never saw them; ``pytest_collection_modifyitems`` counts them as collected and
    deselected, in pytest's own line as everywhere else, so that a partial run never
    reads as the whole suite and a selective run counts what a run that builds
    everything counts.
    """
    return sum(cases.count for cases in config.stash.get(_UNBUILT, []))


def deselect(config: pytest.Config, dropped: list, reason: str) -> None:
    """Deselect ``dropped`` for ``reason`` (``plugins.report.counts.REASONS``)."""
    if dropped:
        counts = config.stash.setdefault(_DESELECTED, {"total": 0})
        counts[reason] = counts.get(reason, 0) + len(dropped)
        config.hook.pytest_deselected(items=dropped)


def pytest_deselected(items) -> None:
    config = innermost_run()
    if config is not None:
        counts = config.stash.setdefault(_DESELECTED, {"total": 0})
        counts["total"] += len(items)


def deselected_by(config: pytest.Config) -> dict[str, int]:
    """The run's deselected tests by reason: those ``deselect`` named, the rest
    (pytest's -k, -m, --deselect; the cases left unbuilt) by ``filter``."""
    from plugins.report.counts import REASONS

    counts = config.stash.get(_DESELECTED, {"total": 0})
    named = {reason: counts.get(reason, 0) for reason in REASONS if reason != "filter"}
    return {"filter": counts["total"] - sum(named.values()), **named}


_WORKER_KEY = "nnhal_deselected_by"


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker hands its deselected counts to the controller."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output[_WORKER_KEY] = deselected_by(session.config)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """The controller, which collects nothing, deselects what its first worker did (every
    worker collects and deselects the same), so that pytest's summary counts them too."""
    config = node.config
    by = getattr(node, "workeroutput", {}).get(_WORKER_KEY)
    if by is None or config.stash.get(_DESELECTED, {"total": 0})["total"]:
        return
    placeholder = DeselectedCase(f"<deselected by worker {node.gateway.id}>")
    for reason, count in by.items():
        deselect(config, [placeholder] * count, reason)


def _count_unbuilt(config: pytest.Config) -> None:
    """The cases left unbuilt, collected and deselected in pytest's count too (its
    terminal counts the items of collection reports, which these never were in)."""
    unbuilt = config.stash.get(_UNBUILT, [])
    if not unbuilt:
        return
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    if terminal is not None and isinstance(getattr(terminal, "_numcollected", None), int):
        terminal._numcollected += unbuilt_cases(config)
    placeholders: dict[str, list[DeselectedCase]] = {"filter": [], "shard": []}
    for cases in unbuilt:
        placeholders.setdefault(cases.reason, [])
        placeholders[cases.reason] += [DeselectedCase(cases.nodeid)] * cases.count
    config.hook.pytest_deselected(items=placeholders.pop("filter"))
    for reason, dropped in placeholders.items():
        deselect(config, dropped, reason)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _count_unbuilt(config)
    _drop_above_level(config, items)
    for item in items:
        marker = item.get_closest_marker("generated_case")
        if marker is not None:
            item.extra_keyword_matches.update(_case_keywords([marker]))
    wanted = set(config.getoption("--nnhal-op"))
    if wanted:
        _keep(config, items, [item for item in items if wanted & set(item_operations(item))])
    if config.getoption("--nnhal-smoke"):  # a sample of what --nnhal-op kept
        _keep(config, items, smoke_sample(items, smoke_support(config)), "smoke")


def smoke_sample(
    items: list[pytest.Item], support: DriverSupport | None = None
) -> list[pytest.Item]:
    """``SMOKE_PER_TEST`` items of each test function (every category has some), the same on
    every machine and run for a driver that answers the same: in the order of their test
    ids' hashes, the first items the driver supports (``support``: an item of a case the
    driver supports, or naming only operations it supports, or of no case or operation at
    all), then, where a function has fewer of those, the first of its other items."""
    import hashlib

    groups: dict[tuple, list[tuple[bytes, int]]] = {}
    for position, item in enumerate(items):
        module = getattr(item, "module", None)
        key = (module and module.__name__, item.name.partition("[")[0])
        digest = hashlib.sha256(test_id(item).encode()).digest()
        groups.setdefault(key, []).append((digest, position))
    chosen: list[int] = []
    for group in groups.values():
        order = [position for _, position in sorted(group)]
        picked = support.pick(items, order, SMOKE_PER_TEST) if support is not None else []
        rest = [p for p in order if p not in picked]
        chosen += picked + rest[: SMOKE_PER_TEST - len(picked)]
    return [items[p] for p in sorted(chosen)]


@dataclasses.dataclass(frozen=True)
class _Model:
    """A model an item runs, as ``DriverSupport`` asks about it: its key (a generated
    case's id; ``invalid:NAME`` for an invalid-value case), how to build it, the
    operations it names, and the oldest HAL level it is valid at."""

    key: str
    build: Callable[[], object]
    operations: tuple[str, ...]
    lowest: Callable[[object], object]


class DriverSupport:
    """What the driver under test supports, asked while a smoke run chooses its sample.

    A driver that supports three operations declines nearly every item of a sample
    drawn blind. So the sample asks the driver first: ``get_supported_operations`` of
    the tested level for the model of each item it considers (a generated case's, for
    the generated, prepare, fresh, memory-pool, burst, caching and validation items; an
    invalid-value case's), a few models a round trip, each model once; a model is
    supported when the driver answers NONE and true for each of its operations. An
    item that names operations but no model (the parameter-space corners) counts as
    supported when the driver supported each of them in some case asked: the cases of
    such an operation are asked, the fewest operations first, at most
    ``OPERATION_CASES`` of them. A model of a level above the tested one is not
    supported. If the driver cannot be asked (it hung, crashed, or its process is
    gone) nothing more is asked, and what is not yet known counts as supported, so the
    rest of the sample is the plain one.
    """

    BATCH = 16
    """Models asked about in one round trip."""
    OPERATION_CASES = 12
    """Cases asked about at most to find whether the driver supports an operation."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.models: dict[str, bool] = {}
        """Model key -> whether the driver supports every operation of it."""
        self.operations: dict[str, bool] = {}
        """Operation -> whether the driver supported it in some case asked."""
        self.broken = False
        self._decided: set[str] = set()
        self._driver: tuple[object, object] | None = None
        self._by_id: dict[str, _Model] | None = None

    def pick(self, items: list[pytest.Item], order: list[int], count: int) -> list[int]:
        """The first ``count`` positions of ``order`` whose items the driver supports (or
        that test no model and name no operation), those that compare output values
        first (an item that compares none, such as a ``-dyn-short`` one, earns its
        operation no credit)."""
        picked: list[int] = []
        weak: list[int] = []
        for index, position in enumerate(order):
            if len(picked) == count:
                break
            model = self.model_of(items[position])
            if model is not None and model.key not in self.models:
                ahead = (self.model_of(items[p]) for p in order[index : index + 4 * self.BATCH])
                self._ask([m for m in ahead if m is not None])
            if self.supports(items[position], model) is not False:
                (weak if _compares_nothing(items[position]) else picked).append(position)
        return (picked + weak)[:count]

    def supports(self, item: pytest.Item, model: _Model | None = None) -> bool | None:
        """Whether the driver supports what ``item`` tests; None when it tests no model and
        names no operation, or the driver could not be asked."""
        model = model if model is not None else self.model_of(item)
        if model is not None:
            self._ask([model])
            return self.models.get(model.key)
        operations = item_operations(item)
        if not operations:
            return None
        answers = [self._operation(op) for op in operations]
        return None if None in answers else all(answers)

    def model_of(self, item: pytest.Item) -> _Model | None:
        """The model an item runs: its generated case (a parameter holding it, or naming it
        by id), or its invalid-value case; None for any other item."""
        from plugins.report.facts import _generated_test

        params = dict(getattr(getattr(item, "callspec", None), "params", None) or {})
        params = params or dict(getattr(item, "case_params", {}))
        test = _generated_test(params)
        if test is not None:
            return self._by_key().get(_case_key(test)) or _case_model(test)
        case = params.get("case")
        if isinstance(case, str):
            return self._by_key().get(case)
        build, name = getattr(case, "model", None), getattr(case, "name", None)
        if callable(build) and isinstance(name, str):
            from hal.validation import minimum_version

            operation = name.partition("/")[0]
            return _Model(f"invalid:{name}", build, (operation,), minimum_version)
        return None

    def _by_key(self) -> dict[str, _Model]:
        if self._by_id is None:
            from conformance.harness.generated import corpus

            models = (_case_model(test) for test in corpus())
            self._by_id = {model.key: model for model in models}
        return self._by_id

    def _operation(self, operation: str) -> bool | None:
        if operation not in self._decided and not self.operations.get(operation):
            self._decided.add(operation)
            cases = [m for m in self._by_key().values() if operation in m.operations]
            cases.sort(key=lambda m: (len(set(m.operations)), m.key))
            self._ask(cases[: self.OPERATION_CASES])
        if self.broken and operation not in self.operations:
            return None
        return self.operations.get(operation, False)

    def _ask(self, models: list[_Model]) -> None:
        """Ask the driver about every model of ``models`` not yet asked, ``BATCH`` a call."""
        fresh = {m.key: m for m in models if m.key not in self.models}
        if not fresh or self.broken:
            return
        device, level = self._device()
        asked = []
        for key, model in fresh.items():
            try:
                built = model.build()
                lowest = model.lowest(built)
            except Exception:  # a case that cannot be built: its item will say why
                self.models[key] = False
                continue
            if lowest is None or lowest > level:
                self.models[key] = False
            else:
                asked.append((key, model, built))
        for start in range(0, len(asked), self.BATCH):
            if not self._ask_batch(device, level, asked[start : start + self.BATCH]):
                self.broken = True
                return

    def _ask_batch(self, device, level, batch: list) -> bool:
        from conformance.harness.calls import call_many
        from hal.levels import level as level_of

        method = level_of(level).supported_operations
        try:
            outcomes = call_many([(device, method, (built,)) for _, _, built in batch])
        except BaseException as error:  # a driver fault: ask no more
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
            return False
        for (key, model, built), (ok, value) in zip(batch, outcomes, strict=False):
            if not ok and not isinstance(value, Exception):
                return False  # a hang or a crash ends the list
            answers = _supported_answers(value, len(built.operations)) if ok else None
            self.models[key] = answers is not None and all(answers)
            for name, answer in _operation_answers(model, built, answers or []):
                self.operations[name] = self.operations.get(name, False) or answer
        return len(outcomes) == len(batch)

    def _device(self) -> tuple[object, object]:
        if self._driver is None:
            from plugins.driver import loaded_driver, tested_level

            self._driver = (loaded_driver(self.config).device, tested_level(self.config))
        return self._driver


def _compares_nothing(item: pytest.Item) -> bool:
    """Whether an item says it compares no output value (a parameter's ``computes``)."""
    params = dict(getattr(getattr(item, "callspec", None), "params", None) or {})
    params = params or dict(getattr(item, "case_params", {}))
    return any(getattr(value, "computes", None) is False for value in params.values())


def _case_key(test) -> str:
    from conformance.harness.items import CaseId

    return CaseId.of(test).case


def _case_model(test) -> _Model:
    """A generated case as ``DriverSupport`` asks about it."""
    from conformance.harness.generated import lowest_version

    return _Model(
        _case_key(test),
        lambda: test.model,
        tuple(test.provenance.operations),
        lambda _model: lowest_version(test),
    )


def _operation_answers(model: _Model, built, answers: list[bool]) -> list[tuple[str, bool]]:
    """(operation, supported) of each operation of a model the driver answered for: every
    operation the model names when it supports them all, else each by its
    ``OperationType`` name (an extension's operation, unnamed there, counts as declined)."""
    from hal.types import OperationType

    if answers and all(answers):
        return [(name, True) for name in model.operations]
    found = []
    for operation, answer in zip(built.operations, answers, strict=False):
        try:
            found.append((OperationType(operation.type).name, answer))
        except ValueError:
            continue
    return found


def _supported_answers(value: object, operations: int) -> list[bool] | None:
    """The driver's per-operation answer from ``get_supported_operations*``'s result: a list
    of ``operations`` bools with status NONE, else None."""
    if not (isinstance(value, tuple) and len(value) == 2):
        return None
    status, answers = value
    if status != 0 or type(answers) is not list or len(answers) != operations:
        return None
    if not all(type(answer) is bool for answer in answers):
        return None
    return answers


def _keep(
    config: pytest.Config, items: list[pytest.Item], kept: list[pytest.Item], reason="filter"
) -> None:
    """Leave ``kept`` in ``items``, deselecting the rest for ``reason``."""
    keep = {id(item) for item in kept}
    dropped = [item for item in items if id(item) not in keep]
    if dropped:
        deselect(config, dropped, reason)
        items[:] = kept


def check_operation_names(names: list[str]) -> None:
    """Every ``--nnhal-op`` must name an operation exactly: an ``OperationType`` name, or a
    known vendor extension's operation as ``extension.name:OPERATION`` (the packs'
    extensions are known by now); else a one-line usage error."""
    import difflib

    from hal.extensions import qualified_operation, split_qualified
    from hal.types import OperationType

    known = list(OperationType.__members__)
    for name in names:
        if split_qualified(name) is not None:
            try:
                qualified_operation(name)
            except ValueError as error:
                raise pytest.UsageError(f"--nnhal-op={name}: {error}") from None
            continue
        if name not in OperationType.__members__:
            close = difflib.get_close_matches(name.upper(), known, n=3)
            hint = f"did you mean {', '.join(close)}?" if close else "e.g. ADD, CONV_2D"
            raise pytest.UsageError(
                f"--nnhal-op={name}: unknown operation (an OperationType name, exact, or "
                f"extension.name:OPERATION; {hint})"
            )


def item_operations(item: pytest.Item) -> list[str]:
    """The operations a test exercises: its generated case's, or none it can name."""
    marker = item.get_closest_marker("generated_case")
    if marker is not None and len(marker.args) > 1:
        return [str(op) for op in marker.args[1]]
    from plugins.report.facts import item_facts

    return item_facts(item)["operations"]


# -- progress -------------------------------------------------------------------------


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session):
    """Collect with the cyclic garbage collector off, then freeze what collection built.

    Collection makes a few hundred thousand long-lived objects (items, marks, the
    corpus) and almost no garbage; with the collector on, the oldest generation is
    scanned again and again as the heap grows. Frozen afterwards, those objects are
    never scanned again, so collections during the run only look at what tests make.
    """
    enabled = gc.isenabled()
    gc.disable()
    stage = _CollectionStage.start(session.config)
    try:
        return (yield)
    finally:
        if enabled:
            gc.freeze()  # no collection first: it would scan everything once more
            gc.enable()
            if not session.config.pluginmanager.has_plugin(_Freezer.NAME):
                session.config.pluginmanager.register(_Freezer(), _Freezer.NAME)
        if stage is not None:
            stage.finish(session.config, len(session.items))


class _Freezer:
    """Freezes what the tests keep, every ``EVERY`` tests, so the collector stops scanning it.

    A run keeps something of every test: pytest holds its reports to the end, and so
    does the report plugin. Without this, every full collection scanned all of them
    again. In one shard of a certification (75,000 tests) that was 60 to 85 full
    collections, a tenth of the run's time. Between two tests (``pytest_runtest_logfinish``)
    what is left of the tests so far is long-lived; it is collected once (only what
    was not frozen yet: a few hundredths of a second) and frozen.

    Something frozen that later becomes garbage in a cycle would never be collected:
    a cache entry evicted, say, holding a driver's object that refers back to itself.
    So every ``SWEEP_EVERY`` freezes everything is unfrozen, collected and frozen
    again (about a second for two million objects). Such garbage therefore lives at
    most ``EVERY * SWEEP_EVERY`` tests longer than it would have.
    """

    NAME = "nnhal-freezer"
    EVERY = 2000
    SWEEP_EVERY = 25

    def __init__(self) -> None:
        self.tests = 0
        self.freezes = 0

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logfinish(self) -> None:
        self.tests += 1
        if self.tests % self.EVERY or not gc.isenabled():
            return
        self.freezes += 1
        if self.freezes % self.SWEEP_EVERY == 0:
            gc.unfreeze()
        gc.collect()
        gc.freeze()


COLLECTED_LINE = "nnhal: collected {count:,} tests in {seconds:.1f} s"
"""The line that ends the collection stage (``nnhal-certify`` reads it from a shard's log);
when tests were deselected it goes on `` (10 selected, 4 deselected by ...)``, the counts
and words of ``plugins.report.counts``, as pytest's own line counts them."""
_STAGE = pytest.StashKey["_CollectionStage"]()


class _CollectionStage:
    """Lines that make collection visible: it starts, large modules as they are done (with
    the running count), then how many tests were collected and how long it took."""

    MODULE_ITEMS = 1000
    MODULE_SECONDS = 1.0

    def __init__(self, writer) -> None:
        self.writer = writer
        self.started = self.last = time.monotonic()
        self.count = 0
        self.at_last = 0

    @classmethod
    def start(cls, config: pytest.Config) -> _CollectionStage | None:
        writer = config.pluginmanager.get_plugin("terminalreporter")
        if writer is None or is_xdist_controller(config):
            return None  # under xdist the workers collect (pytest_xdist_node_collection_finished)
        stage = config.stash[_STAGE] = cls(writer)
        writer.write_line("nnhal: collecting tests ...")
        return stage

    def collected(self, report: pytest.CollectReport) -> None:
        now = time.monotonic()
        grown = self.count - self.at_last
        if grown >= self.MODULE_ITEMS or (grown and now - self.last >= self.MODULE_SECONDS):
            self.writer.write_line(
                f"nnhal: collecting ... {self.count:,} tests so far ({report.nodeid}, "
                f"{now - self.started:.1f} s)"
            )
        self.last, self.at_last = now, self.count

    def finish(self, config: pytest.Config, selected: int) -> None:
        from plugins.report.counts import deselection

        seconds = time.monotonic() - self.started
        collected = self.count + unbuilt_cases(config)
        line = COLLECTED_LINE.format(count=collected, seconds=seconds)
        by = deselected_by(config)
        if sum(by.values()) or selected != collected:
            line += f" ({selected:,} selected, {deselection(by)})"
        self.writer.write_line(line)
        above = above_level(config)
        if above:
            from plugins.driver import tested_level

            self.writer.write_line(
                f"nnhal: {above:,} tests of later HAL levels were not collected: the driver "
                f"is tested at HAL {tested_level(config)}"
            )


def pytest_itemcollected(item: pytest.Item) -> None:
    stage = item.config.stash.get(_STAGE, None)
    if stage is not None:
        stage.count += 1


def pytest_collectreport(report: pytest.CollectReport) -> None:
    config = innermost_run()
    if not report.nodeid.endswith(".py") or config is None:
        return
    stage = config.stash.get(_STAGE, None)
    if stage is not None:
        stage.collected(report)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids: list[str]) -> None:
    """Under pytest-xdist the workers collect: say when each has, with the count of tests it
    selected (all the controller is told; the report has the deselected ones too)."""
    config = node.config
    writer = config.pluginmanager.get_plugin("terminalreporter")
    if writer is not None:
        started = config.stash.setdefault(_XDIST_STARTED, time.monotonic())
        seconds = time.monotonic() - started
        writer.write_line(
            f"nnhal: worker {node.gateway.id} collected in {seconds:.1f} s: "
            f"{len(ids):,} tests selected"
        )


_XDIST_STARTED = pytest.StashKey[float]()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: list) -> None:
    config.stash[_XDIST_STARTED] = time.monotonic()
    writer = config.pluginmanager.get_plugin("terminalreporter")
    if writer is not None:
        writer.write_line(f"nnhal: {len(specs)} workers collecting tests ...")
