"""Quality of service (HAL 1.3): priorities and deadlines at preparation and execution.

The counterpart of VTS 1.3's ``QualityOfServiceTests`` (docs/vts-parity.md, "HAL 1.3:
quality of service"). A HAL 1.3 driver is prepared with each priority and with a
deadline of now, 5 ms and no limit, and it executes through ``execute_1_3`` and
``execute_synchronously_1_3`` with the same three deadlines. What the HAL allows is
accepted: a deadline is never an invalid argument, a driver may ignore it, and a
missed one is reported through the task's own channel (the callback, or the
synchronous answer), never as a launch status. Values are compared whenever the status
is NONE.

Items run on the first case of every spec (VTS runs every generated model; the rows
test how the driver treats a deadline, which one case per operation family shows as
well, at a tenth of the cost). Item ids read ``V1_0/add/base/qos-prepare-HIGH`` and
``V1_0/add/base/ex0/async13-deadline5000000ns``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from conformance.harness.calls import prepare, supported_operations
from conformance.harness.execution import (
    DEADLINE_NOW,
    DEADLINE_SHORT,
    MISSED_DEADLINE,
    QOS_PATHS,
    runs_under,
)
from conformance.harness.generated import corpus
from conformance.harness.items import CaseId, Item
from conformance.harness.marks import cases, level_marks, mark
from conformance.harness.prepared import prepared as prepare_cached
from conformance.harness.rerun import rerun_command
from conformance.harness.runner import Run, compares_values, execute_case, require_model_level
from conformance.harness.tolerance import rules_for
from hal.operations import Tier
from hal.types import (
    TIME_POINT_MAX,
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    Priority,
)

V1_3 = HalVersion.V1_3


@dataclass(frozen=True)
class _Preparing:
    """A preparation row: the priority, and the deadline in ns after the call (None: none)."""

    priority: Priority
    deadline_ns: int | None

    @property
    def run(self) -> str:
        if self.deadline_ns is None:
            return f"qos-prepare-{self.priority.name}"
        return f"qos-prepare-{self.priority.name}-deadline{self.deadline_ns}ns"


PREPARING = (
    _Preparing(Priority.LOW, None),
    _Preparing(Priority.HIGH, None),
    _Preparing(Priority.MEDIUM, DEADLINE_NOW),
    _Preparing(Priority.MEDIUM, TIME_POINT_MAX),
    _Preparing(Priority.MEDIUM, DEADLINE_SHORT),
)
"""VTS 1.3's five preparation rows."""


def _one_per_spec():
    seen = set()
    for test in corpus():
        if test.expect_failure:
            continue  # an expected-failure model runs no positive test (VTS 1.3)
        key = (test.folder, CaseId.of(test).spec)
        if key not in seen:
            seen.add(key)
            yield test


_TESTS = list(_one_per_spec())


def _marks(test) -> tuple:
    return (mark("tier", Tier.PARITY), *level_marks(V1_3))


def _profile(config: pytest.Config) -> str:
    return config.getoption("--nnhal-profile")


def _prepare_params(config: pytest.Config) -> list:
    params = []
    for test in _TESTS:
        for row in PREPARING:
            case = CaseId.of(test, None, row.run)
            if runs_under(QOS_PATHS[0], case.case, _profile(config)):
                item = Item(row, case, test=test, marks=_marks(test), computes=False)
                params.append(item)
    return params


def _execute_params(config: pytest.Config) -> list:
    params = []
    for test in _TESTS:
        computes = compares_values(test, 0)
        for path in QOS_PATHS:
            case = CaseId.of(test, 0, path.id)
            if runs_under(path, case.case, _profile(config)):
                item = Item(path.id, case, test=test, marks=_marks(test), computes=computes)
                params.append(item)
    return params


@cases("row", _prepare_params)
def test_qos_prepare(row: Item[_Preparing], nnhal) -> None:
    """``prepare_model_1_3`` with a priority and a deadline: launch NONE; the callback NONE,
    or a missed deadline where one was given; a prepared model exactly with NONE."""
    test, preparing = row.test, row.runs
    require_model_level(test, nnhal.level)
    status, answers = supported_operations(nnhal.device, test.model, V1_3)
    assert status == ErrorStatus.NONE and answers, (
        f"get_supported_operations_1_3 answered {status.name} with {len(answers)} answers for "
        "a valid model; expected NONE and one answer per operation"
    )
    preparation = prepare(
        nnhal.device,
        test.model,
        V1_3,
        nnhal.timeout,
        ExecutionPreference.FAST_SINGLE_ANSWER,
        priority=preparing.priority,
        deadline_ns=preparing.deadline_ns,
    )
    rerun = rerun_command(nnhal.config, __name__, row.selector("test_qos_prepare"))
    assert preparation.launch_status == ErrorStatus.NONE, (
        f"prepare_model_1_3 (priority {preparing.priority.name}) returned launch status "
        f"{preparation.launch_status.name} for a valid model; a missed deadline or a failure "
        f"to prepare goes through the callback\n{rerun}"
    )
    status = preparation.status
    if status == ErrorStatus.NONE or status in MISSED_DEADLINE:
        return  # a missed deadline is accepted only where one was given (calls.as_status)
    if not all(answers):
        pytest.skip(f"the driver supports only part of the model, and preparing it {status.name}")
    pytest.fail(
        f"prepare_model_1_3 (priority {preparing.priority.name}) failed with {status.name} "
        f"although get_supported_operations_1_3 reported every operation supported\n{rerun}",
        pytrace=False,
    )


@cases("row", _execute_params)
def test_qos_execute(row: Item[str], nnhal) -> None:
    """``execute_1_3`` and ``execute_synchronously_1_3`` with a deadline of now, 5 ms and no
    limit: NONE with the expected outputs, or a missed deadline where one could be missed,
    never an invalid argument; timing not measured."""
    test = row.test
    require_model_level(test, nnhal.level)
    prepared = prepare_cached(nnhal.device, test.model, V1_3, nnhal.timeout, case=test.model)
    rerun = rerun_command(nnhal.config, __name__, row.selector("test_qos_execute"))
    run = Run(test, 0, row.runs, rerun=rerun, rules=rules_for(nnhal.level))
    execute_case(prepared, run, nnhal.timeout)
