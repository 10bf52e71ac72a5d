"""Compilation caching: save_to_cache, prepare_model_from_cache and their security.

The upstream caching tests (docs/vts-parity.md 2.6) mapped onto this project's
caching interface, with its argument rules where the two differ (docs/suite.md,
"Compilation caching"):

* round trip: for every generated case (one per spec under the ``ci``
  profile) a model saved and prepared from its cache computes what the case
  expects (parity: a driver may decline with GENERAL_FAILURE, as VTS allows;
  strict: a save that said NONE must prepare from its cache);
* argument rules one by one, for saving and for preparing: handles with no or
  two descriptors, closed descriptors, the wrong access mode, non-empty files,
  an offset past the start, the same file twice, tokens of the wrong length;
* security, on a float32 and a quant8 model, with seeded random changes: a bit
  flipped in the model cache, bytes appended, the token changed, the model
  cache of another model (all exactly GENERAL_FAILURE and no model, as VTS
  demands), and beyond VTS the model cache truncated, emptied or swapped with
  the data cache; changes to the data cache alone may do anything but crash,
  hang, or answer a status that disagrees with the model returned;
* time-of-check-to-time-of-use: the model cache overwritten while saving or
  while preparing must never yield a model computing something else;
* descriptors closed by the client as soon as a call returns;
* a driver that does not cache: GENERAL_FAILURE from both calls, and every
  other test skips as unsupported.
"""

from __future__ import annotations

import os
import random
import resource
import threading
from collections.abc import Callable

import numpy as np
import pytest

from conformance.harness import items
from conformance.harness.caching import (
    LEVEL,
    UNSUPPORTED,
    CacheFiles,
    cache_level,
    caching_supported,
    describe,
    prepare_from_cache,
    require_caching,
    save,
    token,
)
from conformance.harness.calls import expect_status
from conformance.harness.execution import PATHS_BY_ID, run
from conformance.harness.items import CaseId
from conformance.harness.marks import case_level_marks
from conformance.harness.models import binary_model, chain_model
from conformance.harness.mutations import case_id, corpus
from conformance.harness.requests import pack_request
from conformance.harness.rerun import rerun_command
from conformance.harness.runner import Run, execute_case, prepare_case
from conformance.harness.tolerance import rules_for
from hal.memory import NativeHandle
from hal.operations import Tier
from hal.types import ErrorStatus, HalVersion

pytestmark = pytest.mark.hal_level("1.2")

NONE = ErrorStatus.NONE
INVALID = ErrorStatus.INVALID_ARGUMENT
FAILURE = ErrorStatus.GENERAL_FAILURE
V1_2 = HalVersion.V1_2


@pytest.fixture(autouse=True)
def _calls_of_the_tested_level(hal_level: HalVersion):
    """Every test here prepares, and prepares from cache, through the tested level's
    methods (1.2's, or 1.3's for a 1.3 driver, as VTS 1.3 does)."""
    token_ = LEVEL.set(max(hal_level, V1_2))
    yield
    LEVEL.reset(token_)


_CASES = {case_id(test): test for test in corpus() if not test.expect_failure}
REPRESENTATIVE = {
    "float32": "V1_0/conv2d/explicit_relu",
    "quant8": "V1_0/conv2d/explicit_relu_quant8",
}
"""The security tests' models (VTS uses a float32 and a quant8 MobileNet)."""
SIBLING = {"float32": "V1_0/conv2d/explicit_none", "quant8": "V1_0/conv2d/explicit_none_quant8"}
"""Another model of the same shape and constant layout (its activation differs), whose
model cache stands in for the representative's (VTS: ReplaceSecuritySensitiveCache)."""
SEEDS = {"ci": 1, "full": 10, "thorough": 50}
TOCTOU_ITERATIONS = {"ci": 5, "full": 100, "thorough": 300}


def _rerun(request: pytest.FixtureRequest) -> str:
    return rerun_command(request.config, __name__, request.node.name)


def _profile(config: pytest.Config) -> str:
    return config.getoption("--nnhal-profile")


