"""What a test process keeps about the driver (conformance/harness/state.py), and its reset
when the plugin restarts a driver service."""

from __future__ import annotations

import gc
import types
import weakref

import numpy as np
import pytest

from conformance.harness import items, state
from conformance.harness.extensions import declared_extensions
from conformance.harness.models import binary_model
from conformance.harness.prepared import prepared
from conformance.harness.runner import case_twin, prepare_case
from hal.loader import DriverLoadError
from hal.memory import ASHMEM
from hal.types import ErrorStatus, HalVersion, OperationType
from plugins import driver, running
from reference_driver import ReferenceDriver

V1_2 = HalVersion.V1_2


class _DeclinesMul(ReferenceDriver):
    """Declines every model with a MUL (as a driver may: a failed preparation of a model it
    said it does not fully support); counts its extension questions."""

    def __init__(self) -> None:
        super().__init__()
        self.extension_questions = 0

    def get_supported_operations_1_2(self, model):
        status, _ = super().get_supported_operations_1_2(model)
        return status, [op.type != OperationType.MUL for op in model.operations]

    def prepare_model_1_2(self, model, *args):
        if any(op.type == OperationType.MUL for op in model.operations):
            args[-1].notify_1_2(ErrorStatus.GENERAL_FAILURE, None)  # the callback
            return ErrorStatus.NONE
        return super().prepare_model_1_2(model, *args)

    def get_supported_extensions(self):
        self.extension_questions += 1
        return super().get_supported_extensions()


@pytest.fixture
def empty():
    state.clear()
    yield
    state.clear()


def _learn(driver: _DeclinesMul) -> None:
    """Fill every table of the state from ``driver``."""
    prepared(driver, binary_model(), V1_2, 10.0)
    b = np.ones((2, 2), np.float32)
    prepared(driver, binary_model(constant_b=b), V1_2, 10.0, constant_pool=ASHMEM)
    with pytest.raises(pytest.skip.Exception):
        prepare_case(driver, binary_model(OperationType.MUL), V1_2, 10.0)
    declared_extensions(driver)


def test_a_restart_forgets_what_the_driver_said_and_keeps_the_twins(empty) -> None:
    driver, twin_of = _DeclinesMul(), types.SimpleNamespace(model=binary_model())
    _learn(driver)
    twin = case_twin(twin_of)
    pools = [entry.pool for entry in state.PREPARED.values() if entry.pool is not None]
    assert (len(state.PREPARED), len(state.DECLINED), len(state.EXTENSIONS)) == (2, 1, 1)
    assert len(pools) == 1 and pools[0].handle.fds  # open: its file descriptors held
    state.driver_restarted()
    assert not state.PREPARED and not state.DECLINED and not state.EXTENSIONS
    assert pools[0].handle.fds == []  # closed
    assert case_twin(twin_of) is twin  # the harness's own copy, not the driver's answer
    # The driver is asked again, as one seen for the first time.
    declared_extensions(driver)
    assert driver.extension_questions == 2
    state.clear()
    assert not state.TWINS


def test_a_declined_case_skips_without_asking_until_the_driver_restarts(empty) -> None:
    driver, mul = _DeclinesMul(), binary_model(OperationType.MUL)
    calls = []
    ask = driver.get_supported_operations_1_2
    driver.get_supported_operations_1_2 = lambda model: calls.append(model) or ask(model)
    for _ in range(2):
        with pytest.raises(pytest.skip.Exception) as skip:
            prepare_case(driver, mul, V1_2, 10.0)
        assert str(skip.value.msg).startswith("unsupported: the driver does not support")
    assert len(calls) == 1
    state.driver_restarted()
    with pytest.raises(pytest.skip.Exception):
        prepare_case(driver, mul, V1_2, 10.0)
    assert len(calls) == 2


