"""The reference driver's IF and WHILE (HAL 1.3 control flow), called directly with
models built by ``control_flow_models.ModelBuilder``.

Every expected value is derived by hand in the comment beside it. What is proved:
IF runs the branch its condition picks and only that one (the other branch would fail
the execution if it ran), whatever the condition is (an input, a constant copied or in
a pool, a computed value, any non-zero byte); WHILE carries its m input-output, k
state-only and n input-only values, runs zero times when its condition is false at
once, nests, reads constants of its subgraphs and leaves outputs unused; quantized,
relaxed and float16 loop state; the loop timeout (1 ms, the 2 s default on the paths
without one), the deadline inside a body, the memory and work budgets over iterations;
which models the driver claims; and a compilation cache of a model with subgraphs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pytest
from control_flow_models import (
    B8,
    F16,
    F32,
    HUGE,
    I32T,
    Q8A,
    Q8AS,
    ModelBuilder,
    counter_while,
    doubling,
    fib_model,
    forever_model,
    if_model,
)

from conformance.harness.requests import pack_request
from hal.callbacks import ExecutionCallback, PreparedModelCallback
from hal.types import (
    ErrorStatus,
    ExecutionPreference,
    LoopTimeoutDurationNs,
    MeasureTiming,
    Model,
    OperationType,
    Priority,
)
from reference_driver import ReferenceDriver

NONE = ErrorStatus.NONE
FAILURE = ErrorStatus.GENERAL_FAILURE
INVALID = ErrorStatus.INVALID_ARGUMENT
TRANSIENT = ErrorStatus.MISSED_DEADLINE_TRANSIENT
FAST = ExecutionPreference.FAST_SINGLE_ANSWER
NO = MeasureTiming.NO
OP = OperationType
WAIT = 30.0
MS = 1_000_000


@pytest.fixture(scope="module")
def driver() -> ReferenceDriver:
    return ReferenceDriver()


def prepare(driver: ReferenceDriver, model: Model, status: ErrorStatus = NONE):
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_3(model, FAST, Priority.MEDIUM, None, callback)
    notification = callback.wait(WAIT)
    assert notification.status == status, notification.status
    if status == NONE:
        assert launch == NONE
    return notification.prepared_model


def execute(
    prepared,
    model: Model,
    inputs: Sequence[np.ndarray],
    *,
    loop_timeout: int | None = None,
    deadline: int | None = None,
) -> tuple[ErrorStatus, list[np.ndarray], float]:
    """execute_synchronously_1_3: the status, the outputs (with their reported shapes) and
    the seconds the call took."""
    with pack_request(model, list(inputs)) as packed:
        start = time.monotonic()
        status, shapes, _ = prepared.execute_synchronously_1_3(
            packed.request, NO, deadline, loop_timeout
        )
        elapsed = time.monotonic() - start
        outputs = [packed.output(k, s.dimensions).copy() for k, s in enumerate(shapes)]
    if status != NONE:
        assert shapes == []
    return status, outputs, elapsed


def run(driver, model, inputs, **options) -> tuple[ErrorStatus, list[np.ndarray]]:
    status, outputs, _ = execute(prepare(driver, model), model, inputs, **options)
    return status, outputs


def f32(*values: float) -> np.ndarray:
    return np.array(values, np.float32)


def i32(*values: int) -> np.ndarray:
    return np.array(values, np.int32)


def flag(value: int) -> np.ndarray:
    return np.array([value], np.uint8)


# ---------------------------------------------------------------------------
# IF
# ---------------------------------------------------------------------------


X = f32(1.5, -2.0)
DOUBLED = f32(3.0, -4.0)  # 1.5 + 1.5, -2 + -2


@pytest.mark.parametrize(
    ("double_when_true", "cond", "multiples", "expected"),
    [
        # then doubles: the condition true doubles, the else branch (TILE by HUGE) never runs
        (True, 1, HUGE, DOUBLED),
        # any non-zero byte is true
        (True, 2, HUGE, DOUBLED),
        (True, 255, HUGE, DOUBLED),
        # the condition false tiles x once: x itself
        (True, 0, 1, X),
        # then tiles: false doubles and the then branch (TILE by HUGE) never runs
        (False, 0, HUGE, DOUBLED),
        (False, 1, 1, X),
    ],
)
def test_if_runs_the_chosen_branch_only(
    driver, double_when_true, cond, multiples, expected
) -> None:
    model = if_model(double_when_true=double_when_true)
    status, outputs = run(driver, model, [flag(cond), X, i32(multiples)])
    assert status == NONE
    np.testing.assert_array_equal(outputs[0], expected)


@pytest.mark.parametrize(("double_when_true", "cond"), [(True, 0), (False, 1)])
def test_if_the_tiling_branch_chosen_with_a_huge_multiple_fails(
    driver, double_when_true, cond
) -> None:
    """What makes the test above meaningful: the branch it avoids fails when it runs."""
    model = if_model(double_when_true=double_when_true)
    status, outputs = run(driver, model, [flag(cond), X, i32(HUGE)])
    assert (status, outputs) == (FAILURE, [])


@pytest.mark.parametrize("reference", [False, True], ids=["copy", "reference"])
@pytest.mark.parametrize(("value", "expected"), [(1, DOUBLED), (0, X), (7, DOUBLED)])
def test_if_with_a_constant_condition(driver, reference, value, expected) -> None:
    model = if_model(condition=(value, reference))
    status, outputs = run(driver, model, [X, i32(1)])
    assert status == NONE
    np.testing.assert_array_equal(outputs[0], expected)


def test_if_with_a_computed_condition_and_its_output_read_by_another_operation(driver) -> None:
    """c = a < b; y = IF(c, then: x * 3, else: x - 1); out = y + y."""
    builder = ModelBuilder()
    main = builder.main
    a, b, x = main.input(F32, [1]), main.input(F32, [1]), main.input(F32, [3])
    cond = main.temporary(B8, [1])
    main.op(OP.LESS, [a, b], [cond])
    branches = []
    for op, operand in ((OP.MUL, 3.0), (OP.SUB, 1.0)):
        branch = builder.subgraph()
        value = branch.input(F32, [3])
        constant = branch.constant(F32, [1], [operand])
        branch.binary(op, value, constant, branch.output(F32, [3]))
        branches.append(branch)
    y = main.temporary(F32, [3])
    main.op(OP.IF, [cond, main.reference(branches[0]), main.reference(branches[1]), x], [y])
    main.binary(OP.ADD, y, y, main.output(F32, [3]))
    model = builder.build()
    prepared = prepare(driver, model)
    x_value = f32(1.0, -0.5, 4.0)
    # 1 < 2: then: x * 3 = [3, -1.5, 12], doubled [6, -3, 24]
    status, outputs, _ = execute(prepared, model, [f32(1.0), f32(2.0), x_value])
    assert status == NONE
    np.testing.assert_array_equal(outputs[0], f32(6.0, -3.0, 24.0))
    # 2 < 1 is false: else: x - 1 = [0, -1.5, 3], doubled [0, -3, 6]
    status, outputs, _ = execute(prepared, model, [f32(2.0), f32(1.0), x_value])
    assert status == NONE
    np.testing.assert_array_equal(outputs[0], f32(0.0, -3.0, 6.0))


def test_if_with_the_same_subgraph_for_both_branches(driver) -> None:
    builder = ModelBuilder()
    main = builder.main
    cond, x = main.input(B8, [1]), main.input(F32, [2])
    doubling = builder.subgraph()
    value = doubling.input(F32, [2])
    doubling.binary(OP.ADD, value, value, doubling.output(F32, [2]))
    ref = main.reference(doubling)
    main.op(OP.IF, [cond, ref, main.reference(doubling), x], [main.output(F32, [2])])
    model = builder.build()
    assert model.operands[ref].location.offset == model.operands[ref + 1].location.offset == 0
    prepared = prepare(driver, model)
    for cond_value in (0, 1):
        status, outputs, _ = execute(prepared, model, [flag(cond_value), X])
        assert status == NONE
        np.testing.assert_array_equal(outputs[0], DOUBLED)


def test_if_with_two_outputs_and_no_branch_input(driver) -> None:
    """n = 0 (Android 11 accepts it; the strict rule subgraph.io_nonempty does not):
    the branches output constants through an operation: then [1, 2] + [1, 1] and 5 * 2."""
    builder = ModelBuilder()
    main = builder.main
    cond = main.input(B8, [1])
    branches = []
    for first, second in (((1.0, 2.0), 5), ((-1.0, 0.0), 7)):
        branch = builder.subgraph()
        a = branch.constant(F32, [2], first)
        branch.binary(OP.ADD, a, branch.constant(F32, [2], [1.0, 1.0]), branch.output(F32, [2]))
        b = branch.constant(I32T, [1], [second])
        branch.binary(OP.MUL, b, branch.constant(I32T, [1], [2]), branch.output(I32T, [1]))
        branches.append(branch)
    refs = [main.reference(b) for b in branches]
    main.op(OP.IF, [cond, *refs], [main.output(F32, [2]), main.output(I32T, [1])])
    model = builder.build()
    strict = ReferenceDriver(disabled_rules={"subgraph.io_nonempty"})
    prepared = prepare(strict, model)
    status, outputs, _ = execute(prepared, model, [flag(1)])
    assert status == NONE
    np.testing.assert_array_equal(outputs[0], f32(2.0, 3.0))
    np.testing.assert_array_equal(outputs[1], i32(10))
    status, outputs, _ = execute(prepared, model, [flag(0)])
    assert status == NONE
    np.testing.assert_array_equal(outputs[0], f32(0.0, 1.0))  # [-1, 0] + 1
    np.testing.assert_array_equal(outputs[1], i32(14))  # 7 * 2


def _no_value_if() -> Model:
    builder = ModelBuilder()
    main = builder.main
    cond = main.no_value(B8, [1])
    x = main.input(F32, [2])
    branch = doubling(builder)
    multiples = main.constant(I32T, [1], [1])
    main.op(
        OP.IF,
        [cond, main.reference(branch), main.reference(branch), x, multiples],
        [main.output(F32, [2])],
    )
    return builder.build()


def test_if_without_a_condition_value_is_valid_declined_and_not_prepared(driver) -> None:
    model = _no_value_if()
    assert driver.get_supported_operations_1_3(model) == (NONE, [False])
    prepare(driver, model, FAILURE)


# ---------------------------------------------------------------------------
# WHILE
# ---------------------------------------------------------------------------


# (i, a, b) from (0, 0, 1): (1, 1, 1), (2, 1, 2), (3, 2, 3), (4, 3, 5), (5, 5, 8)
FIB = {0: (0, 0, 1), 1: (1, 1, 1), 2: (2, 1, 2), 5: (5, 5, 8)}


@pytest.mark.parametrize("n", sorted(FIB))
def test_while_fibonacci(driver, n) -> None:
    """n = 0 is zero iterations: the outputs are the initial values."""
    status, outputs = run(driver, fib_model(), [f32(0), f32(0), f32(1), f32(n)])
    assert status == NONE
    assert [float(v[0]) for v in outputs] == list(FIB[n])


@pytest.mark.parametrize(
    ("kind", "relaxed", "dtype"),
    [(F32, True, np.float32), (F16, False, np.float16), (I32T, False, np.int32)],
    ids=["relaxed", "float16", "int32"],
)
def test_while_fibonacci_relaxed_float16_and_int32(driver, kind, relaxed, dtype) -> None:
    model = fib_model(kind, relaxed=relaxed)
    inputs = [np.array([v], dtype) for v in (0, 0, 1, 5)]
    status, outputs = run(driver, model, inputs)
    assert status == NONE
    assert [v.dtype for v in outputs] == [np.dtype(dtype)] * 3
    assert [v.item() for v in outputs] == [5, 5, 8]


def test_while_constants_in_a_pool_and_an_unused_output(driver) -> None:
    model = fib_model(reference=True, unused_counter=True)
    assert len(model.pools) == 1
    status, outputs = run(driver, model, [f32(0), f32(0), f32(1), f32(5)])
    assert status == NONE
    assert [float(v[0]) for v in outputs] == [5.0, 8.0]  # a and b; i is not an output


def sum_model(*, step_input: bool) -> Model:
    """WHILE(cond: i < n, body: (s, i, ...) -> (s + i, i + step)) -> s: s input-output
    (m = 1), i state-only (k = 1), n (and with ``step_input`` the step) input-only; the
    step is a body constant 1 otherwise. All TENSOR_FLOAT32 [1]."""
    builder = ModelBuilder()
    main = builder.main
    count = 4 if step_input else 3
    values = [main.input(F32, [1]) for _ in range(count)]
    cond = builder.subgraph()
    inputs = [cond.input(F32, [1]) for _ in range(count)]
    cond.op(OP.LESS, [inputs[1], inputs[2]], [cond.output(B8, [1])])
    body = builder.subgraph()
    s, i, *rest = (body.input(F32, [1]) for _ in range(count))
    step = rest[1] if step_input else body.constant(F32, [1], [1.0])
    body.binary(OP.ADD, s, i, body.output(F32, [1]))
    body.binary(OP.ADD, i, step, body.output(F32, [1]))
    main.op(
        OP.WHILE,
        [main.reference(cond), main.reference(body), *values],
        [main.output(F32, [1])],
    )
    return builder.build()


def test_while_with_a_state_only_value(driver) -> None:
    # i: 0 1 2 3 (4 stops); s: 0, 0 + 0, 0 + 1, 1 + 2, 3 + 3 = 6
    status, outputs = run(driver, sum_model(step_input=False), [f32(0), f32(0), f32(4)])
    assert status == NONE
    assert float(outputs[0][0]) == 6.0


def test_while_with_two_input_only_values(driver) -> None:
    # step 2, n 7: i: 0 2 4 6 (8 stops); s: 0 + 0 + 2 + 4 + 6 = 12
    model = sum_model(step_input=True)
    status, outputs = run(driver, model, [f32(0), f32(0), f32(7), f32(2)])
    assert status == NONE
    assert float(outputs[0][0]) == 12.0


def test_while_state_only_value_starting_past_the_limit(driver) -> None:
    # i = 5 >= n = 4: zero iterations, s is its initial value
    status, outputs = run(driver, sum_model(step_input=False), [f32(9), f32(5), f32(4)])
    assert status == NONE
    assert float(outputs[0][0]) == 9.0


def powers_model() -> Model:
    """acc = sum of x**j for j = 1 .. n: an outer WHILE (acc input-output; j state-only
    from 1; x, n input-only) whose body runs an inner WHILE computing x**j as p = x,
    c = 1, while c < j: p = p * x, c = c + 1, given the outer body's x twice (p's initial
    value and the input-only factor)."""
    builder = ModelBuilder()
    main = builder.main
    acc, j, x, n = (main.input(F32, [1]) for _ in range(4))
    outer_cond = builder.subgraph()
    _, cj, _, cn = (outer_cond.input(F32, [1]) for _ in range(4))
    outer_cond.op(OP.LESS_EQUAL, [cj, cn], [outer_cond.output(B8, [1])])
    outer_body = builder.subgraph()
    bacc, bj, bx, _ = (outer_body.input(F32, [1]) for _ in range(4))
    inner_cond = builder.subgraph()
    _, ic, ij, _ = (inner_cond.input(F32, [1]) for _ in range(4))
    inner_cond.op(OP.LESS, [ic, ij], [inner_cond.output(B8, [1])])
    inner_body = builder.subgraph()
    ip, ic, _, ix = (inner_body.input(F32, [1]) for _ in range(4))
    inner_body.binary(OP.MUL, ip, ix, inner_body.output(F32, [1]))
    one = inner_body.constant(F32, [1], [1.0])
    inner_body.binary(OP.ADD, ic, one, inner_body.output(F32, [1]))
    power = outer_body.temporary(F32, [1])
    c0 = outer_body.constant(F32, [1], [1.0])
    outer_body.op(
        OP.WHILE,
        [outer_body.reference(inner_cond), outer_body.reference(inner_body), bx, c0, bj, bx],
        [power],
    )
    outer_body.binary(OP.ADD, bacc, power, outer_body.output(F32, [1]))
    step = outer_body.constant(F32, [1], [1.0])
    outer_body.binary(OP.ADD, bj, step, outer_body.output(F32, [1]))
    main.op(
        OP.WHILE,
        [main.reference(outer_cond), main.reference(outer_body), acc, j, x, n],
        [main.output(F32, [1])],
    )
    return builder.build()


@pytest.mark.parametrize(
    ("x", "n", "expected"),
    [(2.0, 3, 14.0), (3.0, 1, 3.0), (2.0, 0, 0.0), (-1.0, 4, 0.0), (0.5, 2, 0.75)],
)
def test_nested_while(driver, x, n, expected) -> None:
    # 2 + 4 + 8 = 14; 3; nothing; -1 + 1 - 1 + 1 = 0; 0.5 + 0.25 = 0.75
    status, outputs = run(driver, powers_model(), [f32(0), f32(1), f32(x), f32(n)])
    assert status == NONE
    assert float(outputs[0][0]) == expected


@pytest.mark.parametrize(
    ("kind", "zp", "start", "limit", "expected"),
    [
        # scale 0.5: 0.0 is 10, 3.0 is 16; three steps of 1.0 (2 each): 10 12 14 16
        (Q8A, 10, 10, 16, 16),
        # signed, zero point -5: 0.0 is -5, 3.0 is 1
        (Q8AS, -5, -5, 1, 1),
        # start past the limit: none
        (Q8A, 10, 20, 16, 20),
    ],
)
def test_while_with_quantized_loop_state(driver, kind, zp, start, limit, expected) -> None:
    builder = ModelBuilder()
    main = builder.main
    i = main.input(kind, [1], 0.5, zp)
    n = main.input(kind, [1], 0.5, zp)
    counter_while(builder, main, i, n, main.output(kind, [1], 0.5, zp))
    model = builder.build()
    dtype = np.uint8 if kind == Q8A else np.int8
    status, outputs = run(driver, model, [np.array([start], dtype), np.array([limit], dtype)])
    assert status == NONE
    assert outputs[0].dtype == dtype
    assert int(outputs[0][0]) == expected


# ---------------------------------------------------------------------------
# The loop timeout, the deadline, the budgets
# ---------------------------------------------------------------------------


def payload_model(dims: Sequence[int], *, forever: bool = False) -> Model:
    """WHILE(cond: i < n, or i >= n with ``forever``; body: (i, p, n) -> (i + 1, p + 1))
    -> (i, p): a counter i and a payload p of ``dims`` floats, both input-output."""
    builder = ModelBuilder()
    main = builder.main
    i, p, n = main.input(F32, [1]), main.input(F32, dims), main.input(F32, [1])
    cond = builder.subgraph()
    ci, _, cn = cond.input(F32, [1]), cond.input(F32, dims), cond.input(F32, [1])
    test = OP.GREATER_EQUAL if forever else OP.LESS
    cond.op(test, [ci, cn], [cond.output(B8, [1])])
    body = builder.subgraph()
    bi, bp, _ = body.input(F32, [1]), body.input(F32, dims), body.input(F32, [1])
    one = body.constant(F32, [1], [1.0])
    body.binary(OP.ADD, bi, one, body.output(F32, [1]))
    body.binary(OP.ADD, bp, one, body.output(F32, dims))
    outputs = [main.output(F32, [1]), main.output(F32, dims)]
    main.op(OP.WHILE, [main.reference(cond), main.reference(body), i, p, n], outputs)
    return builder.build()


FOREVER_INPUTS = [f32(0), f32(0)]


@pytest.fixture(scope="module")
def forever(driver):
    model = forever_model()
    return model, prepare(driver, model)


def test_a_loop_over_its_1_ms_timeout_misses_the_deadline(forever) -> None:
    model, prepared = forever
    status, outputs, elapsed = execute(prepared, model, FOREVER_INPUTS, loop_timeout=MS)
    assert (status, outputs) == (TRANSIENT, [])
    assert elapsed < 1.0  # 1 ms and one more iteration, far under a second


def test_a_finite_loop_within_its_timeout_ends_normally(driver) -> None:
    builder = ModelBuilder()
    main = builder.main
    i, n = main.input(F32, [1]), main.input(F32, [1])
    counter_while(builder, main, i, n, main.output(F32, [1]))
    model = builder.build()
    status, outputs = run(driver, model, [f32(0), f32(50)], loop_timeout=10_000 * MS)
    assert status == NONE
    assert float(outputs[0][0]) == 50.0  # counted 0 .. 50


def test_an_overrunning_loop_stops_with_the_async_and_fenced_paths_too(forever) -> None:
    model, prepared = forever
    with pack_request(model, FOREVER_INPUTS) as packed:
        callback = ExecutionCallback()
        launch = prepared.execute_1_3(packed.request, NO, None, MS, callback)
        notification = callback.wait(WAIT)
        assert (launch, notification.status) == (NONE, TRANSIENT)
        assert not notification.output_shapes
        status, fence, info = prepared.execute_fenced(packed.request, [], NO, None, MS, None)
        assert status == NONE
        fence.wait(WAIT)
        fence.close()
        assert info.get_execution_info()[0] == TRANSIENT


def test_an_infinite_loop_ends_after_the_2_s_default(forever) -> None:
    """execute_synchronously_1_3 without a loop timeout: MISSED_DEADLINE_TRANSIENT after
    the default 2 s; the 1.2 path (no loop timeout argument) the same 2 s, its status
    GENERAL_FAILURE (the 1.3 status converted)."""
    model, prepared = forever
    default = int(LoopTimeoutDurationNs.DEFAULT) / 1e9
    status, _, elapsed = execute(prepared, model, FOREVER_INPUTS)
    assert status == TRANSIENT
    assert default <= elapsed < default + 2.0
    with pack_request(model, FOREVER_INPUTS) as packed:
        start = time.monotonic()
        status, shapes, _ = prepared.execute_synchronously(packed.request, NO)
        elapsed = time.monotonic() - start
    assert (status, shapes) == (FAILURE, [])
    assert default <= elapsed < default + 2.0


def test_an_expensive_body_overruns_its_timeout_by_one_iteration_at_most(driver) -> None:
    """Each iteration adds 1 to 2**21 floats (8 MiB); with a 20 ms budget the loop stops
    about one iteration after 20 ms, far under a second and a half."""
    dims = (1 << 21,)
    model = payload_model(dims, forever=True)
    prepared = prepare(driver, model)
    payload = np.zeros(dims, np.float32)
    status, _, elapsed = execute(prepared, model, [f32(0), payload, f32(0)], loop_timeout=20 * MS)
    assert status == TRANSIENT
    assert 0.02 <= elapsed < 1.5


def test_the_deadline_is_checked_inside_a_body(forever) -> None:
    """A 15 s loop timeout, a deadline 50 ms away: the deadline stops the loop."""
    model, prepared = forever
    deadline = time.monotonic_ns() + 50 * MS
    maximum = int(LoopTimeoutDurationNs.MAXIMUM)
    status, outputs, elapsed = execute(
        prepared, model, FOREVER_INPUTS, loop_timeout=maximum, deadline=deadline
    )
    assert (status, outputs) == (TRANSIENT, [])
    assert elapsed < 2.0


def test_the_work_budget_counts_every_iteration() -> None:
    """A work budget of 10**6 steps: each iteration counts at least PYTHON_STEP (10**4),
    so the loop fails as over budget after some hundred iterations, long before its
    15 s loop timeout."""
    small = ReferenceDriver(work_budget=10**6)
    model = forever_model()
    prepared = prepare(small, model)
    maximum = int(LoopTimeoutDurationNs.MAXIMUM)
    status, outputs, elapsed = execute(prepared, model, FOREVER_INPUTS, loop_timeout=maximum)
    assert (status, outputs) == (FAILURE, [])
    assert elapsed < 5.0


def test_a_loop_releases_each_finished_iteration() -> None:
    """A payload of 4096 floats (16 KiB) through 200 iterations (3.2 MiB made in all)
    under a memory budget of 256 KiB: it fits only when each iteration's values go."""
    budgeted = ReferenceDriver(memory_budget=256 << 10)
    dims = (4096,)
    model = payload_model(dims)
    payload = np.arange(4096, dtype=np.float32)
    status, outputs = run(budgeted, model, [f32(0), payload, f32(200)])
    assert status == NONE
    assert float(outputs[0][0]) == 200.0
    np.testing.assert_array_equal(outputs[1], payload + 200)  # 200 times + 1


