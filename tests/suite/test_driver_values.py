"""Values a driver returns are type-checked before use and quoted through ``hal.show``.

Three hostile answers stand for every costly or dangerous value: a list shared
with itself 40 levels deep (2**40 items if printed in full), a string of ten
million characters, and an object whose every special method raises (its
``__repr__`` included). Each is returned from the main driver methods, and
each must give a failure naming the method, with the value quoted in at most
``hal.show.MAX_LENGTH`` characters. Wrong types whose dunders lie (a list
subclass claiming to be empty, a generator, a Timing holding NaN or a huge
int) are refused by their exact type, never iterated or compared.
"""

from __future__ import annotations

import math

import pytest

from conformance import test_basic
from conformance.harness import calls, domains, execution
from conformance.harness.caching import caching_supported
from conformance.harness.models import binary_model
from hal.burst import MAX_SLOTS_PER_CALL, BurstCallback
from hal.callbacks import ExecutionCallback
from hal.interfaces import IPreparedModel_1_2
from hal.show import MAX_LENGTH, show, show_exception, show_text, show_type
from hal.types import (
    NO_TIMING,
    BufferDesc,
    DeviceType,
    ErrorStatus,
    HalVersion,
    OutputShape,
    Request,
    RequestArgument,
    Timing,
)
from plugins.report.collector import PLAIN_ITEMS, _identity_value, _plain

MESSAGE_BOUND = MAX_LENGTH + 200
"""A failure quoting one driver value: the quote plus the harness's own words."""


class Raising:
    """Every special method the harness could be tempted to call raises."""

    def _fail(self, *args, **kwargs):
        raise RuntimeError("a hostile dunder ran in the harness")

    __repr__ = __str__ = __format__ = __eq__ = __ne__ = __lt__ = __hash__ = _fail
    __len__ = __iter__ = __bool__ = __index__ = __int__ = __getitem__ = _fail


class LyingList(list):
    """A list that says it is empty and raises when walked."""

    def __len__(self):
        return 0

    def __iter__(self):
        raise RuntimeError("iterated")

    def __repr__(self):
        raise RuntimeError("repr called")


def deep_shared_list(levels: int) -> list:
    value: list = []
    for _ in range(levels):
        value = [value, value]
    return value


DEEP = deep_shared_list(40)
HUGE = "x" * 10_000_000
HOSTILE = {"deep": DEEP, "huge": HUGE, "raising": Raising()}
SHOWN = {
    "deep": "[[[[[...], [...]], [[...], [...]]], [[[...], [...]], [[...], [...]]]], "
    "[[[[...], [...]], [[...], [...]]], [[[...], [...]], [[...], [...]]]]]",
    "huge": "'" + "x" * 80 + "'... (10000000 characters)",
    "raising": "<Raising object>",
}
"""The quotes, derived by hand from hal.show's limits (4 levels, 80 characters). Every
level of DEEP is alike, so any part of it four levels or more deep is quoted the same."""
DEEP_3 = "[[[[...], [...]], [[...], [...]]], [[[...], [...]], [[...], [...]]]]"
"""DEEP quoted three levels deep, as a field of a HAL dataclass is."""
hostile = pytest.mark.parametrize("kind", sorted(HOSTILE))


# -- hal.show itself ------------------------------------------------------------------


@hostile
def test_show_quotes_hostile_values_bounded(kind) -> None:
    assert show(HOSTILE[kind]) == SHOWN[kind]


def test_show_bounds_every_kind_of_value() -> None:
    assert show(10**5000) == "<int of 16610 bits>"
    assert show(2**64 - 1) == "18446744073709551615"
    assert show(b"\x01" * 1000) == "b'" + "\\x01" * 80 + "'... (1000 bytes)"
    text = show(LyingList([1, 2]))
    assert text == "<LyingList object>"
    assert show(x for x in range(3)) == "<generator object>"
    # reprlib would sort the keys, calling their __lt__.
    keys = type("Unordered", (), {"__lt__": Raising._fail, "__repr__": Raising._fail})
    text = show({keys(): 1, keys(): 2})
    assert text == "{<Unordered object>: 1, <Unordered object>: 2}"
    assert show(list(range(100))) == "[0, 1, 2, 3, 4, 5, 6, 7, ...]"
    assert show(float("nan")) == "nan"
    assert show(ErrorStatus.NONE) == "<ErrorStatus.NONE: 0>"
    shape = OutputShape([1, 2], True)
    assert show(shape) == "OutputShape(dimensions=[1, 2], is_sufficient=True)"
    # A HAL dataclass holding a hostile field: the field is shown bounded, not its repr.
    text = show(Timing(Raising(), 1))
    assert text == "Timing(time_on_device=<Raising object>, time_in_driver=1)"
    # Many long strings: the whole text is cut at MAX_LENGTH.
    text = show([HUGE] * 8)
    assert len(text) == MAX_LENGTH and text.endswith("...")


