"""The pytest plugin end to end: driver loading, usage errors, header, level gating.

Each case runs pytest in a subprocess (pytester), as a vendor would, and
checks the exact line printed and the exit code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

USAGE_ERROR = 4
DRIVER_GUIDE = Path(__file__).resolve().parents[2] / "docs" / "writing-a-driver.md"

DRIVERS = """
from hal import IDevice_1_2

class NotADevice:
    pass

def raising():
    raise RuntimeError("no accelerator attached")

def returns_int():
    return 42

CONSTANT = 7
"""

TRIVIAL_TEST = """
def test_nothing():
    pass
"""


@pytest.fixture
def run(pytester: pytest.Pytester):
    pytester.makepyfile(fake_drivers=DRIVERS, test_trivial=TRIVIAL_TEST)

    def go(*args: str) -> pytest.RunResult:
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)

    return go


def _error_lines(result: pytest.RunResult) -> list[str]:
    return [line for line in result.errlines if line.strip()]


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (
            "--driver=no_such_driver",
            "--driver=no_such_driver: no driver is registered under that name (registered: "
            "reference); give module:Factory for an unregistered driver",
        ),
        (
            "--driver=missing_module:Factory",
            "--driver=missing_module:Factory: cannot import module 'missing_module': no "
            "missing_module.py or missing_module/ in the current folder (CWD) or on the Python "
            "path; run from the folder that holds it or add that folder to PYTHONPATH",
        ),
        (
            "--driver=fake_drivers:Nope",
            "--driver=fake_drivers:Nope: module 'fake_drivers' has no attribute 'Nope'",
        ),
        (
            "--driver=fake_drivers:raising",
            "--driver=fake_drivers:raising: the factory raised RuntimeError: "
            "no accelerator attached",
        ),
        (
            "--driver=fake_drivers:returns_int",
            "--driver=fake_drivers:returns_int: the factory returned an object of type int, "
            "which is not an hal.IDevice (subclass hal.IDevice_1_2, IDevice_1_1 or IDevice)",
        ),
        (
            "--driver=fake_drivers:NotADevice",
            "--driver=fake_drivers:NotADevice: the factory returned an object of type "
            "NotADevice, which is not an hal.IDevice (subclass hal.IDevice_1_2, IDevice_1_1 "
            "or IDevice)",
        ),
        (
            "--driver=fake_drivers:CONSTANT",
            "--driver=fake_drivers:CONSTANT: an object of type int is not callable; name a "
            "class or a function returning an IDevice",
        ),
        (
            "--driver=fake_drivers:",
            "--driver=fake_drivers:: expected module:Factory, e.g. my_pkg.driver:Factory",
        ),
        (
            "--hal-version=2.0",
            "--hal-version=2.0: unknown HAL version '2.0' (known: 1.0, 1.1, 1.2, 1.3)",
        ),
        ("--hal-timeout=0", "--hal-timeout=0: must be a positive number of seconds"),
    ],
    ids=[
        "unknown-name",
        "module-not-importable",
        "attribute-missing",
        "factory-raised",
        "result-not-idevice",
        "class-not-idevice",
        "not-callable",
        "malformed",
        "bad-hal-version",
        "bad-timeout",
    ],
)
def test_usage_error_is_one_line(run, pytester, option: str, message: str) -> None:
    result = run(option)
    assert result.ret == USAGE_ERROR
    assert _error_lines(result) == [f"ERROR: {message.replace('(CWD)', f'({pytester.path})')}"]
    assert "Traceback" not in result.stdout.str()


HYPOTHESIS_SETTINGS_TEST = """
from hypothesis import Phase, settings

def test_settings():
    current = settings.default
    print("SETTINGS", settings.get_current_profile_name(), current.max_examples, current.deadline,
          "shrinks" if Phase.shrink in current.phases else "no-shrink")