def test_a_body_that_can_never_fit_the_memory_budget_fails_preparation() -> None:
    """A payload of 2**18 floats (1 MiB) under a 1.5 MiB budget: the body holds its input
    and makes its output (2 MiB), which the prepare-time check of the body already
    finds: GENERAL_FAILURE."""
    budgeted = ReferenceDriver(memory_budget=3 << 19)
    prepare(budgeted, payload_model((1 << 18,)), FAILURE)


# ---------------------------------------------------------------------------
# What the driver claims
# ---------------------------------------------------------------------------


def test_control_flow_models_are_supported(driver) -> None:
    for model in (if_model(), fib_model(), powers_model(), payload_model((4,))):
        assert driver.get_supported_operations_1_3(model) == (NONE, [True])


def test_an_operation_the_driver_declines_inside_a_subgraph_declines_the_control_flow() -> None:
    """A driver without ADD: the WHILE whose body adds is unsupported; the nested case
    too (ADD only in the inner loop's body and the outer body); an IF is supported
    through branches without ADD (TILE and ADD: the doubling branch adds, so no)."""
    from reference_driver.ops import REGISTRY

    without_add = ReferenceDriver(operations=[*REGISTRY, OP.IF, OP.WHILE])
    assert without_add.get_supported_operations_1_3(fib_model()) == (NONE, [True])
    without_add = ReferenceDriver(
        operations=[op for op in (*REGISTRY, OP.IF, OP.WHILE) if op != OP.ADD]
    )
    assert without_add.get_supported_operations_1_3(fib_model()) == (NONE, [False])
    assert without_add.get_supported_operations_1_3(powers_model()) == (NONE, [False])
    assert without_add.get_supported_operations_1_3(if_model()) == (NONE, [False])
    prepare(without_add, fib_model(), FAILURE)


