"""Repository-level pytest configuration for the project's own test run.

The nnhal plugin itself arrives through its ``pytest11`` entry point (the
project is installed in .venv), so it is not named here.

Tests marked ``slow`` cost a whole certification each (tens of minutes on two
cores): they are skipped unless ``--run-slow`` is given, so the project's test
command stays well inside CI's time. Run them by hand::

    .venv/bin/python -m pytest --run-slow -m slow tests
"""

import pytest

pytest_plugins = ["pytester"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow",
        action="store_true",
        help="also run the tests marked slow (each is a whole certification run)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: costs a whole certification run; skipped without --run-slow"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(
        reason="slow (a whole certification run): rerun with --run-slow -m slow"
    )
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
