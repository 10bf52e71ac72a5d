"""Memory domains: driver-managed buffers named by tokens in request pools (optional).

A driver that subclasses ``hal.interfaces.IMemoryDomains`` is held to the
rules of the HAL's memory-domain pages: a token used in a role not declared
at allocation, by another prepared model, or after its buffer is released is
INVALID_ARGUMENT; dimensions combine from the roles and the descriptor, and
conflicting ones fail allocation; an uninitialised buffer used as an input
fails; ``copy_from`` checks size and dimensions; a buffer of unknown
dimensions takes the output's when written and keeps them when read;
concurrent reads work and concurrent writes never crash or hang the driver.

A driver without the mix-in must answer INVALID_ARGUMENT to any request with
a token pool. A driver whose ``allocate`` declines with GENERAL_FAILURE has
these tests skipped as unsupported. All tests here are strict tier: Android
10's VTS has no memory domains.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from conformance.harness import items
from conformance.harness.calls import expect_status
from conformance.harness.domains import (
    UNSUPPORTED_DOMAINS,
    allocate_buffer,
    buffer_call,
    place_token,
    run_concurrently,
)
from conformance.harness.execution import PATHS, PATHS_BY_ID, Execution, check_shapes, run
from conformance.harness.marks import level_marks
from conformance.harness.models import binary_model
from conformance.harness.requests import pack_request
from conformance.harness.runner import prepare_case
from hal.interfaces import IMemoryDomains, IPreparedModel_1_2
from hal.memory import ASHMEM, allocate, allocate_with, map_memory
from hal.types import (
    NO_TIMING,
    BufferDesc,
    BufferRole,
    ErrorStatus,
    HalVersion,
    Model,
    OperandType,
    OperationType,
)

pytestmark = pytest.mark.tier("strict")

INVALID = ErrorStatus.INVALID_ARGUMENT
FAILURE = ErrorStatus.GENERAL_FAILURE
NONE = ErrorStatus.NONE
F32 = np.float32
A = np.arange(4, dtype=F32).reshape(2, 2)
B = np.full((2, 2), 10, F32)
EXEC_PATHS = [
    "sync",
    "async",
    *(pytest.param(p, marks=level_marks(13)) for p in ("sync13", "async13", "fenced")),
]
"""Execution paths every token rule is checked on: both 1.2 methods, and for a 1.3 driver
the three 1.3 ones (VTS 1.3's ASYNC, SYNC and FENCED). Burst packets name pools by slot
through IBurstCallback.get_memories, so a token cannot travel in them."""
UNFENCED_PATHS = EXEC_PATHS[:-1]
"""The paths of a test whose output has unknown dimensions: a fenced execution refuses
such an output (test_fenced.py), as VTS 1.3 leaves FENCED out of its InvalidDimensions."""
CONCURRENCY = 4
ROUNDS = 5


# ---------------------------------------------------------------------------
# Fixtures: a memory-domain driver, prepared models, buffers released afterwards
# ---------------------------------------------------------------------------


def _needs_1_2(hal_level: HalVersion) -> None:
    if hal_level < HalVersion.V1_2:
        pytest.skip(f"needs HAL 1.2; the driver is tested at HAL {hal_level}")


@pytest.fixture(scope="module")
def domains(device, hal_level: HalVersion):
    """The driver, if it implements memory domains (else the test skips as unsupported)."""
    _needs_1_2(hal_level)
    if not isinstance(device, IMemoryDomains):
        items.unsupported(f"{UNSUPPORTED_DOMAINS}: the driver does not subclass IMemoryDomains")
    return device


def _prepare(device, model: Model, timeout: float, level: HalVersion):
    """``model`` prepared through the tested level's method (from 1.2 on: a 1.3 driver's
    buffers serve 1.3 prepared models, run on the 1.3 executors too)."""
    return prepare_case(device, model, max(level, HalVersion.V1_2), timeout)


@pytest.fixture(scope="module")
def add(domains, hal_timeout: float, hal_level: HalVersion):
    """ADD of two [2, 2] TENSOR_FLOAT32 inputs, prepared."""
    return _prepare(domains, binary_model(), hal_timeout, hal_level)


@pytest.fixture(scope="module")
def declines(domains, add) -> None:
    """Skip the module's allocation tests when the driver declines allocation altogether."""
    status, buffer, _ = allocate_buffer(domains, BufferDesc(), [add], [], [BufferRole(0, 0)])
    if status == FAILURE:
        items.unsupported(
            f"{UNSUPPORTED_DOMAINS}: allocate declined a plain buffer (GENERAL_FAILURE)"
        )
    assert status == NONE, f"allocate of a valid buffer answered {status.name}"
    buffer.release()


