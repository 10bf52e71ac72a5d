"""Repository-level pytest configuration for the project's own test run.

The nnhal plugin itself arrives through its ``pytest11`` entry point (the
project is installed in .venv), so it is not named here.
"""

pytest_plugins = ["pytester"]
