"""``hal.checks``: the public operation checks a translating driver makes (issue 45 item 1).

The API answers a model's output shapes or its first violation (operation, type,
message, status), at preparation (``check_model``) and for one execution's inputs
(``check_execution``); the reference driver's implementations take their
``validate`` and ``prepare`` from it; and a driver whose only operation checks are
these (``tests/support/permissive_drivers.py``, a permissive runtime behind them)
passes every invalid-value test of the suite, where the same runtime without them
fails every one.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conformance.harness.generated import corpus
from conformance.invalid import all_cases
from conformance.invalid.shape import graph_model, ints, operation_model, scalar, tensor
from hal.checks import CHECKS, CheckViolation, ModelCheck, check_execution, check_model
from hal.types import ErrorStatus, HalVersion, OperandType, OperationType
from hal.validation import minimum_version
from reference_driver.ops import REGISTRY

Op = OperationType
F32 = OperandType.TENSOR_FLOAT32
DRIVERS = Path(__file__).resolve().parents[1] / "support" / "permissive_drivers.py"
RUN_TIMEOUT = 600
CASES = {case.name: case for case in all_cases()}


def _refusal(name: str) -> ModelCheck:
    """What the checks answer for the invalid-value case ``name`` (at preparation when
    its bad value is a constant, else for its execution's inputs)."""
    case = CASES[name]
    model = case.model()
    found = check_model(model)
    if case.inputs is None or not found.ok:
        return found
    return check_execution(model, case.inputs())


# ---------------------------------------------------------------------------
# A valid model: its shapes
# ---------------------------------------------------------------------------


def test_a_valid_model_gives_every_operation_s_output_shapes() -> None:
    x, bias, total, flat = tensor((2, 3)), tensor((3,)), tensor((0, 0)), tensor((0,))
    model = graph_model(
        [
            (Op.ADD, [x, bias, scalar(0)], [total]),
            (Op.RESHAPE, [total, ints([3, 2])], [tensor((0, 0))]),
            (Op.RESHAPE, [total, ints([-1])], [flat]),
        ]
    )
    found = check_model(model)
    assert found.ok and found.status == ErrorStatus.NONE and found.violation is None
    assert found.output_shapes == (((2, 3),), ((3, 2),), ((6,),))
    assert str(found) == "valid"
    # Every operand whose shape is known, by index: inputs, constants, results.
    assert {found.operand_shapes[i] for i in model.output_indexes} == {(3, 2), (6,)}


def test_unknown_input_dimensions_give_none_until_the_execution_gives_them() -> None:
    model = operation_model(Op.RESHAPE, [tensor((0, 3)), ints([-1, 2])], [tensor((0, 0))])
    assert check_model(model).output_shapes == (None,)
    # The request's dimensions alone decide it...
    assert check_execution(model, [(4, 3)]).output_shapes == (((6, 2),),)
    # ...and its values too.
    assert check_execution(model, [np.ones((2, 3), np.float32)]).output_shapes == (((3, 2),),)
    # Dimensions that do not fit are the execution's violation.
    refused = check_execution(model, [(3, 3)])
    assert refused.violation == CheckViolation(
        ErrorStatus.INVALID_ARGUMENT,
        "shape [-1, 2] does not hold the input's 9 elements",
        0,
        Op.RESHAPE,
    )


def test_a_shape_that_depends_on_a_value_given_at_execution_is_unknown_until_then() -> None:
    paddings = tensor((2, 2), OperandType.TENSOR_INT32)
    model = operation_model(Op.PAD, [tensor((1, 2)), paddings], [tensor((0, 0))])
    assert check_model(model).output_shapes == (None,)
    data, rows = np.ones((1, 2), np.float32), np.array([[1, 1], [0, 2]], np.int32)
    assert check_execution(model, [data, rows]).output_shapes == (((3, 4),),)
    # Given the paddings' dimensions alone, the checks do not guess the output's.
    assert check_execution(model, [data, (2, 2)]).output_shapes == (None,)
    refused = check_execution(model, [data, np.array([[0, 0], [-1, 0]], np.int32)])
    assert refused.status == ErrorStatus.INVALID_ARGUMENT and refused.violation.operation == 0


# ---------------------------------------------------------------------------
# Invalid models: the exact message and INVALID_ARGUMENT
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "op", "message"),
    [
        (
            "CONV_2D/bias_length_mismatch",
            Op.CONV_2D,
            "bias has shape (2,); 1 output channels need (1,)",
        ),
        (
            "RESHAPE/zero_entry",
            Op.RESHAPE,
            "shape [2, 0, 3]: entries must be positive, with at most one -1",
        ),
        (
            "CONV_2D/pad_not_below_filter",
            Op.CONV_2D,
            "paddings 2, 0 must be smaller than the filter extent 2",
        ),
        (
            "AVERAGE_POOL_2D/pad_left_equals_filter_w",
            Op.AVERAGE_POOL_2D,
            "pad_left 2 is not smaller than filter_w 2",
        ),
        (
            "MUL/declared_shapes_do_not_broadcast",
            Op.MUL,
            "input shapes [2, 3] and [2] do not broadcast",
        ),
        ("ADD/shapes_do_not_broadcast", Op.ADD, "shapes (2,) and (3,) do not broadcast"),
        (
            "TRANSPOSE/permutation_length_differs",
            Op.TRANSPOSE,
            "[2, 1, 0] is not a permutation of the 2 input dimensions",
        ),
    ],
)
def test_an_invalid_model_gives_its_operation_message_and_invalid_argument(
    name: str, op: OperationType, message: str
) -> None:
    found = _refusal(name)
    assert not found.ok and found.status == ErrorStatus.INVALID_ARGUMENT
    assert found.violation == CheckViolation(ErrorStatus.INVALID_ARGUMENT, message, 0, op)
    assert str(found) == f"operation 0 ({op.name}): {message}"


