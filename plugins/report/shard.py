"""``--shard K/N``: which tests a shard keeps (its own module: the collection and the report
plugin both read it, and neither imports the other for it)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Shard:
    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``2/3`` -> Shard(2, 3); ValueError with the usage message otherwise."""
        index, sep, count = text.partition("/")
        try:
            shard = cls(int(index), int(count))
        except ValueError:
            shard = None
        if not sep or shard is None or not 1 <= shard.index <= shard.count:
            raise ValueError(f"--shard={text}: expected K/N with 1 <= K <= N, e.g. --shard=2/3")
        return shard

    def keeps(self, identifier: str) -> bool:
        """Whether a test belongs to this shard: a hash of its id (``shard_key``), the same
        on every machine."""
        key = shard_key(identifier)
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1


_EXAMPLE = re.compile(r"/ex\d+/")
"""The example segment of a generated item's id (``V1_2/add/none/ex0/sync``)."""


def shard_key(identifier: str) -> str:
    """What a test's shard is a hash of: its id, but for an item of one example of a
    generated case (an id with an ``/exN/`` segment) the id up to that segment, so every
    example and run of one case of one test function fall in one shard. A process
    prepares a case once for all of them (``conformance.harness.prepared``); split by
    their whole ids, every shard prepared nearly every case again."""
    found = _EXAMPLE.search(identifier)
    return identifier if found is None else identifier[: found.start()]
