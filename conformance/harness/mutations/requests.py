"""Request families: arguments removed or added, pool indexes, locations, dimensions,
no-value arguments, pools, unspecified outputs, input lengths."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hypothesis import strategies as st

from conformance.harness.mutations.base import (
    BELOW_1_2,
    OURS,
    REQUEST,
    UINT32_MAX,
    VTS,
    RequestSubject,
    _Draft,
    _edit_request,
    _family,
    _operation_label,
    _required_slots,
    _sampler,
    copy_request,
)
from hal.memory import HARDWARE_BUFFER_BLOB, Memory
from hal.types import DataLocation, Request, RequestArgument, is_scalar_type, is_tensor_type
from hal.validation import Tier

# ---------------------------------------------------------------------------
# Request families
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Argument:
    side: str
    """``inputs`` or ``outputs``."""
    position: int
    argument: RequestArgument
    operand: int

    @property
    def label(self) -> str:
        return f"{self.side[:-1]} {self.position} (operand {self.operand})"


def _arguments(subject: RequestSubject, with_value: bool = True) -> list[_Argument]:
    model, request = subject.model, subject.request
    result = []
    for side, indexes in (("inputs", model.input_indexes), ("outputs", model.output_indexes)):
        for k, argument in enumerate(getattr(request, side)):
            if with_value and argument.has_no_value:
                continue
            result.append(_Argument(side, k, argument, indexes[k]))
    return result


def _change_argument(side: str, k: int, **changes: object) -> Callable[[Request], Request]:
    def change(r: Request) -> None:
        arguments = getattr(r, side)
        arguments[k] = dataclasses.replace(arguments[k], **changes)

    return _edit_request(change)


def _describe_location(loc: DataLocation) -> str:
    return f"(pool {loc.pool_index}, offset {loc.offset}, length {loc.length})"


def _drop_argument(side: str, k: int) -> Callable[[Request], Request]:
    def change(r: Request) -> None:
        del getattr(r, side)[k]

    return _edit_request(change)


def _removed_family(side: str, vts_name: str, rule: str):
    def enumerate_(subject: RequestSubject) -> Iterator[_Draft]:
        for k in range(len(getattr(subject.request, side))):
            yield _Draft(
                f"{side}[{k}].removed",
                f"request {side[:-1]} argument {k} removed ({len(getattr(subject.request, side))}"
                f" -> {len(getattr(subject.request, side)) - 1} for a model of "
                f"{len(getattr(subject.request, side))})",
                _drop_argument(side, k),
            )

    _family(
        f"request_{side[:-1]}_removed",
        REQUEST,
        Tier.PARITY,
        (rule,),
        VTS,
        f"a model with an {side[:-1]}",
        f"one request {side[:-1]} argument removed",
        upstream=vts_name,
    )(enumerate_)


_removed_family("inputs", "removeInputTest", "request.input_count")
_removed_family("outputs", "removeOutputTest", "request.output_count")


def _add_argument(side: str, argument: RequestArgument) -> Callable[[Request], Request]:
    def change(r: Request) -> None:
        getattr(r, side).append(copy.deepcopy(argument))

    return _edit_request(change)


@_family(
    "request_argument_added",
    REQUEST,
    Tier.PARITY,
    ("request.input_count", "request.output_count"),
    OURS,
    "any request",
    "one request input or output argument more than the model has inputs or outputs",
)
def _request_argument_added(subject: RequestSubject) -> Iterator[_Draft]:
    request = subject.request
    extra_input = request.inputs[0] if request.inputs else RequestArgument(has_no_value=True)
    yield _Draft(
        "inputs+1",
        f"request input argument {len(request.inputs)} added (a copy of input 0) for a model of "
        f"{len(request.inputs)} inputs",
        _add_argument("inputs", extra_input),
    )
    if request.outputs:
        yield _Draft(
            "outputs+1",
            f"request output argument {len(request.outputs)} added (a copy of output 0) for a "
            f"model of {len(request.outputs)} outputs",
            _add_argument("outputs", request.outputs[0]),
        )


def _pool_index_draft(arg: _Argument, value: int, pools: int) -> _Draft:
    loc = arg.argument.location
    return _Draft(
        f"{arg.side}[{arg.position}].pool={value}",
        f"request {arg.label} pool index {loc.pool_index} -> {value} (the request has {pools} "
        "pools)",
        _change_argument(
            arg.side, arg.position, location=dataclasses.replace(loc, pool_index=value)
        ),
    )


@_family(
    "request_pool_index",
    REQUEST,
    Tier.PARITY,
    ("request.pool_index",),
    OURS,
    "a request argument with a value",
    "an argument's pool index past the last pool, or 2**32 - 1 (sampled: any out of range)",
)
def _request_pool_index(subject: RequestSubject) -> Iterator[_Draft]:
    pools = len(subject.request.pools)
    for arg in _arguments(subject):
        yield _pool_index_draft(arg, pools, pools)
        yield _pool_index_draft(arg, UINT32_MAX, pools)


@_sampler("request_pool_index")
def _request_pool_index_sample(subject: RequestSubject) -> st.SearchStrategy[_Draft]:
    arguments, pools = _arguments(subject), len(subject.request.pools)
    if not arguments:
        return st.nothing()
    values = st.one_of(
        st.integers(min_value=pools, max_value=2**33), st.integers(min_value=-(2**31), max_value=-1)
    )
    return st.tuples(st.sampled_from(arguments), values).map(
        lambda t: _pool_index_draft(t[0], t[1], pools)
    )


def _location_change(arg: _Argument, pool_size: int, offset: int, length: int) -> _Draft:
    loc = arg.argument.location
    new = DataLocation(loc.pool_index, offset, length)
    return _Draft(
        f"{arg.side}[{arg.position}].location=({offset},{length})",
        f"request {arg.label} location {_describe_location(loc)} -> {_describe_location(new)} "
        f"in a pool of {pool_size} bytes",
        _change_argument(arg.side, arg.position, location=new),
    )


@_family(
    "request_location",
    REQUEST,
    Tier.PARITY,
    ("request.location",),
    OURS,
    "a request argument with a value",
    "an argument's location outside its pool: one byte past the end, an offset whose sum with "
    "the length wraps in 32 bits, (outputs) a length past the end or one that wraps "
    "(sampled: any offset or length beyond the pool)",
)
def _request_location(subject: RequestSubject) -> Iterator[_Draft]:
    pools = subject.request.pools
    for arg in _arguments(subject):
        loc = arg.argument.location
        size = pools[loc.pool_index].size
        yield _location_change(arg, size, size - loc.length + 1, loc.length)
        yield _location_change(arg, size, UINT32_MAX, loc.length)
        if arg.side == "outputs":
            yield _location_change(arg, size, loc.offset, size - loc.offset + 1)
            yield _location_change(arg, size, loc.offset, 2**32 - loc.offset + 1)


@_sampler("request_location")
def _request_location_sample(subject: RequestSubject) -> st.SearchStrategy[_Draft]:
    arguments = _arguments(subject)
    if not arguments:
        return st.nothing()
    pools = subject.request.pools

    def for_argument(arg: _Argument) -> st.SearchStrategy[_Draft]:
        loc = arg.argument.location
        size = pools[loc.pool_index].size
        offsets = st.integers(min_value=size - loc.length + 1, max_value=2**33).map(
            lambda o: _location_change(arg, size, o, loc.length)
        )
        negative = st.integers(min_value=-(2**31), max_value=-1).map(
            lambda o: _location_change(arg, size, o, loc.length)
        )
        if arg.side == "inputs":
            return st.one_of(offsets, negative)
        lengths = st.integers(min_value=size - loc.offset + 1, max_value=2**33).map(
            lambda n: _location_change(arg, size, loc.offset, n)
        )
        return st.one_of(offsets, negative, lengths)

    return st.sampled_from(arguments).flatmap(for_argument)


def _model_dims(subject: RequestSubject, arg: _Argument) -> list[int]:
    return list(subject.model.operands[arg.operand].dimensions)


def _effective_dims(subject: RequestSubject, arg: _Argument) -> list[int] | None:
    """The argument's dimensions as the model and argument fix them, if fully known."""
    operand = subject.model.operands[arg.operand]
    dims = list(arg.argument.dimensions) or list(operand.dimensions)
    if is_tensor_type(operand.type) and not dims:
        return None
    return None if 0 in dims else dims


