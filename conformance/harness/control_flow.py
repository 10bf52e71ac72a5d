"""The loop-timeout runs of control flow (HAL 1.3): a WHILE that cannot end must be stopped.

A generated case "loops forever" when its model is expected to fail
(``Example(...).ExpectFailure()``) and one of its subgraphs holds a WHILE: the only
reason such a model, valid by every rule, cannot execute is that its loop never ends
(the corpus's ``while_infinite_loop`` spec). The case is recognised from the model and
the flag rather than from the spec's name, so that a vendor pack's own endless loops
are run too.

Each such case runs example 0 through the ``LOOP_PATHS``: ``execute_1_3``,
``execute_synchronously_1_3`` and ``execute_fenced``, MeasureTiming NO and YES, with a
loop timeout of ``LOOP_TIMEOUT_NS`` (1 ms), as VTS 1.3's InfiniteLoopTimeoutTest does
(parity). The answer must be MISSED_DEADLINE_TRANSIENT or _PERSISTENT: through the
callback for ``execute_1_3`` (its launch status stays NONE), at launch or from
``get_execution_info`` for ``execute_fenced``; no output shapes; UINT64_MAX timing
(``execution.check_timing``). The call must also return within the loop timeout plus
``LOOP_MARGIN`` (1 s): half the 2 s default, so that a driver that runs the default
budget instead of the one it was given fails on every run, while a driver that keeps the
budget has a thousand times the budget to spare for a loaded machine.

The strict tier adds what VTS does not check (``STRICT_LOOP_PATHS``): a loop timeout
other than 1 ms (``OTHER_LOOP_TIMEOUT_NS``, 100 ms, through
``execute_synchronously_1_3``), which must be neither cut short nor overrun; and the
2 s default through ``execute_synchronously`` (a 1.2 method, which carries no loop
timeout and cannot return a 1.3 status: GENERAL_FAILURE is due), which must end no
sooner than 2 s and no later than 2 s plus ``LOOP_MARGIN``, far within the harness's
own ``--hal-timeout``.

A fenced execution's answer is the first execution's: VTS's second execution waiting
on the returned fence makes sense only for an execution that succeeds, and a fence
signalled in error must not let another start.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from conformance.harness.calls import call_driver
from conformance.harness.cases import GeneratedTest
from conformance.harness.execution import (
    MISSED_DEADLINE,
    Execution,
    ExecutionPath,
    check_shapes,
    check_timing,
    execution_call,
    fenced_answer,
    run,
)
from conformance.harness.requests import pack_request
from hal.types import (
    ErrorStatus,
    HalVersion,
    LoopTimeoutDurationNs,
    MeasureTiming,
    Model,
    OperationType,
)

LOOP_TIMEOUT_NS = 1_000_000
"""The loop timeout of VTS 1.3's InfiniteLoopTimeoutTest: 1 ms."""
OTHER_LOOP_TIMEOUT_NS = 100_000_000
"""The strict tier's other loop timeout: 100 ms."""
DEFAULT_LOOP_TIMEOUT_NS = int(LoopTimeoutDurationNs.DEFAULT)
"""The budget of a WHILE in an execution given no loop timeout: 2 s."""
LOOP_MARGIN = 1.0
"""Seconds a call may take beyond its loop budget (see the module's docstring)."""

_LOOPING = ("execute_1_3", "execute_synchronously_1_3", "execute_fenced")
LOOP_PATHS = tuple(
    ExecutionPath(method, measure, HalVersion.V1_3, loop_timeout_ns=LOOP_TIMEOUT_NS, loops=True)
    for method in _LOOPING
    for measure in (MeasureTiming.NO, MeasureTiming.YES)
)
"""The parity runs of an endless loop (ids ``async13-loop1000000ns``,
``fenced-timed-loop1000000ns``, ...)."""
STRICT_LOOP_PATHS = (
    ExecutionPath(
        "execute_synchronously_1_3",
        MeasureTiming.NO,
        HalVersion.V1_3,
        loop_timeout_ns=OTHER_LOOP_TIMEOUT_NS,
        loops=True,
    ),
    ExecutionPath("execute_synchronously", MeasureTiming.NO, HalVersion.V1_2, loops=True),
)
"""The strict runs: another loop timeout (``sync13-loop100000000ns``), and the 2 s
default through a 1.2 method (``sync``)."""