def test_a_driver_without_while_declines_it_but_not_the_rest() -> None:
    from reference_driver.ops import REGISTRY

    no_while = ReferenceDriver(operations=[*REGISTRY, OP.IF])
    assert no_while.get_supported_operations_1_3(fib_model()) == (NONE, [False])
    assert no_while.get_supported_operations_1_3(if_model()) == (NONE, [True])
    # The computed-condition model: LESS and ADD supported, the IF too.
    builder = ModelBuilder()
    main = builder.main
    i, n = main.input(F32, [1]), main.input(F32, [1])
    counter_while(builder, main, i, n, main.temporary(F32, [1]))
    main.binary(OP.ADD, i, n, main.output(F32, [1]))
    model = builder.build()
    status, answers = no_while.get_supported_operations_1_3(model)
    assert (status, answers) == (NONE, [False, True])


def cyclic_model() -> Model:
    """main: IF(c, A, A, c, x); A: (c, x) -> IF(c, A, A, c, x): A names itself."""
    builder = ModelBuilder()
    main = builder.main
    cond, x = main.input(B8, [1]), main.input(F32, [2])
    loop = builder.subgraph()
    lc, lx = loop.input(B8, [1]), loop.input(F32, [2])
    refs = [loop.reference(loop), loop.reference(loop)]
    loop.op(OP.IF, [lc, *refs, lc, lx], [loop.output(F32, [2])])
    main_refs = [main.reference(loop), main.reference(loop)]
    main.op(OP.IF, [cond, *main_refs, cond, x], [main.output(F32, [2])])
    return builder.build()