@pytest.fixture
def buffers(domains, declines):
    """``make(models, inputs=[(model, io)], outputs=[...], dims=())`` -> (buffer, token)."""
    made = []

    def make(models, inputs=(), outputs=(), dims=()):
        status, buffer, token = allocate_buffer(
            domains,
            BufferDesc(tuple(dims)),
            models,
            [BufferRole(m, io) for m, io in inputs],
            [BufferRole(m, io) for m, io in outputs],
        )
        if status == FAILURE:
            items.unsupported(
                f"{UNSUPPORTED_DOMAINS}: allocate declined these roles (GENERAL_FAILURE)"
            )
        assert status == NONE, f"allocate of a valid buffer answered {status.name}"
        made.append(buffer)
        return buffer, token

    yield make
    for buffer in made:
        buffer.release()


def _execute(prepared, packed, path: str, timeout: float, dynamic: bool = False) -> Execution:
    execution = run(prepared, packed.request, PATHS_BY_ID[path], timeout)
    check_shapes(execution, len(packed.request.outputs), dynamic)
    return execution


def _expect_dims(execution, dims: tuple[int, ...]) -> None:
    reported = tuple(execution.output_shapes[0].dimensions)
    assert reported == dims, (
        f"output 0: reported dimensions {list(reported)}, expected {list(dims)}"
    )


def _fill(buffer, array: np.ndarray) -> None:
    """Initialise ``buffer`` with ``array`` through copy_from."""
    with allocate_with(ASHMEM, array.tobytes()) as memory:
        status = buffer_call(buffer, "copy_from", memory, list(array.shape))
        expect_status(status, NONE, f"IBuffer.copy_from of a {list(array.shape)} tensor")


def _read(buffer, shape: tuple[int, ...]) -> np.ndarray:
    size = math.prod(shape) * 4
    with allocate(ASHMEM, size) as memory:
        status = buffer_call(buffer, "copy_to", memory)
        assert status == NONE, f"IBuffer.copy_to answered {status.name}"
        with map_memory(memory) as mapping:
            return np.frombuffer(mapping.read(0, size), F32).reshape(shape).copy()


def _expect(execution: Execution, wanted: ErrorStatus, what: str) -> None:
    assert execution.status == wanted, (
        f"{what}: {execution.path.method} answered {execution.status.name}, expected {wanted.name}"
    )


# ---------------------------------------------------------------------------
# Tokens without memory domains, and unknown tokens
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", [pytest.param(p.id, marks=level_marks(p.level)) for p in PATHS if p.method != "burst"]
)
def test_token_pool_without_memory_domains_is_invalid(
    device, hal_level: HalVersion, hal_timeout: float, path: str
) -> None:
    if isinstance(device, IMemoryDomains):
        pytest.skip("the driver implements memory domains: test_unknown_token_is_invalid applies")
    if hal_level < PATHS_BY_ID[path].level:
        pytest.skip(f"needs HAL {PATHS_BY_ID[path].level}; the driver is tested at {hal_level}")
    model = binary_model()
    prepared = prepare_case(device, model, hal_level, hal_timeout)
    with pack_request(model, [A, B]) as packed:
        place_token(packed, "output", 0, 7)
        _expect(_execute(prepared, packed, path, hal_timeout), INVALID, "a token pool")


