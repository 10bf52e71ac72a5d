"""The harness as a vendor gets it: a wheel built from this checkout in isolation, installed
into a fresh virtual environment, run from an empty folder.

An editable install sees every file of the checkout, so it hides a file the wheel
leaves out; this test does not. It builds the wheel (``pip wheel``, build isolation:
the build backend from the package index), checks that the wheel holds every file of
the packages that git tracks and that the build warned of nothing deprecated, installs
it with its dependencies into a new venv, and there, from an empty folder, runs the
smoke sample of every category (``--nnhal-smoke``: two cases of each test function)
with a vendor pack, and ``nnhal-generate --parameters`` (the parameter-space families). The installed run must pass and
run the same tests, category by category, as the same sample run from this checkout.
``nnhal-example`` of the same venv writes the example driver into an empty folder, and it
loads there.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("hal", "reference_driver", "generator", "conformance", "plugins", "isolation")
CATEGORIES = {
    "basic",
    "generated",
    "validation-model",
    "validation-request",
    "memory-pools",
    "memory-domains",
    "burst",
    "caching",
    "corners",
    "fuzz",
    "invalid-values",
}
TIMEOUT = 900


def _run(command: list[str], cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHONPATH"))
    }
    return subprocess.run(
        command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=TIMEOUT, **kwargs
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> tuple[Path, str]:
    """The checkout built as a wheel. Two builds of one source folder at once break each
    other (setuptools' build folders), so under xdist the first worker to get here builds
    for the run (its uid names the folder) and the others wait and use that wheel."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        return _build_wheel(tmp_path_factory.mktemp("wheel"))
    folder = tmp_path_factory.getbasetemp().parent / f"wheel-{run}"
    with open(tmp_path_factory.getbasetemp().parent / f"wheel-{run}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "build.log").exists():
            folder.mkdir(exist_ok=True)
            path, log = _build_wheel(folder)
            (folder / "build.log").write_text(log)
        (path,) = folder.glob("*.whl")
        return path, (folder / "build.log").read_text()


def _build_wheel(folder: Path) -> tuple[Path, str]:
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(folder), str(ROOT)],
        cwd=folder,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (path,) = folder.glob("*.whl")
    return path, built.stdout + built.stderr


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("venv")
    made = _run([sys.executable, "-m", "venv", str(folder)], cwd=folder)
    assert made.returncode == 0, made.stderr
    python = folder / "bin" / "python"
    installed = _run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            str(wheel[0]),
        ],
        cwd=folder,
    )
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    return folder


def _tracked_package_files() -> set[str]:
    listed = subprocess.run(
        ["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return {name for name in listed if "__pycache__" not in name}


def test_the_wheel_holds_every_file_of_the_packages(wheel) -> None:
    """Every file git tracks under a package folder ships: modules, generated modules,
    specs, oracle scripts, templates, the report's schema; and the licence."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = set(zipfile.ZipFile(wheel[0]).namelist())
    missing = sorted(_tracked_package_files() - names)
    assert missing == [], f"files the wheel leaves out: {missing[:20]}"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


def test_the_build_warns_of_nothing_deprecated(wheel) -> None:
    output = wheel[1]
    for word in ("Deprecat", "is absent from the `packages` configuration", "License classifiers"):
        assert word not in output, [line for line in output.splitlines() if word in line][:5]


def _smoke(python: Path, cwd: Path, pack: Path) -> subprocess.CompletedProcess:
    return _run(
        [
            str(python),
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--pyargs",
            "conformance",
            "--driver=reference",
            "--nnhal-profile=ci",
            "--nnhal-smoke",
            f"--nnhal-specs={pack}",
            "--cert-report=report",
            "-q",
        ],
        cwd=cwd,
    )


def _categories(folder: Path) -> Counter:
    from plugins.report.document import load

    return Counter(t["category"] for t in load(folder / "report" / "report.json")["tests"])


def test_an_installed_harness_certifies_from_an_empty_folder(venv, tmp_path: Path) -> None:
    pack = tmp_path / "acme"
    (pack / "V1_0").mkdir(parents=True)
    shutil.copy(ROOT / "conformance" / "specs" / "V1_0" / "add.mod.py", pack / "V1_0")
    empty = tmp_path / "empty"
    empty.mkdir()
    environment_cache = {"NNHAL_CACHE_DIR": str(tmp_path / "cache")}
    os.environ.update(environment_cache)
    try:
        installed = _smoke(venv / "bin" / "python", empty, pack)
        assert installed.returncode == 0, installed.stdout[-4000:] + installed.stderr[-2000:]
        here = tmp_path / "checkout-run"
        here.mkdir()
        editable = _smoke(Path(sys.executable), here, pack)
        assert editable.returncode == 0, editable.stdout[-4000:] + editable.stderr[-2000:]
    finally:
        for name in environment_cache:
            os.environ.pop(name, None)
    counts = _categories(empty)
    assert set(counts) >= CATEGORIES, sorted(CATEGORIES - set(counts))
    assert counts == _categories(here)
    corners = _run([str(venv / "bin" / "nnhal-generate"), "--parameters"], cwd=empty)
    assert corners.returncode == 0, corners.stdout[-2000:] + corners.stderr[-2000:]


def _collected(python: Path, cwd: Path) -> list[str]:
    run = _run(
        [
            str(python),
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--collect-only",
            "-q",
            "--pyargs",
            "conformance",
            "--driver=reference",
            "--nnhal-profile=ci",
        ],
        cwd=cwd,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    return sorted(line for line in run.stdout.splitlines() if "::" in line)


def test_an_installed_harness_collects_every_test_the_checkout_does(venv, tmp_path: Path) -> None:
    """The whole suite, not a sample: the same node ids installed as from this checkout."""
    empty, here = tmp_path / "empty", tmp_path / "here"
    empty.mkdir()
    here.mkdir()
    installed = _collected(venv / "bin" / "python", empty)
    checkout = _collected(Path(sys.executable), here)
    assert len(installed) > 10_000
    missing = sorted(set(checkout) - set(installed))
    assert missing == [], f"{len(missing)} tests the installed harness lacks: {missing[:10]}"
    assert installed == checkout


def test_the_installed_example_command_writes_a_driver_that_loads(venv, tmp_path: Path) -> None:
    """What docs/writing-a-driver.md tells a vendor with only the wheel: ``nnhal-example`` in
    an empty folder, then ``nnhal-drivers --check my_driver:Factory`` there."""
    empty = tmp_path / "empty"
    empty.mkdir()
    written = _run([str(venv / "bin" / "nnhal-example")], cwd=empty)
    assert written.returncode == 0, written.stdout + written.stderr
    assert written.stdout.splitlines()[0] == "wrote my_driver.py"
    assert "  nnhal-certify --driver my_driver:Factory" in written.stdout.splitlines()
    assert sorted(p.name for p in empty.iterdir()) == ["my_driver.py"]
    assert (empty / "my_driver.py").read_bytes() == (
        ROOT / "plugins" / "example" / "files" / "my_driver.py"
    ).read_bytes()
    checked = _run([str(venv / "bin" / "nnhal-drivers"), "--check", "my_driver:Factory"], cwd=empty)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout == "my_driver:Factory: HAL 1.2, Factory\n"
