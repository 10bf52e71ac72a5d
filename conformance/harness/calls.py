"""Calling a driver at a chosen HAL level, and checking the protocol of each answer.

Each helper picks the method of the requested level (``prepare_model`` at 1.0,
``prepare_model_1_1`` at 1.1, ``prepare_model_1_2`` at 1.2, likewise for
capabilities and supported operations), waits with the run's timeout, and
fails the test with a message naming the method when the driver breaks the
calling convention (wrong return shape, an escaped exception, a second
notify, the wrong notify method for its level).

Nothing the driver returns is trusted: each value's exact type is checked
before it is used (so a driver's own ``__eq__``, ``__len__`` or ``__iter__``
never runs in the harness), and failure messages quote driver values through
``hal.show``, which bounds their length and the work of formatting them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import pytest

from conformance.harness import items, statuses
from conformance.harness.hangs import BREAKER
from hal.callbacks import CallbackTimeout, Notification, PreparedModelCallback
from hal.interfaces import IPreparedModel
from hal.levels import level as level_of
from hal.levels import method_level
from hal.show import show, show_exception, show_type
from hal.types import (
    DEFAULT_PRIORITY,
    STATUSES_1_0,
    TIME_POINT_MAX,
    ErrorStatus,
    ExecutionPreference,
    HalVersion,
    Model,
    OptionalTimePoint,
)

T = TypeVar("T")


def call_driver(obj: object, method: str, *args: object) -> object:
    """Call ``obj.method(*args)``; an exception escaping the driver fails the test."""
    try:
        return getattr(obj, method)(*args)
    except Exception as e:
        pytest.fail(f"{show_type(obj)}.{method} raised {show_exception(e)}", pytrace=False)


Outcome = tuple[bool, object]
"""A call's (True, what it returned) or (False, what it raised)."""


def call_many(calls: list[tuple[object, str, tuple]]) -> list[Outcome]:
    """Make ``calls`` (object, method, args) one after another, as ``call_driver`` would
    one by one: each call's outcome, for ``answer``. Through a guard's proxy they go in
    one round trip to a driver service (the proxy's ``_nnhal_sequence``), and a driver
    fault (hang, crash) ends the list; otherwise such a fault is raised at once."""
    sequence = getattr(type(calls[0][0]), "_nnhal_sequence", None) if calls else None
    if sequence is not None:
        return sequence(calls)
    outcomes: list[Outcome] = []
    for obj, method, args in calls:
        try:
            outcomes.append((True, getattr(obj, method)(*args)))
        except Exception as e:
            outcomes.append((False, e))
    return outcomes


def answer(obj: object, method: str, outcome: Outcome) -> object:
    """What ``call_driver`` would have returned for a call with this outcome: the value;
    an exception escaping the driver fails the test; a driver fault is raised."""
    ok, value = outcome
    if ok:
        return value
    if isinstance(value, Exception):
        pytest.fail(f"{show_type(obj)}.{method} raised {show_exception(value)}", pytrace=False)
    raise value


def status_and_value(obj: object, method: str, *args: object) -> tuple[ErrorStatus, object]:
    """Call a method that returns ``(status, value)`` and check that shape."""
    return checked_pair(obj, method, call_driver(obj, method, *args))


def checked_pair(obj: object, method: str, result: object) -> tuple[ErrorStatus, object]:
    """``result`` of ``obj.method`` as ``(status, value)``; any other shape fails the test."""
    if not (type(result) is tuple and len(result) == 2):
        pytest.fail(
            f"{show_type(obj)}.{method} returned {show(result)}; expected (ErrorStatus, value)",
            pytrace=False,
        )
    return as_status(result[0], method), result[1]


_STATUS_BY_VALUE = {int(status): status for status in STATUSES_1_0}
"""The statuses a 1.0-1.2 method may return; the codes 1.3 adds go to ``statuses``."""


def expect_status(status: ErrorStatus, wanted: ErrorStatus, what: str) -> None:
    """Fail the test unless ``status`` is ``wanted``: ``what`` answered X, expected Y."""
    if status != wanted:
        pytest.fail(f"{what} answered {status.name}, expected {wanted.name}", pytrace=False)


def refused_problems(preparation: Preparation, wanted: ErrorStatus) -> list[str]:
    """What is wrong with a preparation that must be refused with ``wanted``: the launch
    status, the callback status, and a prepared model delivered all the same."""
    problems = []
    if preparation.launch_status != wanted:
        problems.append(f"launch status {preparation.launch_status.name}, expected {wanted.name}")
    if preparation.status != wanted:
        problems.append(f"callback status {preparation.status.name}, expected {wanted.name}")
    if preparation.prepared_model is not None:
        problems.append("the callback delivered a prepared model, expected none")
    return problems