"""


def test_the_suites_own_hypothesis_profile_may_be_named(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_settings=HYPOTHESIS_SETTINGS_TEST)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-s", "--nnhal-profile=ci", "--hypothesis-profile=nnhal-ci"
    )
    assert result.ret == 0, result.stdout.str() + result.stderr.str()
    assert "SETTINGS nnhal-ci 5 None" in result.stdout.str()


@pytest.mark.parametrize(
    ("profile", "settings"), [("ci", "5 None no-shrink"), ("full", "40 None shrinks")]
)
def test_only_the_ci_profile_reports_a_failing_draw_unshrunk(
    pytester: pytest.Pytester, profile: str, settings: str
) -> None:
    """The quick profile does not shrink a failing draw (each try runs the failing test
    again: one that waits out a timeout cost minutes); the certification's does."""
    pytester.makepyfile(test_settings=HYPOTHESIS_SETTINGS_TEST)
    options = ["-p", "no:cacheprovider", "-s", f"--nnhal-profile={profile}"]
    result = pytester.runpytest_subprocess(*options, "--nnhal-seed=3")
    assert result.ret == 0, result.stdout.str() + result.stderr.str()
    assert f"SETTINGS nnhal-{profile} {settings}" in result.stdout.str()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--hypothesis-profile=nnhal-ci"],
            "--hypothesis-profile=nnhal-ci contradicts --nnhal-profile=full: give "
            "--nnhal-profile=ci, which selects it",
        ),
        (
            # (--nnhal-profile: a run that does not use the suite may name any profile)
            ["--nnhal-profile=full", "--hypothesis-profile=default"],
            "--hypothesis-profile=default: the suite's hypothesis settings come from "
            "--nnhal-profile (ci, full, thorough: no deadline, the profile's example counts); "
            "choose one with --nnhal-profile (--nnhal-seed fixes a run's draws)",
        ),
    ],
    ids=["other-nnhal-profile", "user-profile"],
)
def test_another_hypothesis_profile_is_refused_in_one_line(
    pytester: pytest.Pytester, options: list[str], message: str
) -> None:
    pytester.makepyfile(test_settings=HYPOTHESIS_SETTINGS_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *options)
    assert result.ret == USAGE_ERROR
    assert _error_lines(result) == [f"ERROR: {message}"]


def test_hypothesis_verbosity_stays_on_top_of_the_suites_profile(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_settings=HYPOTHESIS_SETTINGS_TEST)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-s", "--nnhal-profile=ci", "--hypothesis-verbosity=verbose"
    )
    assert result.ret == 0, result.stdout.str() + result.stderr.str()
    assert "SETTINGS nnhal-ci-with-verbose-verbosity 5 None" in result.stdout.str()


SEED_TEST = """
from hypothesis import given, strategies as st

DRAWN = []

@given(st.integers(0, 10**9))
def test_draw(value):
    DRAWN.append(value)

def test_show():
    print("DRAWN", DRAWN[:3])
"""


def _thorough(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    pytester.makepyfile(test_seed=SEED_TEST)
    return pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-s", "--nnhal-profile=thorough", "-p", "no:randomly", *args
    )


