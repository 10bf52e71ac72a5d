"""The model rules: operands, their types, shapes, quantization, lifetimes and
locations, the model's indexes, pools and version."""

from __future__ import annotations

import math
from collections.abc import Iterator

from hal.operations import (
    Tier,
)
from hal.types import (
    ExtensionParams,
    HalVersion,
    Operand,
    OperandLifeTime,
    OperandType,
    SymmPerChannelQuantParams,
    describe_type,
    extension_prefix,
    is_extension_type,
    is_oem_type,
    is_scalar_type,
    is_tensor_type,
    operand_type_introduced,
)
from hal.validation.core import (
    _CONSTANT_LIFETIMES,
    UINT32_MAX,
    _bounds_problem,
    _dims_ok,
    _int,
    _items,
    _lifetime_name,
    _model_rule,
    _ModelFacts,
    _pool_problems,
    _pool_size,
    _real,
    _type_name,
    lifetimes_at,
)

# ---------------------------------------------------------------------------
# Model rules
# ---------------------------------------------------------------------------


@_model_rule("model.operands_nonempty", Tier.PARITY, "a model has at least one operand")
def _operands_nonempty(facts: _ModelFacts) -> Iterator[str]:
    if not facts.operands:
        yield "model has no operands"


@_model_rule("model.operations_nonempty", Tier.PARITY, "a model has at least one operation")
def _operations_nonempty(facts: _ModelFacts) -> Iterator[str]:
    if not facts.operations:
        yield "model has no operations"


@_model_rule(
    "operand.type_known",
    Tier.PARITY,
    "an operand type is fundamental, OEM, or (1.2 only) an extension type",
)
def _operand_type_known(facts: _ModelFacts) -> Iterator[str]:
    for i, operand in enumerate(facts.operands):
        if facts.valid_types[i] is not None:
            continue
        t = facts.types[i]
        if t is not None and is_extension_type(t) and t <= UINT32_MAX:
            yield f"operand {i}: {describe_type(t)} needs HAL 1.2, model is {facts.version}"
        elif t is not None and t > UINT32_MAX:
            yield f"operand {i}: type {t:#x} does not fit in 32 bits"
        else:
            yield f"operand {i}: {_type_name(operand.type)} is not an operand type"


@_model_rule(
    "operand.type_version",
    Tier.PARITY,
    "a non-extension operand type is no newer than the model's HAL version",
)
def _operand_type_version(facts: _ModelFacts) -> Iterator[str]:
    for i, t in enumerate(facts.types):
        introduced = operand_type_introduced(t) if t is not None else None
        if introduced is not None and introduced > facts.version:
            yield f"operand {i}: {describe_type(t)} needs HAL {introduced}, model is {facts.version}"


@_model_rule(
    "operand.extension_prefix",
    Tier.STRICT,
    "an extension operand type's prefix is declared in extension_name_to_prefix",
)
def _operand_extension_prefix(facts: _ModelFacts) -> Iterator[str]:
    for i, _, t in facts.typed:
        if is_extension_type(t) and extension_prefix(t) not in facts.declared_prefixes:
            yield (
                f"operand {i}: {describe_type(t)} uses prefix {extension_prefix(t)}, "
                "which the model does not declare"
            )


@_model_rule(
    "model.extension_prefixes",
    Tier.STRICT,
    "extension names and prefixes are each declared once; prefixes fit in 16 bits",
)
def _extension_prefixes(facts: _ModelFacts) -> Iterator[str]:
    names: dict[str, int] = {}
    prefixes: dict[int, int] = {}
    for k, entry in enumerate(_items(facts.model.extension_name_to_prefix)):
        name, prefix = getattr(entry, "name", None), getattr(entry, "prefix", None)
        if not (isinstance(name, str) and name):
            yield f"extension_name_to_prefix[{k}]: name {name!r} is not a non-empty string"
        elif name in names:
            yield f"extension_name_to_prefix[{k}]: name {name!r} repeats entry {names[name]}"
        else:
            names[name] = k
        p = _int(prefix)
        if p is None or not 0 <= p <= 0xFFFF:
            yield f"extension_name_to_prefix[{k}]: prefix {prefix!r} does not fit in 16 bits"
        elif p in prefixes:
            yield f"extension_name_to_prefix[{k}]: prefix {p} repeats entry {prefixes[p]}"
        else:
            prefixes[p] = k