@pytest.mark.parametrize("path", EXEC_PATHS)
def test_unknown_token_is_invalid(add, declines, hal_timeout: float, path: str) -> None:
    with pack_request(binary_model(), [A, B]) as packed:
        place_token(packed, "output", 0, 0x7FFF_FFF0)
        _expect(_execute(add, packed, path, hal_timeout), INVALID, "a token never allocated")


# ---------------------------------------------------------------------------
# Allocation
# ---------------------------------------------------------------------------


def test_allocations_have_distinct_tokens(buffers, add) -> None:
    tokens = {buffers([add], outputs=[(0, 0)])[1] for _ in range(3)}
    assert len(tokens) == 3, f"three live buffers share tokens: {sorted(tokens)}"


class _ForeignPreparedModel(IPreparedModel_1_2):
    """A prepared model of no driver at all."""

    def execute(self, request, callback):
        return FAILURE

    def execute_1_2(self, request, measure, callback):
        return FAILURE

    def execute_synchronously(self, request, measure):
        return FAILURE, [], NO_TIMING

    def configure_execution_burst(self, callback, request_channel, result_channel):
        return FAILURE, None

    def save_to_cache(self, model_cache, data_cache, token):
        return FAILURE


_BAD_ALLOCATIONS = {
    "no-roles": (lambda add: ([add], [], [])),
    "no-prepared-models": (lambda add: ([], [], [BufferRole(0, 0)])),
    "model-index-out-of-range": (lambda add: ([add], [], [BufferRole(1, 0)])),
    "input-index-out-of-range": (lambda add: ([add], [BufferRole(0, 2)], [])),
    "output-index-out-of-range": (lambda add: ([add], [], [BufferRole(0, 1)])),
    "frequency-zero": (lambda add: ([add], [], [BufferRole(0, 0, 0.0)])),
    "frequency-above-one": (lambda add: ([add], [], [BufferRole(0, 0, 1.5)])),
    "frequency-nan": (lambda add: ([add], [], [BufferRole(0, 0, math.nan)])),
    "repeated-role": (lambda add: ([add], [BufferRole(0, 1), BufferRole(0, 1, 0.5)], [])),
    "foreign-prepared-model": (
        lambda add: ([add, _ForeignPreparedModel()], [], [BufferRole(0, 0), BufferRole(1, 0)])
    ),
}


@pytest.mark.parametrize("case", list(_BAD_ALLOCATIONS))
def test_invalid_allocation_arguments(domains, declines, add, case: str) -> None:
    models, inputs, outputs = _BAD_ALLOCATIONS[case](add)
    status, _, _ = allocate_buffer(domains, BufferDesc(), models, inputs, outputs)
    assert status == INVALID, f"allocate with {case}: {status.name}, expected INVALID_ARGUMENT"


@pytest.mark.parametrize(
    ("case", "desc", "other_dims"),
    [
        ("descriptor-axis", (3, 2), None),
        ("descriptor-rank", (2, 2, 1), None),
        ("roles-axis", (), (3, 2)),
        ("roles-rank", (), (2, 2, 1)),
    ],
)
def test_conflicting_dimensions_fail_allocation(
    domains, declines, add, hal_timeout: float, case: str, desc, other_dims, hal_level: HalVersion
) -> None:
    models, outputs = [add], [BufferRole(0, 0)]
    if other_dims is not None:
        shaped = binary_model(dims=other_dims)
        models.append(_prepare(domains, shaped, hal_timeout, hal_level))
        outputs.append(BufferRole(1, 0))
    status, _, _ = allocate_buffer(domains, BufferDesc(desc), models, [], outputs)
    assert status == INVALID, f"allocate with {case} conflicts: {status.name}, expected INVALID"


def test_roles_of_different_operand_types_fail_allocation(
    domains, declines, add, hal_timeout: float, hal_level: HalVersion
) -> None:
    quant = _prepare(
        domains, binary_model(type_=OperandType.TENSOR_QUANT8_ASYMM), hal_timeout, hal_level
    )
    status, _, _ = allocate_buffer(
        domains, BufferDesc(), [add, quant], [], [BufferRole(0, 0), BufferRole(1, 0)]
    )
    assert status == INVALID, f"allocate for float32 and quant8 roles: {status.name}"


