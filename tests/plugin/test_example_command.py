"""``nnhal-example`` (plugins/example/cli.py): the example driver written out of the installed
package, never over an existing file, and loadable the way docs/writing-a-driver.md says."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from plugins.example.cli import main

DRIVERS = Path(sys.executable).with_name("nnhal-drivers")
SOURCE = resources.files("plugins.example") / "files" / "my_driver.py"
REFUSAL = (
    "nnhal-example: {} exists already; nothing was written "
    "(remove it, or give another folder: nnhal-example DIR)\n"
)


def test_it_writes_the_driver_into_the_current_folder_and_says_how_to_certify_it(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines() == [
        "wrote my_driver.py",
        "check that it loads, then certify it (about 5 minutes on two cores):",
        "  nnhal-drivers --check my_driver:Factory",
        "  nnhal-certify --driver my_driver:Factory",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my_driver.py"]
    assert (tmp_path / "my_driver.py").read_text() == SOURCE.read_text()


def test_it_writes_into_a_folder_it_is_given_making_it_if_missing(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["my vendor/driver"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines() == [
        "wrote my vendor/driver/my_driver.py",
        "check that it loads, then certify it (about 5 minutes on two cores):",
        "  cd 'my vendor/driver' && nnhal-drivers --check my_driver:Factory",
        "  cd 'my vendor/driver' && nnhal-certify --driver my_driver:Factory",
    ]
    assert (tmp_path / "my vendor" / "driver" / "my_driver.py").read_text() == SOURCE.read_text()


@pytest.mark.parametrize("folder", [None, "vendor"])
def test_it_never_overwrites_a_file(tmp_path: Path, monkeypatch, capsys, folder) -> None:
    monkeypatch.chdir(tmp_path)
    where = tmp_path / (folder or "")
    where.mkdir(exist_ok=True)
    (where / "my_driver.py").write_text("mine\n")
    assert main([folder] if folder else []) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == REFUSAL.format("vendor/my_driver.py" if folder else "my_driver.py")
    assert (where / "my_driver.py").read_text() == "mine\n"


def test_it_refuses_a_folder_that_is_a_file_or_cannot_be_made(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plain").write_text("")
    assert main(["plain"]) == 2
    assert capsys.readouterr().err == (
        "nnhal-example: plain exists and is not a folder; nothing was written\n"
    )
    assert main(["plain/driver"]) == 2
    assert capsys.readouterr().err == (
        "nnhal-example: cannot make the folder plain/driver: Not a directory; nothing was written\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]


def test_the_written_driver_loads_as_the_docs_say(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["vendor"]) == 0
    checked = subprocess.run(
        [str(DRIVERS), "--check", "my_driver:Factory"],
        cwd=tmp_path / "vendor",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout == "my_driver:Factory: HAL 1.2, Factory\n"


def test_a_file_it_cannot_write_is_named_and_nothing_is_left(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    import errno

    from plugins.example import cli

    def refused(path, mode, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open", refused, raising=False)
    assert main(["vendor"]) == 2
    assert capsys.readouterr().err == (
        "nnhal-example: cannot write vendor/my_driver.py: Permission denied; nothing was written\n"
    )
    assert list((tmp_path / "vendor").iterdir()) == []
