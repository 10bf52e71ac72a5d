"""Families of the operations that pick values by index, key or hash: ``pick`` (TOPK_V2,
SELECT, EMBEDDING_LOOKUP, HASHTABLE_LOOKUP) and ``hashing`` (LSH_PROJECTION,
RANDOM_MULTINOMIAL)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from conformance.harness.corners.base import (
    _EXACT_SCALES,
    _ZERO_POINTS,
    Corner,
    _array,
    _boolean_result,
    _Builder,
    _classes,
    _exactly,
    _family,
    _omitted,
    _quant_classes_of,
    _scalar,
    oracle,
)
from hal.types import Model, OperandLifeTime, OperandType

# ---------------------------------------------------------------------------
# pick: EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, SELECT, TOPK_V2
# ---------------------------------------------------------------------------

_PICKS = ("EMBEDDING_LOOKUP", "HASHTABLE_LOOKUP", "SELECT", "TOPK_V2")
_PICKED = {
    "float32": (OperandType.TENSOR_FLOAT32, np.float32, st.integers(-3, 3).map(lambda v: v / 2)),
    "int32": (OperandType.TENSOR_INT32, np.int32, st.integers(-3, 3)),
    "quant8": (OperandType.TENSOR_QUANT8_ASYMM, np.uint8, st.integers(0, 255)),
}


def _pick_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    data = model.operands[inputs[0 if name == "TOPK_V2" else -1]]
    kinds = {v[0]: k for k, v in _PICKED.items()}
    classes = [f"rank:{len(data.dimensions)}", f"type:{kinds.get(data.type, 'other')}"]
    if name == "TOPK_V2":
        k = _scalar(constants, inputs[1])
        classes.append("k:whole-axis" if k == data.dimensions[-1] else "k:part")
    elif name == "SELECT":
        classes += _quant_classes_of(model, [inputs[1], inputs[2], operation.outputs[0]])
    return classes


def _pick_result_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """HASHTABLE_LOOKUP's hits and misses (its second output), equal values among TOPK_V2's
    (``result:ties``); otherwise what any operation's result shows (``_boolean_result``)."""
    out = outputs[0]
    if name == "HASHTABLE_LOOKUP" and len(outputs) > 1:
        hits = outputs[1]
        return ["lookup:hit"] * bool(hits.any()) + ["lookup:miss"] * bool(not hits.all())
    if name == "TOPK_V2":
        rows = out.reshape(-1, out.shape[-1])
        return ["result:ties"] if np.any(rows[:, 1:] == rows[:, :-1]) else []
    return _boolean_result(model, outputs)


