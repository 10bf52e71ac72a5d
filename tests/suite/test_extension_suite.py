"""The generated suite on vendor-extension cases, against drivers that get them wrong.

Each test runs the suite's modules that execute generated cases, selected with
``-k demo_saturating_add`` (the demo extension's spec), in a pytest subprocess
against a driver from extension_drivers.py, and checks which items pass, fail or
skip and what they say. The reference driver itself passes them all.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from suite_outcomes import outcomes_of, with_outcome

DRIVERS = Path(__file__).resolve().parents[1] / "support" / "extension_drivers.py"
_MODULES = (
    "conformance.test_generated",
    "conformance.test_burst",
    "conformance.test_caching",
    "conformance.test_memory_pools",
    "conformance.test_validate_model",
    "conformance.test_validate_request",
)


def _run(pytester: pytest.Pytester, driver: str, *args: str):
    """Outcome of every item (``name[id]`` -> PASSED/FAILED/SKIPPED/ERROR) and the run."""
    pytester.makepyfile(extension_drivers=DRIVERS.read_text())
    if driver.startswith("reference"):
        chosen = f"--driver={driver}"
    else:
        chosen = f"--driver=extension_drivers:{driver}"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        *_MODULES,
        "-k",
        "demo_saturating_add",
        chosen,
        "-v",
        "-rA",
        *args,
    )
    return outcomes_of(result), result


def test_the_reference_driver_passes_every_extension_item(pytester) -> None:
    outcomes, _ = _run(pytester, "reference")
    assert with_outcome(outcomes, "FAILED") == set() and with_outcome(outcomes, "ERROR") == set()
    assert len(with_outcome(outcomes, "PASSED")) >= 150
    generated = {i for i in with_outcome(outcomes, "PASSED") if i.startswith("test_generated[")}
    # Every execution path and output mode ran: sync, async, burst, dynamic, scattered.
    for word in ("/sync", "/async", "/burst", "dyn", "scattered"):
        assert any(word in item for item in generated), word


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_a_driver_without_the_extension_has_its_cases_skipped(pytester, isolation) -> None:
    outcomes, result = _run(pytester, "NoExtensions", f"--driver-isolation={isolation}")
    assert with_outcome(outcomes, "FAILED") == set() and with_outcome(outcomes, "ERROR") == set()
    assert with_outcome(outcomes, "PASSED") == set()
    assert len(with_outcome(outcomes, "SKIPPED")) >= 150
    result.stdout.fnmatch_lines(
        ["SKIPPED * unsupported: the driver does not declare extension org.nnhal_conformance.demo*"]
    )
    assert "skipped" in result.stdout.str().splitlines()[-1]


def test_a_driver_that_wraps_instead_of_saturating_fails(pytester) -> None:
    outcomes, result = _run(pytester, "WrappingAdd")
    failed = with_outcome(outcomes, "FAILED")
    generated = {i for i in failed if i.startswith("test_generated[")}
    assert generated, outcomes
    # The chain's third element and the 2x2 example's plain sum never overflow; that
    # example's 32000 + 1000 wraps to 33000 - 65536 = -32536 where 32767 is expected.
    result.stdout.fnmatch_lines(["*output 0 (shape [[]2, 2[]]): 2 of 4 values differ*"])
    # Results that do not depend on the values still pass (validation, for one).
    assert any(i.startswith("test_validate_model[") for i in with_outcome(outcomes, "PASSED"))


def test_a_driver_declaring_another_byte_size_fails_naming_it(pytester) -> None:
    outcomes, result = _run(pytester, "WideQ16")
    assert {i for i in with_outcome(outcomes, "FAILED") if i.startswith("test_generated[")}
    result.stdout.fnmatch_lines(
        [
            "*the driver declares extension org.nnhal_conformance.demo operand type 1 "
            "(TENSOR_Q16) with is_tensor=True, byte_size=4; the suite's table has "
            "is_tensor=True, byte_size=2*"
        ]
    )


def test_a_driver_without_extensions_passes_the_extension_validation(pytester) -> None:
    """The extension families on every case that admits them (ci profile), and the valid
    model using an extension the driver never declared: all pass, or skip where the case
    itself uses the demo extension the driver lacks."""
    pytester.makepyfile(extension_drivers=DRIVERS.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_validate_model",
        "--nnhal-profile=ci",
        "--driver=extension_drivers:NoExtensions",
        "-k",
        "extension_ or unknown_extension",
        "-v",
        "-rs",
    )
    outcomes = outcomes_of(result)
    ran = {name for name, seen in outcomes.items() if seen == "PASSED"}
    assert outcomes and set(outcomes.values()) <= {"PASSED", "SKIPPED"}, result.stdout.str()
    families = {
        re.search(r"\[(\w+)/", line)[1]
        for line in result.outlines
        if " PASSED" in line and "test_validate_model[" in line
    }
    assert {"extension_undeclared", "extension_declarations"} <= families, families
    assert any(name.startswith("test_valid_model_the_driver_cannot_run[") for name in ran)
    skipped = [line for line in result.outlines if " SKIPPED" in line]
    sampled = ("sampled[extension_operand_fields]", "sampled[extension_constant_short]")
    assert all(
        "demo_saturating_add" in line or line.split()[0].endswith(sampled) for line in skipped
    ), skipped
    result.stdout.fnmatch_lines(
        [
            "SKIPPED * unsupported: every generated model admitting extension_operand_fields "
            "uses an extension the driver does not declare"
        ]
    )