def test_a_class_posing_as_a_hal_type_is_not_looked_into() -> None:
    Fake = type("OutputShape", (), {"__module__": "hal.types", "__repr__": Raising._fail})
    text = show(Fake())
    assert text == "<OutputShape object>"
    # A metaclass whose __hash__ raises: the class is never hashed, nor its __eq__ called.
    Meta = type("Meta", (type,), {"__hash__": Raising._fail, "__eq__": Raising._fail})
    Odd = Meta("Odd", (), {})
    text = show([Odd()])
    assert text == "[<Odd object>]"


def test_show_text_and_exceptions_never_run_driver_code() -> None:
    assert show_text("vendor 1.0") == "vendor 1.0"
    assert show_text(HUGE, 10) == "xxxxxxxxxx... (10000000 characters)"
    text = show_text(Raising())
    assert text == "<Raising object>"
    assert show_exception(RuntimeError("boom")) == "RuntimeError: boom"
    text = show_exception(ValueError(DEEP))
    assert text == f"ValueError: ({DEEP_3},)"  # the tuple is one of the 4 levels

    class Nasty(Exception):
        def __str__(self):
            raise RuntimeError("str called")

    text = show_exception(Nasty("x" * 300))
    assert text == f"Nasty: {'x' * 200}... (300 characters)"
    text = show_type(Raising())
    assert text == "Raising"


# -- each method's answer -----------------------------------------------------------------


def _request(outputs: int = 1) -> Request:
    return Request([], [RequestArgument() for _ in range(outputs)], [])


def _failure(call) -> str:
    with pytest.raises(pytest.fail.Exception) as info:
        call()
    message = str(info.value)
    assert len(message) <= MESSAGE_BOUND, len(message)
    return message


class _Prepared(IPreparedModel_1_2):
    """A prepared model whose every method answers ``answer`` (or calls back with it)."""

    def __init__(self, answer=None, notify=None) -> None:
        self.answer, self.notify = answer, notify

    def execute(self, request, callback):
        return self.answer

    def execute_1_2(self, request, measure, callback):
        if self.notify is not None:
            callback.notify_1_2(*self.notify)
        return self.answer

    def execute_synchronously(self, request, measure):
        return self.answer

    def configure_execution_burst(self, callback, request_channel, result_channel):
        return self.answer

    def save_to_cache(self, model_cache, data_cache, token):
        return self.answer


@hostile
def test_execute_synchronously(kind) -> None:
    path = execution.PATHS_BY_ID["sync"]
    message = _failure(lambda: execution.run(_Prepared(HOSTILE[kind]), _request(), path, 1))
    assert message == (
        f"execute_synchronously returned {SHOWN[kind]}; expected "
        "(ErrorStatus, output shapes, Timing)"
    )


@hostile
def test_launch_status(kind) -> None:
    path = execution.PATHS_BY_ID["async"]
    message = _failure(lambda: execution.run(_Prepared(HOSTILE[kind]), _request(), path, 1))
    assert message == f"execute_1_2 returned status {SHOWN[kind]}, which is not an ErrorStatus"


