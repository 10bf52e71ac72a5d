"""Run exactly the items named on the command line, passing over those the suite no longer has.

``nnhal-certify --rerun-failed`` names the items of an earlier report, one
node id a line in an argument file (``pytest @FILE``: the plugin's node-id
handling sees them as if typed, and builds only the named cases), and loads
this plugin (``-p plugins.report.selection``). pytest refuses a whole run when
one named item is not found; with this plugin an item whose module, function
or case the installed suite no longer has is simply not run (its comparison
lists it as gone), and everything named that does exist runs.

It collects each named function whole (``module::function``: pytest then has
nothing to miss; the suite builds only the named cases of its generated
functions) and keeps exactly the named items of what that collects, deselecting
the other cases of those functions (``filter`` in ``plugins.report.counts``, as
the cases of a generated function the ids leave unbuilt are). Arguments that are
not all ``module::item`` ids leave collection to pytest.
"""

from __future__ import annotations

import importlib
import importlib.util

import pytest

from plugins.report.facts import test_id

_NAMED = pytest.StashKey[frozenset]()


def item_ids(args: list[str]) -> list[str] | None:
    """The run's arguments as report ids (``module::name``, ``module::name[case]``; a
    ``conformance/test_x.py`` module becomes ``conformance.test_x``) if every one names an
    item of a module, else None."""
    if not args or not all("::" in a and a.partition("::")[2] for a in args):
        return None
    ids = []
    for arg in args:
        module, _, rest = arg.partition("::")
        if module.endswith(".py"):
            module = module.removesuffix(".py").replace("/", ".")
        ids.append(f"{module}::{rest}")
    return ids


def _function_of(identifier: str) -> tuple[str, list[str]]:
    """``conformance.test_x::test_y[case]`` -> (``conformance.test_x``, [``test_y``]): the
    module and the names down to the function, without the case."""
    module, _, rest = identifier.partition("::")
    names, _, _ = rest.partition("[")
    return module, names.split("::")


def _exists(module: str, names: list[str]) -> bool:
    """Whether the dotted ``module`` still defines ``names``; a module that fails to import
    counts as present, so that pytest reports its error."""
    try:
        if importlib.util.find_spec(module) is None:
            return False
    except (ImportError, ValueError):
        return False
    try:
        found: object = importlib.import_module(module)
    except Exception:
        return True
    for name in names:
        found = getattr(found, name, None)
        if found is None:
            return False
    return True


def _is_xdist_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", 0))


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> bool | None:
    """Collect the named functions that still exist instead of the named items."""
    config = session.config
    named = item_ids(config.args)
    if named is None or _is_xdist_controller(config):
        return None  # the controller collects nothing: its workers run this
    config.stash[_NAMED] = frozenset(named)
    functions: dict[str, None] = {}
    for identifier in named:
        module, names = _function_of(identifier)
        if _exists(module, names):
            functions["::".join([module, *names])] = None
    session.perform_collect(list(functions))
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep the named items only (a whole function collected brings its other cases too),
    deselecting the others, which every count of the run then gives alike."""
    named = config.stash.get(_NAMED, None)
    if named is not None:
        kept = [item for item in items if test_id(item) in named]
        if len(kept) != len(items):
            keep = {id(item) for item in kept}
            config.hook.pytest_deselected(items=[i for i in items if id(i) not in keep])
            items[:] = kept
