"""The reference driver's reduction operations (filled by the [ops-core] issue)."""

from __future__ import annotations

IMPLEMENTATIONS: tuple = ()
