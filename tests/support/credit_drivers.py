"""Drivers that compute nothing and try to be credited with operations anyway.

Issue 41's build item 5 ("No credit without computation"): ``tests/certificate/test_credit.py``
runs the suite against each (in a pytest subprocess, this file copied beside the
run) and proves the report credits them with nothing.

* ``WritesNothing`` answers every execution NONE and writes no output byte;
  ``ZeroOutputsOnly`` does so too, but declares support only for models whose
  every output is zero-sized (so it has nothing to write and fails nothing).
* ``Lookup`` computes nothing either: it answers a known input with the suite's
  own expected output, found by hashing the request's input bytes against the
  generated corpus, and replays answers it recorded in an earlier run (the file
  ``$NNHAL_REPLAY``; ``Recorder``, the reference driver writing down every answer
  it computes, fills it), as a driver would that memorised a run drawing the
  same cases every time.
* ``OneOff`` computes, one too high: its failure messages name values of the
  inputs drawn, so a rerun that draws the same inputs repeats them exactly.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from contextlib import ExitStack
from pathlib import Path

import numpy as np

from hal.memory import map_memory
from hal.types import ErrorStatus, Model, OperandType, OutputShape
from reference_driver import ReferenceDriver
from reference_driver.executor import RunResult
from reference_driver.prepared_model import ReferencePreparedModel


def _zero_sized_outputs_only(model: Model) -> bool:
    """Every output has an axis of 0 and some output a known non-zero axis (a static model
    of zero-sized outputs, not a dynamic twin whose every axis is unknown)."""
    dims = [model.operands[i].dimensions for i in model.output_indexes]
    return all(0 in d for d in dims) and any(any(d) for d in dims)


class _Nothing(ReferencePreparedModel):
    """Answers NONE with the declared output dimensions and writes nothing."""

    def _plan_run(self, request, binding, *limits):
        shapes = [
            OutputShape(tuple(self._model.operands[i].dimensions), True)
            for i in self._model.output_indexes
        ]
        return RunResult(ErrorStatus.NONE, shapes)


class WritesNothing(ReferenceDriver):
    """Supports what the reference supports, answers NONE and writes no output byte."""

    prepared_model_class = _Nothing


class ZeroOutputsOnly(ReferenceDriver):
    """Supports exactly the models whose outputs are all zero-sized; computes nothing."""

    prepared_model_class = _Nothing

    def _support(self, model: Model) -> list[bool]:
        supported = _zero_sized_outputs_only(model)
        return [supported and ok for ok in super()._support(model)]


# ---------------------------------------------------------------------------
# Lookup and replay
# ---------------------------------------------------------------------------


def _read(request, arguments) -> list[bytes]:
    """The bytes of each argument (empty for one without a value)."""
    with ExitStack() as stack:
        mapped = [stack.enter_context(map_memory(pool)) for pool in request.pools]
        return [
            b""
            if argument.has_no_value
            else mapped[argument.location.pool_index].read_location(argument.location)
            for argument in arguments
        ]


def _input_arrays(model: Model, request) -> list[bytes]:
    """The bytes of each request input, as the driver reads them."""
    return _read(request, request.inputs)


def _input_shapes(model: Model, request) -> list[tuple[int, ...]]:
    """Each input's dimensions: the request's where it gives them (a model of unknown
    dimensions), else the model's."""
    return [
        tuple(argument.dimensions or model.operands[index].dimensions)
        for argument, index in zip(request.inputs, model.input_indexes, strict=True)
    ]


def _key(model: Model, inputs: list[bytes], shapes: list[tuple[int, ...]]) -> str:
    """What a lookup driver hashes: the model's operations, its operands but for their
    declared dimensions (a dynamic twin finds its case), its constants, and the request's
    input bytes and dimensions. Everything that decides the answer is in it: two drawn
    cases that differ only in a quantization scale, or only in how the same bytes are
    shaped, must not share a recording."""
    digest = hashlib.sha256()
    digest.update(repr([(op.type, op.inputs, op.outputs) for op in model.operations]).encode())
    digest.update(
        repr(
            [(o.type, o.scale, o.zero_point, o.lifetime, o.extra_params) for o in model.operands]
        ).encode()
    )
    digest.update(bytes(model.operand_values))
    for value, shape in zip(inputs, shapes, strict=True):
        digest.update(repr(tuple(int(d) for d in shape)).encode())
        digest.update(len(value).to_bytes(8, "little") + value)
    return digest.hexdigest()


