"""hal.loader: resolving driver specifications, and the ``nnhal-drivers`` command."""

from __future__ import annotations

import pytest

from hal.loader import DriverLoadError, load_driver, main, registered_drivers
from hal.types import HalVersion
from reference_driver import ReferenceDriver


def test_reference_is_registered() -> None:
    assert registered_drivers()["reference"].value == "reference_driver:ReferenceDriver"


def test_default_driver_is_reference() -> None:
    loaded = load_driver()
    assert isinstance(loaded.device, ReferenceDriver)
    assert (loaded.spec, loaded.level, loaded.is_default) == ("reference", HalVersion.V1_2, True)
    assert loaded.describe() == "reference (default)"


def test_module_factory_spec() -> None:
    loaded = load_driver(" reference_driver:ReferenceDriver ")
    assert loaded.spec == "reference_driver:ReferenceDriver"
    assert loaded.describe() == "reference_driver:ReferenceDriver"


def test_dotted_attribute() -> None:
    loaded = load_driver("reference_driver:device.ReferenceDriver")
    assert isinstance(loaded.device, ReferenceDriver)


def test_error_names_the_spec() -> None:
    with pytest.raises(DriverLoadError, match=r"^--driver=nope:X: cannot import module 'nope'"):
        load_driver("nope:X")


def test_command_lists_registered(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert "reference\treference_driver:ReferenceDriver" in capsys.readouterr().out.splitlines()


def test_command_checks_a_driver(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check", "reference"]) == 0
    assert capsys.readouterr().out == "reference: HAL 1.2, ReferenceDriver\n"


def test_command_reports_a_bad_driver(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check", "unknown_thing"]) == 2
    assert capsys.readouterr().err == (
        "error: --driver=unknown_thing: no driver is registered under that name "
        "(registered: reference); give module:Factory for an unregistered driver\n"
    )


def test_rules_command_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from hal.validation import RULES
    from hal.validation import main as rules_main

    assert rules_main() == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(RULES)
    first = {line.split()[0]: line.split()[1:3] for line in lines}
    assert first["operand.scale"] == ["parity", "model"]
    assert first["operation.order"] == ["strict", "model"]
    assert first["request.input_length"] == ["strict", "request"]
