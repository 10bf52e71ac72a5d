"""Offline oracle for the LSTM-family specs (V1_0 lstm, V1_1 lstm_relaxed, V1_2
lstm_v1_2, unidirectional_sequence_lstm, bidirectional_sequence_lstm; and, in a
section of its own, HAL 1.3's final states and parallel linking: V1_3
unidirectional_sequence_lstm_v1_3, bidirectional_sequence_lstm_v1_3).

Written from the operation definitions in the ops reference (docs/operations.md,
LSTM (16), BIDIRECTIONAL_SEQUENCE_LSTM (42) and UNIDIRECTIONAL_SEQUENCE_LSTM (92)),
in plain Python: one batch row and one unit
at a time, double precision, no numpy, independent of the reference driver
and of the generator. Per time step t, with sigma the logistic function and g
the activation chosen by the activation scalar:

* z_gate = W_x,gate x + W_h,gate h (+ W_aux,gate aux) (+ peephole w_gate * c);
  the input and forget gates' peepholes see the previous cell state, the
  output gate's the new one;
* with layer norm: z := gamma_gate * (z - mean(z)) / sqrt(var(z)) over the
  units of the row, var = mean(z^2) - mean(z)^2, 1e-8 standing in for a
  variance of exactly 0;
* f = sigma(z_f + b_f); i = sigma(z_i + b_i), or 1 - f with CIFG (no input
  gate weights); c = clip(f c_prev + i g(z_c + b_c), cell_clip);
  o = sigma(z_o + b_o); m = o g(c);
* h = clip(W_proj m + b_proj, proj_clip) with projection, else m;
  a clip of 0 does nothing.

Weights and inputs are drawn from a seeded generator among the multiples of
1/8 in [-1, 1] (exact in float16). Run ``python lstm_oracle.py`` to print,
per case, every operand's dims and flat values (omitted ones as dims [0] or
[0, 0] and no values) and the expected outputs, in the form the specs paste.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

EIGHTHS = [k / 8 for k in range(-8, 9)]
CELL_NAMES = [
    "w_xi", "w_xf", "w_xc", "w_xo", "w_hi", "w_hf", "w_hc", "w_ho",
    "w_ci", "w_cf", "w_co", "b_i", "b_f", "b_c", "b_o", "w_proj", "b_proj",
]  # fmt: skip
GATES = "ifco"


@dataclass
class CellConfig:
    units: int
    output: int
    cifg: bool = False
    peephole: bool = False
    projection: bool = False
    projection_bias: bool = False
    layer_norm: bool = False
    aux: bool = False  # aux weights (BIDIRECTIONAL_SEQUENCE_LSTM)


@dataclass
class Case:
    name: str
    batch: int
    inputs: int
    steps: int
    cells: list[CellConfig]
    activation: int = 4
    cell_clip: float = 0.0
    proj_clip: float = 0.0
    seed: int = 1
    zero_row: bool = False  # batch row 0 starts with x = 0 and zero states
    extra: dict = field(default_factory=dict)


def draw(rng: random.Random, count: int) -> list[float]:
    return [rng.choice(EIGHTHS) for _ in range(count)]


def matrix(rng: random.Random, rows: int, cols: int) -> list[list[float]]:
    return [draw(rng, cols) for _ in range(rows)]


def make_cell(rng: random.Random, cfg: CellConfig, inputs: int) -> dict:
    n, p = cfg.units, cfg.output
    cell: dict = {}
    for g in GATES:
        skip_i = g == "i" and cfg.cifg
        cell["w_x" + g] = None if skip_i else matrix(rng, n, inputs)
        cell["w_h" + g] = None if skip_i else matrix(rng, n, p)
        cell["b_" + g] = None if skip_i else draw(rng, n)
        cell["ln_" + g] = draw_nonzero(rng, n) if cfg.layer_norm and not skip_i else None
        cell["aux_" + g] = matrix(rng, n, inputs) if cfg.aux and not skip_i else None
    for g in "ifo":
        present = cfg.peephole and not (g == "i" and cfg.cifg)
        cell["w_c" + g] = draw(rng, n) if present else None
    cell["w_proj"] = matrix(rng, p, n) if cfg.projection else None
    cell["b_proj"] = draw(rng, p) if cfg.projection_bias else None
    return cell


def draw_nonzero(rng: random.Random, count: int) -> list[float]:
    return [rng.choice([v for v in EIGHTHS if v > 0]) for _ in range(count)]


def sigmoid(v: float) -> float:
    return 1.0 / (1.0 + math.exp(-v))


def activation(code: int, v: float) -> float:
    if code == 0:
        return v
    if code == 1:
        return max(0.0, v)
    if code == 3:
        return min(6.0, max(0.0, v))
    if code == 4:
        return math.tanh(v)
    if code == 6:
        return sigmoid(v)
    raise ValueError(f"activation {code} is not used by the specs")


def clip(v: float, limit: float) -> float:
    return min(limit, max(-limit, v)) if limit > 0 else v


def dot(row: list[float], vec: list[float]) -> float:
    return sum(a * b for a, b in zip(row, vec, strict=True))


def layer_norm(z: list[float], gamma: list[float], trace: list | None = None) -> list[float]:
    mean = sum(z) / len(z)
    var = sum(v * v for v in z) / len(z) - mean * mean
    if trace is not None:  # what each normalisation saw, for callers to judge its conditioning
        trace.append((list(z), mean, var))
    if var == 0:
        var = 1e-8
    return [gamma[k] * (z[k] - mean) / math.sqrt(var) for k in range(len(z))]


def gate(cell, g, x, aux, h, c, cfg: CellConfig, trace: list | None = None) -> list[float]:
    """The gate's activation input for one batch row (bias included)."""
    z = []
    for k in range(cfg.units):
        v = dot(cell["w_x" + g][k], x) + dot(cell["w_h" + g][k], h)
        if aux is not None and cell["aux_" + g] is not None:
            v += dot(cell["aux_" + g][k], aux)
        if g != "c" and cell["w_c" + g] is not None:
            v += cell["w_c" + g][k] * c[k]
        z.append(v)
    if cell["ln_" + g] is not None:
        z = layer_norm(z, cell["ln_" + g], trace)
    return [z[k] + cell["b_" + g][k] for k in range(cfg.units)]


