"""The project's tests, grouped by what they test (docs/developing.md). The driver
libraries and helpers several groups share live in ``tests/support/``; it is put on
``sys.path`` here, before any test module is imported, so ``import faulty_drivers`` and
``--driver=faulty_drivers:Name`` work from every group."""

import sys
from pathlib import Path

SUPPORT = Path(__file__).resolve().parent / "support"
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))
