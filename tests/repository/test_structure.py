"""The size of the product's modules: none is over ``LIMIT`` lines.

A module that long holds more than one idea and is hard to read whole; it is
split into modules of one idea each. ``OVER_THE_LIMIT`` names the modules
still over it, each with the issue that splits it: the list only shrinks, and
an entry whose module is no longer over the limit fails, so it cannot outlive
the split. (The import rules and the circles are in ``tests/repository/test_imports.py``.)
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LIMIT = 1500
"""Lines a product module may have."""

PRODUCT = ("hal", "reference_driver", "generator", "conformance", "plugins", "isolation")
EXEMPT = ("conformance/generated/",)
"""Emitted modules, never read or edited by hand: their length is their data's."""

OVER_THE_LIMIT: dict[str, str] = {}
"""Modules allowed over ``LIMIT`` for now, each with the issue that splits it."""


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _product_modules() -> dict[str, int]:
    """Every product module, by its path in the repository, with its line count."""
    return {
        name: _lines(path)
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*.py"))
        if "__pycache__" not in path.parts
        and not (name := path.relative_to(ROOT).as_posix()).startswith(EXEMPT)
    }


def test_no_product_module_is_over_the_limit() -> None:
    long = {
        name: count
        for name, count in _product_modules().items()
        if count > LIMIT and name not in OVER_THE_LIMIT
    }
    assert not long, (
        f"modules over {LIMIT} lines (split them into modules of one idea each): "
        + ", ".join(f"{name} ({count} lines)" for name, count in sorted(long.items()))
    )


def test_every_module_allowed_over_the_limit_is_still_over_it() -> None:
    modules = _product_modules()
    stale = {
        name: modules.get(name)
        for name in OVER_THE_LIMIT
        if name not in modules or modules[name] <= LIMIT
    }
    assert not stale, (
        f"OVER_THE_LIMIT names modules that are gone or within {LIMIT} lines (remove them "
        "from the list): "
        + ", ".join(
            f"{name} ({'gone' if count is None else f'{count} lines'})"
            for name, count in sorted(stale.items())
        )
    )


_STATEFUL_CALLS = frozenset(
    {"dict", "list", "set", "OrderedDict", "defaultdict", "Counter", "deque", "local", "ContextVar"}
    | {"WeakValueDictionary", "WeakKeyDictionary", "WeakSet"}
)


def run_time_globals(source: str) -> set[str]:
    """The module-level names of ``source`` that hold state a run changes: an empty
    container or a context variable, thread-local or ordered dict made at module level,
    and any name a ``global`` statement rebinds."""
    import ast

    tree = ast.parse(source)
    names = {name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names}
    for node in tree.body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        value = node.value
        empty = (isinstance(value, ast.Dict) and not value.keys) or (
            isinstance(value, ast.List | ast.Set) and not value.elts
        )
        func = getattr(value, "func", None)
        called = getattr(func, "id", getattr(func, "attr", None)) in _STATEFUL_CALLS
        if empty or called:
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def test_the_scan_finds_run_time_globals() -> None:
    source = (
        "import threading\nA = {}\nB: list[int] = []\nC = threading.local()\n"
        "D = {1: 2}\nE = (1,)\n_F = None\n\ndef f():\n    global _F\n    _F = 1\n"
    )
    assert run_time_globals(source) == {"A", "B", "C", "_F"}


def test_design_names_every_run_time_global() -> None:
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    table = design[design.index("## Run-time globals") :]
    table = table[: table.index("\n## ", 1)]
    missing = []
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name.startswith(("conformance/generated/", "conformance/specs/")):
                continue
            rows = [line for line in table.splitlines() if path.name in line]
            for variable in sorted(run_time_globals(path.read_text(encoding="utf-8"))):
                if not any(f"`{variable}`" in row for row in rows):
                    missing.append(f"{name}: {variable}")
    assert missing == [], "add these to docs/design.md, 'Run-time globals', with why they exist"