def holds_while(model: Model) -> bool:
    """Whether any subgraph of ``model`` (the main one or a referenced one) holds a WHILE."""
    return any(o.type == OperationType.WHILE for _, g in model.graphs() for o in g.operations)


def loops_forever(test: GeneratedTest) -> bool:
    """Whether ``test`` is an endless loop: expected to fail, and holding a WHILE."""
    return test.expect_failure and holds_while(test.model)


def budget_ns(path: ExecutionPath) -> int:
    """The loop budget an execution through ``path`` has: the loop timeout it carries, or
    the 2 s default."""
    return DEFAULT_LOOP_TIMEOUT_NS if path.loop_timeout_ns is None else path.loop_timeout_ns


def strict(path: ExecutionPath) -> bool:
    """Whether ``path`` is one of the strict tier's runs (its call is also held to end no
    sooner than its budget)."""
    return path in STRICT_LOOP_PATHS


def run_endless(prepared: object, request, path: ExecutionPath, timeout: float) -> Execution:
    """``request`` through ``path`` on ``prepared``, as ``execution.run`` runs it, but for
    ``execute_fenced``: its answer is the first execution's (no second execution chained on
    its fence)."""
    if path.method != "execute_fenced":
        return run(prepared, request, path, timeout)
    start = time.perf_counter_ns()
    call = execution_call(prepared, request, path)
    result = call_driver(call[0], call[1], *call[2])
    status, shapes, timing = fenced_answer(call, result, path, timeout, chain=False)
    return Execution(path, status, shapes, timing, (time.perf_counter_ns() - start) // 1000)


def judge_endless(
    prepared: object, test: GeneratedTest, path: ExecutionPath, timeout: float, rerun: str
) -> Execution:
    """Run example 0 of endless-loop case ``test`` through ``path`` and judge the answer
    (the module's docstring has the rules); the execution, for a caller's further checks."""
    example = test.feeds[0]
    sizes = [expected.nbytes for expected in example.outputs]
    with pack_request(test.model, example.inputs, sizes) as packed:
        execution = run_endless(prepared, packed.request, path, timeout)
    where = f"{path.method} (loop timeout {describe_budget(path)})"
    if path.level >= HalVersion.V1_3:
        expected = "MISSED_DEADLINE_TRANSIENT or MISSED_DEADLINE_PERSISTENT"
        ok = execution.status in MISSED_DEADLINE
    else:
        expected = "GENERAL_FAILURE (a 1.2 method cannot return a missed deadline)"
        ok = execution.status == ErrorStatus.GENERAL_FAILURE
    if not ok:
        pytest.fail(
            f"{where} answered {execution.status.name} for a WHILE loop that never ends; "
            f"expected {expected}\nrerun: {rerun}",
            pytrace=False,
        )
    check_shapes(execution, len(sizes), False)
    check_timing(execution)
    budget = budget_ns(path) / 1e9
    took = execution.wall_us / 1e6
    if took > budget + LOOP_MARGIN:
        pytest.fail(
            f"{where} took {took:.3f} s to answer {execution.status.name}; a loop that "
            f"never ends must be stopped once its budget is spent, the call returning "
            f"within {budget:g} s + {LOOP_MARGIN:g} s\nrerun: {rerun}",
            pytrace=False,
        )
    if strict(path) and took < budget:
        pytest.fail(
            f"{where} answered {execution.status.name} after {took:.3f} s, before its loop "
            f"budget of {budget:g} s was spent: a loop may only be stopped once it has run "
            f"for its whole budget\nrerun: {rerun}",
            pytrace=False,
        )
    return execution


def describe_budget(path: ExecutionPath) -> str:
    """``1 ms``, ``100 ms``, or ``none given: the 2 s default``."""
    if path.loop_timeout_ns is None:
        return f"none given: the {DEFAULT_LOOP_TIMEOUT_NS / 1e9:g} s default"
    return f"{path.loop_timeout_ns / 1e6:g} ms"


def loop_path(path: ExecutionPath) -> ExecutionPath:
    """``path`` for a model holding a WHILE: a missed deadline is an answer it may give."""
    return replace(path, loops=True)