def test_a_thorough_run_shows_its_seed_and_the_seed_draws_the_same_cases_again(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    first = _thorough(pytester, f"--cert-report={tmp_path / 'one'}")
    assert first.ret == 0, first.stdout.str() + first.stderr.str()
    match = re.search(
        r"^nnhal profile: thorough \(seed (\d+): --nnhal-seed=\1 draws the same cases\)$",
        first.stdout.str(),
        re.M,
    )
    assert match, first.stdout.str()
    seed = match.group(1)
    report = json.loads((tmp_path / "one" / "report.json").read_text())
    assert report["run"]["seed"] == report["run"]["hypothesis_seed"] == seed
    drawn = re.findall(r"DRAWN \[[^]]*\]", first.stdout.str())
    again = _thorough(pytester, f"--nnhal-seed={seed}")
    assert len(drawn) == 1 and re.findall(r"DRAWN \[[^]]*\]", again.stdout.str()) == drawn
    # --hypothesis-seed still names the same seed
    older = _thorough(pytester, f"--hypothesis-seed={seed}")
    assert re.findall(r"DRAWN \[[^]]*\]", older.stdout.str()) == drawn


def test_a_run_that_draws_the_same_cases_every_time_reports_no_seed(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    pytester.makepyfile(test_seed=SEED_TEST)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--nnhal-profile=ci", f"--cert-report={tmp_path / 'ci'}"
    )
    assert result.ret == 0
    result.stdout.fnmatch_lines(["nnhal profile: ci"])
    report = json.loads((tmp_path / "ci" / "report.json").read_text())
    assert report["run"]["hypothesis_seed"] is None


SOURCE_DRAW_TEST = """
import os

from hypothesis import given, strategies as st

if os.environ.get("IMPORT_LITERALS"):
    import literals  # noqa: F401 - a loaded module full of unusual numbers

DRAWN = []

@given(st.integers(0, 10**9))
def test_draw(value):
    DRAWN.append(value)

def test_show():
    print("DRAWN", DRAWN)
"""


def test_the_draws_do_not_depend_on_which_source_files_are_loaded(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hypothesis would mix literals of every loaded local module into its draws: a
    # rerun importing fewer modules, or another driver's source, would draw other cases.
    pytester.makepyfile(test_draws=SOURCE_DRAW_TEST)
    pytester.makepyfile(literals=f"VALUES = {[987654321 + k for k in range(20)]}")
    runs = []
    for extra in ("", "1"):
        monkeypatch.setenv("IMPORT_LITERALS", extra)
        result = pytester.runpytest_subprocess(
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "-s",
            "--nnhal-profile=thorough",
            "--hypothesis-seed=7",
        )
        assert result.ret == 0, result.stdout.str() + result.stderr.str()
        runs.append(re.findall(r"DRAWN \[[^]]*\]", result.stdout.str()))
    assert len(runs[0]) == 1 and runs[0] == runs[1]
    assert "98765432" not in runs[1][0]
    assert not (pytester.path / ".hypothesis" / "constants").exists()


def test_default_driver_header(run) -> None:
    result = run("--pyargs", "conformance.test_basic", "--collect-only")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["driver: reference (default)"])


def test_explicit_driver_header(run) -> None:
    result = run("--driver=reference_driver:ReferenceDriver", "--hal-version=1.1")
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        ["driver: reference_driver:ReferenceDriver (HAL 1.3, tested up to 1.1)"]
    )