@hostile
def test_callback_output_shapes_and_timing(kind) -> None:
    path = execution.PATHS_BY_ID["async"]
    value = HOSTILE[kind]
    shapes = _Prepared(ErrorStatus.NONE, (ErrorStatus.NONE, value, NO_TIMING))
    message = _failure(lambda: execution.run(shapes, _request(), path, 1))
    if kind == "deep":  # a list: too long for the request's one output
        assert message == (
            "execute_1_2 callback gave 2 output shapes for 1 outputs; at most one per output"
        )
    else:
        assert message == (
            f"execute_1_2 callback gave output shapes {SHOWN[kind]}; expected a list of OutputShape"
        )
    timing = _Prepared(ErrorStatus.NONE, (ErrorStatus.NONE, [], value))
    message = _failure(lambda: execution.run(timing, _request(), path, 1))
    assert message == f"execute_1_2 callback gave timing {SHOWN[kind]}; expected a Timing"


@hostile
def test_callback_status(kind) -> None:
    path = execution.PATHS_BY_ID["async"]
    prepared = _Prepared(ErrorStatus.NONE, (HOSTILE[kind], [], NO_TIMING))
    message = _failure(lambda: execution.run(prepared, _request(), path, 1))
    assert message == (
        f"execute_1_2 callback returned status {SHOWN[kind]}, which is not an ErrorStatus"
    )


@pytest.mark.parametrize(
    ("shapes", "message"),
    [
        (
            [OutputShape([1], True)] * 1_000_000,
            "execute_synchronously gave 1000000 output shapes for 1 outputs; at most one per "
            "output",
        ),
        (
            LyingList([OutputShape([1], True)]),
            "execute_synchronously gave output shapes <LyingList object>; expected a list of "
            "OutputShape",
        ),
        (
            (s for s in ()),
            "execute_synchronously gave output shapes <generator object>; expected a list of "
            "OutputShape",
        ),
        (
            [OutputShape(DEEP, True)],
            f"execute_synchronously gave output shape 0 OutputShape(dimensions={DEEP_3}"
            f", is_sufficient=True): dimension {SHOWN['deep']} is not a uint32",
        ),
        (
            [OutputShape(list(range(1000)), True)],
            "execute_synchronously gave output shape 0 OutputShape(dimensions=[0, 1, 2, 3, 4, "
            "5, 6, 7, ...], is_sufficient=True): 1000 dimensions, more than 64",
        ),
        (
            [OutputShape([2**40], True)],
            "execute_synchronously gave output shape 0 OutputShape(dimensions=[1099511627776], "
            "is_sufficient=True): dimension 1099511627776 is not a uint32",
        ),
        (
            [OutputShape([1], Raising())],
            "execute_synchronously gave output shape 0 OutputShape(dimensions=[1], "
            "is_sufficient=<Raising object>): is_sufficient is not a bool",
        ),
    ],
    ids=["million", "lying-list", "generator", "deep-dims", "rank-1000", "huge-dim", "flag"],
)
def test_output_shapes_are_checked_before_they_are_walked(shapes, message) -> None:
    prepared = _Prepared((ErrorStatus.NONE, shapes, NO_TIMING))
    path = execution.PATHS_BY_ID["sync"]
    assert _failure(lambda: execution.run(prepared, _request(), path, 1)) == message


@pytest.mark.parametrize(
    ("timing", "field"),
    [
        (Timing(float("nan"), 5), "time_on_device"),
        (Timing(5, 2**64), "time_in_driver"),
        (Timing(True, 5), "time_on_device"),
        (Timing(-1, 5), "time_on_device"),
    ],
    ids=["nan", "over-uint64", "bool", "negative"],
)
def test_timing_fields_are_uint64(timing, field) -> None:
    prepared = _Prepared((ErrorStatus.NONE, [], timing))
    path = execution.PATHS_BY_ID["sync-timed"]
    message = _failure(lambda: execution.run(prepared, _request(), path, 1))
    assert message == f"execute_synchronously gave timing {show(timing)}: {field} is not a uint64"


def test_a_status_that_is_an_int_subclass_is_refused() -> None:
    class Sneaky(int):
        def __eq__(self, other):
            return True

        __hash__ = int.__hash__

    prepared = _Prepared((Sneaky(0), [], NO_TIMING))
    path = execution.PATHS_BY_ID["sync"]
    assert _failure(lambda: execution.run(prepared, _request(), path, 1)) == (
        "execute_synchronously returned status <Sneaky object>, which is not an ErrorStatus"
    )