def test_a_structural_violation_is_hal_validation_s_with_its_rule() -> None:
    model = operation_model(Op.ADD, [tensor((2,)), tensor((2,)), scalar(0)], [tensor((2,))])
    model.operands[0].type = 12345  # no such operand type
    found = check_model(model)
    assert found.status == ErrorStatus.INVALID_ARGUMENT
    assert found.violation.operation is None and found.violation.rule is not None
    assert str(found).startswith(f"{found.violation.rule}: ")
    assert found.output_shapes == (None,)


def test_a_hal_validation_violation_about_an_operation_names_it() -> None:
    model = operation_model(
        Op.ADD, [tensor((2, 3, 4, 5, 6)), tensor((2,)), scalar(0)], [tensor((2,))]
    )
    violation = check_model(model).violation
    assert violation == CheckViolation(
        ErrorStatus.INVALID_ARGUMENT,
        "operation 0 (ADD): input 0 has rank 5, must be 1 to 4",
        0,
        Op.ADD,
        "operation.rank",
    )
    assert str(violation) == "operation.rank: operation 0 (ADD): input 0 has rank 5, must be 1 to 4"


def test_the_checks_decide_the_version_as_hal_validation_does() -> None:
    # TENSOR_FLOAT32 ABS is a HAL 1.2 operation.
    model = operation_model(Op.ABS, [tensor((2,))], [tensor((2,))])
    assert check_model(model, HalVersion.V1_2).output_shapes == (((2,),),)
    assert check_model(model, HalVersion.V1_0).violation.rule is not None


def test_check_execution_wants_one_entry_per_model_input() -> None:
    model = operation_model(Op.ABS, [tensor((2,))], [tensor((2,))])
    assert check_execution(model, [(2,)]).output_shapes == (((2,),),)
    with pytest.raises(ValueError, match="0 inputs given for a model of 1 inputs"):
        check_execution(model, [])


