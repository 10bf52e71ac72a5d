"""LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM (being implemented)."""

from __future__ import annotations

from reference_driver.ops.base import OperationImpl

IMPLEMENTATIONS: list[OperationImpl] = []
