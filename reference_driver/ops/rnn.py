"""RNN, UNIDIRECTIONAL/BIDIRECTIONAL_SEQUENCE_RNN, SVDF and QUANTIZED_16BIT_LSTM (being implemented)."""

from __future__ import annotations

from reference_driver.ops.base import OperationImpl

IMPLEMENTATIONS: list[OperationImpl] = []