def _dims_draft(arg: _Argument, dims: list[int], why: str) -> _Draft:
    return _Draft(
        f"{arg.side}[{arg.position}].dims={dims}",
        f"request {arg.label} dimensions {list(arg.argument.dimensions)} -> {dims}: {why}",
        _change_argument(arg.side, arg.position, dimensions=list(dims)),
    )


@_family(
    "request_dims_rank",
    REQUEST,
    Tier.PARITY,
    ("request.dimensions_rank",),
    OURS,
    "an argument with a value whose operand has a known rank",
    "argument dimensions of another rank than the operand's (same element count: a trailing 1 "
    "added, or the last two dimensions merged)",
)
def _request_dims_rank(subject: RequestSubject) -> Iterator[_Draft]:
    for arg in _arguments(subject):
        operand = subject.model.operands[arg.operand]
        dims = _effective_dims(subject, arg)
        if dims is None or (not operand.dimensions and not is_scalar_type(operand.type)):
            continue  # the model leaves the rank open
        rank = len(dims)
        yield _dims_draft(arg, [*dims, 1], f"rank {rank + 1}, the operand has rank {rank}")
        if rank >= 2:
            yield _dims_draft(
                arg,
                [*dims[:-2], dims[-2] * dims[-1]],
                f"rank {rank - 1}, the operand has rank {rank}",
            )


