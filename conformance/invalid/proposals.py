"""Invalid parameter values for GENERATE_PROPOSALS, DETECTION_POSTPROCESSING and HEATMAP_MAX_KEYPOINT."""

from __future__ import annotations

from conformance.invalid import InvalidCase

CASES: list[InvalidCase] = []