def test_a_reference_cycle_is_invalid(driver) -> None:
    status, _ = driver.get_supported_operations_1_3(cyclic_model())
    assert status == INVALID
    prepare(driver, cyclic_model(), INVALID)


def test_a_reference_cycle_past_a_disabled_rule_is_declined_never_run() -> None:
    """With the rule disabled the model is taken as valid: the IF is declined (its
    subgraphs never end) and preparation fails, at once."""
    lax = ReferenceDriver(disabled_rules={"model.no_reference_cycles"})
    assert lax.get_supported_operations_1_3(cyclic_model()) == (NONE, [False])
    prepare(lax, cyclic_model(), FAILURE)


def test_capabilities_price_if_and_while_as_float_work(driver) -> None:
    from reference_driver.performance import CONTROL_FLOW_PERFORMANCE

    status, capabilities = driver.get_capabilities_1_3()
    assert status == NONE
    assert capabilities.if_performance == CONTROL_FLOW_PERFORMANCE
    assert capabilities.while_performance == CONTROL_FLOW_PERFORMANCE
    assert CONTROL_FLOW_PERFORMANCE.exec_time > 0 and CONTROL_FLOW_PERFORMANCE.power_usage > 0


# ---------------------------------------------------------------------------
# Caching, unknown sizes
# ---------------------------------------------------------------------------


