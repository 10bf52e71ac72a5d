"""Vendor extensions: the shared table (hal.extensions), the type helpers, validation,
the reference driver's demo extension and the harness's skip rule.

Models here number the demo extension with prefix 7 and declare another extension
at prefix 1 (the harness's own number for the demo): a driver or helper that
assumed the harness's numbering instead of reading ``extension_name_to_prefix``
would fail them. Every expected value is derived by hand in the comment beside it.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness import extensions as harness_extensions
from conformance.harness.requests import pack_request
from hal import extensions
from hal.callbacks import PreparedModelCallback
from hal.types import (
    DataLocation,
    ErrorStatus,
    ExecutionPreference,
    Extension,
    ExtensionNameAndPrefix,
    HalVersion,
    MeasureTiming,
    Model,
    Operand,
    OperandLifeTime,
    OperandType,
    OperandTypeInformation,
    Operation,
    RequestArgument,
    element_byte_size,
    is_fully_specified,
    is_tensor_type,
    numpy_dtype,
    operand_byte_size,
)
from hal.validation import validate_model, validate_request
from reference_driver import ReferenceDriver

DEMO = "org.nnhal_conformance.demo"
Q16 = (7 << 16) | 1  # 0x70001: TENSOR_Q16 (type 1) under prefix 7
ADD = (7 << 16) | 1  # 0x70001: SATURATING_ADD (operation 1) under prefix 7
DECLARED = [ExtensionNameAndPrefix("com.example.other", 1), ExtensionNameAndPrefix(DEMO, 7)]
IN, OUT, TMP = (
    OperandLifeTime.MODEL_INPUT,
    OperandLifeTime.MODEL_OUTPUT,
    OperandLifeTime.TEMPORARY_VARIABLE,
)


def _model(dims_a=(2, 2), dims_b=(2, 2), dims_out=(2, 2), types=(Q16, Q16, Q16), inputs=2):
    operands = [
        Operand(types[0], list(dims_a), 1, lifetime=IN),
        Operand(types[1], list(dims_b), 1, lifetime=IN),
        Operand(types[2], list(dims_out), 0, lifetime=OUT),
    ]
    return Model(
        operands=operands,
        operations=[Operation(ADD, [0, 1][:inputs], [2])],
        input_indexes=[0, 1],
        output_indexes=[2],
        extension_name_to_prefix=list(DECLARED),
    )


# ---------------------------------------------------------------------------
# The table and the type helpers
# ---------------------------------------------------------------------------


def test_the_harness_numbers_known_extensions_from_one_by_sorted_name() -> None:
    assert extensions.harness_prefix(DEMO) == 1  # the only known extension
    assert extensions.harness_declarations([DEMO, DEMO]) == [(DEMO, 1)]
    with pytest.raises(KeyError):
        extensions.harness_prefix("com.example.unknown")


def test_qualified_names_and_their_errors() -> None:
    extension, found = extensions.qualified_operand_type(f"{DEMO}:TENSOR_Q16")
    assert (extension.name, found.type_within, found.dtype, found.byte_size) == (
        DEMO,
        1,
        "<i2",
        2,
    )
    with pytest.raises(ValueError) as info:
        extensions.qualified_operand_type("com.example.nope:T")
    assert str(info.value) == (
        "unknown extension 'com.example.nope' (known: org.nnhal_conformance.demo)"
    )
    with pytest.raises(ValueError) as info:
        extensions.qualified_operand_type(f"{DEMO}:TENSOR_Q32")
    assert str(info.value) == (
        "extension org.nnhal_conformance.demo has no operand type 'TENSOR_Q32' (it has: TENSOR_Q16)"
    )
    with pytest.raises(ValueError) as info:
        extensions.qualified_operation(f"{DEMO}:SATURATING_MUL")
    assert str(info.value) == (
        "extension org.nnhal_conformance.demo has no operation 'SATURATING_MUL' "
        "(it has: SATURATING_ADD)"
    )


def test_type_helpers_read_extension_types_through_the_models_prefixes() -> None:
    assert numpy_dtype(Q16, DECLARED) == np.dtype("<i2")
    assert element_byte_size(Q16, DECLARED) == 2
    assert is_tensor_type(Q16, DECLARED)
    assert operand_byte_size(Q16, [2, 3], DECLARED) == 12  # 6 elements of 2 bytes
    assert operand_byte_size(Q16, [], DECLARED) == 0  # a tensor of unknown rank
    assert not is_fully_specified(Operand(Q16, []), DECLARED)
    assert is_fully_specified(Operand(Q16, [2]), DECLARED)
    # Prefix 1 is declared for another (unknown) extension: never the demo's types.
    other = (1 << 16) | 1
    with pytest.raises(ValueError) as info:
        numpy_dtype(other, DECLARED)
    assert str(info.value) == "no numpy dtype for operand type 65537"
    # Without the model's declarations an extension type stays unknown, as before.
    with pytest.raises(ValueError) as info:
        numpy_dtype(Q16)
    assert str(info.value) == "no numpy dtype for operand type 458753"
    assert not is_tensor_type(Q16)


# ---------------------------------------------------------------------------
# Validation (hal.validation's operation.extension_signature) and the driver
# ---------------------------------------------------------------------------


def _problems(model: Model) -> list[str]:
    return [v.message for v in validate_model(model, HalVersion.V1_2).violations]


def test_a_well_formed_saturating_add_is_valid() -> None:
    assert _problems(_model()) == []
    assert _problems(_model(dims_out=(0, 0))) == []  # unknown output dimensions: dynamic


@pytest.mark.parametrize(
    ("model", "message"),
    [
        (
            _model(inputs=1),
            "operation 0: org.nnhal_conformance.demo:SATURATING_ADD takes 2 inputs and 1 "
            "output, has 1 and 1",
        ),
        (
            _model(types=(Q16, OperandType.TENSOR_INT32, Q16)),
            "operation 0: org.nnhal_conformance.demo:SATURATING_ADD input 1 must be "
            "org.nnhal_conformance.demo:TENSOR_Q16",
        ),
        (
            _model(dims_b=(2, 3)),
            "operation 0: org.nnhal_conformance.demo:SATURATING_ADD inputs of shapes [2, 2] and "
            "[2, 3] differ (no broadcasting)",
        ),
        (
            _model(dims_out=(4,)),
            "operation 0: org.nnhal_conformance.demo:SATURATING_ADD output of shape [4] differs "
            "from input shape [2, 2]",
        ),
    ],
    ids=["input_count", "input_type", "shape_mismatch", "output_shape"],
)
def test_a_malformed_saturating_add_is_invalid(model: Model, message: str) -> None:
    violations = validate_model(model, HalVersion.V1_2).violations
    assert [
        (v.rule.name, v.message) for v in violations if v.rule.name.startswith("operation.ext")
    ] == [("operation.extension_signature", message)]
    driver = ReferenceDriver()
    assert driver.get_supported_operations_1_2(model) == (ErrorStatus.INVALID_ARGUMENT, [])
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    assert launch == ErrorStatus.INVALID_ARGUMENT


def test_the_reference_driver_declares_and_supports_the_demo_extension() -> None:
    driver = ReferenceDriver()
    assert driver.get_supported_extensions() == (
        ErrorStatus.NONE,
        [Extension(DEMO, (OperandTypeInformation(1, True, 2),))],
    )
    assert driver.get_supported_operations_1_2(_model()) == (ErrorStatus.NONE, [True])
    # A driver told to claim only ADD does not claim the extension operation.
    partial = ReferenceDriver(operations=[0])
    assert partial.get_supported_operations_1_2(_model()) == (ErrorStatus.NONE, [False])


def _execute(model: Model, a: list[int], b: list[int], dims: tuple[int, ...]):
    driver = ReferenceDriver()
    callback = PreparedModelCallback()
    launch = driver.prepare_model_1_2(model, ExecutionPreference.FAST_SINGLE_ANSWER, callback)
    notification = callback.wait(10)
    assert (launch, notification.status) == (ErrorStatus.NONE, ErrorStatus.NONE)
    inputs = [np.array(a, "<i2").reshape(dims), np.array(b, "<i2").reshape(dims)]
    with pack_request(model, inputs, [2 * len(a)]) as packed:
        status, shapes, _ = notification.prepared_model.execute_synchronously(
            packed.request, MeasureTiming.NO
        )
        return status, [tuple(s.dimensions) for s in shapes], packed.output(0, dims)


def test_the_reference_driver_saturates_on_the_raw_int16_values() -> None:
    # 1.0 + 1.5 = 2.5 (256 + 384 = 640); 32767 + 1 and 20000 + 20000 clamp to 32767;
    # -32768 + -1 and -20000 + -20000 clamp to -32768; -5 + 5 = 0.
    status, shapes, out = _execute(
        _model(dims_a=(2, 3), dims_b=(2, 3), dims_out=(0, 0)),
        [256, 32767, 20000, -32768, -20000, -5],
        [384, 1, 20000, -1, -20000, 5],
        (2, 3),
    )
    assert (status, shapes) == (ErrorStatus.NONE, [(2, 3)])
    assert out.tolist() == [[640, 32767, 32767], [-32768, -32768, 0]]


def test_request_input_length_is_checked_for_extension_types() -> None:
    model = _model()
    inputs = [np.zeros((2, 2), "<i2"), np.zeros((2, 2), "<i2")]
    with pack_request(model, inputs) as packed:
        request = packed.request
        assert validate_request(request, model, HalVersion.V1_2).ok
        first = request.inputs[0].location
        request.inputs[0] = RequestArgument(
            location=DataLocation(first.pool_index, first.offset, 6)
        )
        messages = [v.message for v in validate_request(request, model, HalVersion.V1_2).violations]
    # 2 x 2 elements of 2 bytes = 8 bytes, not 6.
    assert messages == [
        "input 0 (operand 0): extension type 0x70001 (prefix 7, type 1) of dimensions [2, 2] "
        "takes 8 bytes, location.length is 6"
    ]


# ---------------------------------------------------------------------------
# The harness's rule: undeclared -> unsupported, misdeclared -> failure
# ---------------------------------------------------------------------------


class _Declaring:
    def __init__(self, extensions_):
        self.extensions = extensions_
        self.calls = 0

    def get_supported_extensions(self):
        self.calls += 1
        return ErrorStatus.NONE, list(self.extensions)


def test_a_model_of_an_undeclared_extension_is_skipped_as_unsupported() -> None:
    device = _Declaring([Extension("com.example.other")])
    model = _model()
    with pytest.raises(pytest.skip.Exception) as info:
        harness_extensions.require_extensions(device, model)
    assert info.value.msg == (
        "unsupported: the driver does not declare extension org.nnhal_conformance.demo"
    )
    assert harness_extensions.undeclared(device, model) == [DEMO]
    assert device.calls == 1  # asked once per driver object


def test_a_model_of_a_misdeclared_extension_fails() -> None:
    missing = _Declaring([Extension("com.example.other"), Extension(DEMO)])
    model = _model()
    with pytest.raises(pytest.fail.Exception) as info:
        harness_extensions.require_extensions(missing, model)
    assert info.value.msg == (
        "the driver declares extension org.nnhal_conformance.demo without operand type 1 "
        "(TENSOR_Q16)"
    )
    scalar = _Declaring(
        [Extension("com.example.other"), Extension(DEMO, (OperandTypeInformation(1, False, 2),))]
    )
    with pytest.raises(pytest.fail.Exception) as info:
        harness_extensions.require_extensions(scalar, model)
    assert info.value.msg == (
        "the driver declares extension org.nnhal_conformance.demo operand type 1 (TENSOR_Q16) "
        "with is_tensor=False, byte_size=2; the suite's table has is_tensor=True, byte_size=2"
    )


def test_a_driver_failing_get_supported_extensions_fails_the_case() -> None:
    class Failing:
        def get_supported_extensions(self):
            return ErrorStatus.GENERAL_FAILURE, []

    with pytest.raises(pytest.fail.Exception) as info:
        harness_extensions.require_extensions(Failing(), _model())
    assert info.value.msg == (
        "get_supported_extensions returned GENERAL_FAILURE; a model using an extension "
        "cannot be judged"
    )


def test_a_model_without_extensions_never_asks_the_driver() -> None:
    device = _Declaring([])
    model = _model()
    model.extension_name_to_prefix = []
    harness_extensions.require_extensions(device, model)
    assert device.calls == 0


def test_constant_length_is_checked_for_extension_types() -> None:
    model = _model()
    # Input 1 becomes a constant [2, 2] of TENSOR_Q16: 4 elements of 2 bytes = 8 bytes.
    model.operands[1].lifetime = OperandLifeTime.CONSTANT_COPY
    model.operands[1].location = DataLocation(0, 0, 8)
    model.operand_values = bytes(8)
    model.input_indexes = [0]
    assert _problems(model) == []
    model.operands[1].location = DataLocation(0, 0, 6)
    assert _problems(model) == [
        "operand 1: constant extension type 0x70001 (prefix 7, type 1) of dimensions [2, 2] "
        "takes 8 bytes, location.length is 6"
    ]
    # An extension the table does not know stays the vendor's business: not sized.
    model.extension_name_to_prefix = [ExtensionNameAndPrefix("com.example.other", 7)]
    assert _problems(model) == []


def test_a_driver_answering_something_else_than_extensions_fails_the_case() -> None:
    class Odd:
        def get_supported_extensions(self):
            return ErrorStatus.NONE, ["org.nnhal_conformance.demo"]

    with pytest.raises(pytest.fail.Exception) as info:
        harness_extensions.require_extensions(Odd(), _model())
    assert info.value.msg == (
        "get_supported_extensions returned ['org.nnhal_conformance.demo'], not a list of Extension"
    )


def test_a_driver_without_get_supported_extensions_declares_none() -> None:
    class Old:  # a HAL 1.0 or 1.1 driver
        pass

    with pytest.raises(pytest.skip.Exception) as info:
        harness_extensions.require_extensions(Old(), _model())
    # Every extension the model declares and the driver does not, in model order.
    assert info.value.msg == (
        "unsupported: the driver does not declare extension com.example.other, "
        "org.nnhal_conformance.demo"
    )


def test_the_report_names_an_extension_operand_type() -> None:
    from conformance.harness.generated import corpus
    from plugins.report.facts import _operand_type

    (case,) = [t for t in corpus() if t.name == "demo_saturating_add_chain"]
    assert _operand_type(case) == "org.nnhal_conformance.demo:TENSOR_Q16"
    unknown = Model(
        [Operand((9 << 16) | 3, [2], 1, lifetime=IN), Operand((9 << 16) | 3, [2], lifetime=OUT)],
        [Operation((9 << 16) | 1, [0], [1])],
        [0],
        [1],
        extension_name_to_prefix=[ExtensionNameAndPrefix("com.example.other", 9)],
    )
    assert _operand_type(type("Case", (), {"model": unknown})()) == str((9 << 16) | 3)