@_model_rule(
    "model.extensions_version",
    Tier.PARITY,
    "only a 1.2 model may declare extensions",
)
def _extensions_version(facts: _ModelFacts) -> Iterator[str]:
    entries = _items(facts.model.extension_name_to_prefix)
    if entries and facts.version < HalVersion.V1_2:
        yield (
            f"model declares {len(entries)} extension prefix(es), which needs HAL 1.2, "
            f"model is {facts.version}"
        )


@_model_rule("operand.scalar_rank", Tier.PARITY, "a scalar operand has no dimensions")
def _scalar_rank(facts: _ModelFacts) -> Iterator[str]:
    for i, operand, t in facts.typed:
        if not is_scalar_type(t):
            continue
        dims = _items(operand.dimensions)
        if dims:
            yield f"operand {i}: {describe_type(t)} is a scalar but has dimensions {list(dims)}"


@_model_rule(
    "operand.tensor_rank",
    Tier.PARITY,
    "a tensor of unknown rank (no dimensions) is only allowed at 1.2, and never as a constant",
)
def _tensor_rank(facts: _ModelFacts) -> Iterator[str]:
    for i, _, t in facts.typed:
        if facts.dims[i] != () or not is_tensor_type(t):
            continue
        lifetime = facts.lifetimes[i]
        if lifetime in _CONSTANT_LIFETIMES:
            yield f"operand {i}: constant {describe_type(t)} has unknown rank (no dimensions)"
        elif facts.version < HalVersion.V1_2:
            yield (
                f"operand {i}: {describe_type(t)} has unknown rank (no dimensions), "
                f"which needs HAL 1.2, model is {facts.version}"
            )


@_model_rule(
    "operand.dimensions_nonnegative",
    Tier.PARITY,
    "every dimension is an integer in [0, 2**32)",
)
def _dimensions_nonnegative(facts: _ModelFacts) -> Iterator[str]:
    for i, operand in enumerate(facts.operands):
        if _dims_ok(facts.dims[i]):
            continue
        dims = operand.dimensions
        if not isinstance(dims, list | tuple):
            yield f"operand {i}: dimensions {dims!r} is not a list"
            continue
        for k, d in enumerate(dims):
            value = _int(d)
            if value is None or not 0 <= value <= UINT32_MAX:
                yield f"operand {i}: dimensions[{k}] = {d!r} is not a uint32"


_SCALE_ZERO = frozenset(
    {
        OperandType.FLOAT32,
        OperandType.INT32,
        OperandType.UINT32,
        OperandType.BOOL,
        OperandType.FLOAT16,
        OperandType.TENSOR_FLOAT32,
        OperandType.TENSOR_FLOAT16,
        OperandType.SUBGRAPH,
        OperandType.TENSOR_BOOL8,
        OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL,
    }
)
_SCALE_POSITIVE = frozenset(
    {
        OperandType.TENSOR_QUANT8_ASYMM,
        OperandType.TENSOR_QUANT8_ASYMM_SIGNED,
        OperandType.TENSOR_QUANT8_SYMM,
        OperandType.TENSOR_QUANT16_ASYMM,
        OperandType.TENSOR_QUANT16_SYMM,
    }
)


def _scale_problem(t: int, scale: float) -> str | None:
    if is_oem_type(t):
        return None
    if not math.isfinite(scale):
        return "is not finite"
    if (t in _SCALE_ZERO or is_extension_type(t)) and scale != 0:
        return "must be 0"
    if t == OperandType.TENSOR_INT32 and scale < 0:
        return "must be >= 0"
    if t in _SCALE_POSITIVE and not scale > 0:
        return "must be > 0"
    return None


