"""The command that reruns exactly one item of the suite, from any folder.

``pytest --pyargs 'conformance.test_generated::test_generated[V1_0/add/none/ex0/sync]'
--driver=... --nnhal-profile=...``: the module by its import name (so it works
wherever the vendor runs it), the item by its exact name (a ``-k`` expression
matches substrings and would select more), and the options that decide what the
item does (driver, profile, the run's seed, HAL level cap).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest


def rerun_command(config: pytest.Config, module: str, item: str) -> str:
    """The command that reruns exactly ``item`` (``function[parameters]``) of ``module``."""
    return rerun_of(config, f"{module}::{item}")


def rerun_of(config: pytest.Config, identifier: str) -> str:
    """The command that reruns the item ``identifier`` (``module::function[parameters]``)."""
    words = ["pytest", "--pyargs", shlex.quote(identifier)]
    driver = config.getoption("--driver")
    if driver:
        words.append(f"--driver={shlex.quote(driver)}")
    words.append(f"--nnhal-profile={config.getoption('--nnhal-profile')}")
    seed = config.getoption("--nnhal-seed", None)
    if seed is not None:  # the run's draws (parameter-space cases, fresh inputs) again
        words.append(f"--nnhal-seed={seed}")
    cap = config.getoption("--hal-version")
    if cap:
        words.append(f"--hal-version={cap}")
    start = Path(config.invocation_params.dir)
    for folder in config.getoption("--nnhal-specs", None) or []:  # vendor packs, absolute
        words.append(f"--nnhal-specs={shlex.quote(str((start / folder).resolve()))}")
    return " ".join(words)