def step(cell, cfg: CellConfig, case: Case, x, aux, h, c, trace: list | None = None):
    """One time step for one batch row: (new h, new c)."""
    n = cfg.units
    f = [sigmoid(v) for v in gate(cell, "f", x, aux, h, c, cfg, trace)]
    if cfg.cifg:
        i = [1.0 - v for v in f]
    else:
        i = [sigmoid(v) for v in gate(cell, "i", x, aux, h, c, cfg, trace)]
    g_in = [activation(case.activation, v) for v in gate(cell, "c", x, aux, h, c, cfg, trace)]
    c_new = [clip(f[k] * c[k] + i[k] * g_in[k], case.cell_clip) for k in range(n)]
    o = [sigmoid(v) for v in gate(cell, "o", x, aux, h, c_new, cfg, trace)]
    m = [o[k] * activation(case.activation, c_new[k]) for k in range(n)]
    if cell["w_proj"] is None:
        return m, c_new
    h_new = []
    for r in range(cfg.output):
        v = dot(cell["w_proj"][r], m)
        if cell["b_proj"] is not None:
            v += cell["b_proj"][r]
        h_new.append(clip(v, case.proj_clip))
    return h_new, c_new


def run(cell, cfg, case, xs, auxs, h0, c0, reverse=False, trace=None):
    """xs[t][b]: outputs[t][b], final h[b], final c[b]. ``trace``, if a list, receives
    (gate sums, mean, variance) of every layer normalisation, in order."""
    h = [list(r) for r in h0]
    c = [list(r) for r in c0]
    outputs = [None] * len(xs)
    order = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
    for t in order:
        for b in range(case.batch):
            aux = None if auxs is None else auxs[t][b]
            h[b], c[b] = step(cell, cfg, case, xs[t][b], aux, h[b], c[b], trace)
        outputs[t] = [list(r) for r in h]
    return outputs, h, c


