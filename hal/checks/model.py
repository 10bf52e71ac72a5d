"""``check_model`` and ``check_execution``: every check of a model, operation by operation.

The package's docstring (``hal.checks``) says what they answer; this module runs the
family modules' checks (``hal.checks.registry.CHECKS``) over a model's operations in
order, carrying each operand's shape (and, where it has one, its value) forward.

Where only an operand's shape is known (a temporary, or a model input given by its
dimensions alone), its value is stood for by a read-only array of zeros. That is
sound only for inputs whose values the checks do not read: an operation with such a
stand-in in a slot whose value matters (a scalar, a TENSOR_INT32 tensor, or a slot its
``OperationCheck.value_inputs`` names, such as the boxes of ROI_ALIGN) is not judged,
and its output shapes stay unknown (None) rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from hal import tensors
from hal.checks.base import OpArgs, OperationCheck, OpFailure, OpInvalid
from hal.checks.registry import CHECKS
from hal.operations import match_signature
from hal.types import (
    ErrorStatus,
    HalVersion,
    Model,
    OperandLifeTime,
    OperandType,
    OperationType,
    is_tensor_type,
    numpy_dtype,
)
from hal.validation import slot_positions, validate_model

Shape = tuple[int, ...]


@dataclass(frozen=True)
class CheckViolation:
    """Why a model (or one execution of it) breaks the HAL: answer ``status``.

    ``operation`` is the index of the operation in ``model.operations`` and
    ``operation_type`` its type (both None for a violation about no single operation,
    an operand's or the graph's). A violation of a ``hal.validation`` rule carries the
    rule's name in ``rule`` (None for the operations' own checks).
    ``message`` says what is wrong in one sentence.
    """

    status: ErrorStatus
    message: str
    operation: int | None = None
    operation_type: int | None = None
    rule: str | None = None

    def __str__(self) -> str:
        if self.rule is not None:
            return f"{self.rule}: {self.message}"
        if self.operation is None:
            return self.message
        return f"operation {self.operation} ({_type_name(self.operation_type)}): {self.message}"


@dataclass(frozen=True)
class ModelCheck:
    """What the checks found: a violation, or the shapes the model computes.

    ``output_shapes[i]``: the output shapes of ``model.operations[i]`` (one tuple per
    output), or None while they are not known (unknown input dimensions, values only an
    execution gives, an operation type the checks do not know). ``operand_shapes``:
    every operand whose shape is known, by operand index (constants, inputs of fully
    specified dimensions, and the outputs of operations whose shapes are known).
    After a violation, the shapes are those found before it.
    """

    violation: CheckViolation | None = None
    output_shapes: tuple[tuple[Shape, ...] | None, ...] = ()
    operand_shapes: dict[int, Shape] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.violation is None

    @property
    def status(self) -> ErrorStatus:
        """NONE, or the status the violation deserves."""
        return ErrorStatus.NONE if self.violation is None else self.violation.status

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return "valid" if self.violation is None else str(self.violation)


def check_model(
    model: Model, version: HalVersion = HalVersion.V1_2, *, disabled: Collection[str] = ()
) -> ModelCheck:
    """Every check a driver must make before it prepares ``model`` as a ``version`` model.

    First ``hal.validation.validate_model`` (``disabled`` switches its rules off by
    name, as there), then each operation's parameter values known at preparation
    (its constants) against the operation's definition. A violation answers
    INVALID_ARGUMENT, at launch and in the callback. Without one, ``output_shapes``
    holds what the constants and the declared dimensions decide.

    Reads the model's constants: a pool that cannot give them raises
    ``hal.memory.MemoryError_`` (a driver answers GENERAL_FAILURE).
    """
    result = validate_model(model, version, disabled=disabled, limit=1)
    if not result.ok:
        violation = result.violations[0]
        position = _operation_named(model, violation.message)
        return ModelCheck(
            CheckViolation(
                ErrorStatus.INVALID_ARGUMENT,
                violation.message,
                position,
                None if position is None else int(model.operations[position].type),
                violation.rule.name,
            ),
            (None,) * len(model.operations),
        )
    constants = tensors.read_constants(model)
    found = _validate_operations(model, constants)
    if found is not None:
        return ModelCheck(found, (None,) * len(model.operations))
    known: dict[int, np.ndarray | Shape] = dict(constants)
    optional = _optional_inputs(model, version)
    for index in model.input_indexes:
        dims = tuple(model.operands[index].dimensions)
        if dims and 0 not in dims and index not in optional:
            known[index] = dims
    return _shapes(model, known, set(), report=False)


def check_execution(
    model: Model,
    inputs: Sequence[np.ndarray | Sequence[int] | None],
    version: HalVersion = HalVersion.V1_2,
    *,
    disabled: Collection[str] = (),
) -> ModelCheck:
    """``check_model``, then every check the execution's inputs decide.

    ``inputs`` has one entry per model input (``model.input_indexes`` order): its
    value as a numpy array (``hal.tensors.RequestData.inputs`` decodes them), or only
    its dimensions (the request's, or the operand's when the request gives none), or
    None for an input given no value. Values let the checks judge parameters given
    as model inputs (an axis, a permutation, boxes); dimensions alone judge shapes.
    Validate the request first (``hal.validation.RequestValidator``): the inputs are
    trusted to fit the model's operands. A violation answers INVALID_ARGUMENT for the
    execution; without one,
    ``output_shapes`` holds each operation's output shapes for these inputs (None
    where they depend on values the checks were not given).
    """
    if len(inputs) != len(model.input_indexes):
        raise ValueError(
            f"{len(inputs)} inputs given for a model of {len(model.input_indexes)} inputs"
        )
    prepared = check_model(model, version, disabled=disabled)
    if not prepared.ok:
        return prepared
    known: dict[int, np.ndarray | Shape] = dict(tensors.read_constants(model))
    absent: set[int] = set()
    for index, given in zip(model.input_indexes, inputs, strict=True):
        if given is None:
            absent.add(index)
            continue
        if isinstance(given, np.ndarray):
            known[index] = given
        else:
            known[index] = tuple(int(d) for d in given)
    return _shapes(model, known, absent, report=True)


# ---------------------------------------------------------------------------


def _type_name(op_type: int | None) -> str:
    try:
        return OperationType(op_type).name
    except ValueError:
        return str(op_type)


def _operation_named(model: Model, message: str) -> int | None:
    """The operation a ``hal.validation`` message is about (it starts "operation 3
    (ADD): ..."), or None for one about no single operation."""
    found = re.match(r"operation (\d+) \(", message)
    if found is None or int(found.group(1)) >= len(model.operations):
        return None
    return int(found.group(1))


def _optional_inputs(model: Model, version: HalVersion) -> set[int]:
    """Model inputs feeding an input slot that may be omitted: a request may give them no
    value, so until it does, whether they are there is not known."""
    inputs = set(model.input_indexes)
    optional: set[int] = set()
    for operation in model.operations:
        signature = match_signature(model, operation, version).signature
        if signature is None:
            continue
        for slot in signature.omittable:
            for position in slot_positions(operation, signature, slot):
                if position < len(operation.inputs) and operation.inputs[position] in inputs:
                    optional.add(operation.inputs[position])
    return optional


def _validate_operations(model: Model, constants: dict[int, np.ndarray]) -> CheckViolation | None:
    """The first operation whose constants or declared dimensions its definition forbids."""
    for position, operation in enumerate(model.operations):
        check = CHECKS.get(operation.type)
        if check is None:
            continue  # an extension or OEM operation: the driver's own to check
        args = OpArgs(
            [model.operands[i] for i in operation.inputs],
            [model.operands[i] for i in operation.outputs],
            [constants.get(i) for i in operation.inputs],
        )
        try:
            reason = check.validate(args)
        except OpFailure as error:
            reason = str(error)
        if reason is not None:
            return CheckViolation(
                ErrorStatus.INVALID_ARGUMENT, reason, position, int(operation.type)
            )
    return None


def _shapes(
    model: Model, known: dict[int, np.ndarray | Shape], absent: set[int], report: bool
) -> ModelCheck:
    """Each operation's output shapes from ``known`` (operand index -> value, or shape
    when only the shape is known) and the inputs given no value (``absent``, besides
    the NO_VALUE operands); with ``report``, the first refusal is a violation."""
    omitted = absent | {
        i for i, o in enumerate(model.operands) if o.lifetime == OperandLifeTime.NO_VALUE
    }
    outputs: list[tuple[Shape, ...] | None] = []
    for position, operation in enumerate(model.operations):
        check = CHECKS.get(operation.type)
        if check is None or not all(i in known or i in omitted for i in operation.inputs):
            outputs.append(None)
            continue
        shapes, refusal = _decide(model, operation, check, known)
        if refusal is not None and report:
            violation = CheckViolation(
                ErrorStatus.INVALID_ARGUMENT, refusal, position, int(operation.type)
            )
            return _result(model, known, outputs, violation)
        outputs.append(shapes)
        if shapes is not None:
            for index, shape in zip(operation.outputs, shapes, strict=True):
                known[index] = shape
    return _result(model, known, outputs, None)


def _result(
    model: Model,
    known: dict[int, np.ndarray | Shape],
    outputs: list[tuple[Shape, ...] | None],
    violation: CheckViolation | None,
) -> ModelCheck:
    outputs = outputs + [None] * (len(model.operations) - len(outputs))
    operand_shapes = {
        index: tuple(int(d) for d in (v.shape if isinstance(v, np.ndarray) else v))
        for index, v in sorted(known.items())
    }
    return ModelCheck(violation, tuple(outputs), operand_shapes)


def _decide(
    model: Model, operation, check: OperationCheck, known: dict[int, np.ndarray | Shape]
) -> tuple[tuple[Shape, ...] | None, str | None]:
    """(shapes, None), or (None, the message of the refusal), or (None, None) when the
    operation cannot be judged: a stand-in would take the place of a value it reads."""
    for slot, index in enumerate(operation.inputs):
        if isinstance(known.get(index), tuple) and _value_read(model, check, slot, index):
            return None, None
    values = [_value(model, i, known.get(i)) for i in operation.inputs]
    args = OpArgs(
        [model.operands[i] for i in operation.inputs],
        [model.operands[i] for i in operation.outputs],
        values,
    )
    answer = _prepared(check.prepare, args, len(operation.outputs))
    if isinstance(answer, str):
        return None, answer
    return answer, None


def _value_read(model: Model, check: OperationCheck, slot: int, index: int) -> bool:
    """Whether the checks may read the value of input ``slot`` (operand ``index``)."""
    operand_type = model.operands[index].type
    return (
        slot in check.value_inputs
        or not is_tensor_type(operand_type)
        or operand_type == OperandType.TENSOR_INT32
    )


def _prepared(prepare, args: OpArgs, count: int) -> tuple[Shape, ...] | str | None:
    """The shapes ``prepare`` gives, the message of its ``OpInvalid``, or None when it
    fails otherwise (a failure the HAL allows, or shapes it should not give)."""
    try:
        shapes = prepare(args)
    except OpInvalid as error:
        return str(error)
    except Exception:
        return None
    try:
        result = tuple(tuple(int(d) for d in shape) for shape in shapes)
    except (TypeError, ValueError):
        return None
    if len(result) != count or any(d < 0 for shape in result for d in shape):
        return None
    return result


def _value(model: Model, index: int, known: np.ndarray | Shape | None) -> np.ndarray | None:
    """An input's value: its own, or a read-only array of zeros of its shape when only
    the shape is known."""
    if known is None or isinstance(known, np.ndarray):
        return known
    try:
        dtype = numpy_dtype(model.operands[index].type, model.extension_name_to_prefix)
    except (KeyError, ValueError, TypeError):
        return None  # a type without a dtype: prepare fails, the shapes stay unknown
    return np.broadcast_to(np.zeros((), dtype), known)
