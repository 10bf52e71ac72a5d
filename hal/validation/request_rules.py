"""The request rules: arguments, their locations, dimensions and pools, against the
model prepared."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hal.extensions import operand_type_of
from hal.operations import (
    Tier,
)
from hal.types import (
    HalVersion,
    Request,
    describe_type,
    is_extension_type,
    is_oem_type,
    is_scalar_type,
    is_tensor_type,
    operand_byte_size,
)
from hal.validation.core import (
    INT32_MAX,
    UINT32_MAX,
    _bounds_problem,
    _describe_location,
    _dims_ok,
    _ints,
    _items,
    _location,
    _ModelFacts,
    _pool_problems,
    _pool_size,
    _request_rule,
    is_token,
)

# ---------------------------------------------------------------------------
# Request rules
# ---------------------------------------------------------------------------


class _Argument:
    """One request argument with the model operand it stands for (None if unknown).

    Its fields are read once: ``no_value``, ``dims`` (None if not a list of
    integers) and ``loc`` (None if not a DataLocation of integers). ``token``:
    the token of the pool it lies in when that pool is a driver-managed buffer.
    """

    __slots__ = (
        "argument",
        "dims",
        "loc",
        "model_dims",
        "no_value",
        "operand_index",
        "operand_type",
        "position",
        "side",
        "token",
    )

    def __init__(
        self,
        side: str,
        position: int,
        argument: object,
        operand_index: int | None,
        operand_type: int | None,
        model_dims: tuple[int, ...] | None,
    ) -> None:
        self.side = side  # "input" or "output"
        self.position = position
        self.argument = argument
        self.operand_index = operand_index
        self.operand_type = operand_type
        self.model_dims = model_dims
        self.no_value = bool(getattr(argument, "has_no_value", False))
        self.dims = _ints(getattr(argument, "dimensions", None))
        self.loc = _location(getattr(argument, "location", None))
        self.token: int | None = None  # set by _RequestFacts, which knows the pools

    @property
    def label(self) -> str:
        at = "" if self.operand_index is None else f" (operand {self.operand_index})"
        return f"{self.side} {self.position}{at}"

    @property
    def model_rank(self) -> int | None:
        """The operand's rank if the model fixes it (a scalar, or a tensor with dimensions)."""
        if self.operand_type is None or self.model_dims is None:
            return None
        if self.model_dims or is_scalar_type(self.operand_type):
            return len(self.model_dims)
        return None

    @property
    def merged_dims(self) -> tuple[int, ...] | None:
        """The model's dimensions as the argument overrides them."""
        return self.dims or self.model_dims

    def unspecified(self) -> str | None:
        """Why the merged dimensions are not fully specified, or None if they are."""
        dims = self.merged_dims
        if dims is None or self.operand_type is None:
            return None
        if not dims and is_tensor_type(self.operand_type):
            return "rank is unknown"
        if any(d <= 0 for d in dims):
            return f"dimensions {list(dims)} are not all positive"
        return None


class _RequestFacts:
    def __init__(self, request: Request, model: _ModelFacts, memory_domains: bool) -> None:
        self.request = request
        self.model = model
        self.memory_domains = memory_domains
        self.pools: Sequence = _items(request.pools)
        self.inputs = self._arguments("input", request.inputs, model.model.input_indexes)
        self.outputs = self._arguments("output", request.outputs, model.model.output_indexes)
        self.arguments = [*self.inputs, *self.outputs]
        for arg in self.arguments:
            arg.token = self._token_of(arg)

    def _arguments(self, side: str, arguments: object, indexes: object) -> list[_Argument]:
        indexes = _items(indexes)
        result = []
        for k, argument in enumerate(_items(arguments)):
            i = self.model.index(indexes[k]) if k < len(indexes) else None
            t = self.model.valid_types[i] if i is not None else None
            dims = self.model.dims[i] if i is not None else None
            result.append(_Argument(side, k, argument, i, t, dims))
        return result

    def with_value(self) -> Iterator[_Argument]:
        return (a for a in self.arguments if not a.no_value)

    def _token_of(self, arg: _Argument) -> int | None:
        """The token of the pool ``arg`` lies in, if that pool is a driver-managed buffer."""
        loc = arg.loc
        if arg.no_value or loc is None or not 0 <= loc[0] < len(self.pools):
            return None
        pool = self.pools[loc[0]]
        return int(pool) if is_token(pool) else None