# ---------------------------------------------------------------------------
# The operations, on explicit weights (the parameter-space tests' entry points)
# ---------------------------------------------------------------------------
# ``cell`` is a dict as ``make_cell`` builds it (None for an omitted tensor), ``cfg``
# its CellConfig; sequences are time-major lists xs[t][b][i]; ``act`` the activation
# code, clips 0 for none.


def _case(batch, inputs, steps, cells, act, cell_clip, proj_clip) -> Case:
    return Case("explicit", batch, inputs, steps, cells, act, cell_clip, proj_clip)


def lstm(cell, cfg, x, h, c, act, cell_clip, proj_clip, trace=None):
    """LSTM, one step: x[b][i], h[b][p], c[b][n] -> (h_out[b][p], c_out[b][n])."""
    case = _case(len(x), len(x[0]), 1, [cfg], act, cell_clip, proj_clip)
    _, h_out, c_out = run(cell, cfg, case, [x], None, h, c, trace=trace)
    return h_out, c_out


def sequence_lstm(cell, cfg, xs, h0, c0, act, cell_clip, proj_clip, trace=None):
    """UNIDIRECTIONAL_SEQUENCE_LSTM: outputs[t][b][p] (time-major)."""
    case = _case(len(xs[0]), len(xs[0][0]), len(xs), [cfg], act, cell_clip, proj_clip)
    return run(cell, cfg, case, xs, None, h0, c0, trace=trace)[0]


def bidirectional_lstm(fw, bw, xs, auxs, states, act, cell_clip, proj_clip, trace=None):
    """BIDIRECTIONAL_SEQUENCE_LSTM: ``fw`` and ``bw`` are (cell, cfg) pairs, ``auxs``
    the aux input (time-major) or None, ``states`` (fw h0, fw c0, bw h0, bw c0).
    Returns (fw outputs[t][b], bw outputs[t][b]); merged, row t, b is fw + bw."""
    (fw_cell, fw_cfg), (bw_cell, bw_cfg) = fw, bw
    fw_h0, fw_c0, bw_h0, bw_c0 = states
    case = _case(len(xs[0]), len(xs[0][0]), len(xs), [fw_cfg, bw_cfg], act, cell_clip, proj_clip)
    fw_out = run(fw_cell, fw_cfg, case, xs, auxs, fw_h0, fw_c0, trace=trace)[0]
    bw_out = run(bw_cell, bw_cfg, case, xs, auxs, bw_h0, bw_c0, reverse=True, trace=trace)[0]
    return fw_out, bw_out


# ---------------------------------------------------------------------------
# Cases (the data of the specs)
# ---------------------------------------------------------------------------


def states(rng, case: Case, cfg: CellConfig):
    h0 = matrix(rng, case.batch, cfg.output)
    c0 = matrix(rng, case.batch, cfg.units)
    if case.zero_row:
        h0[0] = [0.0] * cfg.output
        c0[0] = [0.0] * cfg.units
    return h0, c0


def sequence_input(rng, case: Case):
    xs = [matrix(rng, case.batch, case.inputs) for _ in range(case.steps)]
    if case.zero_row:
        xs[0][0] = [0.0] * case.inputs
    return xs


def flat(m) -> list[float]:
    if m is None:
        return []
    if isinstance(m[0], list):
        return [v for row in m for v in flat(row)]
    return list(m)


def dims_of(m, rank: int) -> list[int]:
    if m is None:
        return [0] * rank
    return [len(m), len(m[0])] if rank == 2 else [len(m)]


def cell_operands(cell, prefix: str = "") -> list[tuple[str, list[int], list[float]]]:
    out = []
    for name in CELL_NAMES:
        rank = 2 if name.startswith(("w_x", "w_h")) or name == "w_proj" else 1
        out.append((prefix + name, dims_of(cell[name], rank), flat(cell[name])))
    return out