@_family(
    "request_dims_conflict",
    REQUEST,
    Tier.PARITY,
    ("request.dimensions_conflict",),
    OURS,
    "an argument with a value whose operand has fully specified dimensions",
    "argument dimensions of the operand's rank contradicting a dimension the model fixes (one "
    "dimension + 1; inputs: two dimensions swapped, same size; sampled: any contradicting list)",
)
def _request_dims_conflict(subject: RequestSubject) -> Iterator[_Draft]:
    for arg in _arguments(subject):
        model_dims = _model_dims(subject, arg)
        if not model_dims or 0 in model_dims:
            continue
        for k in range(len(model_dims)):
            dims = list(model_dims)
            dims[k] += 1
            yield _dims_draft(arg, dims, f"dimension {k} conflicts with the operand's {model_dims}")
        if arg.side == "inputs" and len(model_dims) >= 2 and model_dims[0] != model_dims[-1]:
            dims = [model_dims[-1], *model_dims[1:-1], model_dims[0]]
            yield _dims_draft(
                arg, dims, f"same size, but conflicts with the operand's {model_dims}"
            )


@_sampler("request_dims_conflict")
def _request_dims_conflict_sample(subject: RequestSubject) -> st.SearchStrategy[_Draft]:
    targets = [
        (arg, _model_dims(subject, arg))
        for arg in _arguments(subject)
        if _model_dims(subject, arg) and 0 not in _model_dims(subject, arg)
    ]
    if not targets:
        return st.nothing()

    def for_target(target: tuple[_Argument, list[int]]) -> st.SearchStrategy[_Draft]:
        arg, model_dims = target
        rank = len(model_dims)
        return (
            st.lists(st.integers(min_value=1, max_value=UINT32_MAX), min_size=rank, max_size=rank)
            .filter(lambda dims: dims != model_dims)
            .map(lambda dims: _dims_draft(arg, dims, f"conflicts with the operand's {model_dims}"))
        )

    return st.sampled_from(targets).flatmap(for_target)


@_family(
    "request_no_value_location",
    REQUEST,
    Tier.PARITY,
    ("request.no_value",),
    OURS,
    "a request argument with a value",
    "an argument marked has_no_value that keeps a non-zero location, or carries dimensions",
)
def _request_no_value_location(subject: RequestSubject) -> Iterator[_Draft]:
    for arg in _arguments(subject):
        loc = arg.argument.location
        if loc != DataLocation():
            yield _Draft(
                f"{arg.side}[{arg.position}].no_value+location",
                f"request {arg.label} has_no_value False -> True, location "
                f"{_describe_location(loc)} kept",
                _change_argument(arg.side, arg.position, has_no_value=True),
            )
        dims = _effective_dims(subject, arg) or [1]
        yield _Draft(
            f"{arg.side}[{arg.position}].no_value+dims",
            f"request {arg.label} has_no_value False -> True with location all 0 and dimensions "
            f"{dims}",
            _change_argument(
                arg.side, arg.position, has_no_value=True, location=DataLocation(), dimensions=dims
            ),
        )


@_family(
    "request_pools_empty",
    REQUEST,
    Tier.PARITY,
    ("request.pool_index",),
    OURS,
    "a request argument with a value",
    "a request whose pool list is empty",
)
def _request_pools_empty(subject: RequestSubject) -> Iterator[_Draft]:
    if _arguments(subject):
        yield _Draft(
            "pools=[]",
            f"request pools ({len(subject.request.pools)}) -> none; arguments keep their locations",
            _edit_request(lambda r: setattr(r, "pools", [])),
        )


