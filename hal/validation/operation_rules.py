"""The operation rules: types, versions, indexes, signatures, constraints, ranks and
order."""

from __future__ import annotations

from collections.abc import Iterator

from hal.extensions import operation_problem as extension_operation_problem
from hal.operations import (
    ConstraintContext,
    Signature,
    Tier,
    operation_info,
)
from hal.types import (
    HalVersion,
    OperandLifeTime,
    Operation,
    OperationType,
    extension_prefix,
    is_extension_type,
)
from hal.validation.core import (
    _WRITTEN_LIFETIMES,
    _int,
    _items,
    _lifetime_name,
    _model_rule,
    _ModelFacts,
    _operation_name,
    _operation_type_exists,
    _operation_type_valid,
    _signature_checkable,
)

# ---------------------------------------------------------------------------
# Operation rules
# ---------------------------------------------------------------------------


@_model_rule(
    "operation.type_known",
    Tier.PARITY,
    "an operation type is an OperationType, OEM_OPERATION, or (1.2 only) an extension operation",
)
def _operation_type_known(facts: _ModelFacts) -> Iterator[str]:
    for j, operation in enumerate(facts.operations):
        t = _int(operation.type)
        if not _operation_type_exists(t):
            yield f"operation {j}: {_operation_name(operation.type)} is not an operation type"
        elif is_extension_type(t) and facts.version < HalVersion.V1_2:
            yield f"operation {j}: {_operation_name(t)} needs HAL 1.2, model is {facts.version}"


@_model_rule(
    "operation.extension_prefix",
    Tier.STRICT,
    "an extension operation type's prefix is declared in extension_name_to_prefix",
)
def _operation_extension_prefix(facts: _ModelFacts) -> Iterator[str]:
    for j, operation in enumerate(facts.operations):
        t = _int(operation.type)
        if not (_operation_type_valid(t, facts.version) and is_extension_type(t)):
            continue
        if extension_prefix(t) not in facts.declared_prefixes:
            yield (
                f"operation {j}: {_operation_name(t)} uses prefix {extension_prefix(t)}, "
                "which the model does not declare"
            )


@_model_rule(
    "operation.extension_signature",
    Tier.STRICT,
    "an operation of an extension hal.extensions knows has the operand counts, types and "
    "shapes that extension defines",
)
def _operation_extension_signature(facts: _ModelFacts) -> Iterator[str]:
    declarations = _items(facts.model.extension_name_to_prefix)
    if not declarations:
        return
    for j, operation in enumerate(facts.operations):
        t = _int(operation.type)
        if not (_operation_type_valid(t, facts.version) and is_extension_type(t)):
            continue
        if not _signature_checkable(facts, operation):
            continue
        problem = extension_operation_problem(operation, facts.operands, declarations)
        if problem is not None:
            yield f"operation {j}: {problem}"


@_model_rule(
    "operation.type_version",
    Tier.PARITY,
    "an operation is no newer than the model's HAL version",
)
def _operation_type_version(facts: _ModelFacts) -> Iterator[str]:
    for j, operation in enumerate(facts.operations):
        t = _int(operation.type)
        info = operation_info(t) if t is not None else None
        if info is not None and info.introduced > facts.version:
            yield (
                f"operation {j}: {info.type.name} needs HAL {info.introduced}, "
                f"model is {facts.version}"
            )


@_model_rule(
    "operation.operand_indexes",
    Tier.PARITY,
    "every operation input and output is an index into operands",
)
def _operand_indexes(facts: _ModelFacts) -> Iterator[str]:
    for j, operation in enumerate(facts.operations):
        for side in ("inputs", "outputs"):
            values = getattr(operation, side)
            if not isinstance(values, list | tuple):
                yield f"{facts.operation_label(j)}: {side} {values!r} is not a list"
                continue
            for k, value in enumerate(values):
                if facts.index(value) is None:
                    yield (
                        f"{facts.operation_label(j)}: {side}[{k}] = {value!r} is out of range "
                        f"(model has {len(facts.operands)} operands)"
                    )


@_model_rule(
    "operation.signature",
    Tier.PARITY,
    "an operation's operand counts and types match a signature of the catalog at this version",
)
def _operation_signature(facts: _ModelFacts) -> Iterator[str]:
    for j, match in facts.matches.items():
        if match.reason:
            yield f"operation {j}: {match.reason}"


def _constraint_problems(facts: _ModelFacts, tier: Tier) -> Iterator[str]:
    for j, operation, signature in facts.matched():
        context = ConstraintContext(facts.model, operation, facts.version)
        for constraint in signature.constraints:
            if constraint.tier != tier or not constraint.applies(facts.version):
                continue
            try:
                problem = constraint.check(context)
            except (TypeError, ValueError, ArithmeticError, AttributeError) as error:
                # A constraint reading a malformed field (a scale that is not a number).
                problem = f"cannot be checked: {error}"
            if problem:
                yield f"{facts.operation_label(j)} [{constraint.name}]: {problem}"


@_model_rule(
    "operation.constraint",
    Tier.PARITY,
    "an operation meets the type-level constraints Android 10's validator enforces",
)
def _operation_constraint(facts: _ModelFacts) -> Iterator[str]:
    return _constraint_problems(facts, Tier.PARITY)


@_model_rule(
    "operation.constraint_strict",
    Tier.STRICT,
    "an operation meets the type-level constraints the HAL states but Android 10 checks late",
)
def _operation_constraint_strict(facts: _ModelFacts) -> Iterator[str]:
    return _constraint_problems(facts, Tier.STRICT)


