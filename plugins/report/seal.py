"""Seals on shard reports: a report a driver changed after its test process wrote it is
refused at the merge.

``nnhal-certify`` makes a fresh key for every run and hands it to its test
processes in the environment variable ``NNHAL_REPORT_KEY``. The plugin takes
the key out of its environment as it configures (``take_key``: before any
driver service or pytest-xdist worker is started, so neither inherits it; the
driver service's environment is a list of its own anyway), and after writing
``report.json`` writes ``report.seal`` beside it: an HMAC-SHA256 of the file's
exact bytes under the key. The merge checks every shard's seal before reading
it (``check``). The driver never holds the key, so it cannot make a seal for a
report it changed, nor for one it made up.

``nnhal-report merge`` checks seals when given the run's key (``--key-file``
or ``NNHAL_REPORT_KEY``: a CI secret shared by the shard jobs and the merge
job); without one, the merged report says it is not tamper-proof.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

import pytest

KEY_VARIABLE = "NNHAL_REPORT_KEY"
"""The environment variable that hands a run's key to its test processes."""
SEAL_FILE = "report.seal"
"""The seal's file, beside report.json."""
ALGORITHM = "hmac-sha256"
RUN_KEY = pytest.StashKey["bytes | None"]()
"""Where a pytest run keeps the key it took (``take_key``)."""


def new_key() -> str:
    """A fresh key for one run."""
    return secrets.token_hex(32)


def take_key() -> bytes | None:
    """The run's key, removed from this process's environment (None if there is none)."""
    key = os.environ.pop(KEY_VARIABLE, None)
    return key.encode() if key else None


def _mac(data: bytes, key: bytes) -> str:
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def write_seal(folder: Path, key: bytes, data: bytes | None = None) -> Path:
    """Seal ``folder``/report.json: ``data``, the bytes written to it (never read back, so
    that a rewrite between the writing and the sealing is caught too), else the file as
    it is now."""
    folder = Path(folder)
    if data is None:
        data = (folder / "report.json").read_bytes()
    path = folder / SEAL_FILE
    path.write_text(f"{ALGORITHM} {_mac(data, key)}\n", encoding="ascii")
    return path


def check(report: Path, key: bytes) -> str | None:
    """Why ``report`` (a report.json) does not carry the run's seal, or None when it does."""
    report = Path(report)
    seal = report.with_name(SEAL_FILE)
    try:
        data = report.read_bytes()
        text = seal.read_text(encoding="ascii", errors="replace")
    except OSError as e:
        return f"{e.filename}: cannot read: {e.strerror}"
    algorithm, _, mac = text.strip().partition(" ")
    if algorithm != ALGORITHM or not hmac.compare_digest(mac, _mac(data, key)):
        return (
            f"{report} does not match its seal {seal.name}: it was changed after its test "
            "process wrote it, or written by something without the run's key"
        )
    return None
