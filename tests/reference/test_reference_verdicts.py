"""The reference driver validates a model asked about twice, unchanged, only once; any
change in place between the two asks is seen (``reference_driver/verdicts.py``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conformance.harness.models import binary_model
from hal.memory import Memory
from hal.types import DataLocation, ErrorStatus, HalVersion, Model, Operand, OperandType
from reference_driver import ReferenceDriver
from reference_driver import device as device_module
from reference_driver.verdicts import ModelVerdicts, snapshot


@pytest.fixture
def validations(monkeypatch) -> list[Model]:
    """The models the driver really validates, in order."""
    seen: list[Model] = []
    real = device_module.validate_model

    def counted(model, version, **options):
        seen.append(model)
        return real(model, version, **options)

    monkeypatch.setattr(device_module, "validate_model", counted)
    return seen


def _status(driver: ReferenceDriver, model: Model) -> ErrorStatus:
    return driver.get_supported_operations_1_2(model)[0]


def test_a_model_asked_about_again_unchanged_is_validated_once(validations) -> None:
    driver, model = ReferenceDriver(), binary_model()
    assert _status(driver, model) == ErrorStatus.NONE
    assert _status(driver, model) == ErrorStatus.NONE
    assert len(validations) == 1
    # Another level is another question; an equal model that is another object too.
    assert driver.get_supported_operations(model)[0] == ErrorStatus.NONE
    assert _status(driver, binary_model()) == ErrorStatus.NONE
    assert len(validations) == 3


def _retyped(model: Model) -> None:
    model.operands[0].type = 12345


def _dimension_added(model: Model) -> None:
    activation = model.operations[0].inputs[2]
    model.operands[activation].dimensions.append(1)  # a scalar of rank 1


def _input_out_of_range(model: Model) -> None:
    model.operations[0].inputs[0] = 99


def _operand_dropped(model: Model) -> None:
    model.operands.pop()


def _values_cut(model: Model) -> None:
    model.operand_values = b""  # the activation constant's bytes are gone


def _location_moved(model: Model) -> None:
    activation = model.operations[0].inputs[2]
    model.operands[activation].location = DataLocation(0, 64, 4)


def _output_listed_twice(model: Model) -> None:
    model.output_indexes.append(model.output_indexes[0])


@pytest.mark.parametrize(
    "change",
    [_retyped, _dimension_added, _input_out_of_range, _operand_dropped, _values_cut,
     _location_moved, _output_listed_twice],
)  # fmt: skip
def test_a_change_in_place_between_two_asks_is_seen(
    validations, change: Callable[[Model], None]
) -> None:
    driver, model = ReferenceDriver(), binary_model(dims=(2, 2))
    assert _status(driver, model) == ErrorStatus.NONE
    change(model)
    assert _status(driver, model) == ErrorStatus.INVALID_ARGUMENT
    assert len(validations) == 2


def _while_model() -> Model:
    from control_flow_models import F32, ModelBuilder, counter_while

    builder = ModelBuilder()
    main = builder.main
    i, n = main.input(F32, [1]), main.input(F32, [1])
    counter_while(builder, main, i, n, main.output(F32, [1]))
    return builder.build()


def _body_retyped(model: Model) -> None:
    model.referenced[1].operands[0].type = OperandType.TENSOR_INT32


def _body_input_dropped(model: Model) -> None:
    model.referenced[1].input_indexes.pop()


def _subgraph_replaced(model: Model) -> None:
    model.referenced[1] = model.referenced[0]  # the condition as the body: arity breaks


def _subgraph_added(model: Model) -> None:
    model.referenced.append(model.referenced[0])


@pytest.mark.parametrize(
    "change", [_body_retyped, _body_input_dropped, _subgraph_replaced, _subgraph_added]
)
def test_a_change_in_place_inside_a_referenced_subgraph_is_seen(
    validations, change: Callable[[Model], None]
) -> None:
    driver, model = ReferenceDriver(), _while_model()
    status = driver.get_supported_operations_1_3
    assert status(model) == (ErrorStatus.NONE, [True])
    assert status(model) == (ErrorStatus.NONE, [True])
    assert len(validations) == 1
    change(model)
    assert status(model)[0] == ErrorStatus.INVALID_ARGUMENT
    assert len(validations) == 2


def test_a_value_replaced_by_an_equal_one_is_validated_again(validations) -> None:
    driver, model = ReferenceDriver(), binary_model()
    assert _status(driver, model) == ErrorStatus.NONE
    model.operands[0].dimensions = list(model.operands[0].dimensions)
    model.operands[0].scale = float("0.0")  # an equal value; not the same object
    assert _status(driver, model) == ErrorStatus.NONE
    assert len(validations) == 2


def test_a_model_with_pools_or_odd_values_has_no_snapshot() -> None:
    plain = binary_model()
    assert snapshot(plain) is not None
    pooled = binary_model()
    pooled.pools = [Memory("ashmem", None, 4)]
    assert snapshot(pooled) is None
    odd = binary_model()
    odd.operands[0].dimensions = [[1], [2]]  # a list inside: it could change unseen
    assert snapshot(odd) is None
    mutable_values = binary_model()
    mutable_values.operand_values = bytearray(mutable_values.operand_values)
    assert snapshot(mutable_values) is None
    assert snapshot(Operand(OperandType.TENSOR_FLOAT32)) is None


def test_a_model_without_a_snapshot_is_validated_every_time() -> None:
    verdicts, model, calls = ModelVerdicts(), binary_model(), []
    model.operand_values = bytearray(model.operand_values)
    for _ in range(3):
        assert verdicts.verdict(model, HalVersion.V1_2, lambda: calls.append(1) or True)
    assert len(calls) == 3


def test_only_the_last_few_verdicts_are_kept() -> None:
    verdicts, calls = ModelVerdicts(size=2), []
    models = [binary_model() for _ in range(3)]
    for model in [*models, models[2], models[0]]:
        verdicts.verdict(model, HalVersion.V1_2, lambda: calls.append(1) or True)
    assert len(calls) == 4  # the third model's second ask hits; the first model's does not
