"""The reference driver's unary operations (filled by the [ops-core] issue)."""

from __future__ import annotations

IMPLEMENTATIONS: tuple = ()