def test_hal_level_marker_skips_above_the_cap(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.hal_level("1.2")
        def test_needs_1_2(device):
            pass

        @pytest.mark.hal_level("1.0")
        def test_needs_1_0(device, hal_level):
            assert str(hal_level) == "1.1"
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--hal-version=1.1", "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*needs HAL 1.2; the driver is tested at HAL 1.1*"])


def test_registered_name_loads_under_xdist(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_basic",
        "--driver=reference",
        "-n",
        "2",
        "-k",
        "test_status or test_type",
    )
    result.assert_outcomes(passed=2)


def _readme_driver() -> str:
    text = DRIVER_GUIDE.read_text()
    match = re.search(
        r"<!-- example-driver:start -->\s*```python\n(.*?)```\s*<!-- example-driver:end -->",
        text,
        re.S,
    )
    assert match, "docs/writing-a-driver.md lost its example driver block"
    return match.group(1)


def test_readme_example_driver_passes_basic_suite(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(my_driver=_readme_driver())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_basic",
        "--driver=my_driver:Factory",
        "-rs",
    )
    outcomes = result.parseoutcomes()
    assert result.ret == 0, result.stdout.str()
    assert outcomes.get("failed", 0) == 0 and outcomes.get("error", 0) == 0
    assert outcomes["passed"] >= 20
    result.stdout.fnmatch_lines(["*unsupported: the driver does not support ADD*"])


def test_nnhal_config_is_the_runs_config_without_request(pytester: pytest.Pytester) -> None:
    """An in-process (nested) run gets its own config, and its tests no ``request`` fixture."""
    pytester.makepyfile(
        """
        def test_config(nnhal_config, pytestconfig):
            assert nnhal_config is pytestconfig

        def test_closure(request, hal_level, hal_timeout, device):
            assert request.config.getoption("--hal-timeout") == hal_timeout

        def test_no_request(nnhal_config, hal_level, hal_timeout, device):
            pass
        """
    )
    pytester.makeconftest(
        """
        def pytest_collection_finish(session):
            closure = {i.name: i.fixturenames for i in session.items}["test_no_request"]
            assert "request" not in closure, closure
        """
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--driver=reference")
    result.assert_outcomes(passed=3)


def test_nnhal_config_outside_a_run_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from plugins import pytest_nnhal, suite

    monkeypatch.setattr(suite, "_RUNS", [])
    with pytest.raises(RuntimeError) as error:
        pytest_nnhal.active_config()
    assert str(error.value) == ("no pytest run with the nnhal plugin is configured in this process")


CASES_MODULE = """
import pytest
from conformance.harness.marks import cases

def _params(config):
    return [
        pytest.param(2, id="two", marks=[pytest.mark.tier("parity")]),
        pytest.param(3, id="odd/three", marks=[pytest.mark.tier("strict")]),
    ]

@pytest.mark.category("demo")
@cases("value", _params)
def test_case(value, hal_timeout):
    assert value in (2, 3) and hal_timeout > 0

@pytest.mark.parametrize("value", _params(None))
def test_parametrized(value):
    pass

"""


def test_cases_are_items_like_parametrized_ones(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_cases=CASES_MODULE)
    pytester.makeconftest(
        """
        import pytest

        def pytest_collection_finish(session):
            for item in session.items:
                marks = sorted(
                    (m.name, m.args) for m in item.iter_markers() if m.name in ("tier", "category")
                )
                print("ITEM", item.nodeid, item.fixturenames, marks)
            # the fixtures of a function's cases are resolved once, for the first
            infos = {id(i._fixtureinfo) for i in session.items if "test_case[" in i.nodeid}
            print("FIXTURE INFOS", len(infos))
            # a case item's location is the one pytest works out for any item
            for item in session.items:
                print("LOCATION", item.location, item.location == pytest.Item.location.func(item))
        """
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-s", "--driver=reference")
    result.assert_outcomes(passed=4)
    assert "FIXTURE INFOS 1" in result.outlines
    locations = [line for line in result.outlines if line.startswith("LOCATION")]
    assert locations[:2] == [
        "LOCATION ('test_cases.py', 9, 'test_case[two]') True",
        "LOCATION ('test_cases.py', 9, 'test_case[odd/three]') True",
    ]
    assert len(locations) == 4 and all(line.endswith(" True") for line in locations)
    lines = [line for line in result.outlines if line.startswith("ITEM")]
    assert lines == [
        "ITEM test_cases.py::test_case[two] ['hal_timeout', 'nnhal_config']"
        " [('category', ('demo',)), ('tier', ('parity',))]",
        "ITEM test_cases.py::test_case[odd/three] ['hal_timeout', 'nnhal_config']"
        " [('category', ('demo',)), ('tier', ('strict',))]",
        "ITEM test_cases.py::test_parametrized[two] ['value'] [('tier', ('parity',))]",
        "ITEM test_cases.py::test_parametrized[odd/three] ['value'] [('tier', ('strict',))]",
    ]
    selected = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--driver=reference", "-k", "odd/three and not parametrized"
    )
    selected.assert_outcomes(passed=1)


def test_two_cases_with_one_id_are_a_collection_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_twice="""
import pytest
from conformance.harness.marks import cases

@cases("value", lambda config: [pytest.param(1, id="same"), pytest.param(2, id="same")])
def test_case(value):
    pass
"""
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--driver=reference")
    assert result.ret == pytest.ExitCode.INTERRUPTED, result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*test_twice.py::test_case: two cases have the id 'same'; every case needs its own "
            "id (each item must be rerunnable alone)"
        ]
    )


PICKING_MODULE = """
import pytest
from conformance.harness.marks import case_pick, cases

LATE = (pytest.mark.tier("parity"), pytest.mark.hal_level("1.3"))
NOW = (pytest.mark.tier("parity"),)
IDS = {ids!r}

def _params(config):
    picks, made = case_pick(config), []
    for n, case_id in enumerate(IDS):
        marks = LATE if n % 4 == 2 else NOW
        if picks(case_id, marks):
            made.append(pytest.param(n, id=case_id, marks=marks))
    print("MADE", [p.id for p in made])
    return made

@cases("value", _params)
def test_case(value):
    pass
"""