def layer_norm_operands(cell, prefix: str = ""):
    return [(f"{prefix}ln_{g}", dims_of(cell["ln_" + g], 1), flat(cell["ln_" + g])) for g in GATES]


def time_major_dims(xs):
    return [len(xs), len(xs[0]), len(xs[0][0])]


def batch_major(xs):
    return [[xs[t][b] for t in range(len(xs))] for b in range(len(xs[0]))]


def fmt(v: float) -> str:
    s = f"{v:.8g}"
    return s if any(ch in s for ch in ".en") else s + ".0"


def show(label: str, dims: list[int], values: list[float]) -> None:
    print(f"    {label!r}: ({dims}, [{', '.join(fmt(v) for v in values)}]),")


def lstm_case(case: Case, feeds: int, form27: bool) -> None:
    """LSTM (one step): ``feeds`` steps, each feeding the previous state outputs back."""
    rng = random.Random(case.seed)
    cfg = case.cells[0]
    cell = make_cell(rng, cfg, case.inputs)
    h, c = states(rng, case, cfg)
    print(f"# {case.name}")
    print("CELL = {")
    for name, dims, values in cell_operands(cell) + (layer_norm_operands(cell) if form27 else []):
        show(name, dims, values)
    print("}")
    print("STEPS = [")
    for _ in range(feeds):
        x = matrix(rng, case.batch, case.inputs)
        _, h_new, c_new = run(cell, cfg, case, [x], None, h, c)
        print("  {")
        show("x", [case.batch, case.inputs], flat(x))
        show("h_in", [case.batch, cfg.output], flat(h))
        show("c_in", [case.batch, cfg.units], flat(c))
        show("h_out", [case.batch, cfg.output], flat(h_new))
        show("c_out", [case.batch, cfg.units], flat(c_new))
        print("  },")
        h, c = h_new, c_new
    print("]\n")


def uni_case(case: Case, time_major: bool) -> None:
    rng = random.Random(case.seed)
    cfg = case.cells[0]
    cell = make_cell(rng, cfg, case.inputs)
    h0, c0 = states(rng, case, cfg)
    xs = sequence_input(rng, case)
    outputs, _, _ = run(cell, cfg, case, xs, None, h0, c0)
    x_data = xs if time_major else batch_major(xs)
    out_data = outputs if time_major else batch_major(outputs)
    print(f"# {case.name}")
    print("DATA = {")
    show("x", time_major_dims(x_data), flat(x_data))
    for name, dims, values in cell_operands(cell) + layer_norm_operands(cell):
        show(name, dims, values)
    show("h0", [case.batch, cfg.output], flat(h0))
    show("c0", [case.batch, cfg.units], flat(c0))
    show("out", time_major_dims(out_data), flat(out_data))
    print("}\n")


def bidi_case(case: Case, time_major: bool, merge: bool) -> None:
    rng = random.Random(case.seed)
    fw_cfg, bw_cfg = case.cells
    fw = make_cell(rng, fw_cfg, case.inputs)
    bw = make_cell(rng, bw_cfg, case.inputs)
    fw_h0, fw_c0 = states(rng, case, fw_cfg)
    bw_h0, bw_c0 = states(rng, case, bw_cfg)
    xs = sequence_input(rng, case)
    auxs = sequence_input(rng, case) if fw_cfg.aux else None
    fw_out, _, _ = run(fw, fw_cfg, case, xs, auxs, fw_h0, fw_c0)
    bw_out, _, _ = run(bw, bw_cfg, case, xs, auxs, bw_h0, bw_c0, reverse=True)

    def layout(seq):
        return seq if time_major else batch_major(seq)

    print(f"# {case.name}")
    print("DATA = {")
    show("x", time_major_dims(layout(xs)), flat(layout(xs)))
    for prefix, cell in (("fw_", fw), ("bw_", bw)):
        for name, dims, values in cell_operands(cell, prefix):
            show(name, dims, values)
    show("fw_h0", [case.batch, fw_cfg.output], flat(fw_h0))
    show("fw_c0", [case.batch, fw_cfg.units], flat(fw_c0))
    show("bw_h0", [case.batch, bw_cfg.output], flat(bw_h0))
    show("bw_c0", [case.batch, bw_cfg.units], flat(bw_c0))
    aux_dims = time_major_dims(layout(auxs)) if auxs else [0, 0, 0]
    show("aux", aux_dims, flat(layout(auxs)) if auxs else [])
    for prefix, cell in (("fw_", fw), ("bw_", bw)):
        for g in GATES:
            show(f"{prefix}aux_{g}", dims_of(cell["aux_" + g], 2), flat(cell["aux_" + g]))
    for prefix, cell in (("fw_", fw), ("bw_", bw)):
        for name, dims, values in layer_norm_operands(cell, prefix):
            show(name, dims, values)
    if merge:
        merged = [
            [fw_out[t][b] + bw_out[t][b] for b in range(case.batch)] for t in range(case.steps)
        ]
        show("out", time_major_dims(layout(merged)), flat(layout(merged)))
    else:
        show("fw_out", time_major_dims(layout(fw_out)), flat(layout(fw_out)))
        show("bw_out", time_major_dims(layout(bw_out)), flat(layout(bw_out)))
    print("}\n")