@_model_rule(
    "operand.scale",
    Tier.PARITY,
    "scale is finite: 0 for unquantized and per-channel types, >= 0 for TENSOR_INT32, "
    "> 0 for the other quantized types, 0 for extensions; OEM types are not checked",
)
def _operand_scale(facts: _ModelFacts) -> Iterator[str]:
    for i, operand, t in facts.typed:
        scale = operand.scale
        if scale.__class__ is float:  # the common cases, as _scale_problem finds them
            if scale == 0.0 and t in _SCALE_ZERO:
                continue
            if 0.0 < scale < math.inf and t in _SCALE_POSITIVE:
                continue
        scale = _real(scale)
        if scale is None and not is_oem_type(t):
            yield f"operand {i}: {describe_type(t)} scale {operand.scale!r} is not a number"
            continue
        problem = None if scale is None else _scale_problem(t, scale)
        if problem:
            yield f"operand {i}: {describe_type(t)} scale {scale!r} {problem}"


_ZERO_POINT_RANGE: dict[int, tuple[int, int]] = {
    OperandType.TENSOR_QUANT8_ASYMM: (0, 255),
    OperandType.TENSOR_QUANT8_ASYMM_SIGNED: (-128, 127),
    OperandType.TENSOR_QUANT16_ASYMM: (0, 65535),
}


@_model_rule(
    "operand.zero_point",
    Tier.PARITY,
    "zero_point is in [0, 255] for TENSOR_QUANT8_ASYMM, [-128, 127] for "
    "TENSOR_QUANT8_ASYMM_SIGNED (1.3), [0, 65535] for TENSOR_QUANT16_ASYMM, "
    "0 for every other type except OEM types",
)
def _operand_zero_point(facts: _ModelFacts) -> Iterator[str]:
    for i, operand, t in facts.typed:
        if is_oem_type(t):
            continue
        low, high = _ZERO_POINT_RANGE.get(t, (0, 0))
        zero_point = _int(operand.zero_point)
        if zero_point is None or not low <= zero_point <= high:
            allowed = "0" if low == high else f"in [{low}, {high}]"
            yield (
                f"operand {i}: {describe_type(t)} zero_point {operand.zero_point!r} "
                f"must be {allowed}"
            )


def _channel_problem(params: object, dims: tuple[int, ...] | None) -> str | None:
    if not isinstance(params, SymmPerChannelQuantParams):
        return f"needs SymmPerChannelQuantParams, has {params!r}"
    channel_dim = _int(params.channel_dim)
    if dims is None or channel_dim is None or not 0 <= channel_dim < len(dims):
        return f"channel_dim {params.channel_dim!r} is not below the rank {len(dims or ())}"
    channels = dims[channel_dim]
    if channels == 0:
        return f"dimension {channel_dim} (the channel dimension) is 0"
    scales = _items(params.scales)
    if len(scales) != channels:
        return f"has {len(scales)} scales for {channels} channels"
    bad = [s for s in scales if _real(s) is None or not 0 < _real(s) < math.inf]
    if bad:
        return f"scales must be finite and > 0, has {bad[0]!r}"
    return None


def _extra_params_problem(t: int, operand: Operand, dims: tuple[int, ...] | None) -> str | None:
    params = operand.extra_params
    if is_oem_type(t):
        return None
    if t == OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL:
        return _channel_problem(params, dims)
    if is_extension_type(t):
        ok = params is None or isinstance(params, ExtensionParams)
        return None if ok else f"must be None or ExtensionParams, has {params!r}"
    return None if params is None else f"must be None, has {params!r}"


@_model_rule(
    "operand.extra_params",
    Tier.PARITY,
    "per-channel operands carry valid SymmPerChannelQuantParams; other fundamental types "
    "none; extension types none or ExtensionParams",
)
def _operand_extra_params(facts: _ModelFacts) -> Iterator[str]:
    for i, operand, t in facts.typed:
        if operand.extra_params is None and t != OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL:
            continue  # None is right for every other type
        problem = _extra_params_problem(t, operand, facts.dims[i])
        if problem:
            yield f"operand {i}: {describe_type(t)} extra_params {problem}"