def _replace_pool(k: int, name: str | None, keep_handle: bool) -> Callable[[Request], Request]:
    def change(r: Request) -> None:
        pool = r.pools[k]
        r.pools[k] = Memory(
            pool.name if name is None else name, pool.handle if keep_handle else None, pool.size
        )

    return _edit_request(change)


@_family(
    "request_pool_invalid",
    REQUEST,
    Tier.PARITY,
    ("request.pools",),
    OURS,
    "a request with a pool",
    "a request pool with an unknown memory name, without a handle, or (before 1.2) of the 1.2-only "
    "hardware_buffer_blob kind",
)
def _request_pool_invalid(subject: RequestSubject) -> Iterator[_Draft]:
    for k, pool in enumerate(subject.request.pools):
        yield _Draft(
            f"pools[{k}].name=bogus",
            f"request pool {k} memory name {pool.name!r} -> 'nnhal_bogus_memory'",
            _replace_pool(k, "nnhal_bogus_memory", True),
        )
        yield _Draft(
            f"pools[{k}].handle=None",
            f"request pool {k} ({pool.name}) handle -> none",
            _replace_pool(k, None, False),
        )
        if pool.name != HARDWARE_BUFFER_BLOB:
            yield _Draft(
                f"pools[{k}].name=hardware_buffer_blob",
                f"request pool {k} memory name {pool.name!r} -> 'hardware_buffer_blob' before "
                "HAL 1.2",
                _replace_pool(k, HARDWARE_BUFFER_BLOB, True),
                BELOW_1_2,
            )


@_family(
    "request_output_unspecified",
    REQUEST,
    Tier.PARITY,
    ("request.output_specified",),
    OURS,
    "a case valid before 1.2 with an output tensor (run on its dynamic-output twin)",
    "a request leaving output dimensions unknown (the model leaves them 0, the argument gives "
    "none) for a model prepared at 1.0 or 1.1, which have no dynamic output shapes",
    twin=True,
)
def _request_output_unspecified(subject: RequestSubject) -> Iterator[_Draft]:
    for arg in _arguments(subject):
        operand = subject.model.operands[arg.operand]
        if arg.side != "outputs" or not is_tensor_type(operand.type) or arg.argument.dimensions:
            continue
        if 0 in operand.dimensions or not operand.dimensions:
            yield _Draft(
                f"outputs[{arg.position}].unspecified",
                f"request {arg.label} gives no dimensions for the model's "
                f"{list(operand.dimensions)}, prepared before HAL 1.2",
                copy_request,
                BELOW_1_2,
            )
            return


@_family(
    "request_input_length",
    REQUEST,
    Tier.STRICT,
    ("request.input_length",),
    OURS,
    "an input argument with a value and fully specified dimensions",
    "an input location length one byte shorter (or, inside the pool, longer) than its data",
)
def _request_input_length(subject: RequestSubject) -> Iterator[_Draft]:
    pools = subject.request.pools
    for arg in _arguments(subject):
        if arg.side != "inputs" or _effective_dims(subject, arg) is None:
            continue
        loc = arg.argument.location
        size = pools[loc.pool_index].size
        if loc.length > 0:
            yield _location_change(arg, size, loc.offset, loc.length - 1)
        if loc.offset + loc.length + 1 <= size:
            yield _location_change(arg, size, loc.offset, loc.length + 1)


@_family(
    "request_required_no_value",
    REQUEST,
    Tier.STRICT,
    ("request.no_value_required",),
    OURS,
    "an input feeding an operation input slot the catalog does not mark omittable",
    "a required input given as has_no_value (all-zero location, no dimensions)",
)
def _request_required_no_value(subject: RequestSubject) -> Iterator[_Draft]:
    required = {v: (j, k) for j, k, v in _required_slots(subject.model)}
    for arg in _arguments(subject):
        if arg.side == "inputs" and arg.operand in required:
            j, k = required[arg.operand]
            yield _Draft(
                f"inputs[{arg.position}].no_value",
                f"request {arg.label} given no value, but it feeds "
                f"{_operation_label(subject.model, j)} input {k}, which is required",
                _change_argument(
                    "inputs",
                    arg.position,
                    has_no_value=True,
                    location=DataLocation(),
                    dimensions=[],
                ),
            )
