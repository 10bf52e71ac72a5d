"""Invalid parameter values for EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, LSH_PROJECTION and RANDOM_MULTINOMIAL."""

from __future__ import annotations

from conformance.invalid import InvalidCase

CASES: list[InvalidCase] = []