def test_dimensions_combine_from_roles_and_descriptor(
    domains, buffers, hal_timeout: float, hal_level: HalVersion
) -> None:
    # The descriptor knows axis 0, the output operand axis 1: together, [2, 2].
    partial = _prepare(domains, binary_model(output_dims=(0, 2)), hal_timeout, hal_level)
    buffer, _ = buffers([partial], outputs=[(0, 0)], dims=(2, 0))
    with allocate_with(ASHMEM, A.tobytes()) as memory:
        assert buffer_call(buffer, "copy_from", memory, []) == NONE, (
            "copy_from without dimensions failed although descriptor [2, 0] and operand "
            "[0, 2] fix them to [2, 2]"
        )
    np.testing.assert_array_equal(_read(buffer, (2, 2)), A)
    with allocate_with(ASHMEM, np.zeros((3, 2), F32).tobytes()) as memory:
        assert buffer_call(buffer, "copy_from", memory, [3, 2]) == INVALID, (
            "copy_from with dimensions [3, 2] succeeded; the descriptor fixes axis 0 to 2"
        )


# ---------------------------------------------------------------------------
# Using buffers: round trips and the role rules
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", EXEC_PATHS)
def test_output_to_buffer_then_input_from_it(add, buffers, hal_timeout: float, path) -> None:
    buffer, token = buffers([add], inputs=[(0, 0)], outputs=[(0, 0)])
    model = binary_model()
    with pack_request(model, [A, B]) as packed:
        place_token(packed, "output", 0, token)
        _expect(_execute(add, packed, path, hal_timeout), NONE, "output into a buffer")
    np.testing.assert_array_equal(_read(buffer, (2, 2)), A + B)
    with pack_request(model, [A, B]) as packed:
        place_token(packed, "input", 0, token)
        _expect(_execute(add, packed, path, hal_timeout), NONE, "input from a buffer")
        np.testing.assert_array_equal(packed.output(0, (2, 2)), A + B + B)


def test_copy_from_then_input(add, buffers, hal_timeout: float) -> None:
    buffer, token = buffers([add], inputs=[(0, 1)])
    _fill(buffer, A * 3)
    with pack_request(binary_model(), [A, B]) as packed:
        place_token(packed, "input", 1, token)
        _expect(_execute(add, packed, "sync", hal_timeout), NONE, "input from a buffer")
        np.testing.assert_array_equal(packed.output(0, (2, 2)), A + A * 3)


_UNDECLARED = {
    # (declared inputs, declared outputs, side used, position used)
    "output-only-used-as-input": ([], [(0, 0)], "input", 0),
    "input-0-used-as-input-1": ([(0, 0)], [], "input", 1),
    "input-used-as-output": ([(0, 0)], [], "output", 0),
}


@pytest.mark.parametrize("path", EXEC_PATHS)
@pytest.mark.parametrize("case", list(_UNDECLARED))
def test_token_in_undeclared_role_is_invalid(
    add, buffers, hal_timeout: float, case: str, path: str
) -> None:
    inputs, outputs, side, position = _UNDECLARED[case]
    buffer, token = buffers([add], inputs=inputs, outputs=outputs)
    _fill(buffer, A)
    with pack_request(binary_model(), [A, B]) as packed:
        place_token(packed, side, position, token)
        _expect(
            _execute(add, packed, path, hal_timeout), INVALID, f"a buffer used as {side} {position}"
        )


@pytest.mark.parametrize("path", EXEC_PATHS)
def test_token_of_another_prepared_model_is_invalid(
    domains, add, buffers, hal_timeout: float, path: str, hal_level: HalVersion
) -> None:
    twin = _prepare(domains, binary_model(), hal_timeout, hal_level)
    buffer, token = buffers([add], inputs=[(0, 0)])
    _fill(buffer, A)
    with pack_request(binary_model(), [A, B]) as packed:
        place_token(packed, "input", 0, token)
        _expect(
            _execute(twin, packed, path, hal_timeout),
            INVALID,
            "a buffer allocated for another prepared model of the same model",
        )


