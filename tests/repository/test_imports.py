"""The one-way import rules of docs/design.md ("Import direction"), checked over the source.

Every ``import`` and ``from ... import`` of every module of the project's packages is
read with ``ast`` (imports inside functions included: a lazy import is still a
dependency). An import of one of our packages must be allowed by ``ALLOWED`` for the
importing package, or be one of the ``EXCEPTIONS``, each named with its reason. An
exception that no longer occurs fails too, so the list stays the truth.

Within a package the arrows go one way too: no module of the product imports itself
back through others (``test_no_import_circle``), lazily or not.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

OURS = (
    "hal",
    "reference_driver",
    "isolation",
    "generator",
    "conformance",
    "plugins",
    "benchmarks",
)

EXAMPLE_DRIVER = "plugins.example.files"
"""The example driver's folder, held to a driver's rule, not to the plugin's it ships in."""

ALLOWED: dict[str, tuple[str, ...]] = {
    # the contract imports nothing of ours
    "hal": (),
    # a driver sees only the contract
    "reference_driver": ("hal",),
    # the example driver nnhal-example writes (package data of plugins): a vendor's driver
    EXAMPLE_DRIVER: ("hal",),
    # the driver's process and the wire to it: the contract only, never the suite or pytest
    "isolation": ("hal",),
    # specs -> generated modules: the contract and the case record (below)
    "generator": ("hal",),
    # the suite: the contract; never the driver it judges, the plugin or the isolation
    "conformance": ("hal",),
    # the pytest plugin and the report: everything below it
    "plugins": ("hal", "conformance.harness", "isolation", "generator.packs"),
    # measurements, run by hand: anything
    "benchmarks": ("hal", "reference_driver", "isolation", "generator", "conformance", "plugins"),
}
"""Which of our packages each package may import (a dotted prefix allows a part of one)."""

EXCEPTIONS: dict[tuple[str, str], str] = {
    ("generator/expand.py", "conformance.harness.cases"): (
        "the generator builds the suite's case record (GeneratedTest, Feed, Provenance), a "
        "plain data module that imports only hal; a generated module holds such records"
    ),
    (
        "generator/emit.py",
        "conformance.harness.cases",
    ): "the same case record, written out as source",
    (
        "generator/build.py",
        "conformance.harness.cases",
    ): "the same case record, to check what it wrote",
    (
        "generator/build.py",
        "conformance",
    ): "the package's folder: where specs are read and modules written",
    ("generator/build.py", "conformance.harness.corners"): (
        "`nnhal-generate --parameters` lists which parameter classes the specs reach and the "
        "parameter-space tests draw"
    ),
    ("plugins/report/collector.py", "conformance"): (
        "the installed suite's folder, whose test modules name the report's categories"
    ),
    ("conformance/test_fuzz.py", "reference_driver"): (
        "the random-graph tests need a differential oracle for graphs no spec holds: the "
        "reference driver computes what the driver under test must match"
    ),
    ("conformance/harness/fresh.py", "reference_driver"): (
        "the fresh-input check of the generated cases needs an independent answer for inputs "
        "no spec holds: the reference driver computes it, in a process of its own that the "
        "module starts (the import runs only there)"
    ),
    ("conformance/specs/oracles/speccheck.py", "generator.expand"): (
        "an offline script that expands a spec to compare its literals with an oracle's; "
        "not part of the suite"
    ),
}
"""(importing file, imported module) pairs outside ``ALLOWED``, each with its reason."""

GENERATED_MAY_IMPORT = ("hal", "conformance.harness.generated")
"""A generated module runs without the generator: the contract and the loader only."""