def _round_trip_cases(profile: str) -> list[str]:
    if profile != "ci":
        return list(_CASES)
    first_of_spec: dict[str, str] = {}
    for case in _CASES:
        first_of_spec.setdefault(CaseId.parse(case).spec_id, case)
    return list(first_of_spec.values())


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _prepared(device, case: str, timeout: float):
    return prepare_case(device, _CASES[case].model, cache_level(), timeout)


def _saved(device, case: str, files: CacheFiles, token_: bytes, timeout: float):
    """The case prepared and saved into ``files``; skips if the driver declines the save."""
    prepared = _prepared(device, case, timeout)
    status = save(prepared, *files.handles(), token_)
    files.close_descriptors()
    if status == FAILURE:
        items.unsupported(f"{UNSUPPORTED} for this model: save_to_cache returned GENERAL_FAILURE")
    assert status == NONE, f"save_to_cache returned {status.name} for valid arguments"
    return prepared


def _check_outputs(prepared, case: str, timeout: float, request) -> None:
    """Every example of ``case`` on ``sync``, judged by the tested level's tolerance rules
    (whichever level's calls prepared it)."""
    test, rules = _CASES[case], rules_for(request.getfixturevalue("hal_level"))
    for feed in range(len(test.feeds)):
        run = Run(test, feed, "sync", rerun=_rerun(request), rules=rules)
        execute_case(prepared, run, timeout)


def _check_refused(preparation, expected: set[ErrorStatus], what: str) -> None:
    names = " or ".join(sorted(s.name for s in expected))
    assert preparation.status in expected and preparation.prepared_model is None, (
        f"{what}: expected {names} and no prepared model; got {describe(preparation)}"
    )


# ---------------------------------------------------------------------------
# Support, and drivers that do not cache
# ---------------------------------------------------------------------------


@pytest.mark.tier("parity")
def test_is_caching_supported_answers(device) -> None:
    caching_supported(device)  # (NONE, bool), checked inside


@pytest.mark.tier("parity")
def test_uncached_save_to_cache_fails_without_looking(device, hal_timeout) -> None:
    if caching_supported(device):
        pytest.skip("the driver caches: the caching tests apply instead")
    prepared = prepare_case(device, binary_model(), cache_level(), hal_timeout)
    status = save(prepared, None, None, b"")
    assert status == FAILURE, (
        f"save_to_cache of a driver without caching returned {status.name} for arguments it "
        "must not look at; expected GENERAL_FAILURE"
    )
    with CacheFiles() as files:
        status = save(prepared, *files.handles(), token(1))
        assert status == FAILURE, (
            f"save_to_cache of a driver without caching returned {status.name}; "
            "expected GENERAL_FAILURE"
        )


@pytest.mark.tier("parity")
def test_uncached_prepare_model_from_cache_fails(device, hal_timeout) -> None:
    if caching_supported(device):
        pytest.skip("the driver caches: the caching tests apply instead")
    with CacheFiles() as files:
        preparation = prepare_from_cache(device, *files.handles(os.O_RDONLY), token(1), hal_timeout)
    assert preparation.launch_status in (NONE, FAILURE), describe(preparation)
    _check_refused(preparation, {FAILURE}, "prepare_model_from_cache without caching support")


# ---------------------------------------------------------------------------
# Round trip
# ---------------------------------------------------------------------------


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    profile = _profile(metafunc.config)
    name = metafunc.function.__name__
    if name == "test_cache_round_trip":
        cases = _round_trip_cases(profile)
        # Explicit ids: pytest names a string parameter over 100 characters by its
        # position (case2683), which moves whenever a case is added before it.
        metafunc.parametrize(
            "case", [pytest.param(c, id=c, marks=case_level_marks(_CASES[c])) for c in cases]
        )
    elif name == "test_cache_round_trip_through_1_2_calls":
        # The first case of every spec, in every profile, but the 1.3 folder's: the 1.2
        # calls cannot prepare a 1.3 model.
        cases = [c for c in _round_trip_cases("ci") if not case_level_marks(_CASES[c])]
        metafunc.parametrize("case", cases, ids=cases)
    elif name in ("test_corrupted_model_cache", "test_corrupted_data_cache"):
        corruptions = (
            MODEL_CORRUPTIONS if name == "test_corrupted_model_cache" else DATA_CORRUPTIONS
        )
        params = []
        for corruption, (tier, seeded) in corruptions.items():
            seeds = range(SEEDS[profile]) if seeded else [0]
            params += [
                pytest.param(
                    kind,
                    corruption,
                    seed,
                    id=f"{kind}-{corruption}-{seed}",
                    marks=pytest.mark.tier(tier),
                )
                for kind in REPRESENTATIVE
                for seed in seeds
            ]
        metafunc.parametrize(("kind", "corruption", "seed"), params)
    elif name.startswith("test_toctou"):
        metafunc.parametrize("iterations", [TOCTOU_ITERATIONS[profile]])