@_family(
    "pick",
    operations=_PICKS,
    classes=(
        "rank:1", "rank:2", "rank:4", "type:float32", "type:int32", "type:quant8", "k:whole-axis",
        "k:part", "quant:params-differ", "result:ties", "lookup:miss", "lookup:hit",
    ),
    classify=_pick_classes,
    results=_pick_result_classes,
    results_of=("HASHTABLE_LOOKUP", "TOPK_V2"),
)  # fmt: skip
@st.composite
def pick(draw, operation: str | None = None) -> Corner:
    """TOPK_V2, SELECT, EMBEDDING_LOOKUP, HASHTABLE_LOOKUP over TENSOR_FLOAT32,
    TENSOR_INT32 and TENSOR_QUANT8_ASYMM (EMBEDDING_LOOKUP float32: its other types are
    HAL 1.2's). TOPK_V2: ranks 1-4, k from 1 to the whole last axis, values from a small
    range so ties are common (the larger index first). SELECT: condition bytes 0, 1 and
    others, the two inputs and the output each with its own power-of-two scale and zero
    point (quant8 candidates requantized, halves rounded away from zero). The lookups:
    1-4 rows of rank 2-3, 1-4 lookups with repeats; HASHTABLE_LOOKUP's sorted keys
    negative too, its lookups hitting and missing."""
    operation = operation or draw(st.sampled_from(_PICKS))
    kind = "float32"
    if operation != "EMBEDDING_LOOKUP":
        kind = draw(st.sampled_from(sorted(_PICKED)))
    type_, dtype, element = _PICKED[kind]
    builder = _Builder()
    outputs: list[np.ndarray] = []
    if operation in ("SELECT", "TOPK_V2"):
        rank = draw(st.integers(1, 4))
        dims = [draw(st.integers(1, 3)) for _ in range(rank - 1)] + [draw(st.integers(1, 5))]
    else:
        rank = draw(st.integers(2, 3))
        dims = [draw(st.integers(1, 4)), *(draw(st.integers(1, 3)) for _ in range(rank - 1))]
    count = int(np.prod(dims))
    x = draw(_exactly(element, count))
    quant = ()
    if kind == "quant8":
        quant = (draw(st.sampled_from(_EXACT_SCALES)), draw(_ZERO_POINTS))
    x_array = _array(x, dims, dtype)
    parameters: dict[str, object] = {"input": tuple(dims), "type": kind}
    if operation == "TOPK_V2":
        k = draw(st.integers(1, dims[-1]))
        out_shape, values, positions = oracle("reduction_oracle").topk(x, tuple(dims), k)
        inputs = [x_array]
        operands = [builder.input(x_array, type_, *quant), builder.int32(k)]
        outputs = [_array(values, out_shape, dtype), _array(positions, out_shape, np.int32)]
        builder.output(out_shape, type_, *quant)
        builder.output(out_shape, OperandType.TENSOR_INT32)
        parameters["k"] = k
        oracle_name = "reduction_oracle"
    elif operation == "SELECT":
        comparison = oracle("comparison_oracle")
        condition = draw(_exactly(st.sampled_from([1, 0, 7, 255]), count))
        other = draw(_exactly(element, count))
        if kind == "quant8":
            params = [quant, *((draw(st.sampled_from(_EXACT_SCALES)), draw(_ZERO_POINTS))
                               for _ in "bo")]  # fmt: skip
            a = [comparison.requantize(q, params[0], params[2]) for q in x]
            b = [comparison.requantize(q, params[1], params[2]) for q in other]
            parameters["quant (scale, zero point) a, b, out"] = tuple(params)
        else:
            params, a, b = [(), (), ()], x, other
        out = [u if c else v for c, u, v in zip(condition, a, b, strict=True)]
        inputs = [_array(condition, dims, np.uint8), x_array, _array(other, dims, dtype)]
        operands = [
            builder.input(inputs[0], OperandType.TENSOR_BOOL8),
            builder.input(inputs[1], type_, *params[0]),
            builder.input(inputs[2], type_, *params[1]),
        ]
        outputs = [_array(out, dims, dtype)]
        builder.output(dims, type_, *params[2])
        oracle_name = "comparison_oracle"
    else:
        lookup = oracle("lookup_oracle")
        k = draw(st.integers(1, 4))
        if operation == "EMBEDDING_LOOKUP":
            lookups = draw(_exactly(st.integers(0, dims[0] - 1), k))
            values, out_shape = lookup.embedding_lookup(lookups, x, dims)
            hits = None
        else:
            keys = sorted(draw(st.lists(st.integers(-5, 5), min_size=dims[0], max_size=dims[0],
                                        unique=True)))  # fmt: skip
            lookups = draw(_exactly(st.integers(-6, 6), k))
            values, out_shape, hits = lookup.hashtable_lookup(lookups, keys, x, dims)
            parameters["keys"] = keys
        indexes = _array(lookups, (k,), np.int32)
        inputs = [indexes]
        operands = [builder.input(indexes, OperandType.TENSOR_INT32)]
        if hits is not None:
            key_array = _array(keys, (len(keys),), np.int32)
            inputs.append(key_array)
            operands.append(builder.input(key_array, OperandType.TENSOR_INT32))
        inputs.append(x_array)
        operands.append(builder.input(x_array, type_, *quant))
        outputs = [_array(values, out_shape, dtype)]
        builder.output(out_shape, type_, *quant)
        if hits is not None:
            outputs.append(_array(hits, (k,), np.uint8))
            builder.output((k,), OperandType.TENSOR_QUANT8_ASYMM, 1.0, 0)
        parameters["lookups"] = lookups
        oracle_name = "lookup_oracle"
    model = builder.model(operation, operands)
    return Corner(
        "pick", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        oracle_name,
    )  # fmt: skip


# ---------------------------------------------------------------------------
# hashing: LSH_PROJECTION, RANDOM_MULTINOMIAL
# ---------------------------------------------------------------------------

_HASHING = ("LSH_PROJECTION", "RANDOM_MULTINOMIAL")
_LSH_TYPES = {1: "sparse-deprecated", 2: "dense", 3: "sparse"}
"""LSH_PROJECTION's type input: SPARSE_DEPRECATED (HAL 1.0's sparse), DENSE, SPARSE."""
_HALVES = st.integers(-16, 16).map(lambda v: v / 2)
_ANY_FLOAT32 = st.floats(width=32, allow_nan=False, allow_infinity=False)
_LSH_INPUTS = {
    "float32": (OperandType.TENSOR_FLOAT32, np.float32, "f32", st.one_of(_HALVES, _ANY_FLOAT32)),
    "int32": (OperandType.TENSOR_INT32, np.int32, "i32", st.integers(-(2**31), 2**31 - 1)),
    "quant8": (OperandType.TENSOR_QUANT8_ASYMM, np.uint8, "q8", st.integers(0, 255)),
}
"""The input types HAL 1.0 has (and their bytes' encodings in ``lookup_oracle``)."""
_LSH_ROW_SIZES = (12, 15, 16, 20, 40, 61, 70, 130)
"""Elements per input row beyond 1-8: with the 4-byte seed, keys in each of FarmHash's
length classes (0-16, 17-32, 33-64 bytes, and longer: 64-byte rounds), at their edges
(64 bytes: 15 four-byte elements; 65: 61 bytes) and of several rounds."""
_KEY_CLASSES = ((16, "key:0-16"), (32, "key:17-32"), (64, "key:33-64"))
_MARGIN = 1e-3
"""The least |score| / sum |term| of a drawn LSH_PROJECTION bit: a driver summing the
weighted fingerprints in another order or precision gets the same sign."""


