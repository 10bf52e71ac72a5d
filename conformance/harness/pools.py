"""Generated cases with their data in pools of every kind and layout (the memory suite).

A pool variant is a layout and a pool kind (``ashmem``, ``mmap_fd``,
``hardware_buffer_blob``):

* ``packed``: the VTS layout (inputs in one pool, outputs in another);
* ``many``: one small pool per argument, at an odd offset between guard bytes;
* ``shared``: one pool holding every input and output, each between guard bytes;
* ``constref``: every constant moved into a CONSTANT_REFERENCE pool of the
  kind (the request packed in ashmem).

``ashmem`` and ``mmap_fd`` are mandatory. A driver that cannot map
``hardware_buffer_blob`` answers GENERAL_FAILURE (preparation for constants,
execution for arguments); that is recorded as unsupported, not as a failure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from conformance.harness import items
from conformance.harness.calls import prepare, supported_operations
from conformance.harness.cases import GeneratedTest
from conformance.harness.execution import PATHS_BY_ID, check_shapes, check_timing, run
from conformance.harness.extensions import require_extensions
from conformance.harness.items import CaseId, Item
from conformance.harness.marks import case_marks, mark
from conformance.harness.models import with_constants_in_pool
from conformance.harness.requests import (
    GUARD,
    GUARD_SIZE,
    Layout,
    PackedRequest,
    _input_arguments,
    pack_request,
)
from conformance.harness.runner import (
    Run,
    _judge_outputs,
    _judge_status,
    prepare_case,
    skip_if_declined,
)
from hal.memory import ALLOCATABLE_KINDS, HARDWARE_BUFFER_BLOB, Memory, allocate_with
from hal.operations import Tier
from hal.types import (
    DataLocation,
    ErrorStatus,
    HalVersion,
    Model,
    OperandLifeTime,
    Request,
    RequestArgument,
    numpy_dtype,
)


class PoolLayout(StrEnum):
    """Where a pool variant puts the case's data (the module docstring); the value
    begins the variant's id."""

    PACKED = "packed"
    MANY = "many"
    SHARED = "shared"
    CONSTREF = "constref"


SHARED = PoolLayout.SHARED
CONSTREF = PoolLayout.CONSTREF
LAYOUTS: dict[PoolLayout, Layout | PoolLayout] = {
    PoolLayout.PACKED: Layout.PACKED,
    PoolLayout.MANY: Layout.SCATTERED,
    PoolLayout.SHARED: PoolLayout.SHARED,
}
"""Request layouts by variant name (``constref`` packs its request as ``packed``)."""
VARIANTS = (*LAYOUTS, CONSTREF)
KINDS = ALLOCATABLE_KINDS
UNSUPPORTED_BLOB = "unsupported: hardware_buffer_blob"


@dataclass(frozen=True)
class PoolVariant:
    layout: PoolLayout
    """One of ``VARIANTS``."""
    kind: str

    @property
    def id(self) -> str:
        return f"{self.layout}-{self.kind}"

    @property
    def needs(self) -> HalVersion:
        """hardware_buffer_blob pools exist from HAL 1.2 on."""
        return HalVersion.V1_2 if self.kind == HARDWARE_BUFFER_BLOB else HalVersion.V1_0


def variants_for(model: Model) -> list[PoolVariant]:
    """Every variant that applies to ``model`` (``constref`` only when it has constants)."""
    layouts = [*LAYOUTS]
    if has_constants(model):
        layouts.append(CONSTREF)
    return [PoolVariant(layout, kind) for layout in layouts for kind in KINDS]


def has_constants(model: Model) -> bool:
    return any(
        operand.lifetime == OperandLifeTime.CONSTANT_COPY and operand.location.length > 0
        for _, graph in model.graphs()
        for operand in graph.operands
    )


def shared_request(
    model: Model, inputs: Sequence[np.ndarray | None], output_sizes: Sequence[int], kind: str
) -> PackedRequest:
    """One pool of ``kind`` holding every argument, each between ``GUARD_SIZE`` guard bytes."""
    guard = bytes([GUARD]) * GUARD_SIZE
    content = bytearray(guard)
    request = Request([], [], [])
    for argument, data in _input_arguments(model, inputs):
        if not argument.has_no_value:
            argument.location = DataLocation(0, len(content), len(data))
            content += data + guard
        request.inputs.append(argument)
    for size in output_sizes:
        request.outputs.append(RequestArgument(location=DataLocation(0, len(content), size)))
        content += bytes([GUARD]) * size + guard
    pool = allocate_with(kind, bytes(content))
    request.pools = [pool]
    dtypes = [
        numpy_dtype(model.operands[i].type, model.extension_name_to_prefix)
        for i in model.output_indexes
    ]
    return PackedRequest(request, [pool], dtypes, [bytes(content)])