def main() -> None:
    print("# ---- LSTM (V1_0 lstm, V1_1 lstm_relaxed, V1_2 lstm_v1_2 float16) ----")
    lstm_case(Case("basic", 2, 2, 1, [CellConfig(2, 2)], seed=11), feeds=3, form27=False)
    lstm_case(
        Case(
            "cifg_peephole_projection",
            2, 2, 1,
            [CellConfig(3, 2, cifg=True, peephole=True, projection=True, projection_bias=True)],
            cell_clip=0.75, proj_clip=0.125, seed=12,
        ),
        feeds=2, form27=False,
    )  # fmt: skip
    lstm_case(
        Case(
            "peephole_projection_relu",
            2, 2, 1,
            [CellConfig(2, 3, peephole=True, projection=True)],
            activation=1, seed=13,
        ),
        feeds=2, form27=False,
    )  # fmt: skip
    lstm_case(
        Case("constant_weights_relu6", 2, 2, 1, [CellConfig(2, 2)], activation=3,
             cell_clip=0.5, seed=14),
        feeds=1, form27=False,
    )  # fmt: skip
    print("# ---- LSTM 27 inputs (V1_2 lstm_v1_2) ----")
    lstm_case(
        Case(
            "layer_norm",
            2, 2, 1,
            [CellConfig(4, 3, peephole=True, projection=True, layer_norm=True)],
            proj_clip=0.25, seed=21,
        ),
        feeds=2, form27=True,
    )  # fmt: skip
    lstm_case(
        Case(
            "layer_norm_cifg",
            2, 2, 1,
            [CellConfig(3, 3, cifg=True, layer_norm=True)],
            seed=22, zero_row=True,
        ),
        feeds=2, form27=True,
    )  # fmt: skip
    lstm_case(
        Case("no_layer_norm", 2, 2, 1, [CellConfig(2, 2)], activation=6, seed=23),
        feeds=1, form27=True,
    )  # fmt: skip
    print("# ---- UNIDIRECTIONAL_SEQUENCE_LSTM ----")
    uni_case(Case("time_major", 2, 2, 3, [CellConfig(2, 2)], seed=31), time_major=True)
    uni_case(
        Case(
            "batch_major_cifg_peephole_projection",
            2, 2, 3,
            [CellConfig(3, 2, cifg=True, peephole=True, projection=True, projection_bias=True)],
            cell_clip=0.75, proj_clip=0.5, seed=32,
        ),
        time_major=False,
    )  # fmt: skip
    uni_case(
        Case(
            "layer_norm_peephole_projection",
            2, 2, 2,
            [CellConfig(4, 2, peephole=True, projection=True, layer_norm=True)],
            activation=6, seed=33,
        ),
        time_major=True,
    )  # fmt: skip
    uni_case(
        Case(
            "layer_norm_cifg_batch_major",
            3, 2, 1,
            [CellConfig(3, 3, cifg=True, layer_norm=True)],
            activation=3, seed=34, zero_row=True,
        ),
        time_major=False,
    )  # fmt: skip
    print("# ---- BIDIRECTIONAL_SEQUENCE_LSTM ----")
    bidi_case(
        Case("time_major", 2, 2, 3, [CellConfig(2, 2), CellConfig(2, 2)], seed=41),
        time_major=True, merge=False,
    )  # fmt: skip
    bidi_case(
        Case(
            "batch_major_merged",
            2, 2, 3,
            [
                CellConfig(3, 3, cifg=True, peephole=True),
                CellConfig(2, 3, projection=True, projection_bias=True),
            ],
            cell_clip=0.5, proj_clip=0.5, seed=42,
        ),
        time_major=False, merge=True,
    )  # fmt: skip
    bidi_case(
        Case(
            "aux_input",
            2, 2, 2,
            [CellConfig(2, 2, aux=True), CellConfig(2, 2, cifg=True, aux=True)],
            seed=43,
        ),
        time_major=True, merge=False,
    )  # fmt: skip
    bidi_case(
        Case(
            "layer_norm",
            2, 2, 2,
            [
                CellConfig(3, 3, layer_norm=True, peephole=True),
                CellConfig(3, 2, cifg=True, layer_norm=True, projection=True),
            ],
            seed=44, zero_row=True,
        ),
        time_major=True, merge=True,
    )  # fmt: skip
    main_1_3()