def as_status(value: object, method: str, *, timed: bool = False) -> ErrorStatus:
    """``value`` as an ErrorStatus: an ErrorStatus, or a plain int naming one.

    A status HAL 1.3 adds ends the item as ``statuses.ending`` says for ``method`` (its
    first word names the method: ``execute_1_3 callback`` is ``execute_1_3``'s answer;
    a name no level record has is taken for a 1.2 one): accepted (returned) for a missed
    deadline where the item was ``timed``, returned for a RESOURCE_EXHAUSTED_TRANSIENT
    the caller retries once (``retried_once``), unsupported or failed otherwise."""
    if type(value) in (ErrorStatus, int):  # not bool, not an int subclass of the driver's
        if value in _STATUS_BY_VALUE:
            return _STATUS_BY_VALUE[value]
        if value in statuses.ADDED_STATUSES:
            expects = statuses.expects_error()
            level = _level_of(method)
            ending = statuses.ending(int(value), method, level, timed=timed, expects_error=expects)
            if ending.kind in (statuses.ACCEPTED, statuses.RETRY):
                return ErrorStatus(int(value))
            statuses.conclude(ending)
    pytest.fail(
        f"{method} returned status {show(value)}, which is not an ErrorStatus", pytrace=False
    )


def capabilities(device: object, level: HalVersion) -> tuple[ErrorStatus, object]:
    return status_and_value(device, level_of(level).capabilities)


def supported_operations(
    device: object, model: Model, level: HalVersion
) -> tuple[ErrorStatus, list[bool]]:
    """The driver's answer, checked: with NONE, a list of exactly one bool per operation
    (anything else fails the test); with an error status the list carries no meaning, so
    anything but such a list (of at most that many bools) is replaced by an empty one."""
    method = level_of(level).supported_operations
    return supported_answer(device, model, level, call_driver(device, method, model))


def supported_call(device: object, model: Model, level: HalVersion) -> tuple[object, str, tuple]:
    """The call ``supported_operations`` makes, for ``call_many``."""
    return device, level_of(level).supported_operations, (model,)


def supported_answer(
    device: object, model: Model, level: HalVersion, result: object
) -> tuple[ErrorStatus, list[bool]]:
    """``supported_operations``'s judgement of what the driver returned."""
    method = level_of(level).supported_operations
    status, answers = checked_pair(device, method, result)
    operations = len(model.operations)
    well_formed = (
        type(answers) is list
        and len(answers) <= operations
        and all(type(answer) is bool for answer in answers)
    )
    if status != ErrorStatus.NONE:
        return status, answers if well_formed else []
    if not (well_formed and len(answers) == operations):
        pytest.fail(
            f"{method} returned NONE with {show(answers)}; expected a list of one bool per "
            f"operation ({operations})",
            pytrace=False,
        )
    return status, answers


def _level_of(method: str) -> HalVersion:
    """The level of the method an answer's description names by its first word
    (``execute_1_3 callback``: ``execute_1_3``); a name no level has counts as 1.2's."""
    return method_level(method.split(" ", 1)[0]) or HalVersion.V1_2


def retried_once(attempt: Callable[[], T], status_of: Callable[[T], ErrorStatus], method, timed):
    """``attempt()``'s answer; if its status is RESOURCE_EXHAUSTED_TRANSIENT, the answer of
    one more attempt ``statuses.RETRY_DELAY`` later, and if that one is too, the item ends
    unsupported (``statuses.ending``, retried)."""
    answer = attempt()
    if status_of(answer) != ErrorStatus.RESOURCE_EXHAUSTED_TRANSIENT:
        return answer
    time.sleep(statuses.RETRY_DELAY)
    answer = attempt()
    if status_of(answer) == ErrorStatus.RESOURCE_EXHAUSTED_TRANSIENT:
        code = int(ErrorStatus.RESOURCE_EXHAUSTED_TRANSIENT)
        end = statuses.ending(code, method, _level_of(method), timed=timed, retried=True)
        statuses.conclude(end)
    return answer


@dataclass
class Preparation:
    method: str
    launch_status: ErrorStatus
    notification: Notification
    callback: PreparedModelCallback
    timed: bool = False
    """Whether the preparation was given a deadline (a missed one is then an answer)."""

    @property
    def status(self) -> ErrorStatus:
        return as_status(self.notification.status, f"{self.method} callback", timed=self.timed)

    @property
    def prepared_model(self) -> IPreparedModel | None:
        return self.notification.prepared_model


