"""AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT, ROI_ALIGN and ROI_POOLING (being implemented)."""

from __future__ import annotations

from reference_driver.ops.base import OperationImpl

IMPLEMENTATIONS: list[OperationImpl] = []
