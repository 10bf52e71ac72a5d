"""Drivers that validate control flow wrongly fail exactly the validation items of their fault.

The drivers are tests/support/faulty_drivers_13.py's ``AcceptsReferenceCycles`` and
``AcceptsMismatchedBranches``. Every model family is judged on the hand-built control-flow
models (``VALIDATION_MODELS`` of tests/support/control_flow_models.py) the way
``test_validate_model`` judges a generated case (``models_problems``:
get_supported_operations_1_3 and prepare_model_1_3 must answer INVALID_ARGUMENT), and the
families with a failure are exactly those whose mutations only the missing rule refuses.
The suite itself is run against each driver too, on the generated control-flow cases (a
pytest subprocess, as test_hal13_faults.py).
"""

from __future__ import annotations

from pathlib import Path

import faulty_drivers_13 as faulty
import pytest
from control_flow_models import VALIDATION_MODELS
from suite_outcomes import outcomes_of, with_outcome

from conformance.harness.model_validation import models_problems
from conformance.harness.mutations import model_families
from hal.types import HalVersion, OperationType
from reference_driver import ReferenceDriver

V1_3 = HalVersion.V1_3
FAULTY = Path(__file__).resolve().parents[1] / "support" / "faulty_drivers_13.py"
RETYPES = {"operand_retype_vts", "operand_retype_clean"}
"""VTS's retype families: a retyped IF value is refused by the branch agreement alone."""


def _failing(driver: object, model_name: str) -> dict[str, list[str]]:
    """Family -> the names of its mutations of the model the driver did not refuse."""
    model = VALIDATION_MODELS[model_name]()
    failing: dict[str, list[str]] = {}
    for family in model_families():
        plan = [(m, [V1_3]) for m in family.mutations(model) if V1_3 in m.levels]
        if not plan:
            continue
        for mutation, problems in models_problems(driver, model, plan, 10.0):
            if problems:
                assert "expected INVALID_ARGUMENT" in problems[0], problems
                failing.setdefault(family.name, []).append(mutation.name)
    return failing


@pytest.mark.parametrize("model_name", sorted(VALIDATION_MODELS))
def test_the_reference_driver_refuses_every_mutation(model_name: str) -> None:
    assert _failing(ReferenceDriver(), model_name) == {}


@pytest.mark.parametrize("model_name", sorted(VALIDATION_MODELS))
def test_a_driver_accepting_reference_cycles_fails_exactly_the_cycle_items(
    model_name: str,
) -> None:
    failing = _failing(faulty.AcceptsReferenceCycles(), model_name)
    assert set(failing) == {"cf_reference_cycle"}
    # Two cycles per reached subgraph (2, or 4 in the nested model); in the nested model a
    # cycle at the then branch also leaves the WHILE's subgraphs unreached, which the
    # driver still refuses (subgraph.reachable): those 2 are no failure.
    assert len(failing["cf_reference_cycle"]) == (6 if model_name == "nested" else 4)


def test_the_cycle_driver_fails_every_cycle_mutation_of_a_flat_model() -> None:
    failing = _failing(faulty.AcceptsReferenceCycles(), "if")
    assert sorted(failing["cf_reference_cycle"]) == [
        "referenced0.calls_its_caller",
        "referenced0.calls_itself",
        "referenced1.calls_its_caller",
        "referenced1.calls_itself",
    ]


@pytest.mark.parametrize("model_name", ["if", "quant_if", "nested"])
def test_a_driver_accepting_mismatched_branches_fails_the_branch_items(model_name: str) -> None:
    failing = _failing(faulty.AcceptsMismatchedBranches(), model_name)
    assert set(failing) == {"cf_if_branch_mismatch", *RETYPES}
    # the retypes it accepts are those of the IF's value and output, nothing else
    for name in RETYPES:
        assert {m.split(".")[0] for m in failing[name]} == {
            f"operand{i}" for i in _if_values_and_outputs(model_name)
        }


def test_the_branch_driver_passes_a_while_model() -> None:
    assert _failing(faulty.AcceptsMismatchedBranches(), "while") == {}


def _if_values_and_outputs(model_name: str) -> set[int]:
    model = VALIDATION_MODELS[model_name]()
    [operation] = [o for o in model.operations if o.type == OperationType.IF]
    return {*operation.inputs[3:], *operation.outputs}


# ---------------------------------------------------------------------------
# The suite against them, on the generated control-flow cases
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("driver", "families"),
    [
        ("AcceptsReferenceCycles", {"cf_reference_cycle"}),
        ("AcceptsMismatchedBranches", {"cf_if_branch_mismatch", *RETYPES}),
    ],
)
def test_the_suite_fails_the_driver_on_its_families(
    driver: str, families: set[str], pytester: pytest.Pytester
) -> None:
    """Every deterministic model-validation item of the generated control-flow cases is run:
    the failures are exactly the families of the driver's fault."""
    pytester.makepyfile(faulty_drivers_13=FAULTY.read_text())
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "conformance.test_validate_model",
        f"--driver=faulty_drivers_13:{driver}",
        "--hal-version=1.3",
        "--nnhal-profile=ci",
        "-k",
        "test_validate_model and (V1_3/if_ or V1_3/while_) and not sampled",
        "-v",
        "-rA",
    )
    outcomes = outcomes_of(result)
    failed = with_outcome(outcomes, "FAILED")
    assert len(with_outcome(outcomes, "PASSED")) > 100
    assert {item.split("[", 1)[1].split("/", 1)[0] for item in failed} == families
    assert set(outcomes.values()) <= {"PASSED", "FAILED", "SKIPPED"}
