"""Invalid parameter values of the conversion operations."""

from __future__ import annotations

from conformance.invalid import InvalidCase

CASES: list[InvalidCase] = []
