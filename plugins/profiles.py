"""The hypothesis settings of ``--nnhal-profile``: ``nnhal-ci``, ``nnhal-full``, ``nnhal-thorough``.

Loaded by ``plugins.running.configure`` in a run that uses the suite, undone
when the run ends (an in-process pytest run inside another keeps the outer
run's settings afterwards).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from plugins.pytest_nnhal import HYPOTHESIS_EXAMPLES, PROFILES

_PREVIOUS_HYPOTHESIS_PROFILE = pytest.StashKey[str]()
_SOURCE_CONSTANTS = pytest.StashKey["Callable[[], None] | None"]()


def _register_hypothesis_profiles() -> None:
    from hypothesis import HealthCheck, Phase, settings

    common = {
        "deadline": None,
        "database": None,
        "print_blob": True,
        # The explain phase re-runs failing examples under a tracer: slow, and the mutation
        # sentence already says what broke.
        "phases": [phase for phase in Phase if phase != Phase.explain],
        "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much],
    }
    for name in PROFILES:
        settings.register_profile(
            f"nnhal-{name}",
            max_examples=HYPOTHESIS_EXAMPLES[name],
            # ci and full are reproducible (also under xdist); thorough explores anew each run
            # (--hypothesis-seed fixes it).
            derandomize=name != "thorough",
            **common,
        )


def _without_source_constants() -> Callable[[], None] | None:
    """Keep hypothesis from mixing literals of the loaded source files into its draws.

    Hypothesis (6.131 and later) parses every loaded module outside site-packages
    -- the suite's generated specs, and the driver under test -- and now and then
    draws one of their literals. The suite's draws would then depend on which
    modules a run happened to import (a one-item rerun imports fewer than a full
    run, so a sampled failure could vanish on rerun) and on the driver's own
    source; the parse also costs seconds at every collection and writes a cache
    under ./.hypothesis. Returns the undo, or None where hypothesis has no such
    collection.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - an older or reorganised hypothesis
        return None
    original = getattr(providers, "_get_local_constants", None)
    empty = getattr(providers, "Constants", None)
    if original is None or empty is None:  # pragma: no cover - as above
        return None

    def no_constants():
        return empty()

    providers._get_local_constants = no_constants

    def restore() -> None:
        providers._get_local_constants = original

    return restore


def configure(config: pytest.Config) -> None:
    """Load the hypothesis settings of ``--nnhal-profile``.

    The suite's settings (no deadline: a driver's time is bounded by
    ``--hal-timeout``; its example counts; derandomized but for thorough) are
    part of the profile a report names, so ``--hypothesis-profile`` may only
    name the same one; anything else is refused with one line.
    """
    from hypothesis import settings

    _register_hypothesis_profiles()
    profile = config.getoption("--nnhal-profile")
    wanted = f"nnhal-{profile}"
    named = config.getoption("hypothesis_profile", None)
    if named and named != wanted:
        if named in {f"nnhal-{p}" for p in PROFILES}:
            raise pytest.UsageError(
                f"--hypothesis-profile={named} contradicts --nnhal-profile={profile}: "
                f"give --nnhal-profile={named.removeprefix('nnhal-')}, which selects it"
            )
        raise pytest.UsageError(
            f"--hypothesis-profile={named}: the suite's hypothesis settings come from "
            "--nnhal-profile (ci, full, thorough: no deadline, the profile's example counts); "
            "choose one with --nnhal-profile (--hypothesis-seed fixes a thorough run)"
        )
    config.stash[_PREVIOUS_HYPOTHESIS_PROFILE] = settings.get_current_profile_name()
    settings.load_profile(wanted)
    config.stash[_SOURCE_CONSTANTS] = _without_source_constants()
    if profile == "thorough" and config.getoption("hypothesis_seed", None) is None:
        # New draws each run, from a seed the header and the report show (xdist hands the
        # controller's options, this seed included, to its workers).
        config.option.hypothesis_seed = str(random.SystemRandom().randrange(1 << 32))


def unconfigure(config: pytest.Config) -> None:
    """The hypothesis profile and source constants as they were before ``configure``."""
    previous = config.stash.get(_PREVIOUS_HYPOTHESIS_PROFILE, None)
    if previous is not None:
        from hypothesis import settings

        settings.load_profile(previous)
    restore = config.stash.get(_SOURCE_CONSTANTS, None)
    if restore is not None:
        restore()


def hypothesis_seed(config: pytest.Config) -> str | None:
    """The seed of the run's hypothesis draws where they differ between runs (thorough);
    None where the profile draws the same cases every run."""
    if config.getoption("--nnhal-profile") != "thorough":
        return None
    seed = config.getoption("hypothesis_seed", None)
    return None if seed is None else str(seed)


def nnhal_profile(config: pytest.Config) -> str:
    """The suite profile of the run: ``ci``, ``full`` or ``thorough``."""
    return config.getoption("--nnhal-profile")
