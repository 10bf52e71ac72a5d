"""The reference driver's pooling operations (filled by the [ops-nn] issue)."""

from __future__ import annotations

IMPLEMENTATIONS: tuple = ()
