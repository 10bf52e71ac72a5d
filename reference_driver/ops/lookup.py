"""EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, LSH_PROJECTION and RANDOM_MULTINOMIAL (being implemented)."""

from __future__ import annotations

from reference_driver.ops.base import OperationImpl

IMPLEMENTATIONS: list[OperationImpl] = []