def _picking(pytester: pytest.Pytester, ids: list[str], *args: str) -> pytest.RunResult:
    pytester.makepyfile(test_picking=PICKING_MODULE.format(ids=ids))
    return pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-s", "--driver=reference", "--hal-version=1.2", *args
    )


def test_a_make_that_asks_builds_only_what_the_run_keeps(pytester: pytest.Pytester) -> None:
    """``marks.case_pick``: a case the run's -k leaves out, or of a later HAL level, is never
    made, and is counted as pytest counts a case it deselects (or as one of a later level)."""
    ids = [f"{word}/{n}" for n in range(4) for word in ("add", "mul")]
    result = _picking(pytester, ids, "-k", "add")
    result.assert_outcomes(passed=2)
    assert "MADE ['add/0', 'add/2']" in result.outlines  # add/1 and add/3 are of HAL 1.3
    result.stdout.fnmatch_lines(
        [
            "collected 6 items / 4 deselected / 2 selected",
            "nnhal: collected 6 tests in * (2 selected, 4 deselected by -k/*)",
            "nnhal: 2 tests of later HAL levels were not collected: the driver is tested at "
            "HAL 1.2",
            "*2 passed, 4 deselected*",
        ]
    )
    everything = _picking(pytester, ids)
    everything.assert_outcomes(passed=6)


def test_a_twin_id_among_the_cases_left_out_is_a_collection_error(
    pytester: pytest.Pytester,
) -> None:
    result = _picking(pytester, ["add/0", "mul/0", "add/1", "mul/0"], "-k", "add")
    assert result.ret == pytest.ExitCode.INTERRUPTED, result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*test_picking.py::test_case: two cases have the id 'mul/0'; every case needs its "
            "own id (each item must be rerunnable alone)"
        ]
    )


def test_a_twin_id_is_a_collection_error_in_a_smoke_run_too(pytester: pytest.Pytester) -> None:
    """--nnhal-smoke lists a function's cases before it builds any: a twin asked about, or
    listed, is refused there as well."""
    asked = _picking(pytester, ["add/0", "mul/0", "add/1", "add/0"], "--nnhal-smoke")
    pytester.makepyfile(
        test_listed="""
import pytest
from conformance.harness.marks import cases

@cases("value", lambda config: [pytest.param(1, id="same"), pytest.param(2, id="same")])
def test_case(value):
    pass
"""
    )
    listed = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--driver=reference", "--nnhal-smoke", "test_listed.py"
    )
    for result, module, twin in ((asked, "test_picking", "add/0"), (listed, "test_listed", "same")):
        assert result.ret == pytest.ExitCode.INTERRUPTED, result.stdout.str()
        result.stdout.fnmatch_lines(
            [f"*{module}.py::test_case: two cases have the id '{twin}'; every case needs its*"]
        )


def test_outside_a_collection_every_case_is_picked() -> None:
    from conformance.harness.marks import case_pick, every_case

    class Config:
        stash = pytest.Stash()

    assert case_pick(Config()) is every_case
    assert every_case("any/id", ()) is True


def _collect_ids(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, list[str]]:
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--collect-only", "-q", "--nnhal-profile=ci", *args
    )
    return result, [line for line in result.outlines if "::" in line]


def test_nnhal_op_keeps_exactly_the_named_operations(pytester: pytest.Pytester) -> None:
    """--nnhal-op=CONV_2D is exact where -k CONV_2D also selects DEPTHWISE_CONV_2D; the filter
    reaches every category that names its case's operations; the rest is deselected."""
    modules = ("conformance.test_generated", "conformance.test_validate_request")
    result, ids = _collect_ids(
        pytester,
        "--pyargs",
        *modules,
        "conformance.test_basic",
        "--nnhal-op=CONV_2D",
        "--nnhal-op=RELU",
    )
    assert result.ret == 0, result.stdout.str()[-2000:]
    specs = {re.search(r"[\[/](V1_\d/[a-z0-9_]+)/", i).group(1) for i in ids}
    assert specs == {
        "V1_0/conv2d",
        "V1_1/conv2d_relaxed",
        "V1_2/conv2d_v1_2",
        "V1_2/conv2d_forms_v1_2",
        "V1_2/requant_rounding",
        "V1_0/relu",
        "V1_0/relu_special_values",
        "V1_1/relu_relaxed",
        "V1_2/relu_v1_2",
        "V1_3/conv2d_quant8_signed",  # the driver is tested at 1.3
        "V1_3/relu_quant8_signed",
    }
    assert {i.split("::")[1].split("[")[0] for i in ids} == {
        "test_generated",
        "test_generated_prepare",
        "test_generated_fresh",
        "test_generated_memory",
        "test_generated_coupling",  # the signed twins of the quant8 cases (HAL 1.3)
        "test_validate_request",
    }
    _, everything = _collect_ids(pytester, "--pyargs", *modules, "-k", "CONV_2D or RELU")
    assert any("depthwise" in i for i in everything)  # what -k selects besides
    summary = result.outlines[-1]
    assert f"{len(ids)}/" in summary and "deselected" in summary