@pytest.mark.tier("parity")
def test_cache_round_trip(case: str, device, hal_timeout, request) -> None:
    _round_trip(case, device, hal_timeout, request)


@pytest.mark.tier("parity")
@pytest.mark.hal_level("1.3")
def test_cache_round_trip_through_1_2_calls(case: str, device, hal_timeout, request) -> None:
    """A 1.3 driver is a 1.2 driver too, and Android 11 runs VTS 1.2's caching tests on
    it: the first case of every spec saved through ``prepare_model_1_2`` and prepared
    again through ``prepare_model_from_cache``, the 1.2 calls."""
    level = LEVEL.set(V1_2)
    try:
        _round_trip(case, device, hal_timeout, request)
    finally:
        LEVEL.reset(level)


def _round_trip(case: str, device, hal_timeout, request) -> None:
    require_caching(device)
    with CacheFiles() as files:
        _saved(device, case, files, token(1), hal_timeout)
        preparation = prepare_from_cache(device, *files.handles(os.O_RDONLY), token(1), hal_timeout)
        if preparation.status == FAILURE and preparation.prepared_model is None:
            items.unsupported(f"{UNSUPPORTED} for this model: prepare_model_from_cache declined it")
        assert preparation.status == NONE, (
            f"prepare_model_from_cache of a cache just saved: {describe(preparation)}"
        )
        _check_outputs(preparation.prepared_model, case, hal_timeout, request)


@pytest.mark.tier("strict")
@pytest.mark.parametrize("kind", list(REPRESENTATIVE))
def test_saved_cache_prepares(kind: str, device, hal_timeout, request) -> None:
    """A save that answered NONE wrote something prepare_model_from_cache accepts."""
    require_caching(device)
    case = REPRESENTATIVE[kind]
    with CacheFiles() as files:
        _saved(device, case, files, token(1), hal_timeout)
        preparation = prepare_from_cache(device, *files.handles(os.O_RDONLY), token(1), hal_timeout)
        assert preparation.status == NONE, (
            "save_to_cache returned NONE, but preparing from the files and token it was given "
            f"failed: {describe(preparation)}"
        )
        _check_outputs(preparation.prepared_model, case, hal_timeout, request)


@pytest.mark.tier("strict")
def test_descriptors_may_close_when_calls_return(device, hal_timeout, request) -> None:
    require_caching(device)
    case = REPRESENTATIVE["float32"]
    with CacheFiles() as files:
        _saved(device, case, files, token(1), hal_timeout)  # closes right after the call
        handles = files.handles(os.O_RDONLY)
        preparation = prepare_from_cache(
            device, *handles, token(1), hal_timeout, after_launch=files.close_descriptors
        )
        assert preparation.status == NONE, (
            "prepare_model_from_cache failed when the client closed the cache descriptors as "
            f"soon as the launch returned: {describe(preparation)}"
        )
        _check_outputs(preparation.prepared_model, case, hal_timeout, request)


@pytest.mark.tier("parity")
def test_prepare_from_read_write_descriptors(device, hal_timeout, request) -> None:
    """VTS opens every cache file read-write: that is a valid way to prepare too."""
    require_caching(device)
    case = REPRESENTATIVE["quant8"]
    with CacheFiles() as files:
        _saved(device, case, files, token(2), hal_timeout)
        preparation = prepare_from_cache(device, *files.handles(os.O_RDWR), token(2), hal_timeout)
        if preparation.status == FAILURE and preparation.prepared_model is None:
            items.unsupported(f"{UNSUPPORTED} for this model: prepare_model_from_cache declined it")
        assert preparation.status == NONE, describe(preparation)
        _check_outputs(preparation.prepared_model, case, hal_timeout, request)


