"""Drivers with one compilation-caching fault each, built on the reference driver.

tests/suite/test_caching_suite.py runs conformance/test_caching.py against them in a
pytest subprocess (this file copied beside the run), as a vendor would.
"""

from __future__ import annotations

import hashlib

from hal.types import ErrorStatus
from reference_driver import ReferenceDriver
from reference_driver.cache import open_sealed
from reference_driver.prepared_model import ReferencePreparedModel


def Uncached() -> ReferenceDriver:
    """Declares no caching support (correct behaviour, just a partial driver)."""
    return ReferenceDriver(caching=False)


class Trusting(ReferenceDriver):
    """Parses whatever model cache it is given without authenticating it."""

    authenticate_cache = False

    def _open_cache(self, token, model_bytes, data_bytes):
        return open_sealed(self._cache_key, token, model_bytes, data_bytes, authenticate=False)


class _SavesNothing(ReferencePreparedModel):
    def save_to_cache(self, model_cache, data_cache, token):
        return ErrorStatus.NONE


class LazySave(ReferenceDriver):
    """Answers NONE from save_to_cache without writing anything."""

    prepared_model_class = _SavesNothing


class RemembersCaches(ReferenceDriver):
    """Remembers each model it prepared from cache by the two files' contents, and answers
    a later preparation from the same contents with it before checking the token."""

    authenticate_cache = False

    def __init__(self) -> None:
        super().__init__()
        self._compiled: dict[bytes, object] = {}

    def _open_cache(self, token, model_bytes, data_bytes):
        key = hashlib.sha256(model_bytes + b"\0" + data_bytes).digest()
        if key not in self._compiled:
            self._compiled[key] = open_sealed(self._cache_key, token, model_bytes, data_bytes)
        return self._compiled[key]
