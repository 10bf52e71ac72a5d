"""Catalog data for operations 48-94 (EQUAL ... RESIZE_NEAREST_NEIGHBOR).

Source: ../shared/ops/ops-48-94.md and vts-catalog.md section 4.3. Each
entry lists every accepted form with its first HAL version.
"""

from __future__ import annotations

from hal.types import OperationType as Op  # noqa: F401

ENTRIES: dict = {}