# ---------------------------------------------------------------------------
# Argument rules
# ---------------------------------------------------------------------------

Arguments = tuple[object, object, object]


def _closed_fd(files: CacheFiles) -> int:
    """A descriptor number that is not open, and that the next open() will not reuse."""
    soft_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    for fd in range(min(soft_limit, 1 << 16) - 1, 2, -1):
        try:
            os.fstat(fd)
        except OSError:
            return fd
    raise AssertionError("every descriptor number is open")


def _at_offset(files: CacheFiles, which: str, flags: int) -> NativeHandle:
    fd = files.open(which, flags)
    os.lseek(fd, 1, os.SEEK_SET)
    return NativeHandle([fd])


def _argument_cases(flags: int) -> dict[str, Callable[[CacheFiles, bytes], Arguments]]:
    """Bad arguments for saving (flags O_RDWR) or preparing (flags O_RDONLY)."""
    wrong_mode = os.O_RDONLY if flags != os.O_RDONLY else os.O_WRONLY

    def handle(files, which):
        return files.handle(which, flags)

    return {
        "model_cache_without_fd": lambda f, t: (NativeHandle([]), handle(f, "data"), t),
        "data_cache_without_fd": lambda f, t: (handle(f, "model"), NativeHandle([]), t),
        "model_cache_with_two_fds": lambda f, t: (
            NativeHandle([f.open("model", flags), f.open("spare", flags)]),
            handle(f, "data"),
            t,
        ),
        "data_cache_with_two_fds": lambda f, t: (
            handle(f, "model"),
            NativeHandle([f.open("data", flags), f.open("spare", flags)]),
            t,
        ),
        "model_cache_wrong_access_mode": lambda f, t: (
            f.handle("model", wrong_mode),
            handle(f, "data"),
            t,
        ),
        "data_cache_wrong_access_mode": lambda f, t: (
            handle(f, "model"),
            f.handle("data", wrong_mode),
            t,
        ),
        "model_cache_closed_fd": lambda f, t: (
            NativeHandle([_closed_fd(f)]),
            handle(f, "data"),
            t,
        ),
        "data_cache_closed_fd": lambda f, t: (
            handle(f, "model"),
            NativeHandle([_closed_fd(f)]),
            t,
        ),
        "model_cache_offset_not_at_start": lambda f, t: (
            _at_offset(f, "model", flags),
            handle(f, "data"),
            t,
        ),
        "data_cache_offset_not_at_start": lambda f, t: (
            handle(f, "model"),
            _at_offset(f, "data", flags),
            t,
        ),
        "token_too_short": lambda f, t: (handle(f, "model"), handle(f, "data"), t[:-1]),
        "token_too_long": lambda f, t: (handle(f, "model"), handle(f, "data"), t + b"\0"),
        "token_not_bytes": lambda f, t: (handle(f, "model"), handle(f, "data"), t.hex()[:32]),
    }


SAVE_CASES = {
    **_argument_cases(os.O_RDWR),
    "model_cache_not_empty": lambda f, t: (
        (f.write("model", b"old"), f.handle("model"))[1],
        f.handle("data"),
        t,
    ),
    "data_cache_not_empty": lambda f, t: (
        f.handle("model"),
        (f.write("data", b"old"), f.handle("data"))[1],
        t,
    ),
    "same_file_for_both_caches": lambda f, t: (f.handle("model"), f.handle("model"), t),
}
PREPARE_CASES = _argument_cases(os.O_RDONLY)
PARITY_PREPARE_CASES = {
    name for name in PREPARE_CASES if "_fd" in name or "wrong_access_mode" in name
}
"""Rules VTS 1.2 also checks at preparation (it accepts INVALID_ARGUMENT or GENERAL_FAILURE)."""


