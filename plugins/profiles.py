"""The hypothesis settings of ``--nnhal-profile``: ``nnhal-ci``, ``nnhal-full``, ``nnhal-thorough``.

Loaded by ``plugins.running.configure`` in a run that uses the suite, undone
when the run ends (an in-process pytest run inside another keeps the outer
run's settings afterwards).
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from plugins.suite import HYPOTHESIS_EXAMPLES, PROFILES

_PREVIOUS_HYPOTHESIS_PROFILE = pytest.StashKey[str]()
_SOURCE_CONSTANTS = pytest.StashKey["Callable[[], None] | None"]()


def _register_hypothesis_profiles(fixed: bool) -> None:
    """The three profiles; ``fixed``: derandomized (the same draws every run, no seed)."""
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
        phases = common["phases"]
        if name == "ci":
            # The quick profile reports the first failing draw as found: shrinking it runs
            # the failing test again and again, and a failure that waits out a timeout (an
            # endless loop, a hang) each time made one failed item cost 40 s, not 4.
            phases = [phase for phase in phases if phase != Phase.shrink]
        settings.register_profile(
            f"nnhal-{name}",
            max_examples=HYPOTHESIS_EXAMPLES[name],
            # Without a seed (ci) every run draws the same; with one (full and thorough draw
            # one per run) the draws follow it, the same in every worker and shard.
            derandomize=fixed,
            **{**common, "phases": phases},
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

    seed = _choose_seed(config)
    _register_hypothesis_profiles(fixed=seed is None)
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
            "choose one with --nnhal-profile (--nnhal-seed fixes a run's draws)"
        )
    config.stash[_PREVIOUS_HYPOTHESIS_PROFILE] = settings.get_current_profile_name()
    settings.load_profile(wanted)
    config.stash[_SOURCE_CONSTANTS] = _without_source_constants()
    if seed is not None:
        # hypothesis's plugin reads it after this hook (ours runs first) and seeds every test.
        config.option.hypothesis_seed = str(seed)


FRESH_SEED_PROFILES = ("full", "thorough")
"""Profiles that draw a fresh seed for each run when ``--nnhal-seed`` is not given."""


def _choose_seed(config: pytest.Config) -> int | None:
    """The run's seed, kept in ``--nnhal-seed``'s option: the one given; else
    ``--hypothesis-seed``'s (a whole number); else, under full and thorough, one drawn from
    ``os.urandom`` (xdist hands the controller's options, this seed included, to its
    workers; nnhal-certify gives every shard the same one); else None (ci: the same draws
    every run)."""
    seed = config.getoption("--nnhal-seed", None)
    given = config.getoption("hypothesis_seed", None)
    if given is not None:
        try:
            value = int(given)
        except ValueError:
            value = -1
        if value < 0:
            raise pytest.UsageError(
                f"--hypothesis-seed={given}: the suite's seed is a whole number; give "
                "--nnhal-seed=N"
            )
        if seed is not None and seed != value:
            raise pytest.UsageError(
                f"--hypothesis-seed={given} contradicts --nnhal-seed={seed}: give --nnhal-seed "
                "alone"
            )
        seed = value
    profile = config.getoption("--nnhal-profile")
    if seed is None and profile in FRESH_SEED_PROFILES:
        shard = config.getoption("--shard", None)
        if _valid_shard(shard) and not hasattr(config, "workerinput"):
            raise pytest.UsageError(
                f"--shard={shard} under profile {profile}: the run draws its cases from one "
                "seed, the same in every shard; give every shard the same --nnhal-seed=N (a "
                "new N for each run, e.g. the CI run's id)"
            )
        seed = int.from_bytes(os.urandom(4), "big")
    config.option.nnhal_seed = seed
    return seed


def unconfigure(config: pytest.Config) -> None:
    """The hypothesis profile and source constants as they were before ``configure``."""
    previous = config.stash.get(_PREVIOUS_HYPOTHESIS_PROFILE, None)
    if previous is not None:
        from hypothesis import settings

        settings.load_profile(previous)
    restore = config.stash.get(_SOURCE_CONSTANTS, None)
    if restore is not None:
        restore()


def _valid_shard(text: str | None) -> bool:
    """``--shard``'s value is K/N with 1 <= K <= N (a bad one is refused elsewhere, saying so)."""
    index, _, count = (text or "").partition("/")
    return index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)


def run_seed(config: pytest.Config) -> int | None:
    """The run's seed (``--nnhal-seed``, or the one ``configure`` drew); None where the
    profile draws the same cases every run (ci without a seed)."""
    return config.getoption("--nnhal-seed", None)


def hypothesis_seed(config: pytest.Config) -> str | None:
    """The seed of the run's hypothesis draws (the run's seed) as text; None where the
    profile draws the same cases every run."""
    seed = run_seed(config)
    return None if seed is None else str(seed)


def nnhal_profile(config: pytest.Config) -> str:
    """The suite profile of the run: ``ci``, ``full`` or ``thorough``."""
    return config.getoption("--nnhal-profile")
