"""Specs to generated modules: what ``nnhal-generate`` does, as functions.

The command line (``generator/__main__.py``) parses its arguments and calls
these; ``generator.packs`` calls the same ones to generate a vendor's pack.

* Finding specs: ``find_root`` and ``installed_root`` (where the specs and the
  generated tree are), ``discover_specs`` and ``spec_file`` (a ``Spec`` for
  each ``*.mod.py``), ``check_distinct_modules``.
* Evaluating them: ``spec_interpreter`` (``generator.expand``, imported only
  when a mode needs it), ``run_specs`` (an ``Outcome`` per spec, with a
  ``Progress`` line each); a spec that fails is one line and the others go on.
* The generated tree: ``read_index``, ``expected_files`` (what a run should
  leave), ``write_file`` (atomic).
* The modes, each printing what the command prints and returning its exit
  status: ``generate``, ``check``, ``list_tests``, ``coverage`` (with
  ``covered_signatures``) and ``parameters`` (with ``parameter_classes``).

A problem with what was asked (a missing folder, a file that is no spec) is a
``UsageError``, which the command line turns into exit status 2.
"""

from __future__ import annotations

import ast
import os
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TextIO

from conformance.harness.cases import GeneratedTest
from generator.emit import (
    HAL_FOLDERS,
    INDEX,
    EmitError,
    EmittedFile,
    emit_index,
    emit_module,
    emit_packages,
    is_generated,
    module_name,
    module_path,
)
from hal.operations import coverage_triples, match_signature, operation_info
from hal.types import HalVersion, OperationType, describe_type

SPEC_SUFFIX = ".mod.py"

Evaluate = Callable[[Path, Path], list[GeneratedTest]]
Interpreter = tuple[Evaluate, type[Exception]]
"""``evaluate_spec`` and ``SpecError`` of ``generator.expand``."""


class UsageError(Exception):
    """What was asked cannot be carried out (the command line's exit status 2)."""


def spec_interpreter() -> Interpreter:
    """The spec interpreter and its error type (imported late: only modes that evaluate need it)."""
    from generator.expand import SpecError, evaluate_spec

    return evaluate_spec, SpecError


# ---------------------------------------------------------------------------
# Locating things
# ---------------------------------------------------------------------------


def find_root() -> Path | None:
    """The folder holding pyproject.toml: this checkout's, else the nearest above the cwd;
    None when there is none (an installed package run outside a checkout)."""
    checkout = Path(__file__).resolve().parent.parent
    for folder in (checkout, Path.cwd(), *Path.cwd().parents):
        if (folder / "pyproject.toml").is_file():
            return folder
    return None


def installed_root() -> Path:
    """The folder the installed ``conformance`` package (and its specs) lives in."""
    import conformance

    return Path(conformance.__file__).resolve().parent.parent


@dataclass(frozen=True)
class Spec:
    """One spec file and the module it generates."""

    path: Path
    relpath: str
    """Repository-relative, with forward slashes: what provenance and messages show."""
    module: PurePosixPath
    """The generated module, relative to the output folder."""

    @property
    def label(self) -> str:
        """``V1_2/add.mod.py``."""
        return f"{self.path.parent.name}/{self.path.name}"

    @property
    def test_prefix(self) -> str:
        """``V1_2/add``: the folder and spec name that start the spec's test ids."""
        return module_name(self.module).replace(".", "/")


def spec_file(path: Path, root: Path) -> Spec:
    """The spec at ``path`` (a ``*.mod.py`` file under ``root``), or a ``UsageError``."""
    path = path.resolve()
    if not path.name.endswith(SPEC_SUFFIX):
        raise UsageError(f"{path}: not a spec file (*{SPEC_SUFFIX})")
    if not path.is_file():
        raise UsageError(f"{path}: no such spec file")
    try:
        relpath = path.relative_to(root).as_posix()
    except ValueError:
        raise UsageError(f"{path}: outside the repository root {root} (see --root)") from None
    try:
        return Spec(path, relpath, module_path(relpath))
    except EmitError as error:
        raise UsageError(str(error)) from None


def discover_specs(specs_dir: Path, root: Path) -> list[Spec]:
    """Every ``*.mod.py`` of the HAL folders of ``specs_dir``, in folder then name order."""
    if not specs_dir.is_dir():
        raise UsageError(f"{specs_dir}: no such spec folder")
    return [
        spec_file(path, root)
        for folder in HAL_FOLDERS
        for path in sorted((specs_dir / folder).glob(f"*{SPEC_SUFFIX}"))
    ]