def _package_of(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    return EXAMPLE_DRIVER if ".".join(parts[:3]) == EXAMPLE_DRIVER else parts[0]


def imports_of(path: Path, *, modules_only: bool = False) -> list[tuple[int, str]]:
    """(line, name) for every absolute import of ``path`` naming one of our packages.

    ``from a.b import c`` gives ``a.b.c`` (``c`` may be a module: ``from conformance.harness
    import generated``), or ``a.b`` with ``modules_only``."""
    found = []
    for line, module, names in _import_statements(path):
        if module is None:  # import a.b, c
            named = list(names)
        else:
            named = [module] if modules_only else [f"{module}.{name}" for name in names]
        found += [(line, name) for name in named if name.split(".")[0] in OURS]
    return found


@functools.cache
def _import_statements(path: Path) -> tuple[tuple[int, str | None, tuple[str, ...]], ...]:
    """(line, module, names) of every absolute import statement of ``path`` (module None for
    ``import a, b``), parsed once per process: the generated corpus alone is 50 MB of
    source, and three tests read it."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.append((node.lineno, None, tuple(alias.name for alias in node.names)))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module, tuple(alias.name for alias in node.names)))
    return tuple(found)


def _exception(name: str, module: str) -> tuple[str, str] | None:
    """The most specific named exception covering ``module`` imported by file ``name``."""
    keys = [key for key in EXCEPTIONS if key[0] == name and _covers(key[1], module)]
    return max(keys, key=lambda key: len(key[1]), default=None)


def _covers(prefix: str, module: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _sources() -> list[Path]:
    return [
        path
        for package in OURS
        for path in sorted((ROOT / package).rglob("*.py"))
        if "__pycache__" not in path.parts
    ]


def violations() -> tuple[list[str], set[tuple[str, str]]]:
    problems, used = [], set()
    for path in _sources():
        package, name = _package_of(path), path.relative_to(ROOT).as_posix()
        generated = name.startswith("conformance/generated/")
        for line, module in imports_of(path):
            if _covers(package, module):
                if generated and not any(_covers(p, module) for p in GENERATED_MAY_IMPORT):
                    problems.append(f"{name}:{line}: a generated module imports {module}")
                continue
            allowed = GENERATED_MAY_IMPORT if generated else ALLOWED[package]
            if any(_covers(prefix, module) for prefix in allowed):
                continue
            exception = _exception(name, module)
            if exception is not None:
                used.add(exception)
                continue
            problems.append(f"{name}:{line}: {package} may not import {module}")
    return problems, used


def test_imports_follow_the_one_way_rules_and_every_exception_still_occurs() -> None:
    """One test, as the whole source is read once: the rules, then the exceptions to them."""
    problems, used = violations()
    assert not problems, "imports against docs/design.md's rules:\n" + "\n".join(problems)
    stale = sorted(set(EXCEPTIONS) - used)
    assert not stale, f"exceptions that no longer occur (remove them from EXCEPTIONS): {stale}"


def test_no_module_imports_a_test_module() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: imports {module}"
        for path in _sources() + sorted((ROOT / "tests").rglob("*.py"))
        for line, module in imports_of(path, modules_only=True)
        if any(part.startswith("test_") for part in module.split("."))
    ]
    assert not found, "test modules are run, never imported:\n" + "\n".join(found)


def test_the_checker_sees_lazy_imports_and_refuses_what_is_not_allowed(tmp_path: Path) -> None:
    source = tmp_path / "lazy.py"
    source.write_text(
        "import os\nfrom hal import types\n\n\ndef f():\n    from plugins.report import facts\n"
        "    import reference_driver.device\n"
    )
    assert imports_of(source) == [
        (2, "hal.types"),
        (6, "plugins.report.facts"),
        (7, "reference_driver.device"),
    ]
    assert not any(_covers(p, "plugins.report") for p in ALLOWED["conformance"])
    assert _covers("conformance.harness", "conformance.harness.items")
    assert not _covers("conformance.harness", "conformance.harnessx")


def test_every_package_folder_is_a_package() -> None:
    """pyproject finds packages by their __init__.py (tests/repository/test_wheel.py proves what the
    wheel then holds): a folder of modules without one would be left out of it."""
    missing = sorted(
        folder.relative_to(ROOT).as_posix()
        for package in (
            "hal",
            "reference_driver",
            "isolation",
            "generator",
            "conformance",
            "plugins",
        )
        for folder in [ROOT / package, *(ROOT / package).rglob("*")]
        if folder.is_dir()
        and "__pycache__" not in folder.parts
        and any(folder.glob("*.py"))
        and not any(p.name.endswith(".mod.py") for p in folder.glob("*.py"))
        and not (folder / "__init__.py").exists()
    )
    assert missing == [], f"folders of modules without an __init__.py: {missing}"


# -- circles ----------------------------------------------------------------------------

CIRCLE_FREE = ("hal", "reference_driver", "generator", "conformance", "plugins", "isolation")
"""The product's packages: among their modules no import circle is allowed."""
CIRCLE_EXEMPT = ("conformance/generated/",)
"""Emitted modules, never edited by hand (``GENERATED_MAY_IMPORT`` keeps them apart)."""


def module_name(root: Path, path: Path) -> str:
    """The dotted name of the module in ``path`` (a package's ``__init__.py`` names it)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path, paths: list[Path]) -> dict[str, dict[str, str]]:
    """Module -> {module it imports: where (``file:line``)}, among the modules of ``paths``.

    ``from a.b import c`` is an arrow to ``a.b.c`` when that is one of the modules, else
    to ``a.b``. A package importing one of its own modules is an arrow like any other;
    the package's ``__init__`` that Python runs first when a module of it is imported is
    not (it would make every package a circle with its modules)."""
    names = {module_name(root, path): path for path in paths}
    graph: dict[str, dict[str, str]] = {name: {} for name in names}
    for name, path in names.items():
        for line, imported in imports_of(path):
            parts = imported.split(".")
            while parts and ".".join(parts) not in names:
                parts.pop()
            target = ".".join(parts)
            if target and target != name:
                where = f"{path.relative_to(root).as_posix()}:{line}"
                graph[name].setdefault(target, where)
    return graph


def circles(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """The modules that reach themselves through others, one sorted list per circle
    (strongly connected components of more than one module, Tarjan's algorithm, without
    recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _describe(graph: dict[str, dict[str, str]], circle: list[str]) -> str:
    members = set(circle)
    arrows = [
        f"    {where}: {name} imports {target}"
        for name in circle
        for target, where in sorted(graph[name].items())
        if target in members
    ]
    return f"  {', '.join(circle)}:\n" + "\n".join(arrows)


def _product_sources() -> list[Path]:
    return [
        path
        for package in CIRCLE_FREE
        for path in sorted((ROOT / package).rglob("*.py"))
        if "__pycache__" not in path.parts
        and not path.relative_to(ROOT).as_posix().startswith(CIRCLE_EXEMPT)
    ]


def test_no_import_circle() -> None:
    graph = import_graph(ROOT, _product_sources())
    found = circles(graph)
    assert not found, (
        "modules that import each other in a circle (lazy imports count; give what both "
        "need a module of its own):\n" + "\n".join(_describe(graph, c) for c in found)
    )


def test_the_circle_finder_sees_a_lazy_circle_and_nothing_else(tmp_path: Path) -> None:
    files = {
        "hal/__init__.py": "from hal.types import Thing\n",
        "hal/types.py": "Thing = 1\n",
        "hal/a.py": "from hal import b\n",
        "hal/b.py": "import hal.types\n\n\ndef late():\n    from hal.c import name\n",
        "hal/c.py": "from hal.a import b\n",
        "hal/d.py": "from hal import a, types\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = import_graph(tmp_path, sorted(tmp_path.rglob("*.py")))
    assert graph["hal.c"] == {"hal.a": "hal/c.py:1"}
    assert graph["hal.d"] == {"hal.a": "hal/d.py:1", "hal.types": "hal/d.py:1"}
    assert circles(graph) == [["hal.a", "hal.b", "hal.c"]]
    del graph["hal.b"]["hal.c"]
    assert circles(graph) == []
