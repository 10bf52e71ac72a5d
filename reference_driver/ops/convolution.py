"""The reference driver's convolution operations (filled by the [ops-nn] issue)."""

from __future__ import annotations

IMPLEMENTATIONS: tuple = ()