def test_nnhal_op_keeps_the_invalid_value_cases_of_the_operation(pytester: pytest.Pytester) -> None:
    """An invalid-value case names its operation first (``MUL/...``): --nnhal-op keeps it."""
    result, ids = _collect_ids(
        pytester, "--pyargs", "conformance.test_invalid_values", "--nnhal-op=MUL"
    )
    assert result.ret == 0, result.stdout.str()[-2000:]
    names = [i.split("[", 1)[1].rstrip("]") for i in ids]
    assert names and all(name.startswith("MUL/") for name in names), names
    assert "MUL/declared_shapes_do_not_broadcast" in names


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "conv2d",
            "unknown operation (an OperationType name, exact, or extension.name:OPERATION; "
            "did you mean CONV_2D?)",
        ),
        (
            "org.nnhal_conformance.demo:SATURATING_SUB",
            "extension org.nnhal_conformance.demo has no operation 'SATURATING_SUB' (it has: "
            "SATURATING_ADD)",
        ),
        (
            "com.example.none:OP",
            "unknown extension 'com.example.none' (known: org.nnhal_conformance.demo)",
        ),
    ],
)
def test_an_unknown_operation_is_a_usage_error(run, name: str, message: str) -> None:
    result = run(f"--nnhal-op={name}")
    assert result.ret == USAGE_ERROR
    assert _error_lines(result) == [f"ERROR: --nnhal-op={name}: {message}"]


def test_nnhal_op_names_an_extension_operation(pytester: pytest.Pytester) -> None:
    """A vendor extension's operation is named as extension.name:OPERATION: exactly the
    cases using it are kept, in every category that names its cases' operations."""
    result, ids = _collect_ids(
        pytester,
        "--pyargs",
        "conformance.test_generated",
        "conformance.test_validate_model",
        "--nnhal-op=org.nnhal_conformance.demo:SATURATING_ADD",
    )
    assert result.ret == 0, result.stdout.str()[-2000:]
    specs = {re.search(r"[\[/](V1_\d/[a-z0-9_]+)/", i).group(1) for i in ids}
    assert specs == {"V1_2/demo_saturating_add"}
    assert {i.split("::")[1].split("[")[0] for i in ids} >= {
        "test_generated",
        "test_validate_model",
    }


SAMPLED_TESTS = """
import pytest

@pytest.mark.parametrize("n", range(10))
def test_a(n):
    pass

@pytest.mark.parametrize("n", range(3))
def test_b(n):
    pass

def test_c():
    pass
"""


def test_collection_is_a_visible_stage(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_sampled=SAMPLED_TESTS)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--nnhal-profile=ci", "-q", "-k", "test_a"
    )
    lines = result.outlines
    assert lines[0] == "nnhal: collecting tests ..."
    collected = [line for line in lines if line.startswith("nnhal: collected ")]
    assert len(collected) == 1
    assert re.fullmatch(
        r"nnhal: collected 14 tests in \d+\.\d s \(10 selected, 4 deselected by "
        r"-k/-m/--deselect/--nnhal-op/node ids\)",
        collected[0],
    )


