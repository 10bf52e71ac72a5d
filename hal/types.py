"""Enums and records of the Neural Networks HAL 1.0 to 1.3, in Python.

Every name follows the HAL's own, in snake_case for fields, so a reader of
``types.hal`` finds each one. One ``Model`` and one ``Request`` type serve all
versions (they carry the newest fields); the version a method speaks is given by
the method, not by the record.

HAL 1.3 is a level (``HalVersion.V1_3``): its enum members, ``Priority``,
deadlines and ``Capabilities_1_3`` are here, ``operand_type_introduced`` dates its two
operand types 1.3 (so a 1.0-1.2 model using them is invalid for its version, as
before), its seven operations (95-101) are ``OperationType`` members the operation
catalog dates 1.3, and ``OperandTypeRange.FUNDAMENTAL_MAX`` and
``OperationTypeRange.FUNDAMENTAL_MAX`` stay 1.2's bounds beside their
``FUNDAMENTAL_MAX_1_3``. The sets ``STATUSES_1_0`` and ``LIFETIMES_1_0`` name what a
1.0-1.2 method may use of the enums that grew. Helpers at the end answer the questions every
part of the project asks of an operand: its byte size, its numpy dtype, whether
it is a tensor, whether it is fully specified, whether its type is an extension.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from hal.extensions import operand_type_of  # the shared table; it imports no hal module

UINT64_MAX = 2**64 - 1
"""A ``Timing`` field holding this value means "not measured"."""


class HalVersion(IntEnum):
    """The HAL levels this project knows, ordered so that newer compares greater."""

    V1_0 = 10
    V1_1 = 11
    V1_2 = 12
    V1_3 = 13

    def __str__(self) -> str:
        return f"{self.value // 10}.{self.value % 10}"

    @classmethod
    def parse(cls, text: str) -> HalVersion:
        """``"1.2"``, ``"V1_2"`` or ``"12"`` -> ``HalVersion.V1_2``; ValueError otherwise."""
        found = _HAL_SPELLINGS.get(text)
        if found is not None:
            return found
        cleaned = text.strip().upper().lstrip("V").replace("_", ".")
        for version in cls:
            if cleaned in (str(version), str(version.value)):
                return version
        known = ", ".join(str(v) for v in cls)
        raise ValueError(f"unknown HAL version {text!r} (known: {known})")


_HAL_SPELLINGS: dict[str, HalVersion] = {
    spelling: version
    for version in HalVersion
    for spelling in (str(version), str(version.value), version.name)
}
"""The common spellings ``HalVersion.parse`` reads at once (it is asked per test)."""


class ErrorStatus(IntEnum):
    NONE = 0
    DEVICE_UNAVAILABLE = 1
    GENERAL_FAILURE = 2
    OUTPUT_INSUFFICIENT_SIZE = 3
    INVALID_ARGUMENT = 4
    MISSED_DEADLINE_TRANSIENT = 5
    """Since 1.3: aborted for its deadline (or a WHILE loop's timeout); a later deadline
    for the same work may be met."""
    MISSED_DEADLINE_PERSISTENT = 6
    """Since 1.3: as TRANSIENT, but later deadlines for the same work will likely be
    missed too."""
    RESOURCE_EXHAUSTED_TRANSIENT = 7
    """Since 1.3: aborted for want of a resource that may free up shortly."""
    RESOURCE_EXHAUSTED_PERSISTENT = 8
    """Since 1.3: aborted for want of a resource; retrying will likely fail again."""


class DeviceStatus(IntEnum):
    AVAILABLE = 0
    BUSY = 1
    OFFLINE = 2
    UNKNOWN = 3


class DeviceType(IntEnum):
    """Since 1.2. The value 0 is deliberately unused by the HAL."""

    OTHER = 1
    CPU = 2
    GPU = 3
    ACCELERATOR = 4


class ExecutionPreference(IntEnum):
    """Since 1.1."""

    LOW_POWER = 0
    FAST_SINGLE_ANSWER = 1
    SUSTAINED_SPEED = 2


class MeasureTiming(IntEnum):
    """Since 1.2."""

    NO = 0
    YES = 1


class Priority(IntEnum):
    """Since 1.3: how a prepared model's work ranks against the same client's other
    prepared models (a hint; no observable effect is required). Any other value is
    INVALID_ARGUMENT for ``prepare_model_1_3``."""

    LOW = 0
    MEDIUM = 1
    HIGH = 2


DEFAULT_PRIORITY = Priority.MEDIUM
"""The priority a client passes when it has no preference."""


class LoopTimeoutDurationNs(IntEnum):
    """Since 1.3: the time budget of each WHILE operation of an execution, in ns."""

    DEFAULT = 2_000_000_000
    """Used when the execution gives no loop timeout (and on every 1.0-1.2 path)."""
    MAXIMUM = 15_000_000_000
    """The largest budget a client may ask for."""


class FusedActivationFunc(IntEnum):
    NONE = 0
    RELU = 1
    RELU1 = 2
    RELU6 = 3


class OperandLifeTime(IntEnum):
    """1.3 renames MODEL_INPUT and MODEL_OUTPUT to SUBGRAPH_INPUT and SUBGRAPH_OUTPUT
    (same codes, now meaning an input or output of any subgraph); the 1.2 names are
    kept, the 1.3 ones are aliases."""

    TEMPORARY_VARIABLE = 0
    MODEL_INPUT = 1
    MODEL_OUTPUT = 2
    CONSTANT_COPY = 3
    CONSTANT_REFERENCE = 4
    NO_VALUE = 5
    SUBGRAPH = 6
    """Since 1.3: the operand names one of ``Model.referenced`` (its location's offset is
    the index); the lifetime of exactly the SUBGRAPH operands."""
    SUBGRAPH_INPUT = 1
    SUBGRAPH_OUTPUT = 2


class OperandType(IntEnum):
    FLOAT32 = 0
    INT32 = 1
    UINT32 = 2
    TENSOR_FLOAT32 = 3
    TENSOR_INT32 = 4
    TENSOR_QUANT8_ASYMM = 5
    BOOL = 6
    TENSOR_QUANT16_SYMM = 7
    TENSOR_FLOAT16 = 8
    TENSOR_BOOL8 = 9
    FLOAT16 = 10
    TENSOR_QUANT8_SYMM_PER_CHANNEL = 11
    TENSOR_QUANT16_ASYMM = 12
    TENSOR_QUANT8_SYMM = 13
    TENSOR_QUANT8_ASYMM_SIGNED = 14
    """Since 1.3: int8 values, real = scale * (value - zero_point), zero point in
    [-128, 127]."""
    SUBGRAPH = 15
    """Since 1.3: a reference to one of ``Model.referenced``; no data, no dimensions."""
    OEM = 10000
    TENSOR_OEM_BYTE = 10001


class OperandTypeRange(IntEnum):
    """The ranges of operand type values. ``FUNDAMENTAL_MAX`` is 1.2's (13): the 1.0-1.2
    mutations draw invalid types above it (a 1.0-1.2 model with type 14 or 15 is invalid
    for its version). HAL 1.3 raises it to 15 (``FUNDAMENTAL_MAX_1_3``); a check at 1.3
    reads that one."""

    BASE_MIN = 0
    FUNDAMENTAL_MIN = 0
    FUNDAMENTAL_MAX = 13
    FUNDAMENTAL_MAX_1_3 = 15
    OEM_MIN = 10000
    OEM_MAX = 10001
    BASE_MAX = 0xFFFF


class OperationType(IntEnum):
    ADD = 0
    AVERAGE_POOL_2D = 1
    CONCATENATION = 2
    CONV_2D = 3
    DEPTHWISE_CONV_2D = 4
    DEPTH_TO_SPACE = 5
    DEQUANTIZE = 6
    EMBEDDING_LOOKUP = 7
    FLOOR = 8
    FULLY_CONNECTED = 9
    HASHTABLE_LOOKUP = 10
    L2_NORMALIZATION = 11
    L2_POOL_2D = 12
    LOCAL_RESPONSE_NORMALIZATION = 13
    LOGISTIC = 14
    LSH_PROJECTION = 15
    LSTM = 16
    MAX_POOL_2D = 17
    MUL = 18
    RELU = 19
    RELU1 = 20
    RELU6 = 21
    RESHAPE = 22
    RESIZE_BILINEAR = 23
    RNN = 24
    SOFTMAX = 25
    SPACE_TO_DEPTH = 26
    SVDF = 27
    TANH = 28
    BATCH_TO_SPACE_ND = 29
    DIV = 30
    MEAN = 31
    PAD = 32
    SPACE_TO_BATCH_ND = 33
    SQUEEZE = 34
    STRIDED_SLICE = 35
    SUB = 36
    TRANSPOSE = 37
    ABS = 38
    ARGMAX = 39
    ARGMIN = 40
    AXIS_ALIGNED_BBOX_TRANSFORM = 41
    BIDIRECTIONAL_SEQUENCE_LSTM = 42
    BIDIRECTIONAL_SEQUENCE_RNN = 43
    BOX_WITH_NMS_LIMIT = 44
    CAST = 45
    CHANNEL_SHUFFLE = 46
    DETECTION_POSTPROCESSING = 47
    EQUAL = 48
    EXP = 49
    EXPAND_DIMS = 50
    GATHER = 51
    GENERATE_PROPOSALS = 52
    GREATER = 53
    GREATER_EQUAL = 54
    GROUPED_CONV_2D = 55
    HEATMAP_MAX_KEYPOINT = 56
    INSTANCE_NORMALIZATION = 57
    LESS = 58
    LESS_EQUAL = 59
    LOG = 60
    LOGICAL_AND = 61
    LOGICAL_NOT = 62
    LOGICAL_OR = 63
    LOG_SOFTMAX = 64
    MAXIMUM = 65
    MINIMUM = 66
    NEG = 67
    NOT_EQUAL = 68
    PAD_V2 = 69
    POW = 70
    PRELU = 71
    QUANTIZE = 72
    QUANTIZED_16BIT_LSTM = 73
    RANDOM_MULTINOMIAL = 74
    REDUCE_ALL = 75
    REDUCE_ANY = 76
    REDUCE_MAX = 77
    REDUCE_MIN = 78
    REDUCE_PROD = 79
    REDUCE_SUM = 80
    ROI_ALIGN = 81
    ROI_POOLING = 82
    RSQRT = 83
    SELECT = 84
    SIN = 85
    SLICE = 86
    SPLIT = 87
    SQRT = 88
    TILE = 89
    TOPK_V2 = 90
    TRANSPOSE_CONV_2D = 91
    UNIDIRECTIONAL_SEQUENCE_LSTM = 92
    UNIDIRECTIONAL_SEQUENCE_RNN = 93
    RESIZE_NEAREST_NEIGHBOR = 94
    # --- HAL 1.3 ---
    QUANTIZED_LSTM = 95
    IF = 96
    WHILE = 97
    ELU = 98
    HARD_SWISH = 99
    FILL = 100
    RANK = 101
    OEM_OPERATION = 10000


class OperationTypeRange(IntEnum):
    """The ranges of operation type values. ``FUNDAMENTAL_MAX`` is 1.2's (94): the 1.0-1.2
    mutations draw invalid operation types above it (a 1.0-1.2 model with operation 95 to
    101 is invalid for its version). HAL 1.3 raises it to 101 (``FUNDAMENTAL_MAX_1_3``); a
    check at 1.3 reads that one. Which level introduced an operation is the catalog's
    ``OperationInfo.introduced`` (``hal.operations.operation_info``)."""

    BASE_MIN = 0
    FUNDAMENTAL_MIN = 0
    FUNDAMENTAL_MAX = 94
    FUNDAMENTAL_MAX_1_3 = 101
    OEM_MIN = 10000
    OEM_MAX = 10000
    BASE_MAX = 0xFFFF


class ExtensionTypeEncoding(IntEnum):
    """Bit split of an extension operand or operation type (since 1.2)."""

    HIGH_BITS_PREFIX = 16
    LOW_BITS_TYPE = 16


class Constant(IntEnum):
    """Constants of the 1.2 interface."""

    MAX_NUMBER_OF_CACHE_FILES = 32
    BYTE_SIZE_OF_CACHE_TOKEN = 32


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PerformanceInfo:
    """Performance relative to the CPU: lower is better, 1.0 equals the CPU."""

    exec_time: float
    power_usage: float


@dataclass(frozen=True)
class OperandPerformance:
    type: int
    info: PerformanceInfo


@dataclass(frozen=True)
class Capabilities_1_0:
    float32_performance: PerformanceInfo
    quantized8_performance: PerformanceInfo


@dataclass(frozen=True)
class Capabilities_1_1:
    float32_performance: PerformanceInfo
    quantized8_performance: PerformanceInfo
    relaxed_float32_to_float16_performance: PerformanceInfo


@dataclass(frozen=True)
class Capabilities_1_2:
    relaxed_float32_to_float16_performance_scalar: PerformanceInfo
    relaxed_float32_to_float16_performance_tensor: PerformanceInfo
    operand_performance: tuple[OperandPerformance, ...]
    """Sorted by ``type``; one entry per operand type the driver has figures for."""


@dataclass(frozen=True)
class Capabilities_1_3:
    """Since 1.3: the 1.2 figures over the 1.3 operand types, and the control-flow ones.

    ``operand_performance`` is sorted by ``type`` and never has a SUBGRAPH entry (a type
    with no entry counts as the slowest possible); an IF is priced ``if_performance``
    plus half its two branches, a WHILE ``while_performance`` plus its condition and
    body. Every figure is positive.
    """

    relaxed_float32_to_float16_performance_scalar: PerformanceInfo
    relaxed_float32_to_float16_performance_tensor: PerformanceInfo
    operand_performance: tuple[OperandPerformance, ...]
    if_performance: PerformanceInfo
    while_performance: PerformanceInfo


Capabilities = Capabilities_1_2


@dataclass(frozen=True)
class DataLocation:
    pool_index: int = 0
    offset: int = 0
    length: int = 0


@dataclass(frozen=True)
class SymmPerChannelQuantParams:
    scales: tuple[float, ...]
    channel_dim: int


@dataclass(frozen=True)
class ExtensionParams:
    """The ``extension`` arm of ``OperandExtraParams``: bytes only the extension reads."""

    data: bytes


OperandExtraParams = SymmPerChannelQuantParams | ExtensionParams | None
"""``None`` is the union's ``none`` arm."""


@dataclass
class Operand:
    type: int
    dimensions: list[int] = field(default_factory=list)
    number_of_consumers: int = 0
    scale: float = 0.0
    zero_point: int = 0
    lifetime: int = OperandLifeTime.TEMPORARY_VARIABLE
    location: DataLocation = field(default_factory=DataLocation)
    extra_params: OperandExtraParams = None


@dataclass
class Operation:
    type: int
    inputs: list[int] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class ExtensionNameAndPrefix:
    name: str
    prefix: int


@dataclass
class Subgraph:
    """A graph of operations over operands (HAL 1.3): a model's main graph has these
    fields directly; the subgraphs its IF and WHILE operations refer to are
    ``Model.referenced``. Operand indexes count within the subgraph."""

    operands: list[Operand] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    input_indexes: list[int] = field(default_factory=list)
    output_indexes: list[int] = field(default_factory=list)


@dataclass
class Model:
    operands: list[Operand] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    input_indexes: list[int] = field(default_factory=list)
    output_indexes: list[int] = field(default_factory=list)
    operand_values: bytes = b""
    pools: list = field(default_factory=list)
    """``hal.memory.Memory`` objects holding CONSTANT_REFERENCE data."""
    relax_computation_float32_to_float16: bool = False
    extension_name_to_prefix: list[ExtensionNameAndPrefix] = field(default_factory=list)
    referenced: list[Subgraph] = field(default_factory=list)
    """HAL 1.3: the subgraphs control-flow operations refer to (a SUBGRAPH operand's
    location names one by index); empty below 1.3, where a model with any is invalid.
    The fields above are the main subgraph."""

    def graphs(self) -> list[tuple[str, Model | Subgraph]]:
        """Every subgraph with its name, the main one first: ``("main", self)``, then
        ``("referenced[0]", ...)`` and on; each has ``operands``, ``operations``,
        ``input_indexes`` and ``output_indexes``."""
        return [("main", self), *((f"referenced[{k}]", g) for k, g in enumerate(self.referenced))]


@dataclass
class RequestArgument:
    has_no_value: bool = False
    location: DataLocation = field(default_factory=DataLocation)
    dimensions: list[int] = field(default_factory=list)


@dataclass
class Request:
    inputs: list[RequestArgument] = field(default_factory=list)
    outputs: list[RequestArgument] = field(default_factory=list)
    pools: list = field(default_factory=list)
    """The pools the arguments' locations point into: each a ``hal.memory.Memory``
    or an ``int``, the token of a driver-managed buffer: HAL 1.3's ``MemoryPool``,
    whose ``hidlMemory`` arm is the Memory and whose ``token`` arm is the int (> 0).
    So this one record is also 1.3's ``Request``. Tokens travel only through the
    1.3 execution methods (``execute_1_3``, ``execute_synchronously_1_3``,
    ``execute_fenced``) or to a 1.2 driver implementing
    ``hal.interfaces.IMemoryDomains``; never in a burst. An argument in a token
    pool has offset 0 and length 0."""


@dataclass(frozen=True)
class BufferDesc:
    """What the client knows of a driver-managed buffer (1.3 memory domains).

    ``dimensions`` may be partly unknown (0 in a position) or of unknown rank
    (empty); the driver completes them from the roles' operands.
    """

    dimensions: tuple[int, ...] = ()


@dataclass(frozen=True)
class BufferRole:
    """One use of a driver-managed buffer: an input or output of a prepared model.

    ``model_index`` indexes the prepared models given to ``allocate``;
    ``io_index`` is the input (or output) position in that model; ``frequency``
    in (0.0, 1.0] hints how often the buffer serves in this role.
    """

    model_index: int
    io_index: int
    frequency: float = 1.0


@dataclass(frozen=True)
class OutputShape:
    dimensions: tuple[int, ...]
    is_sufficient: bool


@dataclass(frozen=True)
class Timing:
    """Microseconds; ``UINT64_MAX`` in a field means it was not measured."""

    time_on_device: int = UINT64_MAX
    time_in_driver: int = UINT64_MAX


NO_TIMING = Timing()


OptionalTimePoint = int | None
"""Since 1.3, a deadline: ``None`` is "no deadline" (the HAL's ``none`` arm), an int is
a time in nanoseconds on the steady clock (``time.monotonic_ns()``), where 0 is a time
like any other (long past), not "none". A value at or above ``TIME_POINT_MAX`` means no
limit. A deadline is never an invalid argument: the driver may abort work that cannot
meet it (MISSED_DEADLINE_*) or ignore it."""

OptionalTimeoutDuration = int | None
"""Since 1.3, a duration in nanoseconds (a loop timeout, or ``execute_fenced``'s time
allowed after its fences): ``None`` is "none given", distinct from 0 (no time at all)."""

TIME_POINT_MAX = 2**63 - 1
"""The steady clock's latest time point, in ns: a deadline this late means no limit."""


def is_optional_nanoseconds(value: object) -> bool:
    """Whether ``value`` is a well-formed ``OptionalTimePoint`` or
    ``OptionalTimeoutDuration``: None, or an int (not a bool) in [0, 2**64 - 1]."""
    if value is None:
        return True
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= UINT64_MAX


@dataclass(frozen=True)
class OperandTypeInformation:
    """One operand type an extension defines (``type`` is the low 16 bits)."""

    type: int
    is_tensor: bool
    byte_size: int


@dataclass(frozen=True)
class Extension:
    name: str
    operand_types: tuple[OperandTypeInformation, ...] = ()


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

_ELEMENT_SIZE: dict[int, int] = {
    OperandType.FLOAT32: 4,
    OperandType.INT32: 4,
    OperandType.UINT32: 4,
    OperandType.TENSOR_FLOAT32: 4,
    OperandType.TENSOR_INT32: 4,
    OperandType.TENSOR_QUANT8_ASYMM: 1,
    OperandType.BOOL: 1,
    OperandType.TENSOR_QUANT16_SYMM: 2,
    OperandType.TENSOR_FLOAT16: 2,
    OperandType.TENSOR_BOOL8: 1,
    OperandType.FLOAT16: 2,
    OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL: 1,
    OperandType.TENSOR_QUANT16_ASYMM: 2,
    OperandType.TENSOR_QUANT8_SYMM: 1,
    OperandType.TENSOR_QUANT8_ASYMM_SIGNED: 1,
    OperandType.SUBGRAPH: 0,
    OperandType.OEM: 0,
    OperandType.TENSOR_OEM_BYTE: 1,
}

_DTYPE: dict[int, np.dtype] = {
    OperandType.FLOAT32: np.dtype("<f4"),
    OperandType.INT32: np.dtype("<i4"),
    OperandType.UINT32: np.dtype("<u4"),
    OperandType.TENSOR_FLOAT32: np.dtype("<f4"),
    OperandType.TENSOR_INT32: np.dtype("<i4"),
    OperandType.TENSOR_QUANT8_ASYMM: np.dtype("u1"),
    OperandType.BOOL: np.dtype("u1"),
    OperandType.TENSOR_QUANT16_SYMM: np.dtype("<i2"),
    OperandType.TENSOR_FLOAT16: np.dtype("<f2"),
    OperandType.TENSOR_BOOL8: np.dtype("u1"),
    OperandType.FLOAT16: np.dtype("<f2"),
    OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL: np.dtype("i1"),
    OperandType.TENSOR_QUANT16_ASYMM: np.dtype("<u2"),
    OperandType.TENSOR_QUANT8_SYMM: np.dtype("i1"),
    OperandType.TENSOR_QUANT8_ASYMM_SIGNED: np.dtype("i1"),
    OperandType.TENSOR_OEM_BYTE: np.dtype("u1"),
}

_SCALAR_TYPES = frozenset(
    {
        OperandType.FLOAT32,
        OperandType.INT32,
        OperandType.UINT32,
        OperandType.BOOL,
        OperandType.FLOAT16,
        OperandType.SUBGRAPH,
        OperandType.OEM,
    }
)

_ADDED_IN_1_3 = frozenset({OperandType.TENSOR_QUANT8_ASYMM_SIGNED, OperandType.SUBGRAPH})

_INTRODUCED: dict[int, HalVersion] = {
    t: (
        HalVersion.V1_0
        if t in (0, 1, 2, 3, 4, 5, 10000, 10001)
        else HalVersion.V1_3
        if t in _ADDED_IN_1_3
        else HalVersion.V1_2
    )
    for t in OperandType
}

STATUSES_1_0: frozenset[ErrorStatus] = frozenset(ErrorStatus(code) for code in range(5))
"""The statuses of 1.0's ErrorStatus (NONE ... INVALID_ARGUMENT): all a 1.0-1.2 method,
callback or burst packet can carry. The 1.3 codes (5-8) travel only through 1.3 methods
and ``notify_1_3``."""

LIFETIMES_1_0: frozenset[OperandLifeTime] = frozenset(OperandLifeTime(code) for code in range(6))
"""The operand lifetimes of HAL 1.0-1.2 (TEMPORARY_VARIABLE ... NO_VALUE); SUBGRAPH (6)
is valid only in a 1.3 model."""


_BASE_MAX = int(OperandTypeRange.BASE_MAX)  # plain ints: these run for every operand
_OEM_TYPES = frozenset({int(OperandType.OEM), int(OperandType.TENSOR_OEM_BYTE)})


def is_extension_type(value: int) -> bool:
    """An operand or operation type above ``BASE_MAX`` belongs to an extension (1.2)."""
    return value > _BASE_MAX


def extension_prefix(value: int) -> int:
    """The high 16 bits of an extension type: the prefix the model declared."""
    return value >> ExtensionTypeEncoding.LOW_BITS_TYPE


def extension_type_within(value: int) -> int:
    """The low 16 bits of an extension type: the type inside its extension."""
    return value & ((1 << ExtensionTypeEncoding.LOW_BITS_TYPE) - 1)


def make_extension_type(prefix: int, type_within: int) -> int:
    return (prefix << ExtensionTypeEncoding.LOW_BITS_TYPE) | type_within


def is_oem_type(value: int) -> bool:
    return value in _OEM_TYPES


def is_fundamental_operand_type(value: int) -> bool:
    return OperandTypeRange.FUNDAMENTAL_MIN <= value <= OperandTypeRange.FUNDAMENTAL_MAX


def operand_type_introduced(value: int) -> HalVersion | None:
    """The first HAL version that knows this non-extension type; None if none does."""
    return _INTRODUCED.get(value)


def is_scalar_type(value: int) -> bool:
    return value in _SCALAR_TYPES


QUANTIZED_TENSOR_TYPES = frozenset(
    {
        OperandType.TENSOR_QUANT8_ASYMM,
        OperandType.TENSOR_QUANT8_SYMM,
        OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL,
        OperandType.TENSOR_QUANT16_ASYMM,
        OperandType.TENSOR_QUANT16_SYMM,
    }
)
"""The quantized tensor types of HAL 1.2 (values stored as integers with a scale)."""


def _extension_info(value: int, extensions: list | tuple | None):
    """The ``hal.extensions`` operand type an extension type stands for in a model whose
    ``extension_name_to_prefix`` is ``extensions``; None when not given or not known."""
    if not extensions or not is_extension_type(value):
        return None
    found = operand_type_of(value, extensions)
    return None if found is None else found[1]


def is_tensor_type(value: int, extensions: list | tuple | None = None) -> bool:
    """True for the known tensor types. An extension type is judged only when the model's
    ``extension_name_to_prefix`` is given as ``extensions`` and names a known extension
    (``hal.extensions``); otherwise it is not a tensor here."""
    info = _extension_info(value, extensions)
    if info is not None:
        return info.is_tensor
    return value in _ELEMENT_SIZE and value not in _SCALAR_TYPES


def element_byte_size(value: int, extensions: list | tuple | None = None) -> int:
    """Bytes per element of a known type (OEM: 0); of an extension type only with the
    model's ``extension_name_to_prefix`` as ``extensions``."""
    info = _extension_info(value, extensions)
    if info is not None:
        return info.byte_size
    try:
        return _ELEMENT_SIZE[value]
    except KeyError:
        raise ValueError(f"no element size for operand type {value}") from None


def numpy_dtype(value: int, extensions: list | tuple | None = None) -> np.dtype:
    """The little-endian numpy dtype holding one element of the type; of an extension
    type only with the model's ``extension_name_to_prefix`` as ``extensions``."""
    info = _extension_info(value, extensions)
    if info is not None:
        return info.numpy_dtype
    try:
        return _DTYPE[value]
    except KeyError:
        raise ValueError(f"no numpy dtype for operand type {value}") from None


def element_count(dimensions: list[int] | tuple[int, ...]) -> int:
    """Product of the dimensions (1 for a scalar's empty list)."""
    return math.prod(dimensions)


def operand_byte_size(
    type_: int, dimensions: list[int] | tuple[int, ...], extensions: list | tuple | None = None
) -> int:
    """Bytes the data of an operand takes. A tensor of unknown rank has size 0.
    ``extensions``: the model's ``extension_name_to_prefix``, for extension types."""
    if is_tensor_type(type_, extensions) and len(dimensions) == 0:
        return 0
    return element_byte_size(type_, extensions) * element_count(dimensions)


def is_fully_specified(operand: Operand, extensions: list | tuple | None = None) -> bool:
    """Rank known (tensors) and no dimension 0. ``extensions``: the model's
    ``extension_name_to_prefix``, for extension types."""
    if is_tensor_type(operand.type, extensions) and len(operand.dimensions) == 0:
        return False
    return all(d != 0 for d in operand.dimensions)


def describe_type(value: int) -> str:
    """The enum name of a type some level knows, or a readable description of any other
    value."""
    try:
        if value not in _INTRODUCED:
            raise ValueError(value)
        return OperandType(value).name
    except ValueError:
        if is_extension_type(value):
            return (
                f"extension type {value:#x} (prefix {extension_prefix(value)}, "
                f"type {extension_type_within(value)})"
            )
        return f"unknown operand type {value}"


ENUMS: tuple[type[IntEnum], ...] = tuple(
    sorted(
        (
            value
            for value in list(globals().values())
            if isinstance(value, type)
            and issubclass(value, IntEnum)
            and value.__module__ == __name__
        ),
        key=lambda cls: cls.__name__,
    )
)
"""The enums this module defines (each an ``IntEnum``), sorted by name."""


__all__ = [
    "DEFAULT_PRIORITY",
    "ENUMS",
    "LIFETIMES_1_0",
    "NO_TIMING",
    "QUANTIZED_TENSOR_TYPES",
    "STATUSES_1_0",
    "TIME_POINT_MAX",
    "UINT64_MAX",
    "BufferDesc",
    "BufferRole",
    "Capabilities",
    "Capabilities_1_0",
    "Capabilities_1_1",
    "Capabilities_1_2",
    "Capabilities_1_3",
    "Constant",
    "DataLocation",
    "DeviceStatus",
    "DeviceType",
    "ErrorStatus",
    "ExecutionPreference",
    "Extension",
    "ExtensionNameAndPrefix",
    "ExtensionParams",
    "ExtensionTypeEncoding",
    "FusedActivationFunc",
    "HalVersion",
    "LoopTimeoutDurationNs",
    "MeasureTiming",
    "Model",
    "Operand",
    "OperandExtraParams",
    "OperandLifeTime",
    "OperandPerformance",
    "OperandType",
    "OperandTypeInformation",
    "OperandTypeRange",
    "Operation",
    "OperationType",
    "OperationTypeRange",
    "OptionalTimePoint",
    "OptionalTimeoutDuration",
    "OutputShape",
    "PerformanceInfo",
    "Priority",
    "Request",
    "RequestArgument",
    "Subgraph",
    "SymmPerChannelQuantParams",
    "Timing",
    "describe_type",
    "element_byte_size",
    "element_count",
    "extension_prefix",
    "extension_type_within",
    "is_extension_type",
    "is_fully_specified",
    "is_fundamental_operand_type",
    "is_oem_type",
    "is_optional_nanoseconds",
    "is_scalar_type",
    "is_tensor_type",
    "make_extension_type",
    "numpy_dtype",
    "operand_byte_size",
    "operand_type_introduced",
]
