"""Model families of Android 10 VTS 1.2 (ValidateModel.cpp) on operations: type, operand
indexes, operands, operations, inputs and outputs removed or added, and the execution
preference."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from hypothesis import strategies as st

from conformance.harness.mutations.base import (
    ALL_LEVELS,
    BELOW_1_3,
    CONTROL_FLOW_SIGNATURE_RULES,
    MODEL,
    OURS,
    V1_1,
    V1_2,
    VTS,
    L,
    T,
    _Draft,
    _edit,
    _family,
    _form_levels,
    _levels_rejecting,
    _op_name,
    _operand,
    _operation_label,
    _sampler,
    _touching,
    copy_model,
)
from hal.operations import operation_info, signatures
from hal.types import (
    ExecutionPreference,
    HalVersion,
    Model,
    Operand,
    Operation,
    OperationType,
    OperationTypeRange,
)
from hal.validation import Tier


def _operation_type_draft(
    model: Model, j: int, value: int, label: str, levels: frozenset[HalVersion] = ALL_LEVELS
) -> _Draft:
    def change(m: Model) -> None:
        m.operations[j].type = value

    return _Draft(
        f"operation{j}.type={value}",
        f"operation {j} type {_op_name(model.operations[j].type)} -> {value} ({label})",
        _edit(change),
        levels,
    )


@_family(
    "operation_type_invalid",
    MODEL,
    Tier.PARITY,
    ("operation.type_known", "operation.type_version"),
    VTS,
    "any operation",
    "an operation's type set to FUNDAMENTAL_MAX + 1, OEM_MIN - 1 or OEM_MAX + 1 (1.2's "
    "FUNDAMENTAL_MAX + 1, QUANTIZED_LSTM from 1.3, through the 1.0-1.2 methods; 1.3's at "
    "every level)",
    upstream="mutateOperationTypeTest",
)
def _operation_type_invalid(model: Model) -> Iterator[_Draft]:
    values = (
        (OperationTypeRange.FUNDAMENTAL_MAX + 1, "FUNDAMENTAL_MAX + 1, a 1.3 operation", BELOW_1_3),
        (OperationTypeRange.OEM_MIN - 1, "OEM_MIN - 1", ALL_LEVELS),
        (OperationTypeRange.OEM_MAX + 1, "OEM_MAX + 1", ALL_LEVELS),
        (OperationTypeRange.FUNDAMENTAL_MAX_1_3 + 1, "FUNDAMENTAL_MAX_1_3 + 1", ALL_LEVELS),
    )
    for j, operation in enumerate(model.operations):
        for value, label, levels in values:
            if value != operation.type:
                yield _operation_type_draft(model, j, value, label, levels)


def _slot_index_draft(model: Model, j: int, side: str, k: int, value: int) -> _Draft:
    def change(m: Model) -> None:
        getattr(m.operations[j], side)[k] = value

    old = getattr(model.operations[j], side)[k]
    return _Draft(
        f"operation{j}.{side}[{k}]={value}",
        f"{_operation_label(model, j)} {side[:-1]} {k} operand index {old} -> {value} "
        f"(the model has {len(model.operands)} operands)",
        _edit(change),
    )


def _slot_index_family(side: str):
    def enumerate_(model: Model) -> Iterator[_Draft]:
        for j, operation in enumerate(model.operations):
            for k in range(len(getattr(operation, side))):
                yield _slot_index_draft(model, j, side, k, len(model.operands))

    def sample(model: Model) -> st.SearchStrategy[_Draft]:
        slots = [
            (j, k)
            for j, operation in enumerate(model.operations)
            for k in range(len(getattr(operation, side)))
        ]
        if not slots:
            return st.nothing()
        out_of_range = st.one_of(
            st.integers(min_value=len(model.operands), max_value=2**32 + 7),
            st.integers(min_value=-(2**31), max_value=-1),
        )
        return st.tuples(st.sampled_from(slots), out_of_range).map(
            lambda t: _slot_index_draft(model, t[0][0], side, t[0][1], t[1])
        )

    return enumerate_, sample


for _side, _vts_name in (("inputs", "Input"), ("outputs", "Output")):
    _enum, _sample = _slot_index_family(_side)
    _family(
        f"operation_{_side[:-1]}_index",
        MODEL,
        Tier.PARITY,
        ("operation.operand_indexes",),
        VTS,
        f"an operation with an {_side[:-1]}",
        f"an operation {_side[:-1]} index set past the last operand (sampled: any index out of "
        "range, negative or beyond 32 bits)",
        upstream=f"mutateOperation{_vts_name}OperandIndexTest",
        side_rules=(
            ("operand.number_of_consumers",) if _side == "inputs" else ("operation.all_written",)
        ),
    )(_enum)
    _sampler(f"operation_{_side[:-1]}_index")(_sample)


@functools.cache
def _outputs_vary(op_type: int, level: HalVersion) -> bool:
    """Whether the catalog's forms of ``op_type`` at ``level`` (at the first level that has
    any, for a level before the operation) take different numbers of outputs (SPLIT's
    repeated output; the sequence operations' optional state outputs, 1.2's bidirectional
    merge): VTS's ``removeOperandTest`` skips their outputs, 1.2's list (SPLIT,
    BIDIRECTIONAL_SEQUENCE_LSTM and _RNN) and 1.3's (UNIDIRECTIONAL_SEQUENCE_LSTM and _RNN
    besides) being exactly these. WHILE (1.3), which the catalog lists no form for, takes
    any number of outputs up to its body's: its outputs vary too."""
    if op_type == OperationType.WHILE:
        return True
    if operation_info(op_type) is None:
        return False
    levels = [v for v in HalVersion if v >= level] + [v for v in HalVersion if v < level]
    forms = next((f for f in (signatures(op_type, v) for v in levels) if f), [])
    return len({len(s.outputs) for s in forms}) > 1 or any(
        s.repeat_output is not None for s in forms
    )