def test_every_invalid_value_case_is_refused_by_the_checks_alone() -> None:
    unrefused = [name for name in CASES if _refusal(name).ok]
    assert not unrefused
    assert len(CASES) > 200


def _request_inputs(feed_inputs, dimensions_only: bool) -> list:
    """A feed's inputs as a request gives them: an empty one is given no value."""
    inputs = []
    for value in feed_inputs:
        array = None if value is None else np.asarray(value)
        if array is None or array.size == 0:
            inputs.append(None)
        else:
            inputs.append(tuple(array.shape) if dimensions_only else array)
    return inputs


def test_every_generated_case_is_valid_and_every_shape_decided_is_right() -> None:
    """Over the generated corpus (first example of each case, expected failures left out):
    no valid model or input is refused, and every output shape the checks decide (at preparation, from the request's
    dimensions alone, from its values) is the expected output's shape. What they cannot
    decide stays None: never a guess."""
    decided = {"model": 0, "dimensions": 0, "values": 0}
    wrong = []
    for case in corpus():
        model = case.model
        version = minimum_version(model)
        if version is None or case.expect_failure:  # its inputs are meant to be refused
            continue
        feed = case.feeds[0]
        expected = [np.asarray(out).shape for out in feed.outputs]
        answers = {
            "model": check_model(model, version),
            "dimensions": check_execution(model, _request_inputs(feed.inputs, True), version),
            "values": check_execution(model, _request_inputs(feed.inputs, False), version),
        }
        for how, found in answers.items():
            if not found.ok:
                wrong.append(f"{case.name} ({how}): {found}")
                continue
            for index, shape in zip(model.output_indexes, expected, strict=True):
                got = found.operand_shapes.get(index)
                if got is not None:
                    decided[how] += 1
                    if got != shape:
                        wrong.append(f"{case.name} ({how}): output {index} {got} for {shape}")
    assert not wrong, wrong[:10]
    # Values decide nearly every shape; dimensions and declarations most of them. The
    # checks have no IF or WHILE entry (they do not run referenced subgraphs), so the
    # outputs of control-flow cases stay undecided and are not counted.
    outputs = sum(len(case.model.output_indexes) for case in corpus() if not case.model.referenced)
    assert decided["values"] > 0.95 * outputs
    assert decided["model"] > 0.5 * outputs and decided["dimensions"] > 0.6 * outputs


# ---------------------------------------------------------------------------
# One implementation
# ---------------------------------------------------------------------------


def test_the_reference_driver_uses_the_public_checks() -> None:
    assert set(REGISTRY) == set(CHECKS)
    for op_type, impl in REGISTRY.items():
        assert impl.validate is CHECKS[op_type].validate
        assert impl.prepare is CHECKS[op_type].prepare


# ---------------------------------------------------------------------------
# A permissive runtime behind the checks passes the invalid-value tests
# ---------------------------------------------------------------------------


def _invalid_value_run(folder: Path, driver: str) -> dict[str, int]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    result = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q",
            "--pyargs", "conformance.test_invalid_values", f"--driver=permissive_drivers:{driver}",
            # The drivers are 1.3 ones (the reference driver's subclasses), tested at 1.3:
            # every case runs, HAL 1.3's operations (FILL, HARD_SWISH...) included.
            "--hal-version", "1.3",
        ],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    summary = result.stdout.strip().splitlines()[-1]
    return {kind: int(n) for n, kind in re.findall(r"(\d+) (\w+)", summary)}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(DRIVERS, tmp_path / "permissive_drivers.py")
    return tmp_path


def test_a_driver_checking_only_with_hal_checks_passes_every_invalid_value_test(folder) -> None:
    counts = _invalid_value_run(folder, "PermissiveDriver")
    assert counts.get("passed", 0) == len(CASES) > 200, counts
    assert set(counts) == {"passed"}, counts


def test_the_same_runtime_without_hal_checks_fails_them(folder) -> None:
    counts = _invalid_value_run(folder, "UncheckedDriver")
    assert counts.get("failed", 0) == len(CASES), counts
