"""Operation-specific invalid values: the driver answers INVALID_ARGUMENT (strict tier).

Android 10's VTS checks only signatures; a parameter value an operation's
definition forbids (an axis out of range, a block size of 0, mismatched
concatenated shapes) is left to the driver. Here it must be refused with
INVALID_ARGUMENT: at prepare when the value is in the model, at execution when
it first appears there. A driver that does not support the operation skips.
"""

from __future__ import annotations

import pytest

from conformance.harness import items
from conformance.harness.calls import prepare, supported_operations
from conformance.harness.execution import PATHS_BY_ID, run
from conformance.harness.marks import level_marks
from conformance.harness.requests import pack_request
from conformance.invalid import InvalidCase, all_cases
from hal.types import ErrorStatus, HalVersion
from hal.validation import minimum_version

CASES = all_cases()


def _skip_unless_supported(device, model, level: HalVersion) -> None:
    lowest = minimum_version(model)
    assert lowest is not None, "the invalid case's model must pass hal.validation"
    if lowest > level:
        pytest.skip(f"the model needs HAL {lowest}; the driver is tested at HAL {level}")
    status, answers = supported_operations(device, model, level)
    if status == ErrorStatus.NONE and answers and not all(answers):
        items.unsupported("unsupported: the driver does not support the operation")


def _param(case: InvalidCase):
    """The case as a parameter, marked with its model's level from HAL 1.3 on (a driver
    tested at 1.2 does not collect the cases of 1.3 operations)."""
    lowest = minimum_version(case.model())
    return pytest.param(case, id=case.name, marks=level_marks(lowest) if lowest else ())


@pytest.mark.tier("strict")
@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_invalid_value(
    case: InvalidCase, device, hal_level: HalVersion, hal_timeout: float
) -> None:
    model = case.model()
    _skip_unless_supported(device, model, hal_level)
    preparation = prepare(device, model, hal_level, hal_timeout)
    if case.inputs is None:
        assert (preparation.launch_status, preparation.status) == (
            ErrorStatus.INVALID_ARGUMENT,
            ErrorStatus.INVALID_ARGUMENT,
        ), (
            f"{preparation.method}: launch {preparation.launch_status.name}, callback "
            f"{preparation.status.name}; expected INVALID_ARGUMENT for both"
        )
        return
    assert preparation.status == ErrorStatus.NONE, (
        f"{preparation.method} failed with {preparation.status.name}; the model is valid and "
        "only its execution inputs are wrong"
    )
    path = PATHS_BY_ID["sync" if hal_level >= HalVersion.V1_2 else "async10"]
    with pack_request(model, case.inputs(), [1 << 16] * len(model.output_indexes)) as packed:
        execution = run(preparation.prepared_model, packed.request, path, hal_timeout)
    assert execution.status == ErrorStatus.INVALID_ARGUMENT, (
        f"{path.method} answered {execution.status.name}; expected INVALID_ARGUMENT"
    )