@pytest.mark.parametrize("path", EXEC_PATHS)
def test_token_after_release_is_invalid(add, buffers, hal_timeout: float, path: str) -> None:
    buffer, token = buffers([add], inputs=[(0, 0)])
    _fill(buffer, A)
    buffer.release()
    with pack_request(binary_model(), [A, B]) as packed:
        place_token(packed, "input", 0, token)
        _expect(_execute(add, packed, path, hal_timeout), INVALID, "a released buffer")
    with allocate(ASHMEM, 16) as memory:
        status = buffer_call(buffer, "copy_to", memory)
    expect_status(status, INVALID, "IBuffer.copy_to of a released buffer")


@pytest.mark.parametrize("path", EXEC_PATHS)
def test_uninitialised_buffer_as_input_fails(add, buffers, hal_timeout: float, path) -> None:
    buffer, token = buffers([add], inputs=[(0, 0)], outputs=[(0, 0)])
    with pack_request(binary_model(), [A, B]) as packed:
        place_token(packed, "input", 0, token)
        execution = _execute(add, packed, path, hal_timeout)
        _expect(execution, FAILURE, "an uninitialised buffer as input")
    with allocate(ASHMEM, 16) as memory:
        status = buffer_call(buffer, "copy_to", memory)
        assert status == FAILURE, f"copy_to of an uninitialised buffer answered {status.name}"


# ---------------------------------------------------------------------------
# copy_from and copy_to
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "size", "dims"),
    [("short-memory", 12, []), ("long-memory", 20, []), ("other-dimensions", 16, [4, 1])],
)
def test_copy_from_that_does_not_match_fails(add, buffers, case: str, size: int, dims) -> None:
    buffer, _ = buffers([add], inputs=[(0, 0)])
    with allocate(ASHMEM, size) as memory:
        status = buffer_call(buffer, "copy_from", memory, dims)
    assert status == INVALID, f"copy_from with {case} into a [2, 2] float32 buffer: {status.name}"


def test_copy_from_with_matching_dimensions(add, buffers) -> None:
    buffer, _ = buffers([add], inputs=[(0, 0)])
    with allocate_with(ASHMEM, B.tobytes()) as memory:
        status = buffer_call(buffer, "copy_from", memory, [2, 2])
    expect_status(status, NONE, "IBuffer.copy_from with the buffer's dimensions [2, 2]")
    np.testing.assert_array_equal(_read(buffer, (2, 2)), B)


def test_copy_to_memory_of_another_size_fails(add, buffers) -> None:
    buffer, _ = buffers([add], inputs=[(0, 0)])
    _fill(buffer, A)
    for size in (12, 20):
        with allocate(ASHMEM, size) as memory:
            status = buffer_call(buffer, "copy_to", memory)
        assert status == INVALID, f"copy_to into {size} bytes of 16: {status.name}"


def test_failed_copy_from_leaves_the_buffer_uninitialised(add, buffers) -> None:
    buffer, _ = buffers([add], inputs=[(0, 0)])
    _fill(buffer, A)
    with allocate(ASHMEM, 12) as memory:
        status = buffer_call(buffer, "copy_from", memory, [])
    expect_status(status, INVALID, "IBuffer.copy_from of 12 bytes into a 16-byte buffer")
    with allocate(ASHMEM, 16) as memory:
        status = buffer_call(buffer, "copy_to", memory)
    assert status == FAILURE, f"copy_to after a failed copy_from answered {status.name}"


# ---------------------------------------------------------------------------
# Unknown dimensions
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dynamic_add(domains, hal_timeout: float, hal_level: HalVersion):
    """ADD whose inputs and output are [0, 0]: every shape comes with the request."""
    model = binary_model(dims=(0, 0), other_dims=(0, 0), output_dims=(0, 0))
    return model, _prepare(domains, model, hal_timeout, hal_level)


