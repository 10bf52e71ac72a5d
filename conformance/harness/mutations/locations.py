"""Our model families on constant locations, model pools, lifetimes, the input/output
index lists and extra parameters."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from hypothesis import strategies as st

from conformance.harness.mutations.base import (
    _CONSTANT,
    ALL_LEVELS,
    BELOW_1_3,
    MODEL,
    OURS,
    Q8C,
    UINT32_MAX,
    L,
    _add_pool,
    _Draft,
    _edit,
    _family,
    _fully_specified_size,
    _lifetime_name,
    _operand,
    _sampler,
    _set_field,
    copy_model,
)
from hal.memory import ASHMEM, allocate_with
from hal.types import (
    LIFETIMES_1_0,
    DataLocation,
    ExtensionParams,
    Model,
    SymmPerChannelQuantParams,
    is_oem_type,
    operand_type_introduced,
)
from hal.validation import Tier

# ---------------------------------------------------------------------------
# Our model families: lifetimes, locations, pools, lists, parameters
# ---------------------------------------------------------------------------


def _set_location(i: int, location: DataLocation) -> Callable[[Model], Model]:
    return _set_field(i, "location", location)


def _location_draft(model: Model, i: int, location: DataLocation, why: str) -> _Draft:
    old = model.operands[i].location
    return _Draft(
        f"operand{i}.location=({location.pool_index},{location.offset},{location.length})",
        f"{_operand(model, i)} location (pool {old.pool_index}, offset {old.offset}, length "
        f"{old.length}) -> (pool {location.pool_index}, offset {location.offset}, length "
        f"{location.length}): {why}",
        _set_location(i, location),
    )


@_family(
    "constant_copy_location",
    MODEL,
    Tier.PARITY,
    ("operand.location",),
    OURS,
    "a CONSTANT_COPY operand",
    "a CONSTANT_COPY location outside operand_values: pool index not 0, one byte past the end, "
    "or an offset whose sum with the length wraps in 32 bits (sampled: any offset past the end)",
)
def _constant_copy_location(model: Model) -> Iterator[_Draft]:
    size = len(model.operand_values)
    for i, operand in enumerate(model.operands):
        if operand.lifetime != L.CONSTANT_COPY:
            continue
        loc = operand.location
        yield _location_draft(
            model, i, dataclasses.replace(loc, pool_index=1), "CONSTANT_COPY uses pool 0"
        )
        yield _location_draft(
            model,
            i,
            dataclasses.replace(loc, offset=size - loc.length + 1),
            f"ends one byte past operand_values ({size} bytes)",
        )
        yield _location_draft(
            model,
            i,
            dataclasses.replace(loc, offset=UINT32_MAX),
            "offset + length exceeds 2**32 (wraps in uint32 arithmetic)",
        )


@_sampler("constant_copy_location")
def _constant_copy_location_sample(model: Model) -> st.SearchStrategy[_Draft]:
    size = len(model.operand_values)
    targets = [i for i, o in enumerate(model.operands) if o.lifetime == L.CONSTANT_COPY]
    if not targets:
        return st.nothing()

    def draft(t: tuple[int, int]) -> _Draft:
        i, offset = t
        loc = model.operands[i].location
        return _location_draft(
            model, i, dataclasses.replace(loc, offset=offset), f"past operand_values ({size} bytes)"
        )

    return (
        st.sampled_from(targets)
        .flatmap(
            lambda i: st.tuples(
                st.just(i),
                st.integers(
                    min_value=size - model.operands[i].location.length + 1, max_value=2**33
                ),
            )
        )
        .map(draft)
    )


def _constant_bytes(model: Model, i: int) -> bytes:
    loc = model.operands[i].location
    return bytes(model.operand_values[loc.offset : loc.offset + loc.length])


def _to_reference(i: int, location: Callable[[int, int, int], DataLocation], kind: str = ASHMEM):
    """Move CONSTANT_COPY operand ``i`` into a new pool, then give it ``location(pool, size,
    length)``."""

    def apply(model: Model) -> Model:
        data = _constant_bytes(model, i)
        m = copy_model(model)
        pool = allocate_with(kind, data)
        m.pools = [*m.pools, pool]
        operand = m.operands[i]
        operand.lifetime = L.CONSTANT_REFERENCE
        operand.location = location(len(m.pools) - 1, pool.size, len(data))
        return m

    return apply


@_family(
    "constant_reference_location",
    MODEL,
    Tier.PARITY,
    ("operand.location",),
    OURS,
    "a constant of at least one byte (moved into a new model pool first)",
    "a CONSTANT_REFERENCE location outside its pool: a pool index past the last pool, one byte "
    "past the pool's end, or an offset whose sum with the length wraps in 32 bits",
)
def _constant_reference_location(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if operand.lifetime != L.CONSTANT_COPY or operand.location.length == 0:
            continue
        where = _operand(model, i)
        yield _Draft(
            f"operand{i}.reference.pool+1",
            f"{where} moved into model pool {len(model.pools)}, location pool index "
            f"{len(model.pools) + 1}: no such pool",
            _to_reference(i, lambda p, size, n: DataLocation(p + 1, 0, n)),
        )
        yield _Draft(
            f"operand{i}.reference.past_end",
            f"{where} moved into model pool {len(model.pools)} of {operand.location.length} "
            "bytes, location one byte past its end",
            _to_reference(i, lambda p, size, n: DataLocation(p, size - n + 1, n)),
        )
        yield _Draft(
            f"operand{i}.reference.wrap",
            f"{where} moved into model pool {len(model.pools)}, offset {UINT32_MAX}: offset + "
            "length wraps in uint32 arithmetic",
            _to_reference(i, lambda p, size, n: DataLocation(p, UINT32_MAX, n)),
        )


@_family(
    "model_pool_invalid",
    MODEL,
    Tier.PARITY,
    ("model.pools",),
    OURS,
    "any model",
    "a model pool with an unknown memory name or without a handle",
)
def _model_pool_invalid(model: Model) -> Iterator[_Draft]:
    yield _Draft(
        "pool.name=bogus",
        f"model pool {len(model.pools)} added with memory name 'nnhal_bogus_memory'",
        _add_pool("nnhal_bogus_memory"),
    )
    yield _Draft(
        "pool.handle=None",
        f"model pool {len(model.pools)} added as 'ashmem' without a handle",
        _add_pool(ASHMEM, with_handle=False),
    )


@_family(
    "location_not_zero",
    MODEL,
    Tier.PARITY,
    ("operand.location",),
    OURS,
    "an operand that is not a constant",
    "a location on an operand that must have none (temporary, model input or output, no value)",
)
def _location_not_zero(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if operand.lifetime in _CONSTANT or operand.lifetime not in LIFETIMES_1_0:
            continue
        length = _fully_specified_size(operand) or 4
        yield _location_draft(
            model, i, DataLocation(0, 0, length), f"a {_lifetime_name(operand.lifetime)} has none"
        )
        yield _location_draft(
            model, i, DataLocation(1, 0, 0), f"a {_lifetime_name(operand.lifetime)} has none"
        )


@_family(
    "constant_length",
    MODEL,
    Tier.PARITY,
    ("operand.constant_length",),
    OURS,
    "a constant of a fundamental type with known dimensions",
    "a constant's location length one byte short of (or, inside operand_values, past) its data "
    "size",
)
def _constant_length(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        if operand.lifetime != L.CONSTANT_COPY or _fully_specified_size(operand) is None:
            continue
        loc = operand.location
        if loc.length > 0:
            yield _location_draft(
                model, i, dataclasses.replace(loc, length=loc.length - 1), "one byte short"
            )
        if loc.offset + loc.length + 1 <= len(model.operand_values):
            yield _location_draft(
                model, i, dataclasses.replace(loc, length=loc.length + 1), "one byte too long"
            )


@_family(
    "lifetime_invalid",
    MODEL,
    Tier.PARITY,
    ("operand.lifetime",),
    OURS,
    "any operand",
    "an operand lifetime that is not an OperandLifeTime (NO_VALUE + 1, which is SUBGRAPH "
    "from 1.3 and so tried through the 1.0-1.2 methods; SUBGRAPH + 1; 2**32 - 1)",
)
def _lifetime_invalid(model: Model) -> Iterator[_Draft]:
    values = (
        (L.NO_VALUE + 1, BELOW_1_3),
        (UINT32_MAX, ALL_LEVELS),
        (L.SUBGRAPH + 1, ALL_LEVELS),
    )
    for i, operand in enumerate(model.operands):
        for value, levels in values:
            if value == operand.lifetime:
                continue
            yield _Draft(
                f"operand{i}.lifetime={value}",
                f"{_operand(model, i)} lifetime {_lifetime_name(operand.lifetime)} -> {value}",
                _set_field(i, "lifetime", value),
                levels,
            )


def _append_index(field_name: str, value: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        getattr(m, field_name).append(value)

    return _edit(change)


_IO_RULES = ("model.input_indexes", "model.output_indexes")


@_family(
    "io_index_duplicate",
    MODEL,
    Tier.PARITY,
    _IO_RULES,
    OURS,
    "a model with an input or an output",
    "a model input or output listed twice",
)
def _io_index_duplicate(model: Model) -> Iterator[_Draft]:
    for field_name in ("input_indexes", "output_indexes"):
        values = getattr(model, field_name)
        if values:
            yield _Draft(
                f"{field_name}+{values[0]}",
                f"{field_name} {values} -> {[*values, values[0]]}: operand {values[0]} twice",
                _append_index(field_name, values[0]),
            )


@_family(
    "io_index_lifetime",
    MODEL,
    Tier.PARITY,
    _IO_RULES,
    OURS,
    "an operand whose lifetime is not MODEL_INPUT (for inputs) or not MODEL_OUTPUT (outputs)",
    "an operand of another lifetime listed as a model input or output",
)
def _io_index_lifetime(model: Model) -> Iterator[_Draft]:
    for field_name, lifetime in (
        ("input_indexes", L.MODEL_INPUT),
        ("output_indexes", L.MODEL_OUTPUT),
    ):
        for i, operand in enumerate(model.operands):
            if operand.lifetime != lifetime:
                yield _Draft(
                    f"{field_name}+{i}",
                    f"{_operand(model, i)}, a {_lifetime_name(operand.lifetime)}, appended to "
                    f"{field_name}",
                    _append_index(field_name, i),
                )
                break


def _io_range_draft(model: Model, field_name: str, value: int) -> _Draft:
    return _Draft(
        f"{field_name}+{value}",
        f"operand index {value} appended to {field_name} (the model has {len(model.operands)} "
        "operands)",
        _append_index(field_name, value),
    )


@_family(
    "io_index_range",
    MODEL,
    Tier.PARITY,
    _IO_RULES,
    OURS,
    "any model",
    "a model input or output index past the last operand (sampled: any out of range, negative or "
    "beyond 32 bits)",
)
def _io_index_range(model: Model) -> Iterator[_Draft]:
    for field_name in ("input_indexes", "output_indexes"):
        yield _io_range_draft(model, field_name, len(model.operands))


@_sampler("io_index_range")
def _io_index_range_sample(model: Model) -> st.SearchStrategy[_Draft]:
    values = st.one_of(
        st.integers(min_value=len(model.operands), max_value=2**33),
        st.integers(min_value=-(2**31), max_value=-1),
    )
    return st.tuples(st.sampled_from(["input_indexes", "output_indexes"]), values).map(
        lambda t: _io_range_draft(model, t[0], t[1])
    )


def _extra_draft(model: Model, i: int, extra: object, why: str) -> _Draft:
    return _Draft(
        f"operand{i}.extra={extra!r}",
        f"{_operand(model, i)} extra_params {model.operands[i].extra_params!r} -> {extra!r}: {why}",
        _set_field(i, "extra_params", extra),
    )


@_family(
    "extra_params_invalid",
    MODEL,
    Tier.PARITY,
    ("operand.extra_params",),
    OURS,
    "any operand of a fundamental type",
    "per-channel parameters inconsistent with the operand (channel dimension out of range, one "
    "scale too many, a zero scale, none at all), or extra parameters on a type that takes none",
)
def _extra_params_invalid(model: Model) -> Iterator[_Draft]:
    for i, operand in enumerate(model.operands):
        t, params = operand.type, operand.extra_params
        if t == Q8C and isinstance(params, SymmPerChannelQuantParams):
            rank = len(operand.dimensions)
            yield _extra_draft(
                model,
                i,
                dataclasses.replace(params, channel_dim=rank),
                f"channel_dim {rank} is not below the rank",
            )
            yield _extra_draft(
                model,
                i,
                dataclasses.replace(params, scales=(*params.scales, 1.0)),
                "one scale more than channels",
            )
            if params.scales:
                yield _extra_draft(
                    model,
                    i,
                    dataclasses.replace(params, scales=(0.0, *params.scales[1:])),
                    "scale 0 for channel 0",
                )
            yield _extra_draft(model, i, None, "the per-channel type needs its parameters")
        elif operand_type_introduced(t) is not None and not is_oem_type(t) and params is None:
            yield _extra_draft(
                model,
                i,
                SymmPerChannelQuantParams((1.0,), 0),
                "only TENSOR_QUANT8_SYMM_PER_CHANNEL takes per-channel parameters",
            )
            yield _extra_draft(
                model, i, ExtensionParams(b"\x00"), "only extension types take extension data"
            )
