"""``test_valid_model_the_driver_cannot_run``: valid models a driver cannot run are not invalid.

Two drivers built on the reference driver get it wrong, one way each: one
refuses a model with an OEM operation as INVALID_ARGUMENT, one claims every
operation of every model, the operation of an extension it never declared
included. Each fails exactly the item of its mistake, with the message a vendor
reads; the reference driver passes both.
"""

from __future__ import annotations

import re

import pytest

DRIVER = """
from hal.types import ErrorStatus, OperationType
from reference_driver import ReferenceDriver


def _refuses_oem(method):
    def answer(self, model):
        if any(op.type == OperationType.OEM_OPERATION for op in model.operations):
            return ErrorStatus.INVALID_ARGUMENT, []
        return getattr(ReferenceDriver, method)(self, model)
    return answer


def _claims_everything(method):
    def answer(self, model):
        status, answers = getattr(ReferenceDriver, method)(self, model)
        return status, [True] * len(answers) if status == ErrorStatus.NONE else answers
    return answer


class RefusesOem(ReferenceDriver):
    get_supported_operations_1_2 = _refuses_oem("get_supported_operations_1_2")
    get_supported_operations_1_3 = _refuses_oem("get_supported_operations_1_3")


class ClaimsEverything(ReferenceDriver):
    get_supported_operations_1_2 = _claims_everything("get_supported_operations_1_2")
    get_supported_operations_1_3 = _claims_everything("get_supported_operations_1_3")
"""

CASE = "V1_0/add/none"


def _run(pytester: pytest.Pytester, driver: str) -> tuple[dict[str, str], str]:
    pytester.makepyfile(unrunnable_drivers=DRIVER)
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "--pyargs",
        "conformance.test_validate_model",
        "--nnhal-profile=ci",
        f"--driver={driver}",
        "-k",
        f"test_valid_model_the_driver_cannot_run and {CASE}",
        "-v",
    )
    outcomes = dict(
        re.findall(
            r"test_valid_model_the_driver_cannot_run\[(\S+)\] (PASSED|FAILED)", result.stdout.str()
        )
    )
    return outcomes, result.stdout.str()


def test_the_reference_driver_answers_none_for_both(pytester: pytest.Pytester) -> None:
    outcomes, out = _run(pytester, "reference")
    assert outcomes == {f"oem_operation/{CASE}": "PASSED", f"unknown_extension/{CASE}": "PASSED"}, (
        out
    )


def test_refusing_an_oem_operation_as_invalid_fails_its_item(pytester: pytest.Pytester) -> None:
    outcomes, out = _run(pytester, "unrunnable_drivers:RefusesOem")
    assert outcomes == {f"oem_operation/{CASE}": "FAILED", f"unknown_extension/{CASE}": "PASSED"}, (
        out
    )
    assert (
        f"{CASE} with its first operation made an OEM_OPERATION and, where one is read by it "
        "alone, a tensor input made a TENSOR_OEM_BYTE (valid in any model): "
        "get_supported_operations at HAL 1.3 returned INVALID_ARGUMENT; the model is valid, so "
        "the answer is NONE with the operation marked unsupported"
    ) in out
    assert (
        "rerun: pytest --pyargs 'conformance.test_validate_model::"
        f"test_valid_model_the_driver_cannot_run[oem_operation/{CASE}]' "
        "--driver=unrunnable_drivers:RefusesOem --nnhal-profile=ci"
    ) in out


def test_claiming_an_undeclared_extension_operation_fails_its_item(
    pytester: pytest.Pytester,
) -> None:
    outcomes, out = _run(pytester, "unrunnable_drivers:ClaimsEverything")
    assert outcomes == {f"oem_operation/{CASE}": "PASSED", f"unknown_extension/{CASE}": "FAILED"}, (
        out
    )
    assert (
        f"{CASE} with its first operation made operation 1 of extension "
        "com.example.nnhal_conformance.unsupported, declared in the model but by no driver "
        "(valid at HAL 1.2): get_supported_operations_1_2 claims operation 0 of extension "
        "com.example.nnhal_conformance.unsupported, which the driver does not declare"
    ) in out