def test_what_the_state_keeps_of_a_skip_holds_nothing_of_the_item_that_met_it(empty) -> None:
    """A remembered skip is a new exception with the reason and facts alone: the one raised
    held its traceback, and with it the frames and locals of the item's whole stack."""

    class Local:
        pass

    driver, mul = _DeclinesMul(), binary_model(OperationType.MUL)
    held = []

    def met(call) -> None:
        local = Local()  # a local of the frame the skip is raised under
        held.append(weakref.ref(local))
        call()

    with pytest.raises(pytest.skip.Exception) as declined:
        met(lambda: prepare_case(driver, mul, V1_2, 10.0))
    declined_pool = binary_model(OperationType.MUL, constant_b=np.ones((2, 2), np.float32))
    with pytest.raises(pytest.skip.Exception) as in_cache:
        met(lambda: prepared(driver, declined_pool, V1_2, 10.0, constant_pool=ASHMEM))
    del declined, in_cache
    gc.collect()
    assert [ref() for ref in held] == [None, None]
    (kept,) = [entry[2] for entry in state.DECLINED.values()]
    cached = [e.outcome for e in state.PREPARED.values() if isinstance(e.outcome, BaseException)]
    assert len(cached) == 1
    for skip in (kept, cached[0]):
        assert skip.__traceback__ is None and skip.__context__ is None
        assert str(skip.msg).startswith("unsupported: the driver does not support operation 0 MUL")
        assert items.facts_of(skip) == {"kind": items.UNSUPPORTED}


class _Guard:
    def __init__(self, answer) -> None:
        self.answer = answer

    def ensure_running(self) -> bool:
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


def _config(guard: object | None) -> object:
    stash = {} if guard is None else {driver._GUARD: guard}
    return types.SimpleNamespace(stash=stash)


@pytest.mark.parametrize(
    ("guard", "restarted"),
    [
        (_Guard(True), True),
        (_Guard(False), False),
        (_Guard(DriverLoadError("no fresh service")), False),
        (object(), False),  # a driver in this process: never restarted
        (None, False),
    ],
    ids=["restarted", "running", "cannot-start", "in-process", "no-driver-yet"],
)
def test_the_plugin_resets_the_state_only_when_a_fresh_service_starts(
    empty, guard, restarted: bool
) -> None:
    _learn(_DeclinesMul())
    assert running.restart_driver(_config(guard)) is restarted
    assert (not state.PREPARED) is restarted
    assert (not state.DECLINED) is restarted
    assert (not state.EXTENSIONS) is restarted


SUITE_SLICE = """
import pytest

from conformance.harness import state
from conformance.harness.extensions import declared_extensions
from conformance.harness.models import binary_model
from conformance.harness.prepared import prepared
from plugins import driver

MODEL = binary_model()


def test_learn(nnhal):
    prepared(nnhal.device, MODEL, nnhal.level, nnhal.timeout)
    declared_extensions(nnhal.device)
    assert len(state.PREPARED) == 1 and len(state.EXTENSIONS) == 1


def test_kill(nnhal):
    driver.guard(nnhal.config).restart_now("killed by the test")


def test_forgotten(nnhal):
    assert not state.PREPARED and not state.EXTENSIONS, "kept across the restart"
    model = prepared(nnhal.device, MODEL, nnhal.level, nnhal.timeout)
    assert model is not None and len(state.PREPARED) == 1
"""


def test_a_driver_service_restart_empties_the_state_before_the_next_test(pytester) -> None:
    pytester.makepyfile(test_slice=SUITE_SLICE)
    common = ["-p", "no:cacheprovider", "--driver=reference", "--driver-isolation=process"]
    result = pytester.runpytest_subprocess(*common, "test_slice.py")
    result.assert_outcomes(passed=3)
    # Without the restart the state stays: the last test sees what the first kept.
    result = pytester.runpytest_subprocess(*common, "test_slice.py", "-k", "not kill")
    result.assert_outcomes(passed=1, failed=1)
    assert "kept across the restart" in result.stdout.str()