def test_a_model_with_subgraphs_round_trips_through_the_compilation_cache() -> None:
    """The body's constants in a pool, the cache written and read back by a driver with
    the same key: the prepared model from the cache computes the same loop."""
    from conformance.harness.caching import CacheFiles

    key = bytes(range(32))
    model = fib_model(reference=True)
    prepared = prepare(ReferenceDriver(cache_key=key), model)
    token = bytes(range(1, 33))
    with CacheFiles() as files:
        assert prepared.save_to_cache(*files.handles(), token) == NONE
        files.close_descriptors()
        callback = PreparedModelCallback()
        fresh = ReferenceDriver(cache_key=key)
        launch = fresh.prepare_model_from_cache_1_3(None, *files.handles(), token, callback)
        notification = callback.wait(WAIT)
        files.close_descriptors()
    assert (launch, notification.status) == (NONE, NONE)
    status, outputs, _ = execute(
        notification.prepared_model, model, [f32(0), f32(0), f32(1), f32(5)]
    )
    assert status == NONE
    assert [float(v[0]) for v in outputs] == [5.0, 5.0, 8.0]


def test_an_if_of_unknown_size_past_the_strict_rule_takes_the_branch_size() -> None:
    """The IF's output and its branch's output declared [0] (unknown size): the rule
    if.fully_specified refuses that; with it disabled the output is the size the branch
    computed, x + x of [3]."""
    builder = ModelBuilder()
    main = builder.main
    cond, x = main.input(B8, [1]), main.input(F32, [3])
    branch = builder.subgraph()
    value = branch.input(F32, [3])
    branch.binary(OP.ADD, value, value, branch.output(F32, [0]))
    refs = [main.reference(branch), main.reference(branch)]
    main.op(OP.IF, [cond, *refs, x], [main.output(F32, [0])])
    model = builder.build()
    status, _ = ReferenceDriver().get_supported_operations_1_3(model)
    assert status == INVALID
    lax = ReferenceDriver(disabled_rules={"if.fully_specified"})
    prepared = prepare(lax, model)
    with pack_request(model, [flag(1), f32(1, 2, 3)], output_sizes=[12]) as packed:
        status, shapes, _ = prepared.execute_synchronously_1_3(packed.request, NO, None, None)
        assert status == NONE
        assert [s.dimensions for s in shapes] == [(3,)]
        np.testing.assert_array_equal(packed.output(0, (3,)), f32(2, 4, 6))


