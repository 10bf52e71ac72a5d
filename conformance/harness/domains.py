"""Driver-managed buffers (memory domains) as the suite uses them.

``allocate_buffer`` calls ``IMemoryDomains.allocate`` and checks the shape of
its answer (a buffer and a positive int32 token exactly when NONE; None and 0
otherwise); ``buffer_call`` calls an ``IBuffer`` method; ``place_token`` puts
an argument of a packed request into a buffer; ``run_concurrently`` runs
calls on daemon threads with a deadline, so a hung driver fails the test
instead of hanging the run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

import pytest

from conformance.harness import items
from conformance.harness.calls import as_status, call_driver
from conformance.harness.requests import PackedRequest
from hal.interfaces import IBuffer
from hal.show import show
from hal.types import BufferDesc, BufferRole, DataLocation, ErrorStatus
from hal.validation import INT32_MAX, is_token

UNSUPPORTED_DOMAINS = "unsupported: memory domains"


def allocate_buffer(
    device: object,
    desc: BufferDesc,
    prepared_models: Sequence[object],
    input_roles: Sequence[BufferRole] = (),
    output_roles: Sequence[BufferRole] = (),
) -> tuple[ErrorStatus, IBuffer | None, int]:
    """``device.allocate(...)`` with the protocol of its answer checked."""
    args = (desc, list(prepared_models), list(input_roles), list(output_roles))
    result = call_driver(device, "allocate", *args)
    if not (type(result) is tuple and len(result) == 3):
        pytest.fail(
            f"allocate returned {show(result)}; expected (ErrorStatus, IBuffer | None, token)",
            pytrace=False,
        )
    status = as_status(result[0], "allocate")
    buffer, token = result[1], result[2]
    if status == ErrorStatus.NONE:
        assert issubclass(type(buffer), IBuffer), f"allocate: NONE came with buffer {show(buffer)}"
        assert type(token) is int and is_token(token) and 0 < token <= INT32_MAX, (
            f"allocate: NONE came with token {show(token)}; expected a positive int32"
        )
    else:
        assert buffer is None and type(token) is int and token == 0, (
            f"allocate: {status.name} came with buffer {show(buffer)} and token {show(token)}; "
            "expected None and 0"
        )
    return status, buffer, token


def buffer_call(buffer: IBuffer, method: str, *args: object) -> ErrorStatus:
    """``buffer.method(*args)``: its status, an escaped exception failing the test."""
    return as_status(call_driver(buffer, method, *args), f"IBuffer.{method}")


def place_token(
    packed: PackedRequest, side: str, position: int, token: int, dimensions: Sequence[int] = ()
) -> None:
    """Move input or output ``position`` of the request into the buffer named ``token``."""
    pools = packed.request.pools
    index = next((k for k, pool in enumerate(pools) if is_token(pool) and pool == token), None)
    if index is None:
        index = len(pools)
        pools.append(token)
    argument = getattr(packed.request, f"{side}s")[position]
    argument.has_no_value = False
    argument.location = DataLocation(index, 0, 0)
    argument.dimensions = list(dimensions)


def run_concurrently(work: Callable[[int], object], count: int, timeout: float) -> list[object]:
    """``work(k)`` for k in range(count), each on its own thread; results in order.

    An exception in a thread (a failed check included) is re-raised here; a
    thread still running after ``timeout`` seconds fails the test.
    """
    results: list[object] = [None] * count
    errors: list[BaseException] = []

    def target(k: int) -> None:
        try:
            results[k] = work(k)
        except BaseException as error:  # pytest.fail too: re-raised in the test thread
            errors.append(error)

    threads = [threading.Thread(target=target, args=(k,), daemon=True) for k in range(count)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            items.timeout(
                f"a concurrent call did not return within {timeout:g} s: the driver hangs"
            )
    if errors:
        raise errors[0]
    return results