@hostile
def test_configure_execution_burst(kind) -> None:
    path = execution.PATHS_BY_ID["burst"]
    message = _failure(lambda: execution.run(_Prepared(HOSTILE[kind]), _request(), path, 1))
    assert message == (
        f"configure_execution_burst returned {SHOWN[kind]}; expected (ErrorStatus, IBurstContext)"
    )
    answer = (ErrorStatus.NONE, HOSTILE[kind])
    message = _failure(lambda: execution.run(_Prepared(answer), _request(), path, 1))
    assert message == (
        f"configure_execution_burst answered NONE with {SHOWN[kind]}; it must succeed with "
        "an IBurstContext (bursts are mandatory at HAL 1.2)"
    )


class _Device:
    """A device whose every method answers ``answer``; prepare calls back with ``notify``."""

    def __init__(self, answer=None, notify=None) -> None:
        self.answer, self.notify = answer, notify

    def __getattr__(self, name):
        return lambda *args: self.answer

    def prepare_model_1_2(self, model, preference, callback):
        if self.notify is not None:
            callback.notify_1_2(*self.notify)
        return self.answer


@hostile
@pytest.mark.parametrize("method", ["get_capabilities_1_2", "get_version_string", "get_type"])
def test_status_and_value_answers(kind, method) -> None:
    message = _failure(lambda: calls.status_and_value(_Device(HOSTILE[kind]), method))
    assert message == f"_Device.{method} returned {SHOWN[kind]}; expected (ErrorStatus, value)"


@hostile
def test_supported_operations(kind) -> None:
    model = binary_model()
    device = _Device((ErrorStatus.NONE, HOSTILE[kind]))
    message = _failure(lambda: calls.supported_operations(device, model, HalVersion.V1_2))
    assert message == (
        f"get_supported_operations_1_2 returned NONE with {SHOWN[kind]}; expected a list of "
        "one bool per operation (1)"
    )


@pytest.mark.parametrize(
    "answers",
    [[True] * 10**6, LyingList([True]), [1], (b for b in [True])],
    ids=["million", "lying-list", "int", "generator"],
)
def test_supported_operations_of_the_wrong_shape(answers) -> None:
    model = binary_model()
    device = _Device((ErrorStatus.NONE, answers))
    message = _failure(lambda: calls.supported_operations(device, model, HalVersion.V1_2))
    assert message == (
        f"get_supported_operations_1_2 returned NONE with {show(answers)}; expected a list of "
        "one bool per operation (1)"
    )
    # With an error status the list means nothing: anything malformed is dropped.
    device = _Device((ErrorStatus.INVALID_ARGUMENT, answers))
    status, kept = calls.supported_operations(device, model, HalVersion.V1_2)
    assert (status, kept) == (ErrorStatus.INVALID_ARGUMENT, [])


@hostile
def test_prepare_launch_and_callback_status(kind) -> None:
    model = binary_model()
    device = _Device(HOSTILE[kind])
    message = _failure(lambda: calls.prepare(device, model, HalVersion.V1_2, 1))
    assert (
        message == f"prepare_model_1_2 returned status {SHOWN[kind]}, which is not an ErrorStatus"
    )
    device = _Device(ErrorStatus.NONE, (HOSTILE[kind], None))
    message = _failure(lambda: calls.prepare(device, model, HalVersion.V1_2, 1))
    assert message == (
        f"prepare_model_1_2 callback returned status {SHOWN[kind]}, which is not an ErrorStatus"
    )


@hostile
def test_prepared_model_of_the_wrong_type(kind) -> None:
    device = _Device(ErrorStatus.NONE, (ErrorStatus.NONE, HOSTILE[kind]))
    model = binary_model()
    message = _failure(lambda: calls.prepare(device, model, HalVersion.V1_2, 1))
    assert message == (
        f"prepare_model_1_2: prepared model is a {type(HOSTILE[kind]).__name__}, "
        "not an IPreparedModel_1_2"
    )


@hostile
def test_allocate(kind) -> None:
    device = _Device(HOSTILE[kind])
    message = _failure(lambda: domains.allocate_buffer(device, BufferDesc(), []))
    assert message == (
        f"allocate returned {SHOWN[kind]}; expected (ErrorStatus, IBuffer | None, token)"
    )
    device = _Device((ErrorStatus.NONE, HOSTILE[kind], 1))
    with pytest.raises(AssertionError) as info:
        domains.allocate_buffer(device, BufferDesc(), [])
    assert str(info.value).startswith(f"allocate: NONE came with buffer {SHOWN[kind]}\n")