# ---------------------------------------------------------------------------
# HAL 1.3: final-state outputs and parallel linking (V1_3/unidirectional_sequence_lstm_v1_3,
# V1_3/bidirectional_sequence_lstm_v1_3)
# ---------------------------------------------------------------------------
# A direction's final states are its output state h and cell state c after its last
# step (t = T - 1 forward, t = 0 backward). Parallel linking: the aux input given and
# every aux weight omitted; the forward cell reads x, the backward cell reads the aux
# input in place of x (its input weights have the aux input's features), and no aux
# weights are applied.


def uni_case_1_3(case: Case, time_major: bool) -> None:
    rng = random.Random(case.seed)
    cfg = case.cells[0]
    cell = make_cell(rng, cfg, case.inputs)
    h0, c0 = states(rng, case, cfg)
    xs = sequence_input(rng, case)
    outputs, h, c = run(cell, cfg, case, xs, None, h0, c0)
    x_data = xs if time_major else batch_major(xs)
    out_data = outputs if time_major else batch_major(outputs)
    print(f"# {case.name}")
    print("DATA = {")
    show("x", time_major_dims(x_data), flat(x_data))
    for name, dims, values in cell_operands(cell) + layer_norm_operands(cell):
        show(name, dims, values)
    show("h0", [case.batch, cfg.output], flat(h0))
    show("c0", [case.batch, cfg.units], flat(c0))
    show("out", time_major_dims(out_data), flat(out_data))
    show("h", [case.batch, cfg.output], flat(h))
    show("c", [case.batch, cfg.units], flat(c))
    print("}\n")