def pooled_request(
    model: Model,
    inputs: Sequence[np.ndarray | None],
    output_sizes: Sequence[int],
    variant: PoolVariant,
) -> PackedRequest:
    """The request of one variant; ``constref`` requests are packed ashmem ones."""
    if variant.layout == CONSTREF:
        return pack_request(model, inputs, output_sizes)
    if variant.layout == SHARED:
        return shared_request(model, inputs, output_sizes, variant.kind)
    return pack_request(model, inputs, output_sizes, variant.kind, LAYOUTS[variant.layout])


def prepare_with_constant_pool(
    device: object, model: Model, level: HalVersion, timeout: float, kind: str, threshold: int = 0
) -> tuple[object, Memory]:
    """``model`` with every constant longer than ``threshold`` bytes (every constant by
    default) in a CONSTANT_REFERENCE pool of ``kind``, prepared.

    Returns the prepared model and the pool (the caller keeps it open while the
    prepared model is used, then closes it). Skips as unsupported where
    ``prepare_case`` would, and when a driver fails to prepare from a
    hardware_buffer_blob pool with GENERAL_FAILURE.
    """
    skip_if_declined(device, model, level)
    require_extensions(device, model)  # an undeclared extension: skipped as unsupported
    moved, pool = with_constants_in_pool(model, kind, threshold=threshold)
    try:
        if kind == HARDWARE_BUFFER_BLOB:
            return _prepare_blob(device, moved, level, timeout, model), pool
        return prepare_case(device, moved, level, timeout, case=model), pool
    except BaseException:
        pool.close()
        raise


def _prepare_blob(
    device: object, model: Model, level: HalVersion, timeout: float, case: Model
) -> object:
    """As ``prepare_case``, except that GENERAL_FAILURE means the kind is unsupported."""
    status, answers = supported_operations(device, model, level)
    if status == ErrorStatus.GENERAL_FAILURE:
        items.unsupported(
            f"{UNSUPPORTED_BLOB} constant pools: get_supported_operations answered it"
        )
    if status == ErrorStatus.NONE and answers and all(answers):
        preparation = prepare(device, model, level, timeout)
        launched = preparation.launch_status == ErrorStatus.NONE
        if launched and preparation.status == ErrorStatus.NONE:
            return preparation.prepared_model
        if launched and preparation.status == ErrorStatus.GENERAL_FAILURE:
            items.unsupported(
                f"{UNSUPPORTED_BLOB} constant pools: {preparation.method} answered GENERAL_FAILURE"
            )
    # Anything else is judged, and reported, exactly as for any other model.
    return prepare_case(device, model, level, timeout, case=case)


def execute_pooled(prepared: object, item: Run, variant: PoolVariant, timeout: float) -> None:
    """Run the item's example with its data laid out as ``variant`` says, and judge it."""
    test, feed = item.test, item.test.feeds[item.feed]
    sizes = [expected.nbytes for expected in feed.outputs]
    with pooled_request(test.model, feed.inputs, sizes, variant) as packed:
        execution = run(prepared, packed.request, PATHS_BY_ID[item.path], timeout)
        check_timing(execution)
        check_shapes(execution, len(sizes), dynamic=False)
        if (
            execution.status == ErrorStatus.GENERAL_FAILURE
            and variant.kind == HARDWARE_BUFFER_BLOB
            and variant.layout != CONSTREF
            and PATHS_BY_ID[item.path].level < HalVersion.V1_3  # 1.3: blob requests are due
        ):
            items.unsupported(
                f"{UNSUPPORTED_BLOB} request pools: {item.path} answered GENERAL_FAILURE"
            )
        _judge_status(execution.status, item)
        untouched = packed.untouched_problems()
        assert not untouched, "; ".join(untouched) + (
            f"\nrerun: {item.rerun}" if item.rerun else ""
        )
        _judge_outputs(packed, execution.output_shapes, item)


CI_STRIDE = 8
"""Under the ci profile, one generated case in this many runs."""


PoolItem = Item[PoolVariant]
"""One item of the memory suite: a generated case's example (``case.example``) in one pool
variant (``runs``), named ``V1_2/add_v1_2/base/ex0/shared-mmap_fd``."""


def pool_items(tests: list[GeneratedTest], profile: str) -> list[PoolItem]:
    """The items of a profile: all of them, or under ``ci`` a rotating sample."""
    found = []
    for position, test in enumerate(tests):
        variants = variants_for(test.model)
        if profile == "ci":
            if position % CI_STRIDE:
                continue
            variants = [variants[(position // CI_STRIDE) % len(variants)]]
        marks = (mark("tier", Tier.STRICT), *case_marks(test))
        for feed in range(len(test.feeds)):
            for variant in variants:
                case = CaseId.of(test, feed, variant.id)
                found.append(Item(variant, case, test=test, marks=marks))
    return found