def test_a_while_of_unknown_sizes_past_the_rule_carries_the_computed_sizes() -> None:
    """WHILE(i < n) (i, x) -> (i + 1, x + x) with x's operands declared [0] everywhere:
    while.fully_specified refuses it; with the rule disabled x keeps its [2] size,
    doubled three times: [1, -2] * 8."""
    builder = ModelBuilder()
    main = builder.main
    i, x, n = main.input(F32, [1]), main.input(F32, [0]), main.input(F32, [1])
    cond = builder.subgraph()
    ci, _, cn = cond.input(F32, [1]), cond.input(F32, [0]), cond.input(F32, [1])
    cond.op(OP.LESS, [ci, cn], [cond.output(B8, [1])])
    body = builder.subgraph()
    bi, bx, _ = body.input(F32, [1]), body.input(F32, [0]), body.input(F32, [1])
    body.binary(OP.ADD, bi, body.constant(F32, [1], [1.0]), body.output(F32, [1]))
    body.binary(OP.ADD, bx, bx, body.output(F32, [0]))
    outputs = [main.output(F32, [1]), main.output(F32, [0])]
    main.op(OP.WHILE, [main.reference(cond), main.reference(body), i, x, n], outputs)
    model = builder.build()
    assert ReferenceDriver().get_supported_operations_1_3(model)[0] == INVALID
    prepared = prepare(ReferenceDriver(disabled_rules={"while.fully_specified"}), model)
    inputs = [f32(0), f32(1, -2), f32(3)]
    with pack_request(model, inputs, output_sizes=[4, 8]) as packed:
        status, shapes, _ = prepared.execute_synchronously_1_3(packed.request, NO, None, None)
        assert status == NONE
        assert [s.dimensions for s in shapes] == [(1,), (2,)]
        np.testing.assert_array_equal(packed.output(1, (2,)), f32(8, -16))


