"""GENERATE_PROPOSALS, DETECTION_POSTPROCESSING and HEATMAP_MAX_KEYPOINT (being implemented)."""

from __future__ import annotations

from reference_driver.ops.base import OperationImpl

IMPLEMENTATIONS: list[OperationImpl] = []
