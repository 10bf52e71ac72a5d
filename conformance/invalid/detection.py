"""Invalid parameter values for AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT, ROI_ALIGN and ROI_POOLING."""

from __future__ import annotations

from conformance.invalid import InvalidCase

CASES: list[InvalidCase] = []