@_model_rule(
    "operation.rank",
    Tier.STRICT,
    "an operation's inputs of known rank are within the ranks the operation defines "
    "(each repeated input too; not a model input in an optional slot: it may be given "
    "no value)",
)
def _operation_rank(facts: _ModelFacts) -> Iterator[str]:
    for j, operation, signature in facts.matched():
        for slot, low, high in signature.ranks:
            for position in slot_positions(operation, signature, slot):
                if position >= len(operation.inputs):
                    continue
                dims = facts.dims[operation.inputs[position]]
                lifetime = facts.lifetimes[operation.inputs[position]]
                if not dims or lifetime == OperandLifeTime.NO_VALUE:
                    continue  # unknown rank (or omitted): judged at execution
                if slot in signature.omittable and lifetime == OperandLifeTime.MODEL_INPUT:
                    # An optional input fed by the model may be sent with has_no_value;
                    # its declared dims (often "{0}") are then no tensor to judge.
                    continue
                if not low <= len(dims) <= high:
                    allowed = f"{low}" if low == high else f"{low} to {high}"
                    yield (
                        f"{facts.operation_label(j)}: input {position} has rank {len(dims)}, "
                        f"must be {allowed}"
                    )


def slot_positions(operation: Operation, signature: Signature, slot: int) -> range:
    """The operation's input positions that signature slot ``slot`` covers: several for a
    repeated slot (CONCATENATION's tensors), else one (slots after a repeated one shift)."""
    repeat = signature.repeat_input
    if repeat is None or slot < repeat:
        return range(slot, slot + 1)
    extra = len(operation.inputs) - len(signature.inputs)
    if slot == repeat:
        return range(slot, slot + extra + 1)
    return range(slot + extra, slot + extra + 1)


@_model_rule(
    "operation.depthwise_filter",
    Tier.STRICT,
    "a DEPTHWISE_CONV_2D filter whose first dimension is known has first dimension 1 "
    "(Android 11 checks it for models of every version)",
)
def _depthwise_filter(facts: _ModelFacts) -> Iterator[str]:
    for j, operation, signature in facts.matched():
        if signature.operation != OperationType.DEPTHWISE_CONV_2D:
            continue
        dims = facts.dims[operation.inputs[1]]
        if dims and dims[0] not in (0, 1):  # 0: not known until execution
            yield (
                f"{facts.operation_label(j)}: the filter (input 1) has dimensions "
                f"{list(dims)}; its first dimension must be 1"
            )


@_model_rule(
    "operation.omitted_input",
    Tier.STRICT,
    "only inputs an operation defines as optional are NO_VALUE operands",
)
def _operation_omitted_input(facts: _ModelFacts) -> Iterator[str]:
    for j, operation, signature in facts.matched():
        for slot, i in enumerate(operation.inputs):
            if facts.lifetimes[i] == OperandLifeTime.NO_VALUE and slot not in signature.omittable:
                yield f"{facts.operation_label(j)}: input {slot} (operand {i}) cannot be omitted"


@_model_rule(
    "operation.output_lifetime",
    Tier.PARITY,
    "every operation output is a TEMPORARY_VARIABLE or MODEL_OUTPUT operand",
)
def _output_lifetime(facts: _ModelFacts) -> Iterator[str]:
    for j, slots in enumerate(facts.output_slots):
        for k, i in slots:
            if facts.lifetimes[i] not in _WRITTEN_LIFETIMES:
                yield (
                    f"{facts.operation_label(j)}: outputs[{k}] = {i} has lifetime "
                    f"{_lifetime_name(facts.operands[i].lifetime)}, "
                    "must be TEMPORARY_VARIABLE or MODEL_OUTPUT"
                )


@_model_rule(
    "operation.single_writer",
    Tier.PARITY,
    "no operand is written by two operations, or twice by one",
)
def _single_writer(facts: _ModelFacts) -> Iterator[str]:
    writer: dict[int, tuple[int, int]] = {}
    for j, slots in enumerate(facts.output_slots):
        for k, i in slots:
            if i in writer:
                first_j, first_k = writer[i]
                yield (
                    f"operand {i} is written by operation {j} outputs[{k}] and already by "
                    f"operation {first_j} outputs[{first_k}]"
                )
            writer.setdefault(i, (j, k))


@_model_rule(
    "operation.all_written",
    Tier.PARITY,
    "every TEMPORARY_VARIABLE and MODEL_OUTPUT operand is written by some operation",
)
def _all_written(facts: _ModelFacts) -> Iterator[str]:
    for i, lifetime in enumerate(facts.lifetimes):
        if lifetime in _WRITTEN_LIFETIMES and i not in facts.written:
            yield f"operand {i} ({OperandLifeTime(lifetime).name}) is never written by an operation"


@_model_rule(
    "operand.number_of_consumers",
    Tier.STRICT,
    "number_of_consumers equals the number of operation input slots reading the operand",
)
def _number_of_consumers(facts: _ModelFacts) -> Iterator[str]:
    for i, operand in enumerate(facts.operands):
        declared, actual = operand.number_of_consumers, facts.reads[i]
        if _int(declared) != actual:
            yield (
                f"operand {i}: number_of_consumers is {declared!r}, but {actual} operation "
                "input(s) read it"
            )


@_model_rule(
    "operation.order",
    Tier.STRICT,
    "operations are in execution order: each reads only operands written by earlier ones "
    "(so there is no cycle)",
)
def _operation_order(facts: _ModelFacts) -> Iterator[str]:
    written: set[int] = set()
    for j, (inputs, outputs) in enumerate(zip(facts.input_slots, facts.output_slots, strict=True)):
        for k, i in inputs:
            if facts.lifetimes[i] in _WRITTEN_LIFETIMES and i not in written:
                yield (
                    f"{facts.operation_label(j)}: inputs[{k}] = {i} is read before an earlier "
                    "operation writes it"
                )
        written.update(i for _, i in outputs)