def prepare(
    device: object,
    model: Model,
    level: HalVersion,
    timeout: float,
    preference: int = ExecutionPreference.FAST_SINGLE_ANSWER,
    *,
    priority: int = DEFAULT_PRIORITY,
    deadline_ns: int | None = None,
) -> Preparation:
    """Prepare ``model`` through the prepare method of ``level`` and wait for the callback.

    At HAL 1.3 the call also carries ``priority`` and a deadline ``deadline_ns``
    nanoseconds after the call (None: none). A RESOURCE_EXHAUSTED_TRANSIENT answer is
    retried once, ``statuses.RETRY_DELAY`` later; a second one ends the item unsupported."""

    def attempt() -> Preparation:
        call = prepare_call(device, model, level, preference, priority, deadline_ns)
        return prepared(call, call_driver(*call[:2], *call[2]), level, timeout)

    method = f"{level_of(level).prepare} callback"
    timed = deadline_ns is not None and deadline_ns < TIME_POINT_MAX
    return retried_once(attempt, lambda preparation: preparation.status, method, timed)


def prepare_call(
    device: object,
    model: Model,
    level: HalVersion,
    preference: int = ExecutionPreference.FAST_SINGLE_ANSWER,
    priority: int = DEFAULT_PRIORITY,
    deadline_ns: int | None = None,
) -> tuple[object, str, tuple]:
    """The call ``prepare`` makes (with a new callback, the last argument), for ``call_many``.
    At 1.3 the arguments are (model, preference, priority, deadline, callback), the
    deadline made absolute now (``deadline_time``)."""
    callback = PreparedModelCallback()
    record = level_of(level)
    if level >= HalVersion.V1_3:
        args = (model, preference, priority, deadline_time(deadline_ns), callback)
    elif record.takes_preference:
        args = (model, preference, callback)
    else:
        args = (model, callback)
    return device, record.prepare, args


def deadline_time(offset_ns: int | None) -> OptionalTimePoint:
    """A deadline ``offset_ns`` nanoseconds from now on the steady clock (None: none); an
    offset of 0 is "now", a deadline already reached when the driver looks at it, and an
    offset of ``TIME_POINT_MAX`` or more is the steady clock's latest time (no limit)."""
    if offset_ns is None:
        return None
    if offset_ns >= TIME_POINT_MAX:
        return TIME_POINT_MAX
    return time.monotonic_ns() + offset_ns


def prepared(
    call: tuple[object, str, tuple], result: object, level: HalVersion, timeout: float
) -> Preparation:
    """``prepare``'s judgement of a ``prepare_call`` that returned ``result``: the launch
    status, then the callback's notification (waited for) and its protocol."""
    _, method, args = call
    callback = args[-1]
    timed = level >= HalVersion.V1_3 and args[3] is not None and args[3] < TIME_POINT_MAX
    launch = as_status(result, method, timed=timed)
    notification = wait_for(callback, timeout, method)
    preparation = Preparation(method, launch, notification, callback, timed)
    check_preparation_protocol(preparation, level)
    return preparation


def wait_for(callback, timeout: float, what: str, method: str = ""):
    """The callback's first notification; a timeout fails the test naming ``what``, and
    counts as a hang of ``method`` (``what`` if not given) for the hang breaker."""
    try:
        return callback.wait(timeout)
    except CallbackTimeout as error:
        message = f"{what}: {error}"
    BREAKER.record(method or what, message)
    items.timeout(message)


def check_preparation_protocol(preparation: Preparation, level: HalVersion) -> None:
    """The rules every preparation answer obeys, whatever its status."""
    method = preparation.method
    problems = list(preparation.callback.violations)
    expected = level_of(level).prepare_notify
    if preparation.notification.method != expected:
        problems.append(f"answered through {preparation.notification.method}, expected {expected}")
    status = preparation.status
    model = preparation.prepared_model
    if status == ErrorStatus.NONE and model is None:
        problems.append("callback status NONE came with no prepared model")
    if status != ErrorStatus.NONE and model is not None:
        problems.append(f"callback status {status.name} came with a prepared model")
    if model is not None:
        wanted = level_of(level).prepared_model
        if not issubclass(type(model), wanted):
            problems.append(f"prepared model is a {show_type(model)}, not an {wanted.__name__}")
    if preparation.launch_status != ErrorStatus.NONE and status != preparation.launch_status:
        problems.append(
            f"launch status {preparation.launch_status.name} but callback status {status.name}"
        )
    if problems:
        pytest.fail(f"{method}: " + "; ".join(problems), pytrace=False)
