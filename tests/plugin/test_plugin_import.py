"""The plugin's entry point is light, and only a run that uses the suite loads the rest.

Every pytest run in an environment with the package installed imports
``plugins.pytest_nnhal`` (its ``pytest11`` entry point): that import loads
nothing of the suite, the HAL or numpy, and a run of another project's tests
loads nothing more. The rule that turns the suite's parts on is in the
module's docstring.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

HEAVY = ("numpy", "conformance", "hal", "isolation", "reference_driver", "generator")
"""Top-level packages the entry point must not load."""

CHECK_HEAVY = f"""
import sys

HEAVY = {HEAVY!r}


def heavy_modules():
    return sorted(m for m in sys.modules if m.partition(".")[0] in HEAVY)
"""


def test_importing_the_entry_point_loads_nothing_heavy() -> None:
    script = (
        "import plugins.pytest_nnhal, sys\n"
        f"heavy = sorted(m for m in sys.modules if m.partition('.')[0] in {HEAVY!r})\n"
        "print(heavy)\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "[]"


UNRELATED_TEST = (
    CHECK_HEAVY
    + """

def test_nothing_heavy_was_loaded():
    assert heavy_modules() == []


def test_a_second_one():
    assert 1 + 1 == 2
"""
)


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_another_projects_run_loads_nothing_heavy(pytester: pytest.Pytester, workers) -> None:
    pytester.makepyfile(test_unrelated=UNRELATED_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *workers)
    result.assert_outcomes(passed=2)
    output = result.stdout.str()
    assert "nnhal:" not in output
    assert "driver:" not in output and "nnhal profile" not in output


def test_a_run_that_does_not_use_the_suite_may_choose_its_hypothesis_profile(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_unrelated=UNRELATED_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--hypothesis-profile=default")
    result.assert_outcomes(passed=2)


def test_the_nnhal_fixtures_say_how_to_turn_the_plugin_on(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_fixture="def test_timeout(hal_timeout):\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*the nnhal fixtures need a run that uses the suite: this one names no part of it "
            "and no nnhal option (give one, e.g. --driver=reference)*"
        ]
    )


ACTIVE = "nnhal: collecting tests ..."


@pytest.mark.parametrize(
    "args",
    [
        ["--driver-isolation=none"],  # an option given, even at its default value
        ["--nnhal-profile=full"],
        ["--hypothesis-profile=nnhal-full"],
        ["--pyargs", "conformance.test_basic"],
    ],
    ids=["default-value", "profile", "suite-hypothesis-profile", "pyargs"],
)
def test_a_run_that_uses_the_suite_gets_its_parts(pytester: pytest.Pytester, args) -> None:
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", *args)
    assert result.ret == 0, result.stdout.str() + result.stderr.str()
    assert ACTIVE in result.outlines, result.stdout.str()


def test_an_option_in_pytest_addopts_turns_the_plugin_on(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    monkeypatch.setenv("PYTEST_ADDOPTS", "--driver-containment=auto")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only")
    assert ACTIVE in result.outlines, result.stdout.str()


def test_a_path_inside_the_installed_suite_turns_the_plugin_on(pytester: pytest.Pytester) -> None:
    from plugins.suite import suite_folder

    folder = suite_folder()
    assert folder is not None
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--collect-only", "-q", str(folder / "test_basic.py")
    )
    assert result.ret == 0, result.stdout.str() + result.stderr.str()
    assert ACTIVE in result.outlines
    assert "conformance/test_basic.py::test_status" in result.outlines


def test_the_light_defaults_are_those_of_their_owners() -> None:
    from conformance.harness import hangs
    from generator import packs as generated_packs
    from hal import callbacks, loader
    from isolation import sandbox
    from plugins import packs, pytest_nnhal, repeats

    assert pytest_nnhal.DEFAULT_DRIVER == loader.DEFAULT_DRIVER
    assert pytest_nnhal.DEFAULT_TIMEOUT == callbacks.DEFAULT_TIMEOUT
    assert pytest_nnhal.HANG_LIMIT == hangs.DEFAULT_LIMIT
    assert pytest_nnhal.DEFAULT_REPEATS == repeats.DEFAULT_REPEATS
    assert pytest_nnhal.CONTAINMENTS == sandbox.CONTAINMENTS
    assert pytest_nnhal.DEFAULT_ADDRESS_SPACE_MB == sandbox.DEFAULT_ADDRESS_SPACE_MB
    assert packs.DEFAULT_TIMEOUT == generated_packs.DEFAULT_TIMEOUT


def test_every_nnhal_option_turns_the_plugin_on() -> None:
    """OPTION_DEFAULTS lists every option the plugin declares (so giving any of them turns the
    suite's machinery on): compared with the options pytest's help shows."""
    from plugins import pytest_nnhal

    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    declared, ours = set(), False
    for line in result.stdout.splitlines():
        if line and not line.startswith(" "):  # a group's header
            ours = line.startswith("nnhal-conformance:")
        elif ours and (option := re.match(r"^  (--[a-z][a-z-]*)", line)):
            declared.add(option.group(1))
    assert declared and declared == set(pytest_nnhal.OPTION_DEFAULTS)