@_model_rule(
    "operand.lifetime",
    Tier.PARITY,
    "lifetime is an OperandLifeTime value; SUBGRAPH (6) only from HAL 1.3",
)
def _operand_lifetime(facts: _ModelFacts) -> Iterator[str]:
    valid = lifetimes_at(facts.version)
    for i, operand in enumerate(facts.operands):
        lifetime = facts.lifetimes[i]
        if lifetime in valid:
            continue
        if lifetime == OperandLifeTime.SUBGRAPH:
            yield f"operand {i}: lifetime SUBGRAPH needs HAL 1.3, model is {facts.version}"
        else:
            yield f"operand {i}: lifetime {operand.lifetime!r} is not an OperandLifeTime"


_LOCATED = lifetimes_at(HalVersion.V1_3) - {OperandLifeTime.SUBGRAPH}
"""The lifetimes ``operand.location`` judges at any level (SUBGRAPH has a rule of its own;
a lifetime a level does not know is ``operand.lifetime``'s)."""
_NOWHERE = (0, 0, 0)


def _location_problem(facts: _ModelFacts, lifetime: int, loc: tuple[int, int, int]) -> str | None:
    pool_index, offset, length = loc
    if lifetime == OperandLifeTime.CONSTANT_COPY:
        if pool_index != 0:
            return f"pool_index is {pool_index}, must be 0"
        values = facts.model.operand_values
        return _bounds_problem(loc, len(values) if isinstance(values, bytes | bytearray) else 0)
    if lifetime == OperandLifeTime.CONSTANT_REFERENCE:
        pools = _items(facts.model.pools)
        size = _pool_size(pools, pool_index)
        if size is None:
            return f"pool_index {pool_index} is not one of the model's {len(pools)} pools"
        return _bounds_problem(loc, size)
    if loc != (0, 0, 0):
        return f"location must be all 0, is (pool {pool_index}, offset {offset}, length {length})"
    return None


@_model_rule(
    "operand.location",
    Tier.PARITY,
    "constants lie inside operand_values (CONSTANT_COPY, pool 0) or their pool "
    "(CONSTANT_REFERENCE); every other lifetime but SUBGRAPH (operand.subgraph_location) "
    "has an all-zero location",
)
def _operand_location(facts: _ModelFacts) -> Iterator[str]:
    lifetimes = facts.lifetimes
    for i, (operand, loc) in enumerate(zip(facts.operands, facts.locations, strict=True)):
        lifetime = lifetimes[i]
        if lifetime not in _LOCATED:
            continue
        if loc == _NOWHERE and lifetime not in _CONSTANT_LIFETIMES:
            continue  # the common case, as _location_problem would find it
        problem = (
            f"location {operand.location!r} is not a DataLocation"
            if loc is None
            else _location_problem(facts, lifetime, loc)
        )
        if problem:
            yield f"operand {i} ({OperandLifeTime(lifetime).name}): {problem}"


@_model_rule(
    "operand.constant_length",
    Tier.PARITY,
    "a non-OEM, non-extension constant's location.length equals its data size",
)
def _constant_length(facts: _ModelFacts) -> Iterator[str]:
    yield from (problem for extension, problem in facts.constant_lengths if not extension)


@_model_rule(
    "operand.extension_constant_length",
    Tier.STRICT,
    "a constant of an extension type hal.extensions knows has a location.length equal to "
    "its data size (Android 10 sizes no extension type)",
)
def _extension_constant_length(facts: _ModelFacts) -> Iterator[str]:
    yield from (problem for extension, problem in facts.constant_lengths if extension)


@_model_rule(
    "operand.constant_unspecified",
    Tier.STRICT,
    "a constant tensor has no dimension of 0",
)
def _constant_unspecified(facts: _ModelFacts) -> Iterator[str]:
    for i, dims in enumerate(facts.dims):
        if dims and 0 in dims and facts.lifetimes[i] in _CONSTANT_LIFETIMES:
            yield f"operand {i}: constant has unspecified dimensions {list(dims)}"