def _write_outputs(request, outputs: list[bytes]) -> None:
    with ExitStack() as stack:
        mapped = [stack.enter_context(map_memory(pool)) for pool in request.pools]
        for argument, data in zip(request.outputs, outputs, strict=False):
            location = argument.location
            if len(data) <= location.length:
                mapped[location.pool_index].write(location.offset, data)


_CORPUS: dict[str, tuple[list[bytes], list[tuple[int, ...]]]] | None = None


def _corpus_answers() -> dict[str, tuple[list[bytes], list[tuple[int, ...]]]]:
    """Every generated example's expected outputs and their shapes, by the hash of its model
    and inputs."""
    global _CORPUS
    if _CORPUS is None:
        from conformance.harness.generated import corpus

        table = {}
        for test in corpus():
            for feed in test.feeds:
                inputs = [a.tobytes() for a in feed.inputs]
                shapes = [a.shape for a in feed.inputs]
                table[_key(test.model, inputs, shapes)] = (
                    [a.tobytes() for a in feed.outputs],
                    [a.shape for a in feed.outputs],
                )
        _CORPUS = table
    return _CORPUS


def _replay_file() -> Path | None:
    name = os.environ.get("NNHAL_REPLAY")
    return Path(name) if name else None


def _recorded() -> dict[str, list[str]]:
    path = _replay_file()
    if path is None or not path.exists():
        return {}
    return json.loads(path.read_text())


class _LookedUp(ReferencePreparedModel):
    """Answers from the corpus or the recording; GENERAL_FAILURE for anything else."""

    def _plan_run(self, request, binding, *limits):
        model = self._model
        key = _key(model, _input_arrays(model, request), _input_shapes(model, request))
        recorded = _recorded().get(key)
        if recorded is not None:
            answer = ([bytes.fromhex(h) for h in recorded[0]], [tuple(d) for d in recorded[1]])
        else:
            answer = _corpus_answers().get(key)
        if answer is None:
            return RunResult(ErrorStatus.GENERAL_FAILURE, [])
        outputs, dims = answer
        fits = [
            len(data) <= a.location.length
            for data, a in zip(outputs, request.outputs, strict=False)
        ]
        if not all(fits):
            shapes = [OutputShape(d, ok) for d, ok in zip(dims, fits, strict=True)]
            return RunResult(ErrorStatus.OUTPUT_INSUFFICIENT_SIZE, shapes)
        _write_outputs(request, outputs)
        return RunResult(ErrorStatus.NONE, [OutputShape(d, True) for d in dims])


class Lookup(ReferenceDriver):
    """Computes nothing: the suite's expected outputs, or answers replayed from a recording."""

    prepared_model_class = _LookedUp


_RECORDING = threading.Lock()


class _Recording(ReferencePreparedModel):
    """The reference computation, every answer written down for ``Lookup`` to replay."""

    def _plan_run(self, request, binding, *limits):
        model = self._model
        key = _key(model, _input_arrays(model, request), _input_shapes(model, request))
        result = super()._plan_run(request, binding, *limits)
        path = _replay_file()
        if result.status == ErrorStatus.NONE and path is not None:
            outputs = _read(request, request.outputs)
            answer = [[o.hex() for o in outputs], [s.dimensions for s in result.output_shapes]]
            with _RECORDING:  # executions on several threads: no answer may be lost
                table = _recorded()
                table[key] = answer
                path.write_text(json.dumps(table))
        return result


class Recorder(ReferenceDriver):
    """The reference driver, recording every answer (``$NNHAL_REPLAY``)."""

    prepared_model_class = _Recording


class _OneOff(ReferencePreparedModel):
    """The reference computation with 1 added to every TENSOR_FLOAT32 output value."""

    def _plan_run(self, request, binding, *limits):
        result = super()._plan_run(request, binding, *limits)
        if result.status != ErrorStatus.NONE:
            return result
        model = self._model
        outputs = _read(request, request.outputs)
        changed = []
        for index, data in zip(model.output_indexes, outputs, strict=True):
            if model.operands[index].type == OperandType.TENSOR_FLOAT32:
                data = (np.frombuffer(data, np.float32) + np.float32(1)).tobytes()
            changed.append(data)
        _write_outputs(request, changed)
        return result


class OneOff(ReferenceDriver):
    """Computes, wrongly: every float32 output one too high (its failures name values that
    depend on the inputs)."""

    prepared_model_class = _OneOff