@hostile
def test_is_caching_supported(kind) -> None:
    device = _Device((ErrorStatus.NONE, HOSTILE[kind]))
    with pytest.raises(AssertionError) as info:
        caching_supported(device)
    assert str(info.value).startswith(
        f"is_caching_supported returned {SHOWN[kind]}; expected (ErrorStatus.NONE, bool)\n"
    )


@hostile
@pytest.mark.parametrize(
    ("test", "prefix"),
    [
        (test_basic.test_version_string, "version string is "),
        (test_basic.test_type, "get_type returned "),
        (test_basic.test_supported_extensions, "the supported extensions"),
        (test_basic.test_caching_supported_answers, "is_caching_supported returned "),
    ],
    ids=["version", "type", "extensions", "caching"],
)
def test_basic_device_answers(kind, test, prefix) -> None:
    with pytest.raises(AssertionError) as info:
        test(_Device((ErrorStatus.NONE, HOSTILE[kind])))
    message = str(info.value)
    if test is test_basic.test_supported_extensions:
        # A list (of lists) has its first entry refused; anything else is no list.
        prefix += "[0] is " if kind == "deep" else " is "
    assert message.startswith(prefix + SHOWN[kind]), message
    assert len(message) <= MESSAGE_BOUND + 200  # pytest's own explanation follows the message


def test_basic_capabilities_of_the_wrong_type() -> None:
    with pytest.raises(AssertionError) as info:
        test_basic.test_capabilities(_Device((ErrorStatus.NONE, LyingList())), HalVersion.V1_2)
    assert str(info.value).startswith("got a LyingList, expected Capabilities_1_2")


# -- callbacks and the report -------------------------------------------------------------


@hostile
def test_a_second_notify_with_a_hostile_status_is_reported_bounded(kind) -> None:
    callback = ExecutionCallback()
    callback.notify_1_2(ErrorStatus.NONE, [], NO_TIMING)
    callback.notify_1_2(HOSTILE[kind], HOSTILE[kind], HOSTILE[kind])
    assert callback.violations == [
        "execution callback notified 2 times; extra call notify_1_2"
        f"(status=invalid status {SHOWN[kind]})"
    ]


def test_the_burst_callback_refuses_slots_it_cannot_walk_safely() -> None:
    callback = BurstCallback()
    for slots in (DEEP, LyingList([0]), [0] * (MAX_SLOTS_PER_CALL + 1), [Raising()], HUGE):
        assert callback.get_memories(slots) == (ErrorStatus.INVALID_ARGUMENT, [])
    assert callback.requests == []
    assert callback.rejected[:2] == [SHOWN["deep"], "<LyingList object>"]
    assert callback.rejected[3:] == ["[<Raising object>]", SHOWN["huge"]]


def test_the_report_keeps_driver_answers_bounded() -> None:
    expected = SHOWN["deep"]  # what is left below PLAIN_DEPTH levels, quoted
    for _ in range(8):
        expected = [expected, expected]
    assert _plain(DEEP) == expected
    assert _plain(HUGE) == "x" * 200 + "... (10000000 characters)"
    assert _plain(Raising()) == "<Raising object>"
    long = _plain(list(range(1000)))
    assert long[:3] == [0, 1, 2] and long[-1] == f"... {1000 - PLAIN_ITEMS} more"
    assert len(long) == PLAIN_ITEMS + 1
    assert _plain(10**30) == show(10**30)
    assert math.isnan(_plain(float("nan")))
    assert _identity_value("version_string", HUGE) == (_plain(HUGE), "")
    assert _identity_value("version_string", Raising()) == (None, "<Raising object>, not a string")
    assert _identity_value("device_type", 2) == (DeviceType(2).name, "")
    assert _identity_value("device_type", Raising()) == (
        None,
        "<Raising object>, not a DeviceType",
    )
    assert _identity_value("caching_supported", 1) == (None, "1, not a bool")
    assert _identity_value("capabilities", DEEP) == (None, f"{SHOWN['deep']}, not a Capabilities")