def _display(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


# ---------------------------------------------------------------------------
# Evaluating specs
# ---------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one spec gave: its tests and module, or the one-line reason it failed."""

    spec: Spec
    tests: list[GeneratedTest] = field(default_factory=list)
    module: EmittedFile | None = None
    error: str | None = None


def _one_line(text: str) -> str:
    return " ".join(text.split()) or "(no message)"


def _crash_message(spec: Spec, error: Exception) -> str:
    """A one-line report of an unexpected exception, at the spec's line when it passed there."""
    where = spec.relpath
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        filename = frame.filename.replace(os.sep, "/")
        if filename == spec.path.as_posix() or filename.endswith(spec.relpath):
            where = f"{spec.relpath}:{frame.lineno}"
            break
    return f"{where}: {type(error).__name__}: {_one_line(str(error))}"


def _evaluate(spec: Spec, root: Path, interpreter: Interpreter, emit: bool) -> Outcome:
    evaluate, spec_error = interpreter
    outcome = Outcome(spec)
    try:
        outcome.tests = list(evaluate(spec.path, root))
        if emit:
            outcome.module = emit_module(spec.relpath, outcome.tests)
    except (spec_error, EmitError) as error:
        outcome.error = _one_line(str(error))
    except Exception as error:
        outcome.error = _crash_message(spec, error)
    return outcome


def check_distinct_modules(specs: Sequence[Spec]) -> None:
    """A ``UsageError`` when two of the specs would generate the same module."""
    seen: dict[PurePosixPath, Spec] = {}
    for spec in specs:
        other = seen.setdefault(spec.module, spec)
        if other is not spec:
            raise UsageError(
                f"{spec.relpath} and {other.relpath} would both generate {spec.module}"
            )


class Progress:
    """A line per spec on stderr, or one line rewritten in place when stderr is a terminal."""

    def __init__(self, total: int, enabled: bool, stream: TextIO | None = None) -> None:
        self.total = total
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.tty = enabled and self.stream.isatty()
        self._open = False

    def start(self, number: int, spec: Spec) -> None:
        """On a terminal, show the spec being evaluated (a slow one should not look stuck)."""
        if self.tty:
            self.stream.write(f"\r\x1b[K[{number}/{self.total}] {spec.label} ...")
            self.stream.flush()
            self._open = True

    def step(self, number: int, outcome: Outcome) -> None:
        if outcome.error is not None:
            self.message(outcome.error)
            return
        if not self.enabled:
            return
        line = f"[{number}/{self.total}] {outcome.spec.label}: {_count(len(outcome.tests), 'test')}"
        if self.tty:
            self.stream.write(f"\r\x1b[K{line}")
            self._open = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def message(self, line: str) -> None:
        self._clear()
        self.stream.write(line + "\n")
        self.stream.flush()

    def finish(self) -> None:
        self._clear()

    def _clear(self) -> None:
        if self._open:
            self.stream.write("\r\x1b[K")
            self._open = False


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def run_specs(
    specs: Sequence[Spec],
    root: Path,
    interpreter: Interpreter,
    *,
    emit: bool,
    progress: bool = False,
) -> list[Outcome]:
    """Evaluate each spec (and emit its module, with ``emit``), in order; with
    ``progress`` a line per spec on stderr. A failure is its outcome's ``error``."""
    display = Progress(len(specs), progress)
    outcomes = []
    for number, spec in enumerate(specs, 1):
        display.start(number, spec)
        outcome = _evaluate(spec, root, interpreter, emit)
        display.step(number, outcome)
        outcomes.append(outcome)
    display.finish()
    return outcomes


def _report_failures(outcomes: Sequence[Outcome]) -> int:
    failed = sum(o.error is not None for o in outcomes)
    if failed:
        print(f"{_count(failed, 'spec')} failed", file=sys.stderr)
    return failed


# ---------------------------------------------------------------------------
# The generated tree
# ---------------------------------------------------------------------------


def read_index(out_dir: Path) -> dict[str, tuple[str, ...]]:
    """The module -> test names map of an existing index, or {} when there is none to read."""
    try:
        tree = ast.parse((out_dir / INDEX).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "MODULES" for t in node.targets
        ):
            try:
                return {name: tuple(names) for name, names in ast.literal_eval(node.value)}
            except (ValueError, TypeError):
                return {}
    return {}


def expected_files(
    outcomes: Sequence[Outcome], out_dir: Path, full: bool, all_specs: Sequence[Spec]
) -> dict[PurePosixPath, str]:
    """The files a run should leave: modules of the specs that worked, the index, packages.

    The index keeps the entries of specs that failed (and, on a partial run, of
    every spec not named) from the index on disk, so a failure or a partial run
    never drops tests from it; a full run drops the entries of deleted specs.
    """
    files = {f.path: f.text for f in emit_packages()}
    entries = read_index(out_dir)
    if full:
        alive = {module_name(s.module) for s in all_specs}
        entries = {name: tests for name, tests in entries.items() if name in alive}
    for outcome in outcomes:
        if outcome.module is not None:
            files[outcome.module.path] = outcome.module.text
            entries[module_name(outcome.spec.module)] = tuple(t.name for t in outcome.tests)
    index = emit_index(entries)
    files[index.path] = index.text
    return files


def _present_modules(out_dir: Path) -> list[PurePosixPath]:
    """Python files of the generated tree, relative to it (top level and HAL folders)."""
    found = [PurePosixPath(p.name) for p in out_dir.glob("*.py")]
    for folder in HAL_FOLDERS:
        found += [PurePosixPath(folder, p.name) for p in (out_dir / folder).glob("*.py")]
    return sorted(found)


def _orphans(
    out_dir: Path, expected: dict[PurePosixPath, str], specs: Sequence[Spec]
) -> list[PurePosixPath]:
    """Files of the tree nothing generates; a failed spec's module is not one of them."""
    keep = expected.keys() | {s.module for s in specs}
    return [p for p in _present_modules(out_dir) if p not in keep]


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (through a partial file beside it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(data)
    os.replace(partial, path)


# ---------------------------------------------------------------------------
# Modes
# ---------------------------------------------------------------------------


def generate(
    specs: Sequence[Spec], full: bool, root: Path, out_dir: Path, interpreter: Interpreter
) -> int:
    """Write the modules of ``specs`` that changed, the index and the packages into
    ``out_dir``; a ``full`` run also removes the modules of specs that are gone."""
    outcomes = run_specs(specs, root, interpreter, emit=True, progress=full)
    expected = expected_files(outcomes, out_dir, full, specs)
    modules = {o.module.path for o in outcomes if o.module is not None}
    written = unchanged = 0
    for relative, text in expected.items():
        data = text.encode("utf-8")
        if _read(out_dir / relative) == data:
            unchanged += relative in modules
            continue
        write_file(out_dir / relative, data)
        written += relative in modules
    if full:
        for relative in _orphans(out_dir, expected, specs):
            path = out_dir / relative
            if is_generated(path.read_text(encoding="utf-8", errors="replace")):
                path.unlink()
                print(f"removed: {_display(path, root)}", file=sys.stderr)
            else:
                print(
                    f"not removing {_display(path, root)}: not written by nnhal-generate",
                    file=sys.stderr,
                )
    done = [o for o in outcomes if o.error is None]
    tests = sum(len(o.tests) for o in done)
    print(
        f"generated {_count(tests, 'test')} from {_count(len(done), 'spec')} "
        f"({written} written, {unchanged} unchanged)"
    )
    return 1 if _report_failures(outcomes) else 0


def check(
    specs: Sequence[Spec], full: bool, root: Path, out_dir: Path, interpreter: Interpreter
) -> int:
    """Write nothing; print each generated file that is stale, missing or (on a ``full``
    run) orphaned, and return 1 if there is one or a spec failed."""
    outcomes = run_specs(specs, root, interpreter, emit=True)
    expected = expected_files(outcomes, out_dir, full, specs)
    if not full:
        named = {o.module.path for o in outcomes if o.module is not None}
        expected = {p: text for p, text in expected.items() if p in named}
    problems = []
    for relative, text in sorted(expected.items()):
        on_disk = _read(out_dir / relative)
        if on_disk is None:
            problems.append(("missing", relative))
        elif on_disk != text.encode("utf-8"):
            problems.append(("stale", relative))
    if full:
        problems += [("orphaned", p) for p in _orphans(out_dir, expected, specs)]
    for kind, relative in problems:
        print(f"{kind}: {_display(out_dir / relative, root)}")
    failed = _report_failures(outcomes)
    if problems:
        print(
            f"{_count(len(problems), 'generated file')} out of date: run nnhal-generate",
            file=sys.stderr,
        )
        return 1
    if failed:
        return 1
    print(f"generated modules are up to date ({_count(len(specs), 'spec')})")
    return 0


def list_tests(specs: Sequence[Spec], root: Path, interpreter: Interpreter) -> int:
    """Print the id of every test the specs give (and of its dynamic-shape twin)."""
    outcomes = run_specs(specs, root, interpreter, emit=False)
    for outcome in outcomes:
        for test in outcome.tests:
            print(f"{outcome.spec.test_prefix}/{test.name}")
            if test.dynamic_name:
                print(f"  (dynamic twin: {test.dynamic_name}, built by the harness)")
    return 1 if _report_failures(outcomes) else 0


CONTROL_FLOW_ROWS = (OperationType.IF, OperationType.WHILE)
"""The operations ``--coverage`` lists with one row each: the catalog gives them no type
list (their operands' types are the subgraphs' business), so any use covers them."""


def covered_signatures(tests: Sequence[GeneratedTest]) -> set[tuple[int, int]]:
    """The (operation, operand type variant) pairs the operations of the tests' models use,
    in every subgraph; IF and WHILE as (operation, -1)."""
    newest = max(HalVersion)
    covered = set()
    for test in tests:
        for _, graph in test.model.graphs():
            for operation in graph.operations:
                if operation.type in CONTROL_FLOW_ROWS:
                    covered.add((int(operation.type), -1))
                    continue
                signature = match_signature(graph, operation, newest).signature
                if signature is not None:
                    covered.add((int(signature.operation), int(signature.variant)))
    return covered


def coverage_rows() -> list[tuple[OperationType, int, HalVersion]]:
    """The catalog's signatures (``coverage_triples``) and one row, variant -1, for each of
    ``CONTROL_FLOW_ROWS``, sorted."""
    rows = list(coverage_triples())
    for operation in CONTROL_FLOW_ROWS:
        info = operation_info(operation)
        if info is not None:
            rows.append((operation, -1, info.introduced))
    return sorted(rows)


def coverage(specs: Sequence[Spec], root: Path, interpreter: Interpreter) -> int:
    """Print which operation signatures of ``hal.operations`` the specs' tests exercise."""
    outcomes = run_specs(specs, root, interpreter, emit=False)
    covered = covered_signatures([t for o in outcomes for t in o.tests])
    rows = coverage_rows()
    hits = 0
    for operation, variant, version in rows:
        hit = (int(operation), int(variant)) in covered
        hits += hit
        state = "covered" if hit else "missing"
        types = "subgraphs" if variant == -1 else describe_type(variant)
        print(f"{operation.name} {types} {version} {state}")
    print(f"coverage: {hits}/{len(rows)} signatures")
    return 1 if _report_failures(outcomes) else 0


PARAMETER_DRAWS = 100
"""Cases drawn per operation for ``--parameters``."""


def parameter_classes(tests: Sequence[GeneratedTest]) -> dict[str, Counter[str]]:
    """For each operation of the parameter-space families, how many of the tests' models
    reach each class of its parameter space (``conformance.harness.corners.classify``)."""
    from conformance.harness.corners import classify

    reached: dict[str, Counter[str]] = {}
    for test in tests:
        if test.lifetime_variation:
            continue  # the same parameters as the case it varies, some made inputs
        outputs = test.feeds[0].outputs if test.feeds else []
        for operation, classes in classify(test.model, outputs):
            reached.setdefault(operation, Counter()).update(classes)
    return reached


def parameters(specs: Sequence[Spec], root: Path, interpreter: Interpreter, draws: int) -> int:
    """Print, for each operation of the parameter-space tests, how many spec cases and how
    many of ``draws`` drawn cases reach each class of its parameter space."""
    import tempfile

    from hypothesis.configuration import set_hypothesis_home_dir

    # hypothesis keeps a folder of its own: a temporary one, not in the folder the command
    # runs from
    with tempfile.TemporaryDirectory(prefix="nnhal-hypothesis-") as home:
        set_hypothesis_home_dir(home)
        return _parameters(specs, root, interpreter, draws)


def _parameters(specs: Sequence[Spec], root: Path, interpreter: Interpreter, draws: int) -> int:
    from conformance.harness.corners import CLASSES, OPERATIONS, drawn_classes

    outcomes = run_specs(specs, root, interpreter, emit=False)
    by_specs = parameter_classes([t for o in outcomes for t in o.tests])
    print(f"operation class: spec cases reaching it, drawn cases reaching it (of {draws} draws)")
    listed = reached_by_specs = reached_by_draws = 0
    for family, operations in OPERATIONS.items():
        for operation in operations:
            drawn = drawn_classes(operation, draws)
            specs_reach = by_specs.get(operation, Counter())
            names = dict.fromkeys([*CLASSES[family], *sorted(drawn), *sorted(specs_reach)])
            for name in names:
                print(f"{operation} {name}: specs {specs_reach[name]}, drawn {drawn[name]}")
            for name in CLASSES[family]:
                listed += 1
                reached_by_specs += specs_reach[name] > 0
                reached_by_draws += drawn[name] > 0
    print(
        f"parameters: of {listed} listed classes (operation and class), the specs reach "
        f"{reached_by_specs}, the drawn cases {reached_by_draws}"
    )
    return 1 if _report_failures(outcomes) else 0