@pytest.mark.parametrize("path", UNFENCED_PATHS)
def test_unknown_dimensions_come_from_the_output_and_stay(
    dynamic_add, buffers, hal_timeout: float, path: str
) -> None:
    model, prepared = dynamic_add
    buffer, token = buffers([prepared], inputs=[(0, 0)], outputs=[(0, 0)])
    a, c = np.arange(3, dtype=F32).reshape(3, 1), np.full((3, 1), 5, F32)
    with pack_request(model, [a, a], [0]) as packed:
        place_token(packed, "output", 0, token)
        execution = _execute(prepared, packed, path, hal_timeout, dynamic=True)
        _expect(execution, NONE, "an output of unknown dimensions into a buffer")
        _expect_dims(execution, (3, 1))
    np.testing.assert_array_equal(_read(buffer, (3, 1)), a + a)
    with allocate(ASHMEM, 16) as memory:
        assert buffer_call(buffer, "copy_to", memory) == INVALID, (
            "copy_to into 16 bytes succeeded; the buffer holds [3, 1] float32 (12 bytes)"
        )
    for _ in range(2):  # reading does not change the buffer's dimensions
        with pack_request(model, [a, c], [12]) as packed:
            place_token(packed, "input", 0, token)
            execution = _execute(prepared, packed, path, hal_timeout, dynamic=True)
            _expect(execution, NONE, "an input from a buffer of dimensions [3, 1]")
            _expect_dims(execution, (3, 1))
            np.testing.assert_array_equal(packed.output(0, (3, 1)), a + a + c)


def test_input_dimensions_other_than_the_buffers_are_invalid(
    dynamic_add, buffers, hal_timeout: float
) -> None:
    model, prepared = dynamic_add
    buffer, token = buffers([prepared], inputs=[(0, 0)])
    _fill(buffer, np.ones((3, 1), F32))
    with pack_request(model, [np.ones((1, 3), F32)] * 2, [12]) as packed:
        place_token(packed, "input", 0, token, dimensions=[1, 3])
        _expect(
            _execute(prepared, packed, "sync", hal_timeout, dynamic=True),
            INVALID,
            "input dimensions [1, 3] for a buffer holding [3, 1]",
        )


# ---------------------------------------------------------------------------
# Concurrency
# ---------------------------------------------------------------------------


def test_concurrent_reads(add, buffers, hal_timeout: float) -> None:
    buffer, token = buffers([add], inputs=[(0, 0)])
    _fill(buffer, A)

    def reads(k: int) -> list[tuple[ErrorStatus, bool]]:
        answers = []
        b = np.full((2, 2), k, F32)
        for _ in range(ROUNDS):
            with pack_request(binary_model(), [A, b]) as packed:
                place_token(packed, "input", 0, token)
                execution = _execute(add, packed, EXEC_PATHS[k % 2], hal_timeout)
                same = np.array_equal(packed.output(0, (2, 2)), A + b)
                answers.append((execution.status, same))
        return answers

    results = run_concurrently(reads, CONCURRENCY, hal_timeout * ROUNDS)
    wrong = [(k, r) for k, rounds in enumerate(results) for r in rounds if r != (NONE, True)]
    assert not wrong, f"concurrent reads of one buffer: (thread, (status, values right)) {wrong}"


def test_concurrent_writes_never_crash_or_hang(domains, add, buffers, hal_timeout: float) -> None:
    buffer, token = buffers([add], outputs=[(0, 0)])

    def writes(k: int) -> list[ErrorStatus]:
        statuses = []
        for _ in range(ROUNDS):
            with pack_request(binary_model(), [A, np.full((2, 2), k, F32)]) as packed:
                place_token(packed, "output", 0, token)
                statuses.append(_execute(add, packed, EXEC_PATHS[k % 2], hal_timeout).status)
        return statuses

    results = run_concurrently(writes, CONCURRENCY, hal_timeout * ROUNDS)
    odd = {status.name for rounds in results for status in rounds} - {"NONE", "GENERAL_FAILURE"}
    assert not odd, f"concurrent writes into one buffer answered {sorted(odd)}"
    with allocate(ASHMEM, 16) as memory:
        status = buffer_call(buffer, "copy_to", memory)
        assert status in (NONE, FAILURE), f"copy_to after concurrent writes: {status.name}"
        if status == NONE:
            with map_memory(memory) as mapping:
                held = np.frombuffer(mapping.read(0, 16), F32).reshape(2, 2)
            written = [A + k for k in range(CONCURRENCY)]
            assert any(np.array_equal(held, w) for w in written), (
                f"the buffer holds {held.tolist()}, none of the values written"
            )
    with pack_request(binary_model(), [A, B]) as packed:
        _expect(_execute(add, packed, "sync", hal_timeout), NONE, "an execution afterwards")


