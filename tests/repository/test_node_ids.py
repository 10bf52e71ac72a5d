"""A driver tested at HAL 1.2 collects exactly the node ids it always did.

Adding HAL 1.3 added tests (its paths, fences, deadlines, calls) that a 1.2 driver
must not see: they are marked with their level and not built below it. This pins the
whole list a full-profile run collects at 1.2 (151,589 ids, the list of the harness
before 1.3 came) by its count and digest: a change to any 1.0-1.2 id, or a test of a
later level leaking into a 1.2 run, fails here. Changing the 1.2 suite on purpose
means updating both figures, and saying why in the commit.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

COUNT_1_2 = 151_589
DIGEST_1_2 = "1bda2d88fbe29a40c0a2847273d8a1d7e2b59122f714b90ba5f645f869b394f6"
"""sha256 of the sorted node ids, joined by newlines."""


def _collected(folder: Path, *options: str) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--collect-only",
        "-q",
        "--pyargs",
        "conformance",
        "--nnhal-profile=full",
        "--nnhal-seed=1",
        *options,
    ]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return sorted(line for line in done.stdout.splitlines() if "::" in line)


def test_a_driver_tested_at_1_2_collects_the_1_2_node_ids(tmp_path: Path) -> None:
    ids = _collected(tmp_path, "--hal-version=1.2")
    digest = hashlib.sha256("\n".join(ids).encode()).hexdigest()
    assert (len(ids), digest) == (COUNT_1_2, DIGEST_1_2)
