"""The suite's items: the id that names a generated case, and how an item ended.

**Case ids.** A generated item is named ``V1_2/conv2d_v1_2/nchw_quant8/ex0/sync-timed``:
the spec's HAL folder, the spec, the rest of the NNAPI test name (``base`` when the
test is named after the spec alone), the example and the run (an execution path with
its modifiers, ``scattered``, ``constpool``, a pool variant, ``fresh``). A run of the
case as a whole, which names no example, follows the case directly
(``V1_2/add_v1_2/base/prepare_model_1_2-LOW_POWER``). ``CaseId`` builds and parses
that form; the first three parts alone (``V1_2/conv2d_v1_2/nchw_quant8``) name the case
itself, as the validation tests use it.

**Items.** ``Item`` is the one record the parametrized tests of generated cases (the
generated, prepare, fresh-input and memory-pool tests) and the parameter-space tests are
collected from: its id is the text of its ``CaseId`` (or, for an item of no generated
case, its own name), and the same id is what the node id holds in brackets, what a
rerun line selects and what the certification report parses back with ``CaseId.parse``.

**Endings.** A test that ends other than by passing or by a plain failure says so
through ``fail(..., kind=...)`` or ``unsupported(...)``: they raise pytest's own
failure and skip exceptions (so the terminal shows exactly the message), carrying
their facts in the attribute ``FACTS_ATTRIBUTE``: the outcome kind and, for a
comparison, its metrics. The certification report reads those facts, never the
message's words, so rewording a message cannot change a report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypeVar

import pytest

if TYPE_CHECKING:
    from conformance.harness.cases import GeneratedTest

FAILED = "failed"
TIMEOUT = "timeout"
BLOCKED = "blocked"
UNSUPPORTED = "unsupported"
KINDS = (FAILED, TIMEOUT, BLOCKED, UNSUPPORTED)
"""The outcome kinds a test declares itself (crash is the plugin's, from the driver guard)."""
FACTS_ATTRIBUTE = "nnhal_facts"
"""The attribute of a raised failure or skip holding its facts: ``{"kind": ..., "metrics": ...}``."""


def fail(message: str, *, kind: str = FAILED, metrics: dict[str, Any] | None = None) -> NoReturn:
    """Fail the test with ``message`` (no traceback), as an outcome of ``kind``."""
    __tracebackhide__ = True  # pytest shows the caller's line, as for its own skip
    if kind not in KINDS or kind == UNSUPPORTED:
        raise ValueError(f"kind={kind!r}: a failure is one of {FAILED}, {TIMEOUT}, {BLOCKED}")
    facts: dict[str, Any] = {"kind": kind}
    if metrics is not None:
        facts["metrics"] = metrics
    raise _with_facts(pytest.fail.Exception(message, pytrace=False), facts)


def timeout(message: str) -> NoReturn:
    """Fail the test: the driver did not answer within the run's timeout."""
    __tracebackhide__ = True  # pytest shows the caller's line, as for its own skip
    fail(message, kind=TIMEOUT)


CASES_PROPERTY = "nnhal_cases"
"""User property of an item that draws its cases (parameter-space, random graphs): how
many it drew, ran and had declined, in words; the report gives it as a passed item's
reason, so "passed" says how much was run."""


@dataclass
class Drawn:
    """How many cases an item that draws them drew, ran and had declined by the driver."""

    what: str
    """The cases' name, plural: ``"ADD cases"``, ``"graphs"``."""
    drawn: int = 0
    ran: int = 0
    declined: int = 0

    def describe(self) -> str:
        return (
            f"ran {self.ran} of the {self.drawn} {self.what} drawn "
            f"({self.declined} declined by the driver)"
        )

    def record(self, node: Any) -> None:
        """Note the counts on ``node`` (the pytest item): the report's entry reads them."""
        node.user_properties.append((CASES_PROPERTY, self.describe()))

    def conclude(self, node: Any) -> None:
        """Record the counts; an item whose driver ran none of its cases is unsupported."""
        __tracebackhide__ = True
        self.record(node)
        if not self.ran:
            unsupported(f"unsupported: the driver supported none of the {self.what} drawn")


def unsupported(reason: str) -> NoReturn:
    """Skip the test: the driver declined what it needs (a legal answer, not a failure)."""
    __tracebackhide__ = True  # pytest shows the caller's line, as for its own skip
    raise _with_facts(pytest.skip.Exception(reason), {"kind": UNSUPPORTED})


def skip_as(skip: pytest.skip.Exception) -> NoReturn:
    """Skip as an earlier skip did (a cached outcome): its reason and its facts."""
    __tracebackhide__ = True  # pytest shows the caller's line, as for its own skip
    raise kept(skip)


def kept(skip: pytest.skip.Exception) -> pytest.skip.Exception:
    """A new skip with ``skip``'s reason and facts and nothing else: what a cache keeps of a
    skip for ``skip_as``. A raised exception holds its traceback, whose frames hold every
    local of the stack it was raised from (the item's models, its calls' answers, pytest's
    own frames and their exceptions); a cache of raised skips kept all that alive for each
    entry, and the garbage collector scanned it again and again."""
    return _with_facts(pytest.skip.Exception(skip.msg), facts_of(skip))


def facts_of(error: BaseException | None) -> dict[str, Any]:
    """The facts ``error`` carries (empty for an exception raised otherwise)."""
    facts = getattr(error, FACTS_ATTRIBUTE, None)
    return dict(facts) if isinstance(facts, dict) else {}


def keeping_facts(error: BaseException, cause: BaseException) -> BaseException:
    """``error`` (a failure that retells ``cause`` in other words) with ``cause``'s facts:
    a timeout or blocked item stays one when a test adds context to its message."""
    facts = facts_of(cause)
    return _with_facts(error, facts) if facts else error


def _with_facts(error: BaseException, facts: dict[str, Any]) -> BaseException:
    setattr(error, FACTS_ATTRIBUTE, facts)
    return error


# ---------------------------------------------------------------------------
# Case ids
# ---------------------------------------------------------------------------

_FOLDER = re.compile(r"^(?:[a-z0-9_.-]+:)?V1_[0-9]$")
"""A HAL folder, after a vendor pack's name for a case of that pack (``acme:V1_2``)."""
_EXAMPLE = re.compile(r"^ex(0|[1-9][0-9]*)$")
USAGE = "FOLDER/SPEC/NAME[[/exN]/RUN], e.g. V1_0/add/none/ex0/sync"


@dataclass(frozen=True)
class CaseId:
    """``V1_2/add/none/ex0/sync``: folder, spec, name, and optionally a run, of one example
    (``ex0``) or of the case as a whole (no example: ``V1_2/add/none/prepare_model_1_2``).
    A case of a vendor pack has the pack's name before its folder: ``acme:V1_2/...``."""

    folder: str
    spec: str
    name: str
    example: int | None = None
    run: str | None = None

    def __post_init__(self) -> None:
        if self.example is not None and self.run is None:
            raise ValueError(f"a case id with an example has a run too: {self!r}")

    @classmethod
    def of(cls, test: GeneratedTest, example: int | None = None, run: str | None = None) -> CaseId:
        """The id of ``test`` (with one of its examples and a run, or a run alone, if given)."""
        spec = test.test_id.split("/")[1]
        rest = test.name[len(spec) + 1 :] if test.name.startswith(spec + "_") else ""
        return cls(test.folder, spec, rest or "base", example, run)

    @classmethod
    def parse(cls, text: str) -> CaseId:
        """The id ``text`` spells; ValueError naming the expected form otherwise."""
        parts = text.split("/")
        if (
            len(parts) not in (3, 4, 5)
            or not all(parts)
            or not _FOLDER.match(parts[0])
            or (len(parts) == 4 and _EXAMPLE.match(parts[3]))  # an example without its run
            or (len(parts) == 5 and not _EXAMPLE.match(parts[3]))
        ):
            raise ValueError(f"{text!r} is not a case id: expected {USAGE}")
        if len(parts) == 3:
            return cls(*parts)
        if len(parts) == 4:
            return cls(parts[0], parts[1], parts[2], None, parts[3])
        return cls(parts[0], parts[1], parts[2], int(parts[3][2:]), parts[4])

    @property
    def case(self) -> str:
        """The case alone: ``V1_2/add/none``."""
        return f"{self.spec_id}/{self.name}"

    @property
    def spec_id(self) -> str:
        """The folder and the spec: ``V1_2/add_v1_2``."""
        return f"{self.folder}/{self.spec}"

    @property
    def pack(self) -> str:
        """The vendor pack the case comes from (``acme`` of ``acme:V1_2/...``); empty for the
        suite's own cases."""
        pack, _, _ = self.folder.rpartition(":")
        return pack

    def __str__(self) -> str:
        return self.of_run(self.example, self.run)

    def of_run(self, example: int | None, run: str | None) -> str:
        """``str`` of this case's id with ``example`` and ``run`` in place of its own, without
        making it (asked for each of 400,000 items before most are made). With ``run`` empty,
        what the id of every run of that example starts with."""
        case = f"{self.folder}/{self.spec}/{self.name}"  # self.case, without two properties
        if run is None:
            return case
        if example is None:
            return f"{case}/{run}"
        return f"{case}/ex{example}/{run}"


# ---------------------------------------------------------------------------
# Items
# ---------------------------------------------------------------------------

P = TypeVar("P")


@dataclass(frozen=True)
class Item(Generic[P]):
    """One item of a parametrized test of the suite: what it is called and what it runs.

    An item of a generated case is named by ``case``, and its id is that ``CaseId``'s
    text: the example it runs is ``case.example`` (None: a run of the case as a whole,
    which uses example 0), the run ``case.run``. An item of no generated case (a
    parameter-space item) has ``name`` instead (``conv2d/CONV_2D``); exactly one of the
    two is given. ``runs`` holds what the test needs beyond the id (an execution plan, a
    pool variant, a prepare method and preference, a family and operation); ``test`` is
    the generated case (None for none), ``marks`` the item's pytest marks, ``computes``
    whether it compares output values (None: the test does not say; the report reads it),
    and ``operations`` the operations an item of no generated case exercises (a generated
    case's are in its marks).
    """

    runs: P
    case: CaseId | None = None
    name: str | None = None
    test: GeneratedTest | None = None
    marks: tuple[Any, ...] = ()
    computes: bool | None = None
    operations: tuple[str, ...] = ()
    id: str = field(init=False, repr=False, compare=False)
    """The parameter id: ``str(case)``, or ``name``."""

    def __post_init__(self) -> None:
        if (self.case is None) == (self.name is None):
            raise ValueError(f"an item has a case id or a name, and not both: {self!r}")
        object.__setattr__(self, "id", self.name if self.case is None else str(self.case))

    @property
    def example(self) -> int:
        """The example the item runs (0 for a run of the whole case, or an item of no case)."""
        return 0 if self.case is None or self.case.example is None else self.case.example

    def param(self) -> Any:
        """The item as ``pytest.param``: itself as the one value, its id and its marks."""
        return pytest.param(self, id=self.id, marks=list(self.marks))

    @property
    def values(self) -> tuple[Item[P]]:
        """Itself as the one value: with ``id`` and ``marks``, what ``marks.cases`` reads
        of a ``pytest.param``, so an item is listed as it is (making a ``pytest.param``
        for each of 400,000 items was a tenth of a collection)."""
        return (self,)

    def selector(self, function: str) -> str:
        """``function[id]``: how a node id, and so a rerun line, names the item."""
        return f"{function}[{self.id}]"
