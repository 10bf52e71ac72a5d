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
    assert (loaded.spec, loaded.level, loaded.is_default) == ("reference", HalVersion.V1_3, True)
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
    assert capsys.readouterr().out == "reference: HAL 1.3, ReferenceDriver\n"


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


# ---------------------------------------------------------------------------
# A driver module in the current folder (as ``python -m pytest`` would find it)
# ---------------------------------------------------------------------------

MINIMAL_DRIVER = """
from reference_driver import ReferenceDriver as Factory
"""


def _clean_env() -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.pop("PYTHONPATH", None)
    return env


def test_a_module_in_the_current_folder_loads(tmp_path, monkeypatch) -> None:
    (tmp_path / "cwd_driver_probe.py").write_text(MINIMAL_DRIVER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", [p for p in __import__("sys").path if p not in ("", ".")])
    monkeypatch.delitem(__import__("sys").modules, "cwd_driver_probe", raising=False)
    loaded = load_driver("cwd_driver_probe:Factory")
    assert isinstance(loaded.device, ReferenceDriver)


def test_a_module_found_nowhere_names_the_folder_searched(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DriverLoadError) as error:
        load_driver("no_such_driver_here:Factory")
    assert str(error.value) == (
        "--driver=no_such_driver_here:Factory: cannot import module 'no_such_driver_here': "
        f"no no_such_driver_here.py or no_such_driver_here/ in the current folder ({tmp_path}) "
        "or on the Python path; run from the folder that holds it or add that folder to "
        "PYTHONPATH"
    )


def test_a_module_whose_own_import_fails_says_what_it_lacks(tmp_path, monkeypatch) -> None:
    (tmp_path / "needs_missing_dep.py").write_text("import not_installed_anywhere_xyz\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(__import__("sys").modules, "needs_missing_dep", raising=False)
    with pytest.raises(DriverLoadError) as error:
        load_driver("needs_missing_dep:Factory")
    assert str(error.value) == (
        "--driver=needs_missing_dep:Factory: cannot import module 'needs_missing_dep': "
        "ModuleNotFoundError: No module named 'not_installed_anywhere_xyz'"
    )


def test_console_scripts_load_a_driver_from_the_current_folder(tmp_path) -> None:
    """From a folder holding only my_driver.py: nnhal-drivers --check and pytest --pyargs
    (the console script, whose path does not hold the current folder) both load it."""
    import subprocess
    import sys
    from pathlib import Path

    bin_dir = Path(sys.executable).parent
    (tmp_path / "my_driver.py").write_text(MINIMAL_DRIVER)
    check = subprocess.run(
        [str(bin_dir / "nnhal-drivers"), "--check", "my_driver:Factory"],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (check.returncode, check.stdout) == (0, "my_driver:Factory: HAL 1.3, ReferenceDriver\n")
    run = subprocess.run(
        [
            str(bin_dir / "pytest"),
            "--pyargs",
            "conformance.test_basic",
            "-p",
            "no:cacheprovider",
            "--driver=my_driver:Factory",
            "-q",
            "-k",
            "test_status",
        ],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert " passed" in run.stdout.splitlines()[-1]
