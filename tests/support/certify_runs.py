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
