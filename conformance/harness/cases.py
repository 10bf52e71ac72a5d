"""What a generated test case is: a model, its examples, and where it came from.

The generator builds these from spec files and writes them out as modules
under ``conformance/generated/``; those modules rebuild them through
``conformance.harness.generated`` when the suite imports them. Both sides
share these records, so a round trip (build, emit, import) gives back equal
objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hal.levels import folder_level
from hal.types import HalVersion, Model

LIFETIME_LEVEL = "V1_3"
"""The level of a case of Android 11's automatic lifetime variations, whatever its folder:
VTS 1.3 runs them; a driver tested at HAL 1.0-1.2 never meets them."""
LIFETIME_WORDS = ("inputs_as_internal", "all_tensors_as_inputs")
"""What VTS 1.3's validation tests look for in a test's name to leave it out."""


@dataclass(frozen=True)
class Provenance:
    """Where a case comes from, for failure messages and the report."""

    spec: str
    """Repository-relative path of the spec file, e.g. ``conformance/specs/V1_2/add.mod.py``."""
    line: int
    """Line of the ``Example(...)`` call that made the case."""
    variations: tuple[str, ...] = ()
    """Names of the variations applied, in group order ("" for an unnamed default)."""
    operations: tuple[str, ...] = ()
    """Operation type names the case is about, in operation order: the model's, but for
    the ADDs a lifetime variation chains to its inputs or outputs."""


@dataclass
class Feed:
    """One set of inputs with the outputs expected for them.

    Arrays are typed with the operand's numpy dtype (``hal.types.numpy_dtype``)
    and shaped with the real dimensions. An input of zero elements is an
    omitted optional input (the spec idiom ``"{0}"`` with ``[]``). Outputs
    listed in ``GeneratedTest.ignored_outputs`` hold zeros.
    """

    inputs: list[np.ndarray]
    outputs: list[np.ndarray]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Feed):
            return NotImplemented
        return _arrays_equal(self.inputs, other.inputs) and _arrays_equal(
            self.outputs, other.outputs
        )


def _arrays_equal(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return len(a) == len(b) and all(
        x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()
        for x, y in zip(a, b, strict=True)
    )


@dataclass
class GeneratedTest:
    """One test the NNAPI generator would emit (its static form).

    ``name`` is the name that generator gives the test; ``dynamic_name`` the
    name of its dynamic-output-shape twin, which the harness builds at run time
    instead of the generator emitting it.
    """

    name: str
    dynamic_name: str
    hal_folder: str
    """``V1_0``, ``V1_1`` or ``V1_2``: the spec's folder."""
    model: Model
    feeds: list[Feed]
    ignored_outputs: frozenset[int] = frozenset()
    """Model output positions whose values are never compared."""
    version: str | None = None
    """The version the spec declares for the test (folder, ``IntroducedIn``,
    ``SetVersion``), or None where that generator emits none (relaxed models)."""
    multinomial_tolerance: float | None = None
    provenance: Provenance = field(default_factory=lambda: Provenance("", 0))
    pack: str = ""
    """The vendor test pack the case comes from (``--nnhal-specs``); empty for the suite's
    own cases."""
    level: str = ""
    """The spec folder of the HAL level the suite runs the case from, when it is above the
    case's own folder (``V1_3`` for Android 11's lifetime variations of a V1_0-V1_2 spec,
    ``LIFETIME_LEVEL``); empty: the folder's level."""
    expect_failure: bool = False
    """``Example(...).ExpectFailure()``: a structurally valid model whose execution must
    fail. The positive suites leave it out; ``test_expect_failure`` judges it."""

    @property
    def lifetime_variation(self) -> bool:
        """Whether the case is one VTS 1.3's validation tests leave out: its name holds
        ``inputs_as_internal`` or ``all_tensors_as_inputs`` (Android 11's lifetime
        variations)."""
        return any(word in self.name for word in LIFETIME_WORDS)

    @property
    def case_level(self) -> HalVersion:
        """The lowest HAL level whose suite runs the case: its folder's, or ``level``'s."""
        folder = folder_level(self.hal_folder)
        return max(folder, folder_level(self.level)) if self.level else folder

    @property
    def folder(self) -> str:
        """``V1_2``, or ``acme:V1_2`` for a case of vendor pack ``acme``."""
        return f"{self.pack}:{self.hal_folder}" if self.pack else self.hal_folder

    @property
    def test_id(self) -> str:
        """``V1_2/add/add_relaxed``: folder (with its pack) / spec name / test name."""
        spec = self.provenance.spec.rsplit("/", 1)[-1].split(".", 1)[0]
        return f"{self.folder}/{spec}/{self.name}"