# ---------------------------------------------------------------------------
# Buffers an execution writes: failed executions, and another model's buffers
# ---------------------------------------------------------------------------

MISMATCHED = (np.ones((2, 2), F32), np.ones((3, 1), F32))
"""Inputs of shapes no broadcast joins: an execution of ADD on them fails."""


@pytest.mark.parametrize("path", UNFENCED_PATHS)
def test_failed_execution_uninitialises_its_output_buffer(
    dynamic_add, buffers, hal_timeout: float, path: str
) -> None:
    """A successful execution initialises its output buffer; a failed execution into the
    same buffer leaves it uninitialised, so reading it fails with GENERAL_FAILURE."""
    model, prepared = dynamic_add
    buffer, token = buffers([prepared], inputs=[(0, 0)], outputs=[(0, 0)])
    with pack_request(model, [A, B], [0]) as packed:
        place_token(packed, "output", 0, token)
        execution = _execute(prepared, packed, path, hal_timeout, dynamic=True)
        _expect(execution, NONE, "an output of unknown dimensions into a buffer")
    np.testing.assert_array_equal(_read(buffer, (2, 2)), A + B)
    with pack_request(model, list(MISMATCHED), [0]) as packed:
        place_token(packed, "output", 0, token)
        execution = _execute(prepared, packed, path, hal_timeout, dynamic=True)
        assert execution.status != NONE, (
            f"ADD of [2, 2] and [3, 1] inputs into a buffer: {execution.path.method} answered "
            "NONE; the shapes do not broadcast"
        )
    failed = f"after a failed execution ({execution.status.name}) into it"
    with allocate(ASHMEM, 16) as memory:
        status = buffer_call(buffer, "copy_to", memory)
    assert status == FAILURE, (
        f"IBuffer.copy_to of a buffer {failed} answered {status.name}, expected GENERAL_FAILURE "
        "(a failed execution leaves its output buffers uninitialised)"
    )
    with pack_request(model, [A, B], [16]) as packed:
        place_token(packed, "input", 0, token, dimensions=[2, 2])
        _expect(
            _execute(prepared, packed, path, hal_timeout, dynamic=True),
            FAILURE,
            f"a buffer read as input 0 {failed}",
        )


OTHER_OUTPUT_MODELS = {
    "same-model": binary_model,
    "other-model": lambda: binary_model(operation=OperationType.SUB),
}
"""Prepared models other than the buffer's, with an output of the same type and shape."""


@pytest.mark.parametrize("path", EXEC_PATHS)
@pytest.mark.parametrize("other", list(OTHER_OUTPUT_MODELS))
def test_output_buffer_of_another_prepared_model_is_invalid(
    domains, add, buffers, hal_timeout: float, other: str, path: str, hal_level: HalVersion
) -> None:
    """A buffer allocated with an output role of one prepared model, written as output 0
    of another: INVALID_ARGUMENT, and the buffer keeps its contents."""
    model = OTHER_OUTPUT_MODELS[other]()
    stranger = _prepare(domains, model, hal_timeout, hal_level)
    buffer, token = buffers([add], outputs=[(0, 0)])
    _fill(buffer, A * 7)
    with pack_request(model, [A, B]) as packed:
        place_token(packed, "output", 0, token)
        _expect(
            _execute(stranger, packed, path, hal_timeout),
            INVALID,
            f"a buffer allocated for output 0 of another prepared model ({other}) as output 0",
        )
    held = _read(buffer, (2, 2))
    assert np.array_equal(held, A * 7), (
        f"a refused execution ({other}) changed the buffer: it holds {held.tolist()}, "
        f"expected {(A * 7).tolist()}"
    )
