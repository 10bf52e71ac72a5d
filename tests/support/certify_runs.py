"""``nnhal-certify`` run as a vendor runs it, for the tests of the command and of attacks
on its certificate."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

FAULTY = Path(__file__).resolve().parent / "faulty_drivers.py"
HOSTILE = Path(__file__).resolve().parent / "hostile_drivers.py"
CERTIFY = Path(sys.executable).with_name("nnhal-certify")
RUN_TIMEOUT = 600


def run_certify(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [str(CERTIFY), *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )


def run_pytest(
    folder: Path, *args: str, plugin: tuple[str, str] | None = None
) -> subprocess.CompletedProcess:
    """``python -m pytest -p no:cacheprovider ARGS`` in ``folder``. With ``plugin`` (a
    module name and its source), that module is written into ``folder`` and loaded with
    ``-p`` (``folder`` goes on the import path)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    loaded: list[str] = []
    if plugin is not None:
        name, source = plugin
        (folder / f"{name}.py").write_text(source)
        loaded = ["-p", name]
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), env.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *loaded, *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