def _remove_operand_vts(i: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        del m.operands[i]
        for operation in m.operations:
            operation.inputs = [v for v in operation.inputs if v != i]
            operation.outputs = [v for v in operation.outputs if v != i]
        m.input_indexes = [v for v in m.input_indexes if v != i]
        m.output_indexes = [v for v in m.output_indexes if v != i]
        # VTS means to decrement the indexes above i but its transform does not:
        # they keep their values, pointing one operand further (or out of range).

    return _edit(change)


@_family(
    "operand_removed_vts",
    MODEL,
    Tier.PARITY,
    (
        "operation.signature",
        "operation.operand_indexes",
        "model.input_indexes",
        "model.output_indexes",
        *CONTROL_FLOW_SIGNATURE_RULES,
    ),
    VTS,
    "an operand that is not an output of an operation whose forms take different numbers of "
    "outputs at the level (SPLIT, the sequence operations: the catalog's data; WHILE)",
    "an operand deleted with every reference to it, the indexes above it left as they were "
    "(VTS's removeOperand, whose renumbering has no effect)",
    upstream="removeOperandTest",
)
def _operand_removed_vts(model: Model) -> Iterator[_Draft]:
    for i in range(len(model.operands)):
        writers = [o.type for o in model.operations if i in o.outputs]
        levels = frozenset(
            level
            for level in HalVersion
            if not any(_outputs_vary(op_type, level) for op_type in writers)
        )
        if not levels:
            continue
        yield _Draft(
            f"operand{i}.removed",
            f"{_operand(model, i)} removed; indexes above {i} not renumbered",
            _remove_operand_vts(i),
            levels,
        )


def _remove_operand_clean(model: Model, i: int) -> Model:
    m = copy_model(model)
    del m.operands[i]

    def renumber(values: list[int]) -> list[int]:
        return [v - 1 if v > i else v for v in values if v != i]

    for operation in m.operations:
        operation.inputs = renumber(operation.inputs)
        operation.outputs = renumber(operation.outputs)
    m.input_indexes = renumber(m.input_indexes)
    m.output_indexes = renumber(m.output_indexes)
    return m


@_family(
    "operand_removed_clean",
    MODEL,
    Tier.PARITY,
    ("operation.signature", *CONTROL_FLOW_SIGNATURE_RULES),
    OURS,
    "an operand used by an operation whose remaining operand types fit no form of it",
    "an operand deleted with every reference to it and the indexes above it renumbered, so the "
    "only fault is the operation's arity (the fixed form of VTS's removeOperandTest)",
    upstream="removeOperandTest",
)
def _operand_removed_clean(model: Model) -> Iterator[_Draft]:
    for i in range(len(model.operands)):
        touched = _touching(model, i)
        if not touched:
            continue
        removed = _remove_operand_clean(model, i)
        levels = _levels_rejecting(removed, touched)
        if levels:
            yield _Draft(
                f"operand{i}.removed",
                f"{_operand(model, i)} removed, indexes above it renumbered",
                functools.partial(_remove_operand_clean, i=i),
                levels,
            )


def _remove_operation(j: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        for v in m.operations[j].inputs:
            m.operands[v].number_of_consumers -= 1
        del m.operations[j]

    return _edit(change)


@_family(
    "operation_removed",
    MODEL,
    Tier.PARITY,
    ("operation.all_written",),
    VTS,
    "any operation",
    "an operation deleted (its inputs' consumer counts decremented), so its outputs are never "
    "written",
    upstream="removeOperationTest",
)
def _operation_removed(model: Model) -> Iterator[_Draft]:
    for j in range(len(model.operations)):
        yield _Draft(
            f"operation{j}.removed", f"{_operation_label(model, j)} removed", _remove_operation(j)
        )


_VTS_OPTIONAL_INPUTS: dict[int, tuple[tuple[int, int], ...]] = {
    OperationType.DEPTHWISE_CONV_2D: ((12, 11), (9, 8)),
    OperationType.CONV_2D: ((11, 10), (8, 7)),
    OperationType.AVERAGE_POOL_2D: ((11, 10), (8, 7)),
    OperationType.MAX_POOL_2D: ((11, 10), (8, 7)),
    OperationType.L2_POOL_2D: ((11, 10), (8, 7)),
    OperationType.RESIZE_BILINEAR: ((4, 3),),
    OperationType.SPACE_TO_DEPTH: ((3, 2),),
    OperationType.DEPTH_TO_SPACE: ((3, 2),),
    OperationType.BATCH_TO_SPACE_ND: ((3, 2),),
    OperationType.SPACE_TO_BATCH_ND: ((4, 3),),
    OperationType.L2_NORMALIZATION: ((2, 1),),
    OperationType.LOCAL_RESPONSE_NORMALIZATION: ((6, 5),),
    OperationType.SOFTMAX: ((3, 2),),
}
"""VTS's ``removeOperationInputSkip``: (input count, slot) pairs that are legally optional."""


def _vts_input_removal_skipped(operation: Operation, k: int) -> bool:
    n = len(operation.inputs)
    if operation.type == OperationType.CONCATENATION and n > 2 and k != n - 1:
        return True
    return (n, k) in _VTS_OPTIONAL_INPUTS.get(operation.type, ())


def _drop_input(j: int, k: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        operation = m.operations[j]
        m.operands[operation.inputs[k]].number_of_consumers -= 1
        del operation.inputs[k]

    return _edit(change)


@_family(
    "operation_input_removed",
    MODEL,
    Tier.PARITY,
    ("operation.signature", *CONTROL_FLOW_SIGNATURE_RULES),
    VTS,
    "an operation input that is not legally optional (VTS's skip list, and the catalog's forms)",
    "an operation input slot dropped (its operand's consumer count decremented)",
    upstream="removeOperationInputTest",
)
def _operation_input_removed(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        for k in range(len(operation.inputs)):
            if _vts_input_removal_skipped(operation, k):
                continue
            ins = [model.operands[v] for v in operation.inputs[:k] + operation.inputs[k + 1 :]]
            levels = ALL_LEVELS - _form_levels(
                model, operation.type, ins, [model.operands[v] for v in operation.outputs]
            )
            if levels:
                yield _Draft(
                    f"operation{j}.inputs[{k}].removed",
                    f"{_operation_label(model, j)} input {k} (operand {operation.inputs[k]}) "
                    "removed",
                    _drop_input(j, k),
                    levels,
                )


def _drop_output(j: int, k: int) -> Callable[[Model], Model]:
    def change(m: Model) -> None:
        del m.operations[j].outputs[k]

    return _edit(change)


@_family(
    "operation_output_removed",
    MODEL,
    Tier.PARITY,
    ("operation.signature", "operation.all_written"),
    VTS,
    "any operation output",
    "an operation output slot dropped, leaving its operand never written",
    upstream="removeOperationOutputTest",
)
def _operation_output_removed(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        for k in range(len(operation.outputs)):
            yield _Draft(
                f"operation{j}.outputs[{k}].removed",
                f"{_operation_label(model, j)} output {k} (operand {operation.outputs[k]}) removed",
                _drop_output(j, k),
            )


_VTS_EXTRA_INPUT_OK = {
    OperationType.L2_NORMALIZATION: 1,
    OperationType.LOCAL_RESPONSE_NORMALIZATION: 5,
    OperationType.SOFTMAX: 2,
}
"""VTS's ``addOperationInputSkip``: input counts at which one more INT32 is legal."""


def _add_slot(j: int, side: str) -> Callable[[Model], Model]:
    lifetime = L.MODEL_INPUT if side == "inputs" else L.MODEL_OUTPUT

    def change(m: Model) -> None:
        m.operands.append(Operand(T.INT32, [], 1, lifetime=lifetime))
        index = len(m.operands) - 1
        getattr(m.operations[j], side).append(index)
        (m.input_indexes if side == "inputs" else m.output_indexes).append(index)

    return _edit(change)


def _added_slot_levels(model: Model, j: int, side: str) -> frozenset[HalVersion]:
    operation = model.operations[j]
    ins = [model.operands[v] for v in operation.inputs]
    outs = [model.operands[v] for v in operation.outputs]
    added = Operand(T.INT32, [], 1, lifetime=L.MODEL_INPUT if side == "inputs" else L.MODEL_OUTPUT)
    (ins if side == "inputs" else outs).append(added)
    return ALL_LEVELS - _form_levels(model, operation.type, ins, outs)


@_family(
    "operation_input_added",
    MODEL,
    Tier.PARITY,
    ("operation.signature", *CONTROL_FLOW_SIGNATURE_RULES),
    VTS,
    "an operation whose forms take no further INT32 input (VTS's skip list, and the catalog's)",
    "a new INT32 model input appended to an operation's inputs",
    upstream="addOperationInputTest",
)
def _operation_input_added(model: Model) -> Iterator[_Draft]:
    for j, operation in enumerate(model.operations):
        if _VTS_EXTRA_INPUT_OK.get(operation.type) == len(operation.inputs):
            continue
        levels = _added_slot_levels(model, j, "inputs")
        if levels:
            yield _Draft(
                f"operation{j}.inputs+INT32",
                f"{_operation_label(model, j)} given an extra input: a new INT32 model input "
                f"(operand {len(model.operands)})",
                _add_slot(j, "inputs"),
                levels,
            )


@_family(
    "operation_output_added",
    MODEL,
    Tier.PARITY,
    ("operation.signature", *CONTROL_FLOW_SIGNATURE_RULES),
    VTS,
    "an operation whose forms take no further INT32 output",
    "a new INT32 model output appended to an operation's outputs (given one consumer, as VTS does)",
    upstream="addOperationOutputTest",
    side_rules=("operand.number_of_consumers",),
)
def _operation_output_added(model: Model) -> Iterator[_Draft]:
    for j in range(len(model.operations)):
        levels = _added_slot_levels(model, j, "outputs")
        if levels:
            yield _Draft(
                f"operation{j}.outputs+INT32",
                f"{_operation_label(model, j)} given an extra output: a new INT32 model output "
                f"(operand {len(model.operands)})",
                _add_slot(j, "outputs"),
                levels,
            )


_PREFERENCE_LEVELS = frozenset({V1_1, V1_2})


def _preference_draft(value: int) -> _Draft:
    return _Draft(
        f"preference={value}",
        f"execution preference {value} (valid: "
        + ", ".join(f"{p.name} {p.value}" for p in ExecutionPreference)
        + ")",
        copy_model,
        _PREFERENCE_LEVELS,
        preference=value,
    )


@_family(
    "execution_preference",
    MODEL,
    Tier.PARITY,
    ("model.execution_preference",),
    VTS,
    "any model (prepare_model_1_1 and _1_2 only)",
    "the unchanged model prepared with LOW_POWER - 1 or SUSTAINED_SPEED + 1 (sampled: any "
    "other value)",
    upstream="mutateExecutionPreferenceTest",
)
def _execution_preference(model: Model) -> Iterator[_Draft]:
    yield _preference_draft(ExecutionPreference.LOW_POWER - 1)
    yield _preference_draft(ExecutionPreference.SUSTAINED_SPEED + 1)


@_sampler("execution_preference")
def _execution_preference_sample(model: Model) -> st.SearchStrategy[_Draft]:
    return (
        st.integers(min_value=-(2**31), max_value=2**32)
        .filter(lambda v: v not in set(ExecutionPreference))
        .map(_preference_draft)
    )
