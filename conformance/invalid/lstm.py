"""Invalid parameter values for LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM."""

from __future__ import annotations

from conformance.invalid import InvalidCase

CASES: list[InvalidCase] = []