def _lsh_projection(draw) -> Corner:
    """LSH_PROJECTION: SPARSE_DEPRECATED, SPARSE (without the weight) and DENSE (with it:
    Android 10 requires so, docs/operations.md, LSH_PROJECTION (15)); 1-4 hash functions of
    1-4, 16, 31 or 32 bits (the sparse types keep num_bits + ceil(log2(num_hash)) <= 32),
    seeds any finite float32; the input float32 (any finite value, -0 and subnormals too),
    int32 (any) or quant8 (any byte; its scale and zero point drawn, to be ignored), rank
    1-3 of 1-4 rows whose keys fall in every FarmHash length class; weights in [-4, 4] by
    halves, never 0. A case whose weighted sum nears 0 for some bit is not drawn
    (``_MARGIN``)."""
    from hypothesis import assume

    lookup = oracle("lookup_oracle")
    kind = draw(st.sampled_from(sorted(_LSH_TYPES)))
    num_bits = draw(st.one_of(st.integers(1, 4), st.sampled_from([16, 31, 32])))
    num_hash = draw(st.integers(1, 4 if num_bits <= 4 else 2))
    if kind != 2:
        num_hash = min(num_hash, 2 ** (32 - num_bits))
    input_kind = draw(st.sampled_from(sorted(_LSH_INPUTS)))
    type_, dtype, encoding, element = _LSH_INPUTS[input_kind]
    rank, rows = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    per_row = 1
    if rank > 1:
        per_row = draw(st.one_of(st.integers(1, 8), st.sampled_from(_LSH_ROW_SIZES)))
    dims = [rows, per_row]
    if rank == 3:
        inner = draw(st.sampled_from([d for d in range(1, per_row + 1) if per_row % d == 0]))
        dims = [rows, inner, per_row // inner]
    values = draw(_exactly(element, rows * per_row))
    hashes = draw(_exactly(st.one_of(_HALVES, _ANY_FLOAT32), num_hash * num_bits))
    weights = None
    if kind == 2:
        weights = [v / 2 for v in draw(_exactly(st.integers(-8, 8).filter(bool), rows))]
    keys = lookup.rows_bytes(values, rows, encoding)
    out, margin = lookup.lsh_projection(hashes, num_bits, keys, weights, kind)
    assume(margin >= _MARGIN)
    quant = ()
    if input_kind == "quant8":
        quant = (draw(st.sampled_from(_EXACT_SCALES)), draw(_ZERO_POINTS))
    builder = _Builder()
    x_array = _array(values, dims[:rank], dtype)
    operands = [
        builder.tensor(_array(hashes, (num_hash, num_bits))),
        builder.input(x_array, type_, *quant),
        _omitted(builder, (rows,)) if weights is None else builder.tensor(_array(weights, (rows,))),
        builder.int32(kind),
    ]
    outputs = [_array(out, (len(out),), np.int32)]
    builder.output((len(out),), OperandType.TENSOR_INT32)
    model = builder.model("LSH_PROJECTION", operands)
    parameters = {"type": _LSH_TYPES[kind], "hashes": num_hash, "bits": num_bits,
                  "input": (input_kind, tuple(dims[:rank])), "weights": weights,
                  "key bytes": len(keys[0]) + 4, "margin": f"{margin:.3g}"}  # fmt: skip
    return Corner(
        "hashing", "LSH_PROJECTION", model, [x_array], outputs, _classes(model, outputs),
        parameters, "lookup_oracle",
    )  # fmt: skip


def _random_multinomial(draw) -> Corner:
    """RANDOM_MULTINOMIAL, whose samples are random: only cases where they are certain.
    Each of 1-3 rows of 1-5 logits has one class 800 to 3000 above every other, so the
    others' probability exp(logit - max) is 0 even in double (in float32 from 104 below):
    every sample, whatever the generator and seeds, is that class. Its logit in [-20, 20]
    by halves, or -5000, 100 or 5000 (a softmax that does not subtract the maximum
    overflows or underflows); 1-5, 8 or 13 samples; the seeds a model input, a constant,
    or the constant {0, 0} (fresh randomness on Android 10: the samples stay certain)."""
    lookup = oracle("lookup_oracle")
    batches, classes = draw(st.integers(1, 3)), draw(st.integers(1, 5))
    samples = draw(st.one_of(st.integers(1, 5), st.sampled_from([8, 13])))
    logits: list[float] = []
    for _ in range(batches):
        top = draw(st.one_of(st.integers(-40, 40).map(lambda v: v / 2),
                             st.sampled_from([-5000.0, 100.0, 5000.0])))  # fmt: skip
        chosen = draw(st.integers(0, classes - 1))
        logits += [
            top if j == chosen else top - draw(st.integers(800, 3000)) for j in range(classes)
        ]
    seeding = draw(st.sampled_from(["model-input", "constant", "zero"]))
    seeds = [0, 0] if seeding == "zero" else draw(_exactly(st.integers(-(2**31), 2**31 - 1), 2))
    out = lookup.certain_multinomial(logits, classes, samples)
    builder = _Builder()
    inputs = [_array(logits, (batches, classes))]
    operands = [builder.input(inputs[0]), builder.int32(samples)]
    if seeding == "model-input":
        inputs.append(_array(seeds, (2,), np.int32))
        operands.append(builder.input(inputs[-1], OperandType.TENSOR_INT32))
    else:
        operands.append(builder.int32s(seeds))
    outputs = [_array(out, (batches, samples), np.int32)]
    builder.output((batches, samples), OperandType.TENSOR_INT32)
    model = builder.model("RANDOM_MULTINOMIAL", operands)
    parameters = {"logits": (batches, classes), "samples": samples,
                  "seeds": (seeding, tuple(seeds))}  # fmt: skip
    return Corner(
        "hashing", "RANDOM_MULTINOMIAL", model, inputs, outputs, _classes(model, outputs),
        parameters, "lookup_oracle",
    )  # fmt: skip


def _hashing_classes(model, operation, constants, name) -> list[str]:
    inputs = operation.inputs
    if name == "RANDOM_MULTINOMIAL":
        batches, count = model.operands[inputs[0]].dimensions
        samples = _scalar(constants, inputs[1])
        classes = ["batch>1"] * (batches > 1) + ["classes:1"] * (count == 1)
        if samples is not None and samples > 1:
            classes.append("samples>1")
        if inputs[2] in model.input_indexes:
            classes.append("seeds:model-input")
        elif inputs[2] in constants:
            classes.append("seeds:constant" if constants[inputs[2]].any() else "seeds:zero")
        return classes
    num_hash, num_bits = model.operands[inputs[0]].dimensions
    data, weight = model.operands[inputs[1]], model.operands[inputs[2]]
    kind = _scalar(constants, inputs[3])
    kinds = {v[0]: k for k, v in _LSH_INPUTS.items()}
    classes = [f"type:{_LSH_TYPES[kind]}"] if kind in _LSH_TYPES else []
    if weight.lifetime == OperandLifeTime.NO_VALUE:
        classes.append("unweighted")
    elif inputs[2] in constants:
        classes.append("weighted")
    classes += [f"input:{kinds.get(data.type, 'other')}", f"rank:{len(data.dimensions)}"]
    classes += ["hashes>1"] * (num_hash > 1) + ["bits:32"] * (num_bits == 32)
    dims = list(data.dimensions)
    if dims[0] > 1:
        classes.append("rows>1")
    if 0 not in dims and data.type in kinds:
        size = 1 if data.type == OperandType.TENSOR_QUANT8_ASYMM else 4
        key = 4 + size * int(np.prod(dims[1:], dtype=np.int64))
        classes.append(next((c for limit, c in _KEY_CLASSES if key <= limit), "key>64"))
    return classes


@_family(
    "hashing",
    operations=_HASHING,
    classes=(
        "type:sparse", "type:sparse-deprecated", "type:dense", "weighted", "unweighted",
        "input:float32", "input:int32", "input:quant8", "rank:1", "rank:3", "rows>1", "hashes>1",
        "bits:32", "key:0-16", "key:17-32", "key:33-64", "key>64", "batch>1", "classes:1",
        "samples>1", "seeds:model-input", "seeds:constant", "seeds:zero",
    ),
    classify=_hashing_classes,
)  # fmt: skip
@st.composite
def hashing(draw, operation: str | None = None) -> Corner:
    """LSH_PROJECTION (``_lsh_projection``) and RANDOM_MULTINOMIAL, its cases of certain
    samples only (``_random_multinomial``)."""
    operation = operation or draw(st.sampled_from(_HASHING))
    if operation == "LSH_PROJECTION":
        return _lsh_projection(draw)
    return _random_multinomial(draw)