def _count_problem(facts: _RequestFacts, side: str, field: str) -> Iterator[str]:
    given = len(_items(getattr(facts.request, f"{side}s")))
    expected = len(_items(getattr(facts.model.model, field)))
    if given != expected:
        yield f"request has {given} {side} argument(s), model has {expected} {side}(s)"


@_request_rule(
    "request.input_count",
    Tier.PARITY,
    "the request has one input argument per model input",
)
def _input_count(facts: _RequestFacts) -> Iterator[str]:
    return _count_problem(facts, "input", "input_indexes")


@_request_rule(
    "request.output_count",
    Tier.PARITY,
    "the request has one output argument per model output",
)
def _output_count(facts: _RequestFacts) -> Iterator[str]:
    return _count_problem(facts, "output", "output_indexes")


@_request_rule(
    "request.no_value",
    Tier.PARITY,
    "an argument with has_no_value has an all-zero location and no dimensions",
)
def _no_value(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.arguments:
        if not arg.no_value:
            continue
        location = getattr(arg.argument, "location", None)
        dims = getattr(arg.argument, "dimensions", None)
        if arg.loc != (0, 0, 0) or arg.dims != ():
            yield (
                f"{arg.label}: has_no_value, but location is {_describe_location(location)} "
                f"and dimensions {dims!r}"
            )


@_request_rule(
    "request.no_value_required",
    Tier.STRICT,
    "only inputs that feed operation slots the catalog marks optional are given has_no_value",
)
def _no_value_required(facts: _RequestFacts) -> Iterator[str]:
    omitted = {arg.operand_index: arg for arg in facts.inputs if arg.no_value}
    omitted.pop(None, None)
    if not omitted:
        return
    for j, operation, signature in facts.model.matched():
        for slot, i in enumerate(operation.inputs):
            arg = omitted.get(i)
            if arg is not None and slot not in signature.omittable:
                yield (
                    f"{arg.label}: has_no_value, but {facts.model.operation_label(j)} "
                    f"input {slot} is required"
                )


@_request_rule(
    "request.pool_index",
    Tier.PARITY,
    "an argument's pool_index names one of the request's pools",
)
def _pool_index(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.with_value():
        loc = arg.loc
        if loc is None:
            location = getattr(arg.argument, "location", None)
            yield f"{arg.label}: location {location!r} is not a DataLocation"
        elif not 0 <= loc[0] < len(facts.pools):
            yield f"{arg.label}: pool_index {loc[0]} is not one of the {len(facts.pools)} pools"


@_request_rule(
    "request.location",
    Tier.PARITY,
    "an argument's offset and length are not negative and stay inside its pool (both 0 in "
    "a driver-managed buffer)",
)
def _request_location(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.with_value():
        loc = arg.loc
        token = arg.token
        if token is not None:
            if loc[1:] != (0, 0):
                yield (
                    f"{arg.label}: pool {loc[0]} is a driver-managed buffer (token {token}): "
                    f"offset {loc[1]} and length {loc[2]} must both be 0"
                )
            continue
        size = _pool_size(facts.pools, loc[0]) if loc is not None else None
        problem = None if size is None else _bounds_problem(loc, size)
        if problem:
            yield f"{arg.label}: pool {loc[0]}: {problem}"


@_request_rule(
    "request.dimensions_rank",
    Tier.PARITY,
    "argument dimensions, when given, have the operand's rank (when the model fixes it)",
)
def _dimensions_rank(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.with_value():
        dims, rank = arg.dims, arg.model_rank
        if dims and rank is not None and len(dims) != rank:
            yield f"{arg.label}: dimensions {list(dims)} have rank {len(dims)}, operand has {rank}"


@_request_rule(
    "request.dimensions_conflict",
    Tier.PARITY,
    "argument dimensions are a list of uint32 values, equal to the model's wherever those "
    "are not 0",
)
def _dimensions_conflict(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.with_value():
        dims, model_dims = arg.dims, arg.model_dims
        if dims is None:
            raw = getattr(arg.argument, "dimensions", None)
            yield f"{arg.label}: dimensions {raw!r} is not a list of integers"
            continue
        same_rank = model_dims is not None and len(model_dims) == len(dims)
        for k, d in enumerate(dims):
            model_d = model_dims[k] if same_rank else 0
            if not 0 <= d <= UINT32_MAX:
                yield f"{arg.label}: dimensions[{k}] = {d} is not a uint32"
            elif model_d != 0 and d != model_d:
                yield f"{arg.label}: dimensions[{k}] = {d} conflicts with the operand's {model_d}"


@_request_rule(
    "request.input_specified",
    Tier.PARITY,
    "every input with a value is fully specified (known rank, no 0) once its dimensions apply",
)
def _input_specified(facts: _RequestFacts) -> Iterator[str]:
    for arg in facts.inputs:
        # A driver-managed buffer brings its own dimensions; the driver checks them.
        problem = None if arg.no_value or arg.token is not None else arg.unspecified()
        if problem:
            yield f"{arg.label}: {problem}"


@_request_rule(
    "request.output_specified",
    Tier.PARITY,
    "below 1.2, every output is fully specified (known rank, no 0) once its dimensions apply",
)
def _output_specified(facts: _RequestFacts) -> Iterator[str]:
    if facts.model.version >= HalVersion.V1_2:
        return
    for arg in facts.outputs:
        problem = None if arg.no_value else arg.unspecified()
        if problem:
            yield f"{arg.label}: {problem}, which needs HAL 1.2, model is {facts.model.version}"


@_request_rule(
    "request.pools",
    Tier.PARITY,
    "each request pool has a memory name known at the model's version and a handle",
)
def _request_pools(facts: _RequestFacts) -> Iterator[str]:
    pools = _items(facts.request.pools)
    for index, pool in enumerate(pools):
        if is_token(pool) and not 0 < pool <= INT32_MAX:
            yield f"request pool {index}: token {pool} is not a positive int32"
    yield from _pool_problems(pools, facts.model.version, "request pool", tokens=True)


@_request_rule(
    "request.pool_token",
    Tier.STRICT,
    "a request pool is a driver-managed buffer's token only for drivers with memory domains",
)
def _pool_token(facts: _RequestFacts) -> Iterator[str]:
    if facts.memory_domains:
        return
    for index, pool in enumerate(_items(facts.request.pools)):
        if is_token(pool):
            yield (
                f"request pool {index} is the token {pool} of a driver-managed buffer; "
                "the driver does not implement memory domains (IMemoryDomains)"
            )


@_request_rule(
    "request.input_length",
    Tier.STRICT,
    "an input's location.length equals the byte size of its fully specified data",
)
def _input_length(facts: _RequestFacts) -> Iterator[str]:
    # Extension types: sized only for an extension hal.extensions knows, found through
    # the model's own extension_name_to_prefix (the others are the vendor's business).
    declarations = _items(facts.model.model.extension_name_to_prefix)
    for arg in facts.inputs:
        t, dims = arg.operand_type, arg.merged_dims
        loc = arg.loc
        if arg.no_value or t is None or is_oem_type(t):
            continue
        if is_extension_type(t) and (
            operand_type_of(t, declarations) is None
            or (not dims and is_tensor_type(t, declarations))
        ):
            continue
        if arg.token is not None:
            continue
        if loc is None or arg.unspecified() is not None or not _dims_ok(dims):
            continue
        size = operand_byte_size(t, dims, declarations)
        if loc[2] != size:
            yield (
                f"{arg.label}: {describe_type(t)} of dimensions {list(dims)} takes {size} "
                f"bytes, location.length is {loc[2]}"
            )