def test_under_xdist_each_worker_says_what_it_collected(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_sampled=SAMPLED_TESTS)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--nnhal-profile=ci", "-n", "2"
    )
    lines = result.outlines
    assert "nnhal: 2 workers collecting tests ..." in lines
    assert not any(line.startswith("nnhal: collected ") for line in lines)
    workers = sorted(
        line.split()[2]
        for line in lines
        if re.fullmatch(r"nnhal: worker gw\d collected in \d+\.\d s: 14 tests selected", line)
    )
    assert workers == ["gw0", "gw1"]


def test_smoke_keeps_a_deterministic_sample_of_every_test_function(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_sampled=SAMPLED_TESTS)
    runs = [
        pytester.runpytest_subprocess(
            "-p",
            "no:cacheprovider",
            "--collect-only",
            "-q",
            "--nnhal-smoke",
            "--cert-report=out",
        )
        for _ in range(2)
    ]
    ids = [[line for line in r.outlines if "::" in line] for r in runs]
    assert ids[0] == ids[1]
    per_function = {}
    for node in ids[0]:
        name = node.split("::")[1].split("[")[0]
        per_function[name] = per_function.get(name, 0) + 1
    assert per_function == {"test_a": 2, "test_b": 2, "test_c": 1}


class _Item:
    """What smoke_sample reads of an item: its module, name and node id."""

    def __init__(self, function: str, n: int) -> None:
        self.module = type("module", (), {"__name__": "conformance.test_x"})
        self.name = f"{function}[{n}]"
        self.nodeid = f"conformance/test_x.py::{self.name}"


SUPPORTED = {"test_a[7]", "test_a[14]", "test_a[21]", "test_a[35]", "test_b[4]"}


class _Supports:
    """A driver that supports the items of SUPPORTED (as DriverSupport.pick answers)."""

    def pick(self, items, order, count):
        return [p for p in order if items[p].name in SUPPORTED][:count]


def test_smoke_takes_the_items_the_driver_supports_then_the_others() -> None:
    from plugins.collection import smoke_sample

    items = [_Item("test_a", n) for n in range(40)] + [_Item("test_b", n) for n in (1, 3, 4)]
    blind = [item.name for item in smoke_sample(items)]
    asked = [item.name for item in smoke_sample(items, _Supports())]
    # Two of each function, in the order of the items; the same two every time.
    assert [name.split("[")[0] for name in asked] == ["test_a", "test_a", "test_b", "test_b"]
    assert asked == [item.name for item in smoke_sample(items, _Supports())]
    assert set(asked[:2]) <= SUPPORTED
    # test_b has one item the driver supports: it is kept, and one other fills the sample.
    assert "test_b[4]" in asked
    # Without a driver to ask, the first two of each function in hash order.
    assert len(blind) == 4 and set(blind[:2]) != set(asked[:2])


def test_a_smoke_run_is_never_a_certificate(pytester: pytest.Pytester) -> None:
    import json

    pytester.makepyfile(test_sampled=SAMPLED_TESTS)
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "--nnhal-smoke", "--cert-report=out")
    doc = json.loads((pytester.path / "out" / "report.json").read_text())
    assert doc["run"]["smoke"] is True
    assert doc["verdict"]["reasons"][0] == (
        "a smoke run (--smoke): a small sample of every category for a first try, never a "
        "certificate"
    )


def test_the_terminal_forgets_only_setups_and_teardowns_it_would_never_show(
    pytester: pytest.Pytester,
) -> None:
    """Passed setups and teardowns that captured nothing are not kept to the end of the
    run; one that captured output still is, and ``-rP`` shows it as before."""
    pytester.makepyfile(
        test_kept="""
import pytest

@pytest.fixture
def noisy():
    yield
    print("said in teardown")

def test_quiet():
    pass

def test_noisy(noisy):
    pass

def test_fails():
    assert False
"""
    )
    pytester.makeconftest(
        """
        def pytest_sessionfinish(session):
            terminal = session.config.pluginmanager.get_plugin("terminalreporter")
            kept = sorted((r.nodeid.split("::")[1], r.when) for r in terminal.stats[""])
            print("\\nKEPT", kept)
        """
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--driver=reference", "-rP")
    result.assert_outcomes(passed=2, failed=1)
    assert "KEPT [('test_noisy', 'teardown')]" in result.outlines
    result.stdout.fnmatch_lines(["*PASSES*", "*Captured stdout teardown*", "said in teardown"])
