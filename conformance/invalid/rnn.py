"""Invalid parameter values for RNN, UNIDIRECTIONAL/BIDIRECTIONAL_SEQUENCE_RNN, SVDF and QUANTIZED_16BIT_LSTM."""

from __future__ import annotations

from conformance.invalid import InvalidCase

CASES: list[InvalidCase] = []