@pytest.mark.tier("strict")
@pytest.mark.parametrize("name", list(SAVE_CASES))
def test_save_to_cache_rejects_bad_arguments(name: str, device, hal_timeout) -> None:
    require_caching(device)
    prepared = _prepared(device, REPRESENTATIVE["float32"], hal_timeout)
    with CacheFiles() as files:
        status = save(prepared, *SAVE_CASES[name](files, token(3)))
    assert status == INVALID, (
        f"save_to_cache with {name}: got {status.name}, expected INVALID_ARGUMENT"
    )


def _prepare_params() -> list:
    params = []
    for name in PREPARE_CASES:
        tiers = [Tier.PARITY, Tier.STRICT] if name in PARITY_PREPARE_CASES else [Tier.STRICT]
        params += [
            pytest.param(name, t, id=f"{name}-{t}", marks=pytest.mark.tier(t)) for t in tiers
        ]
    return params


@pytest.mark.parametrize(("name", "tier"), _prepare_params())
def test_prepare_model_from_cache_rejects_bad_arguments(
    name: str, tier: Tier, device, hal_timeout
) -> None:
    require_caching(device)
    with CacheFiles() as files:
        _saved(device, REPRESENTATIVE["float32"], files, token(3), hal_timeout)
        preparation = prepare_from_cache(device, *PREPARE_CASES[name](files, token(3)), hal_timeout)
    expected = {INVALID, FAILURE} if tier == Tier.PARITY else {INVALID}
    _check_refused(preparation, expected, f"prepare_model_from_cache with {name}")


# ---------------------------------------------------------------------------
# Security
# ---------------------------------------------------------------------------

Corruption = Callable[[CacheFiles, bytes, random.Random], bytes]
"""Changes the saved files (or picks another token); returns the token to prepare with."""


def _flip_bit(data: bytes, rng: random.Random) -> bytes:
    changed = bytearray(data)
    changed[rng.randrange(len(changed))] ^= 1 << rng.randrange(8)
    return bytes(changed)


def _flip(which: str) -> Corruption:
    def corrupt(files: CacheFiles, token_: bytes, rng: random.Random) -> bytes:
        data = files.read(which)
        if not data:
            pytest.skip(f"the driver wrote an empty {which} cache: no byte to flip")
        files.write(which, _flip_bit(data, rng))
        return token_

    return corrupt


def _append(which: str) -> Corruption:
    def corrupt(files: CacheFiles, token_: bytes, rng: random.Random) -> bytes:
        extra = bytes(rng.randrange(256) for _ in range(rng.randint(1, 256)))
        files.write(which, files.read(which) + extra)
        return token_

    return corrupt


def _truncate(which: str) -> Corruption:
    def corrupt(files: CacheFiles, token_: bytes, rng: random.Random) -> bytes:
        data = files.read(which)
        if not data:
            pytest.skip(f"the driver wrote an empty {which} cache: nothing to truncate")
        files.write(which, data[: rng.randrange(len(data))])
        return token_

    return corrupt


def _emptied(files: CacheFiles, token_: bytes, rng: random.Random) -> bytes:
    files.write("model", b"")
    return token_


def _swapped(files: CacheFiles, token_: bytes, rng: random.Random) -> bytes:
    model, data = files.read("model"), files.read("data")
    if model == data:
        pytest.skip("the two caches are identical: swapping them changes nothing")
    files.write("model", data)
    files.write("data", model)
    return token_


def _wrong_token(files: CacheFiles, token_: bytes, rng: random.Random) -> bytes:
    return _flip_bit(token_, rng)


