"""QUANTIZED_LSTM (95): the reference kernel against the independent oracle, and its checks.

The expected values come from ``conformance/specs/oracles/qlstm_oracle.py`` (plain
Python integers, written from the procedure, sharing no code with the driver; its
own helpers are checked on hand-derived values when it runs), on the spec cases and
on many more drawn at random over every combination of CIFG, peephole, layer norm,
projection (with and without bias) and clips; the messages of every refusal are
checked exactly.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

from hal.checks.base import OpArgs, OpFailure, OpInvalid
from hal.types import Operand, OperandLifeTime, OperandType, OperationType
from reference_driver.ops import REGISTRY, cost_of

ORACLE_PATH = Path(__file__).resolve().parents[2] / "conformance/specs/oracles/qlstm_oracle.py"
_spec = importlib.util.spec_from_file_location("qlstm_oracle", ORACLE_PATH)
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

IMPL = REGISTRY[OperationType.QUANTIZED_LSTM]
Q8AS = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
Q8S = OperandType.TENSOR_QUANT8_SYMM
Q16S = OperandType.TENSOR_QUANT16_SYMM
I32T = OperandType.TENSOR_INT32
F32 = OperandType.FLOAT32
I32 = OperandType.INT32
IN = OperandLifeTime.MODEL_INPUT
GATE_SLOT = {"i": 0, "f": 1, "c": 2, "o": 3}


def _tensor(type_: int, values: list[int], dims: tuple[int, ...], dtype, scale=0.0, zp=0):
    return Operand(type_, list(dims), 1, scale, zp, IN), np.array(values, dtype).reshape(dims)


def case_args(case: dict, x, h, c) -> OpArgs:
    """The operation's operands and values for an oracle case and one step's inputs."""
    q, w = case["q"], case["w"]
    b, i, n, o = case["batch"], case["inputs"], case["units"], case["output"]
    slots: list = [None] * 32
    slots[0] = _tensor(Q8AS, oracle.flat(x), (b, i), np.int8, *q["x"])
    for g, k in GATE_SLOT.items():
        if "x" + g in w:
            slots[1 + k] = _tensor(Q8S, oracle.flat(w["x" + g]), (n, i), np.int8, q["wx_" + g])
            slots[5 + k] = _tensor(Q8S, oracle.flat(w["h" + g]), (n, o), np.int8, q["wh_" + g])
            slots[12 + k] = _tensor(I32T, w["b" + g], (n,), np.int32)
        if "c" + g in w:
            slots[9 + (2 if g == "o" else k)] = _tensor(
                Q16S, w["c" + g], (n,), np.int16, q["wc_" + g]
            )
        if "ln_" + g in w:
            slots[20 + k] = _tensor(Q16S, w["ln_" + g], (n,), np.int16, q["ln_" + g])
    if "proj" in w:
        slots[16] = _tensor(Q8S, oracle.flat(w["proj"]), (o, n), np.int8, q["proj"])
        if "proj_bias" in w:
            slots[17] = _tensor(I32T, w["proj_bias"], (o,), np.int32)
    slots[18] = _tensor(Q8AS, oracle.flat(h), (b, o), np.int8, *q["h"])
    slots[19] = _tensor(Q16S, oracle.flat(c), (b, n), np.int16, q["c"])
    scalars = [q["cell_clip"], q["proj_clip"], *(q.get("inter_" + g, 1.0) for g in "ifco")]
    for slot, value in zip(range(24, 30), scalars, strict=True):
        slots[slot] = (Operand(F32, [], 1, lifetime=IN), np.array(value, np.float32))
    slots[30] = (Operand(I32, [], 1, lifetime=IN), np.array(q["hidden"][0], np.int32))
    slots[31] = (Operand(F32, [], 1, lifetime=IN), np.array(q["hidden"][1], np.float32))
    inputs, values = [], []
    for slot, item in enumerate(slots):
        if item is None:
            types = checks_types()
            inputs.append(Operand(types[slot], [], 1, lifetime=OperandLifeTime.NO_VALUE))
            values.append(None)
        else:
            inputs.append(item[0])
            values.append(item[1])
    outputs = [Operand(Q8AS, [b, o], 0, *q["h"]), Operand(Q16S, [b, n], 0, q["c"]),
               Operand(Q8AS, [b, o], 0, *q["h"])]  # fmt: skip
    return OpArgs(inputs, outputs, values)


def checks_types() -> tuple[int, ...]:
    return IMPL.forms[0].inputs


def run_kernel(args: OpArgs) -> list[np.ndarray]:
    shapes = IMPL.prepare(args)
    return IMPL.execute(args, shapes)


@pytest.mark.parametrize("case", oracle.CASES, ids=lambda case: case["name"])
def test_the_spec_cases_agree_with_the_oracle(case: dict) -> None:
    for step in oracle.steps_of(case):
        args = case_args(case, step["x"], step["h_in"], step["c_in"])
        assert IMPL.supports(args)
        out, cell, out2 = run_kernel(args)
        assert out.dtype == np.int8 and cell.dtype == np.int16
        assert out.tolist() == step["h_out"] and out2.tolist() == step["h_out"]
        assert cell.tolist() == step["c_out"]


def _random_case(seed: int) -> dict:
    rng = random.Random(seed)
    units = rng.randint(1, 5)
    projection = rng.random() < 0.5
    case = oracle.make_case(
        f"random{seed}",
        seed,
        batch=rng.randint(1, 3),
        inputs=rng.randint(1, 4),
        units=units,
        output=rng.randint(1, 5) if projection else units,
        cifg=rng.random() < 0.5,
        peephole=rng.random() < 0.5,
        layer_norm=rng.random() < 0.6,
        projection=projection,
        projection_bias=rng.random() < 0.5,
        cell_clip=rng.choice([0.0, 0.0, 2.5, 5.0]),
        proj_clip=rng.choice([0.0, 0.0, 0.3, 0.6]),
        hidden_zero=rng.randint(-5, 5),
        steps=3,
    )
    case["q"]["cs"] = rng.choice([-9, -10, -11, -12, -13, -15])
    case["q"]["c"] = 2.0 ** case["q"]["cs"]
    return case


@pytest.mark.parametrize("seed", range(40))
def test_random_cases_agree_with_the_oracle(seed: int) -> None:
    case = _random_case(seed)
    for step in oracle.steps_of(case):
        out, cell, _ = run_kernel(case_args(case, step["x"], step["h_in"], step["c_in"]))
        assert (out.tolist(), cell.tolist()) == (step["h_out"], step["c_out"])


def test_the_output_shapes_and_the_cost() -> None:
    case = oracle.CASES[1]  # batch 2, input 3, 4 units, output 3
    step = oracle.steps_of(case)[0]
    args = case_args(case, step["x"], step["h_in"], step["c_in"])
    assert IMPL.prepare(args) == [(2, 3), (2, 4), (2, 3)]
    cost = cost_of(OperationType.QUANTIZED_LSTM)(args, None)
    # Every input element once (171, scalars included); then per batch row (2) the 2-D
    # operands after input 0 (eight 4x3 gate matrices, the 3x4 projection, the states
    # [2, 3] and [2, 4]: 122 elements) and a loop step; and per row a loop step for each
    # of the 4 gates' layer norms.
    assert sum(v.size for v in args.values if v is not None) == 171
    assert cost.work == 171 + 2 * (122 + 10_000) + 2 * 4 * 10_000


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------


def _base_args() -> OpArgs:
    case = oracle.make_case("base", 7, 2, 3, 4, 3, peephole=True, projection=True)
    step = oracle.steps_of(case)[0]
    return case_args(case, step["x"], step["h_in"], step["c_in"])


def _omit(args: OpArgs, *slots: int) -> OpArgs:
    values = list(args.values)
    for slot in slots:
        values[slot] = None
    return OpArgs(args.inputs, args.outputs, values)


def _refusal(args: OpArgs) -> tuple[type, str]:
    with pytest.raises(OpFailure) as raised:
        IMPL.prepare(args)
    return type(raised.value), str(raised.value)


@pytest.mark.parametrize(
    ("omitted", "message"),
    [
        ((2,), "input 2 (input-to-forget weights) is required"),
        ((19,), "input 19 (cell state) is required"),
        ((28,), "input 28 (cell gate intermediate scale) is required"),
        ((1,), "inputs 1 and 5 (input-to-input, recurrent-to-input weights) go together (CIFG)"),
        ((1, 5), "input 12 (input gate bias) must be omitted with CIFG"),
        ((12,), "input 12 (input gate bias) must be given without CIFG"),
        ((1, 5, 12, 20), "input 9 (cell-to-input weights) must be omitted with CIFG"),
        ((10,), "peephole inputs 9-11 (cell-to-gate weights) are incomplete"),
        ((9,), "peephole inputs 9-11 (cell-to-gate weights) are incomplete"),
        ((1, 5, 9, 12), "input 20 (input layer-norm weights) must be omitted with CIFG"),
        ((22,), "layer-norm inputs 20-23 must be given together or all omitted"),
        ((1, 5, 9, 12, 20, 23), "layer-norm inputs 21-23 must be given together or all omitted"),
        ((16,), "input 17 (projection bias) needs input 16 (projection weights)"),
        ((16, 17), "output size 3 differs from 4 units without projection weights"),
    ],
)
def test_omitted_combinations_are_refused_exactly(omitted, message) -> None:
    assert _refusal(_omit(_base_args(), *omitted)) == (OpInvalid, message)


def test_the_allowed_omissions_run() -> None:
    args = _base_args()
    for omitted in ((), (9, 10, 11), (17,), (20, 21, 22, 23), (24, 25), (1, 5, 9, 12, 20)):
        assert IMPL.prepare(_omit(args, *omitted)) == [(2, 3), (2, 4), (2, 3)], omitted


def _with_value(args: OpArgs, slot: int, value: np.ndarray) -> OpArgs:
    values = list(args.values)
    values[slot] = value
    return OpArgs(args.inputs, args.outputs, values)


def test_shapes_must_agree() -> None:
    args = _base_args()
    bad = _with_value(args, 7, np.zeros((4, 2), np.int8))
    assert _refusal(bad) == (
        OpInvalid,
        "input 7 (recurrent-to-cell weights) has shape [4, 2], expected [units, output] "
        "with output = 3",
    )
    bad = _with_value(args, 19, np.zeros((3, 4), np.int16))
    assert _refusal(bad) == (
        OpInvalid,
        "input 19 (cell state) has shape [3, 4], expected [batch, units] with batch = 2",
    )
    bad = _with_value(args, 13, np.zeros((4, 1), np.int32))
    assert _refusal(bad) == (
        OpInvalid,
        "input 13 (forget gate bias) has shape [4, 1], expected [units]",
    )
    bad = _with_value(args, 0, np.zeros((0, 3), np.int8))
    assert _refusal(bad) == (OpFailure, "input 0 (input) is zero-sized [0, 3]")


@pytest.mark.parametrize(
    ("slot", "value", "message"),
    [
        (27, 0.0, "input 27 (forget gate intermediate scale) is 0.0; a scale must be positive and finite"),
        (31, -1.0, "input 31 (hidden-state scale) is -1.0; a scale must be positive and finite"),
        (29, float("inf"), "input 29 (output gate intermediate scale) is inf; a scale must be positive and finite"),
    ],
)  # fmt: skip
def test_scales_must_be_positive(slot, value, message) -> None:
    args = _with_value(_base_args(), slot, np.array(value, np.float32))
    assert _refusal(args) == (OpInvalid, message)
    assert IMPL.validate(args) == message  # a constant is judged at preparation


def test_the_input_gate_scale_is_free_under_cifg() -> None:
    args = _with_value(_omit(_base_args(), 1, 5, 9, 12, 20), 26, np.array(0.0, np.float32))
    assert IMPL.prepare(args) == [(2, 3), (2, 4), (2, 3)]


def _with_cell_scale(args: OpArgs, scale: float) -> OpArgs:
    inputs = list(args.inputs)
    inputs[19] = Operand(Q16S, inputs[19].dimensions, 1, scale, 0, IN)
    return OpArgs(inputs, args.outputs, args.values)


@pytest.mark.parametrize(
    ("scale", "message"),
    [
        (0.0005, "cell state scale 0.0005 (input 19) is not a power of two"),
        (2.0**-8, "cell state scale 2**-8 (input 19) is outside 2**-15 .. 2**-9"),
        (2.0**-16, "cell state scale 2**-16 (input 19) is outside 2**-15 .. 2**-9"),
    ],
)
def test_the_cell_scale_must_be_a_small_power_of_two(scale, message) -> None:
    assert _refusal(_with_cell_scale(_base_args(), scale)) == (OpFailure, message)


def test_the_hidden_zero_point_is_read_as_its_low_byte() -> None:
    """Android 11 reads input 30 as an int8: 258 acts as 2, and 255 as -1."""
    case = oracle.CASES[0]  # no projection: the zero point shows in the output
    step = oracle.steps_of(case)[0]
    args = case_args(case, step["x"], step["h_in"], step["c_in"])
    for wide, narrow in ((258, 2), (255, -1)):
        wide_out = run_kernel(_with_value(args, 30, np.array(wide, np.int32)))[0]
        narrow_out = run_kernel(_with_value(args, 30, np.array(narrow, np.int32)))[0]
        assert wide_out.tolist() == narrow_out.tolist()
    assert step["h_out"] != run_kernel(_with_value(args, 30, np.array(-1, np.int32)))[0].tolist()


def test_declared_shapes_are_judged_at_preparation() -> None:
    args = _base_args()
    inputs = list(args.inputs)
    inputs[19] = Operand(Q16S, [3, 4], 1, 2.0**-11, 0, IN)
    reason = IMPL.validate(OpArgs(inputs, args.outputs, [None] * 32))
    assert (
        reason == "input 19 (cell state) has shape [3, 4], expected [batch, units] with batch = 2"
    )
    inputs = list(args.inputs)
    inputs[16] = Operand(Q8S, [3, 4], 1, 0.01, 0, OperandLifeTime.NO_VALUE)
    reason = IMPL.validate(OpArgs(inputs, args.outputs, [None] * 32))
    assert reason == "output size 3 differs from 4 units without projection weights"


# ---------------------------------------------------------------------------
# The invalid-value cases (conformance/invalid/qlstm.py) are refused for their reason
# ---------------------------------------------------------------------------

INVALID_REASONS = {
    "QUANTIZED_LSTM/zero_forget_intermediate_scale": (
        "input 27 (forget gate intermediate scale) is 0.0; a scale must be positive and finite"
    ),
    "QUANTIZED_LSTM/negative_hidden_state_scale": (
        "input 31 (hidden-state scale) is -0.0078125; a scale must be positive and finite"
    ),
    "QUANTIZED_LSTM/output_size_without_projection": (
        "output size 3 differs from 2 units without projection weights"
    ),
    "QUANTIZED_LSTM/cifg_group_incomplete": (
        "inputs 1 and 5 (input-to-input, recurrent-to-input weights) go together (CIFG)"
    ),
    "QUANTIZED_LSTM/layer_norm_group_incomplete": (
        "layer-norm inputs 20-23 must be given together or all omitted"
    ),
    "QUANTIZED_LSTM/cell_state_batch_mismatch": (
        "input 19 (cell state) has shape [3, 2], expected [batch, units] with batch = 1"
    ),
}


def test_each_invalid_value_case_is_refused_for_its_reason() -> None:
    from conformance.invalid import qlstm as invalid
    from hal.checks import check_execution, check_model
    from hal.types import ErrorStatus, HalVersion

    assert {case.name for case in invalid.CASES} == set(INVALID_REASONS)
    for case in invalid.CASES:
        model = case.model()
        found = check_model(model, HalVersion.V1_3)
        assert found.ok == (case.inputs is not None), case.name  # constants: at preparation
        if case.inputs is not None:
            found = check_execution(model, case.inputs(), HalVersion.V1_3)
        assert found.status == ErrorStatus.INVALID_ARGUMENT
        assert found.violation.message == INVALID_REASONS[case.name], case.name


def test_a_huge_batch_is_over_the_work_budget_at_preparation() -> None:
    """Batch 300,000 declared: 300,000 rows x (4 layer norms + 1) Python loop steps of
    10,000 work units each is 1.5e10, past the default budget of 2**31 (2.1e9): the model
    cannot be run (GENERAL_FAILURE at preparation), before anything is computed."""
    from conformance.invalid.qlstm import _model
    from reference_driver.executor import Plan, PlanError, PlanInvalid

    batch = 300_000
    model = _model(dims={0: (batch, 2), 18: (batch, 2), 19: (batch, 2)})
    with pytest.raises(PlanError, match="over the work budget") as raised:
        Plan(model)
    assert not isinstance(raised.value, PlanInvalid)