def _io_index_problems(facts: _ModelFacts, field: str, lifetime: int) -> Iterator[str]:
    first: dict[int, int] = {}
    for k, value in enumerate(_items(getattr(facts.model, field))):
        i = facts.index(value)
        if i is None:
            count = len(facts.operands)
            yield f"{field}[{k}] = {value!r} is out of range (model has {count} operands)"
            continue
        if i in first:
            yield f"{field}[{k}] = {i} repeats {field}[{first[i]}]"
        first.setdefault(i, k)
        if facts.lifetimes[i] != lifetime:
            actual = _lifetime_name(facts.operands[i].lifetime)
            yield f"{field}[{k}] = {i}: lifetime is {actual}, must be {OperandLifeTime(lifetime).name}"


@_model_rule(
    "model.input_indexes",
    Tier.PARITY,
    "input_indexes are distinct operand indexes of MODEL_INPUT operands",
)
def _input_indexes(facts: _ModelFacts) -> Iterator[str]:
    return _io_index_problems(facts, "input_indexes", OperandLifeTime.MODEL_INPUT)


@_model_rule(
    "model.output_indexes",
    Tier.PARITY,
    "output_indexes are distinct operand indexes of MODEL_OUTPUT operands",
)
def _output_indexes(facts: _ModelFacts) -> Iterator[str]:
    return _io_index_problems(facts, "output_indexes", OperandLifeTime.MODEL_OUTPUT)


@_model_rule(
    "model.io_listed",
    Tier.STRICT,
    "every MODEL_INPUT operand is in input_indexes and every MODEL_OUTPUT one in output_indexes",
)
def _io_listed(facts: _ModelFacts) -> Iterator[str]:
    listed = {
        OperandLifeTime.MODEL_INPUT: ("input_indexes", facts.model.input_indexes),
        OperandLifeTime.MODEL_OUTPUT: ("output_indexes", facts.model.output_indexes),
    }
    listed_sets = {lt: {_int(v) for v in _items(vals)} for lt, (_, vals) in listed.items()}
    for i, lifetime in enumerate(facts.lifetimes):
        if lifetime in listed and i not in listed_sets[lifetime]:
            name = OperandLifeTime(lifetime).name
            yield f"operand {i} has lifetime {name} but is not in {listed[lifetime][0]}"


@_model_rule(
    "model.pools",
    Tier.PARITY,
    "each model pool has a memory name known at the model's version and a handle",
)
def _model_pools(facts: _ModelFacts) -> Iterator[str]:
    return _pool_problems(facts.model.pools, facts.version, "model pool")


@_model_rule(
    "model.relaxed_version",
    Tier.PARITY,
    "relax_computation_float32_to_float16 is only allowed from 1.1",
)
def _relaxed_version(facts: _ModelFacts) -> Iterator[str]:
    if facts.model.relax_computation_float32_to_float16 and facts.version < HalVersion.V1_1:
        yield (
            "relax_computation_float32_to_float16 is set, which needs HAL 1.1, "
            f"model is {facts.version}"
        )


_SUBGRAPHS_SINCE = 13
"""HAL 1.3, as ``HalVersion`` numbers levels: the first level with referenced subgraphs."""


@_model_rule(
    "model.referenced_version",
    Tier.PARITY,
    "a model refers to subgraphs (Model.referenced) only from HAL 1.3",
)
def _referenced_version(facts: _ModelFacts) -> Iterator[str]:
    referenced = facts.model.referenced
    if type(referenced) is not list:
        yield f"referenced is a {type(referenced).__name__}, not a list of subgraphs"
    elif referenced and facts.version < _SUBGRAPHS_SINCE:
        count = len(referenced)
        yield (
            f"the model refers to {count} subgraph{'s' if count != 1 else ''}, which needs "
            f"HAL 1.3, model is {facts.version}"
        )