MODEL_CORRUPTIONS: dict[str, tuple[Tier, bool]] = {
    "model_bit_flipped": (Tier.PARITY, True),
    "model_bytes_appended": (Tier.PARITY, True),
    "token_bit_flipped": (Tier.PARITY, True),
    "model_cache_of_another_model": (Tier.PARITY, False),
    "model_truncated": (Tier.STRICT, True),
    "model_emptied": (Tier.STRICT, False),
    "caches_swapped": (Tier.STRICT, False),
}
"""name -> (tier, seeded): every one must give exactly GENERAL_FAILURE and no model."""
DATA_CORRUPTIONS: dict[str, tuple[Tier, bool]] = {
    "data_bit_flipped": (Tier.PARITY, True),
    "data_bytes_appended": (Tier.PARITY, True),
    "data_truncated": (Tier.STRICT, True),
}
"""name -> (tier, seeded): anything but a crash, a hang or an inconsistent answer."""
_CORRUPT: dict[str, Corruption] = {
    "model_bit_flipped": _flip("model"),
    "model_bytes_appended": _append("model"),
    "token_bit_flipped": _wrong_token,
    "model_truncated": _truncate("model"),
    "model_emptied": _emptied,
    "caches_swapped": _swapped,
    "data_bit_flipped": _flip("data"),
    "data_bytes_appended": _append("data"),
    "data_truncated": _truncate("data"),
}


def _replace_with_other_model(device, kind: str, files: CacheFiles, timeout: float) -> None:
    """Overwrite the model cache with the one another model saved under another token."""
    with CacheFiles() as other:
        _saved(device, SIBLING[kind], other, token(5), timeout)
        files.write("model", other.read("model"))


def _corrupted_preparation(device, kind, corruption, seed, files, timeout):
    rng = random.Random(f"{kind}/{corruption}/{seed}")
    _saved(device, REPRESENTATIVE[kind], files, token(4), timeout)
    if corruption == "model_cache_of_another_model":
        _replace_with_other_model(device, kind, files, timeout)
        token_ = token(4)
    else:
        token_ = _CORRUPT[corruption](files, token(4), rng)
    return prepare_from_cache(device, *files.handles(os.O_RDONLY), token_, timeout)


def test_corrupted_model_cache(kind: str, corruption: str, seed: int, device, hal_timeout) -> None:
    require_caching(device)
    with CacheFiles() as files:
        preparation = _corrupted_preparation(device, kind, corruption, seed, files, hal_timeout)
    _check_refused(preparation, {FAILURE}, f"{corruption} (seed {seed})")


AFTER_SUCCESS = ("token_one_bit_different", "token_unrelated", "cache_of_another_model")
"""What replaces the right token, or the files, once the files prepared successfully."""


def _prepared_from(device, files: CacheFiles, token_: bytes, timeout: float, what: str):
    preparation = prepare_from_cache(device, *files.handles(os.O_RDONLY), token_, timeout)
    files.close_descriptors()
    assert preparation.status == NONE and preparation.prepared_model is not None, (
        f"{what}: save_to_cache answered NONE, but preparing from its files with its token "
        f"gave {describe(preparation)}"
    )
    return preparation.prepared_model


@pytest.mark.tier("strict")
@pytest.mark.parametrize("change", AFTER_SUCCESS)
@pytest.mark.parametrize("kind", list(REPRESENTATIVE))
def test_wrong_cache_after_a_successful_preparation(
    kind: str, change: str, device, hal_timeout
) -> None:
    """Files saved with token T and prepared with T (success), then the same untouched
    files with another token, or another model's files of the same layout (prepared
    successfully from them too): exactly GENERAL_FAILURE and no model. A driver that
    remembers what it compiled by the files' contents must still check the token."""
    require_caching(device)
    case, right = REPRESENTATIVE[kind], token(4)
    with CacheFiles() as files:
        _saved(device, case, files, right, hal_timeout)
        _prepared_from(device, files, right, hal_timeout, f"{case} with its token")
        if change == "token_one_bit_different":
            wrong = bytes([right[0] ^ 1]) + right[1:]
            what = "the files just prepared, with their token's lowest bit flipped"
        elif change == "token_unrelated":
            wrong = token(9)
            what = "the files just prepared, with an unrelated token"
        else:
            with CacheFiles() as other:
                _saved(device, SIBLING[kind], other, token(5), hal_timeout)
                sibling = f"{SIBLING[kind]} with its token"
                _prepared_from(device, other, token(5), hal_timeout, sibling)
                files.write("model", other.read("model"))
                files.write("data", other.read("data"))
            wrong = right
            what = (
                f"both files of {SIBLING[kind]} (prepared from them just before) in place of "
                f"{case}'s, with {case}'s token"
            )
        preparation = prepare_from_cache(device, *files.handles(os.O_RDONLY), wrong, hal_timeout)
    _check_refused(preparation, {FAILURE}, f"after a successful preparation from cache, {what}")