def bidi_case_1_3(case: Case, time_major: bool, merge: bool, parallel: bool) -> None:
    """As ``bidi_case``, with the four final states; ``parallel``: an aux input of the
    input's size without aux weights, read by the backward cell alone."""
    rng = random.Random(case.seed)
    fw_cfg, bw_cfg = case.cells
    fw = make_cell(rng, fw_cfg, case.inputs)
    bw = make_cell(rng, bw_cfg, case.inputs)
    fw_h0, fw_c0 = states(rng, case, fw_cfg)
    bw_h0, bw_c0 = states(rng, case, bw_cfg)
    xs = sequence_input(rng, case)
    auxs = sequence_input(rng, case) if parallel else None
    fw_out, fw_h, fw_c = run(fw, fw_cfg, case, xs, None, fw_h0, fw_c0)
    bw_in = auxs if parallel else xs
    bw_out, bw_h, bw_c = run(bw, bw_cfg, case, bw_in, None, bw_h0, bw_c0, reverse=True)

    def layout(seq):
        return seq if time_major else batch_major(seq)

    print(f"# {case.name}")
    print("DATA = {")
    show("x", time_major_dims(layout(xs)), flat(layout(xs)))
    for prefix, cell in (("fw_", fw), ("bw_", bw)):
        for name, dims, values in cell_operands(cell, prefix):
            show(name, dims, values)
    show("fw_h0", [case.batch, fw_cfg.output], flat(fw_h0))
    show("fw_c0", [case.batch, fw_cfg.units], flat(fw_c0))
    show("bw_h0", [case.batch, bw_cfg.output], flat(bw_h0))
    show("bw_c0", [case.batch, bw_cfg.units], flat(bw_c0))
    show(
        "aux",
        time_major_dims(layout(auxs)) if auxs else [0, 0, 0],
        flat(layout(auxs)) if auxs else [],
    )
    for prefix in ("fw_", "bw_"):
        for g in GATES:
            show(f"{prefix}aux_{g}", [0, 0], [])
    for prefix, cell in (("fw_", fw), ("bw_", bw)):
        for name, dims, values in layer_norm_operands(cell, prefix):
            show(name, dims, values)
    if merge:
        merged = [
            [fw_out[t][b] + bw_out[t][b] for b in range(case.batch)] for t in range(case.steps)
        ]
        show("out", time_major_dims(layout(merged)), flat(layout(merged)))
    else:
        show("fw_out", time_major_dims(layout(fw_out)), flat(layout(fw_out)))
        show("bw_out", time_major_dims(layout(bw_out)), flat(layout(bw_out)))
    show("fw_h", [case.batch, fw_cfg.output], flat(fw_h))
    show("fw_c", [case.batch, fw_cfg.units], flat(fw_c))
    show("bw_h", [case.batch, bw_cfg.output], flat(bw_h))
    show("bw_c", [case.batch, bw_cfg.units], flat(bw_c))
    print("}\n")


def main_1_3() -> None:
    print("# ---- HAL 1.3 UNIDIRECTIONAL_SEQUENCE_LSTM with final states ----")
    uni_case_1_3(Case("time_major", 2, 2, 3, [CellConfig(2, 2)], seed=31), time_major=True)
    uni_case_1_3(
        Case(
            "batch_major_cifg_peephole_projection",
            2, 2, 3,
            [CellConfig(3, 2, cifg=True, peephole=True, projection=True, projection_bias=True)],
            cell_clip=0.75, proj_clip=0.5, seed=32,
        ),
        time_major=False,
    )  # fmt: skip
    print("# ---- HAL 1.3 BIDIRECTIONAL_SEQUENCE_LSTM with final states ----")
    bidi_case_1_3(
        Case("time_major", 2, 2, 3, [CellConfig(2, 2), CellConfig(2, 2)], seed=41),
        time_major=True, merge=False, parallel=False,
    )  # fmt: skip
    bidi_case_1_3(
        Case(
            "batch_major_merged",
            2, 2, 3,
            [
                CellConfig(3, 3, cifg=True, peephole=True),
                CellConfig(2, 3, projection=True, projection_bias=True),
            ],
            cell_clip=0.5, proj_clip=0.5, seed=42,
        ),
        time_major=False, merge=True, parallel=False,
    )  # fmt: skip
    print("# ---- HAL 1.3 BIDIRECTIONAL_SEQUENCE_LSTM parallel linking ----")
    bidi_case_1_3(
        Case("parallel", 2, 2, 3, [CellConfig(2, 2), CellConfig(3, 3, cifg=True)], seed=45),
        time_major=True, merge=False, parallel=True,
    )  # fmt: skip
    bidi_case_1_3(
        Case(
            "parallel_merged_batch_major",
            2, 2, 2,
            [CellConfig(2, 2, peephole=True), CellConfig(2, 2, projection=True)],
            seed=46,
        ),
        time_major=False, merge=True, parallel=True,
    )  # fmt: skip


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