def nested_ifs(depth: int) -> Model:
    """IF in IF in ... ``depth`` subgraphs deep, the innermost doubling x."""
    builder = ModelBuilder()
    graphs = [builder.main, *(builder.subgraph() for _ in range(depth))]
    for level, graph in enumerate(graphs):
        cond, x = graph.input(B8, [1]), graph.input(F32, [2])
        out = graph.output(F32, [2])
        if level == depth:
            graph.binary(OP.ADD, x, x, out)
            continue
        inner = graphs[level + 1]
        graph.op(OP.IF, [cond, graph.reference(inner), graph.reference(inner), cond, x], [out])
    return builder.build()


def test_control_flow_nests_up_to_max_nesting_subgraphs(driver) -> None:
    """Deeper than MAX_NESTING (32) calls: a model this device cannot run, declined (the
    outermost IF) and refused at preparation."""
    from reference_driver.executor import MAX_NESTING

    deepest = nested_ifs(MAX_NESTING)
    status, outputs = run(driver, deepest, [flag(1), X])
    assert status == NONE
    np.testing.assert_array_equal(outputs[0], DOUBLED)
    too_deep = nested_ifs(MAX_NESTING + 1)
    assert driver.get_supported_operations_1_3(too_deep) == (NONE, [False])
    assert driver.get_supported_operations_1_3(deepest) == (NONE, [True])
    prepare(driver, too_deep, FAILURE)