def test_corrupted_data_cache(kind: str, corruption: str, seed: int, device, hal_timeout) -> None:
    """Wrong values are allowed; a crash, a hang or an inconsistent answer is not."""
    require_caching(device)
    with CacheFiles() as files:
        preparation = _corrupted_preparation(device, kind, corruption, seed, files, hal_timeout)
    prepared = preparation.prepared_model  # status and model agree: checked by the protocol
    if prepared is None:
        return
    test = _CASES[REPRESENTATIVE[kind]]
    for feed in test.feeds:
        sizes = [expected.nbytes for expected in feed.outputs]
        with pack_request(test.model, feed.inputs, sizes) as packed:
            execution = run(prepared, packed.request, PATHS_BY_ID["sync"], hal_timeout)
            assert execution.status in ErrorStatus, execution


# ---------------------------------------------------------------------------
# Time of check to time of use
# ---------------------------------------------------------------------------

CHAIN = 100
"""The chain's length: VTS's large model has 100 operations."""
_X = np.array([1.0, -0.5], np.float32)


def _chain_output(prepared, model, timeout: float) -> np.ndarray | None:
    with pack_request(model, [_X]) as packed:
        execution = run(prepared, packed.request, PATHS_BY_ID["sync"], timeout)
        if execution.status != NONE:
            return None
        return packed.output(0, _X.shape).copy()


class _Overwriter:
    """A thread writing ``data`` over ``path`` again and again until stopped."""

    def __init__(self, path: str, data: bytes) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, args=(path, data), daemon=True)

    def _loop(self, path: str, data: bytes) -> None:
        while not self._stop.is_set():
            with open(path, "r+b") as f:
                f.write(data)
                f.truncate()

    def __enter__(self) -> _Overwriter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


def _toctou(device, timeout: float, iterations: int, during: str) -> None:
    require_caching(device)
    model, other = chain_model(CHAIN), chain_model(CHAIN - 1)
    expected = _X * np.float32(2.0**CHAIN)
    prepared = prepare_case(device, model, cache_level(), timeout)
    other_prepared = prepare_case(device, other, cache_level(), timeout)
    problems = []
    with CacheFiles() as files, CacheFiles() as other_files:
        expect_status(
            save(other_prepared, *other_files.handles(), token(6)),
            NONE,
            f"save_to_cache of a second model (a chain of {CHAIN - 1})",
        )
        other_cache = other_files.read("model")
        for iteration in range(iterations):
            files.empty()
            files.close_descriptors()
            if during == "save":
                with _Overwriter(files.paths["model"], other_cache):
                    save(prepared, *files.handles(), token(7))
                preparation = prepare_from_cache(
                    device, *files.handles(os.O_RDONLY), token(7), timeout
                )
            else:
                if save(prepared, *files.handles(), token(7)) != NONE:
                    continue
                handles = files.handles(os.O_RDONLY)
                with _Overwriter(files.paths["model"], other_cache):
                    preparation = prepare_from_cache(device, *handles, token(7), timeout)
            if preparation.prepared_model is None:
                continue
            got = _chain_output(preparation.prepared_model, model, timeout)
            if got is None or not np.array_equal(got, expected):
                problems.append(f"iteration {iteration}: prepared model computes {got}")
    assert not problems, (
        f"a model cache overwritten during {during} gave a model computing something else than "
        f"the saved one (expected {expected}): " + "; ".join(problems[:5])
    )


@pytest.mark.tier("parity")
def test_toctou_overwrite_during_save(iterations: int, device, hal_timeout) -> None:
    _toctou(device, hal_timeout, iterations, "save")


@pytest.mark.tier("parity")
def test_toctou_overwrite_during_prepare(iterations: int, device, hal_timeout) -> None:
    _toctou(device, hal_timeout, iterations, "prepare")
