"""Offline oracle for the recurrent specs' golden values.

Covers RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN, SVDF and
QUANTIZED_16BIT_LSTM (specs V1_0/rnn, svdf; V1_1/rnn_relaxed, svdf_relaxed;
V1_2/rnn_float16, svdf_float16, unidirectional_sequence_rnn,
bidirectional_sequence_rnn, quantized_lstm). Plain Python, one number at a
time, written from the definitions in docs/operations.md (RNN (24), SVDF (27),
BIDIRECTIONAL_SEQUENCE_RNN (43), QUANTIZED_16BIT_LSTM (73) and
UNIDIRECTIONAL_SEQUENCE_RNN (93)), and HAL 1.3's final-state outputs and
parallel linking (V1_3/unidirectional_sequence_rnn_v1_3,
bidirectional_sequence_rnn_v1_3: a section of its own, main_1_3); it imports
neither the reference driver nor the generator.

* Float operations are computed in double; every spec value is a small
  dyadic fraction, so each result is exact in float32 and float16 (the script
  says so, or prints INEXACT).
* QUANTIZED_16BIT_LSTM follows the op 73 definition step by step on Python
  integers: the accumulator with the reference's [recurrent | input] column
  pairing, the 4096 * bias_scale rescale, and the gemmlowp 16-bit
  fixed-point logistic / tanh (Q3.12 in, Q0.15 out: exp on [-1/4, 0) by a
  Taylor series around -1/8, a barrel shifter of exp(-2^k) factors, three
  Newton-Raphson steps for 1 / (1 + x)). It also prints a float LSTM of the
  same data to show the integers are the right numbers.

Run ``python conformance/specs/oracles/rnn_oracle.py`` and paste what it
prints into the specs.
"""

from __future__ import annotations

import math
import struct

# ---------------------------------------------------------------------------
# Float helpers
# ---------------------------------------------------------------------------


def f16(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def check_exact(name, values):
    bad = [v for v in values if f16(v) != v or f32(v) != v]
    print(f"# {name}: {'exact in float32 and float16' if not bad else f'INEXACT {bad}'}")


def act(v, code):
    if code == 1:
        return max(0.0, v)
    if code == 2:
        return min(1.0, max(-1.0, v))
    if code == 3:
        return min(6.0, max(0.0, v))
    return v


def matvec(w, x):
    return [sum(w[r][c] * x[c] for c in range(len(x))) for r in range(len(w))]


def rnn_step(x, w, r, b, h, code, w_aux=None, aux=None):
    out = []
    for u in range(len(b)):
        total = b[u]
        total += sum(w[u][i] * x[i] for i in range(len(x)))
        total += sum(r[u][k] * h[k] for k in range(len(h)))
        if aux is not None:
            total += sum(w_aux[u][i] * aux[i] for i in range(len(aux)))
        out.append(act(total, code))
    return out


def rnn(xs, w, r, b, hs, code):
    """One RNN step for every batch row."""
    return [rnn_step(x, w, r, b, h, code) for x, h in zip(xs, hs, strict=True)]


def run_direction(seq, w, r, b, h0, code, reverse, w_aux=None, aux_seq=None):
    """seq[t][b] -> states[t][b]."""
    steps = range(len(seq))
    order = list(reversed(steps)) if reverse else list(steps)
    states = [None] * len(seq)
    h = h0
    for t in order:
        aux_t = aux_seq[t] if aux_seq is not None else [None] * len(seq[t])
        h = [
            rnn_step(seq[t][bi], w, r, b, h[bi], code, w_aux, aux_t[bi])
            for bi in range(len(seq[t]))
        ]
        states[t] = h
    return states


def to_time_major(batch_major):
    """[B][T][F] -> [T][B][F]."""
    return [
        [batch_major[b][t] for b in range(len(batch_major))] for t in range(len(batch_major[0]))
    ]


def flat(nested):
    if isinstance(nested, (int, float)):
        return [nested]
    return [v for item in nested for v in flat(item)]


def svdf(xs, wf, wt, bias, states, rank, code):
    """One SVDF step for every batch row: (state_out rows, output rows)."""
    filters, memory = len(wt), len(wt[0])
    units = filters // rank
    state_out, outputs = [], []
    for x, state in zip(xs, states, strict=True):
        s = [state[f * memory : (f + 1) * memory] for f in range(filters)]
        for f in range(filters):
            s[f] = [*s[f][:-1], sum(wf[f][i] * x[i] for i in range(len(x)))]
        t = [sum(wt[f][m] * s[f][m] for m in range(memory)) for f in range(filters)]
        out = []
        for u in range(units):
            v = sum(t[u * rank + k] for k in range(rank))
            if bias is not None:
                v += bias[u]
            out.append(act(v, code))
        outputs.append(out)
        state_out.append([v for f in range(filters) for v in [*s[f][1:], 0.0]])
    return state_out, outputs


# ---------------------------------------------------------------------------
# 16-bit fixed point (gemmlowp), scalar integers
# ---------------------------------------------------------------------------

I16_MIN, I16_MAX = -32768, 32767


def as_int16(v):
    v &= 0xFFFF
    return v - 0x10000 if v >= 0x8000 else v


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def rdpot(x, e):
    """Round x / 2**e to nearest, ties away from zero."""
    if e == 0:
        return x
    mask = (1 << e) - 1
    rem = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> e) + (1 if rem > threshold else 0)


def sqrdmulh16(a, b):
    if a == b == I16_MIN:
        return I16_MAX
    p = a * b
    nudge = (1 << 14) if p >= 0 else 1 - (1 << 14)
    return as_int16(trunc_div(p + nudge, 1 << 15))


def sat16(v):
    return max(I16_MIN, min(I16_MAX, v))


def shl_sat16(x, e):
    limit = (1 << (15 - e)) - 1
    if x > limit:
        return I16_MAX
    if x < -limit:
        return I16_MIN
    return x * (1 << e)


def const16(raw32):
    return rdpot(raw32, 16)


def exp_small(a):
    """exp(a) for a in [-1/4, 0), Q0.15 in and out."""
    c = const16(1895147668)
    third = const16(715827883)
    x = as_int16(a + 4096)
    x2 = sqrdmulh16(x, x)
    x3 = sqrdmulh16(x2, x)
    x4 = sqrdmulh16(x2, x2)
    poly = rdpot(as_int16(sqrdmulh16(as_int16(rdpot(x4, 2) + x3), third) + x2), 1)
    return sat16(c + sqrdmulh16(c, as_int16(x + poly)))


EXP_FACTORS = {
    -2: 1672461947,
    -1: 1302514674,
    0: 790015084,
    1: 290630308,
    2: 39332535,
    3: 720401,
    4: 242,
}


def exp_neg(a, ibits):
    """exp(a) for a <= 0 in Q(ibits).(15 - ibits); result Q0.15."""
    if a == 0:
        return I16_MAX
    fbits = 15 - ibits
    quarter = 1 << (fbits - 2)
    reduced = as_int16((a & (quarter - 1)) - quarter)
    result = exp_small(shl_sat16(reduced, ibits))
    rest = as_int16(reduced - a)
    for k, raw in EXP_FACTORS.items():
        if ibits > k and rest & (1 << (fbits + k)):
            result = sqrdmulh16(result, const16(raw))
    return result


def newton(a):
    """x ~ 2 / (1 + a) in Q2.13 for a in Q0.15."""
    s = a + I16_MAX
    half = trunc_div(s + (1 if s >= 0 else -1), 2)
    x = as_int16(const16(1515870810) + sqrdmulh16(half, const16(-1010580540)))
    for _ in range(3):
        err = as_int16((1 << 13) - sqrdmulh16(half, x))
        x = as_int16(x + shl_sat16(sqrdmulh16(x, err), 2))
    return x


def logistic16(a):
    """Q3.12 -> Q0.15."""
    if a == 0:
        return 1 << 14
    mag = a if a > 0 else as_int16(-a)
    pos = shl_sat16(newton(exp_neg(as_int16(-mag), 3)), 1)
    return pos if a > 0 else as_int16(I16_MAX - pos)


def tanh16(a, ibits):
    if a == 0:
        return 0
    n = a if a < 0 else as_int16(-a)
    t = shl_sat16(as_int16(newton(exp_neg(n, ibits + 1)) - (1 << 13)), 2)
    return as_int16(-t) if a < 0 else t


def quantize_multiplier(real):
    mantissa, exponent = math.frexp(real)
    q = math.floor(mantissa * (1 << 31) + 0.5)
    if q == 1 << 31:
        q //= 2
        exponent += 1
    return q, exponent


def mbqm(x, q, shift):
    x = x * (1 << max(shift, 0))
    if x == q == -(1 << 31):
        high = (1 << 31) - 1
    else:
        p = x * q
        high = trunc_div(p + ((1 << 30) if p >= 0 else 1 - (1 << 30)), 1 << 31)
    return rdpot(high, max(-shift, 0))


def qlstm(x, w_in, w_rec, biases, c_prev, h_prev, w_zero, w_scale):
    """x[B][I], w_in/w_rec: dict gate -> [O][*], biases: dict gate -> [O].

    Returns (cell[B][O] int16, h[B][O] uint8).
    """
    q, shift = quantize_multiplier(4096.0 * f32(f32(w_scale) / 128.0))
    outputs = len(biases["input"])
    cells, hs = [], []
    for b in range(len(x)):
        v = [q8 - 128 for q8 in x[b]] + [q8 - 128 for q8 in h_prev[b]]
        pre = {}
        for gate in ("input", "cell", "forget", "output"):
            pre[gate] = []
            for o in range(outputs):
                row = w_rec[gate][o] + w_in[gate][o]  # the reference's column order
                acc = biases[gate][o] + sum(v[d] * (row[d] - w_zero) for d in range(len(v)))
                pre[gate].append(max(-32768, min(32767, mbqm(acc, q, shift))))
        cell_row, h_row = [], []
        for o in range(outputs):
            i = logistic16(pre["input"][o])
            g = tanh16(pre["cell"][o], 3)
            f = logistic16(pre["forget"][o])
            og = logistic16(pre["output"][o])
            c = sat16(rdpot(sqrdmulh16(i, g), 4) + sqrdmulh16(f, c_prev[b][o]))
            h = sqrdmulh16(og, tanh16(shl_sat16(c, 1), 3))
            cell_row.append(c)
            h_row.append(128 + max(-128, min(127, rdpot(h, 8))))
        cells.append(cell_row)
        hs.append(h_row)
    return cells, hs


def qlstm_float(x, w_in, w_rec, biases, c_prev, h_prev, w_zero, w_scale):
    """The same step in real numbers, with the same pairing, for comparison."""
    sig = lambda z: 1 / (1 + math.exp(-z))  # noqa: E731
    cells, hs = [], []
    for b in range(len(x)):
        v = [(q8 - 128) / 128 for q8 in x[b]] + [(q8 - 128) / 128 for q8 in h_prev[b]]
        pre = {}
        for gate in ("input", "cell", "forget", "output"):
            pre[gate] = [
                biases[gate][o] * w_scale / 128
                + sum(
                    v[d] * (w_rec[gate][o] + w_in[gate][o])[d] * w_scale - v[d] * w_zero * w_scale
                    for d in range(len(v))
                )
                for o in range(len(biases[gate]))
            ]
        c_row, h_row = [], []
        for o in range(len(biases["input"])):
            c = sig(pre["input"][o]) * math.tanh(pre["cell"][o])
            c += sig(pre["forget"][o]) * c_prev[b][o] / 2048
            c = max(-16, min(16, c))
            c_row.append(round(c * 2048, 1))
            h_row.append(round(128 + 128 * sig(pre["output"][o]) * math.tanh(c), 1))
        cells.append(c_row)
        hs.append(h_row)
    return cells, hs


# ---------------------------------------------------------------------------
# The spec data
# ---------------------------------------------------------------------------

RNN_W = [[0.5, -0.25, 1.0], [0.25, 0.5, -0.5]]
RNN_R = [[0.5, 0.0], [-0.25, 0.5]]
RNN_B = [0.125, -0.25]
RNN_X1 = [[1.0, 2.0, -1.0], [8.0, -1.5, 2.0]]
RNN_H0 = [[0.0, 0.0], [1.0, -0.5]]
RNN_X2 = [[-2.0, 0.5, 1.5], [1.0, 1.0, 1.0]]

SVDF_WF = [[0.5, -0.25, 0.25], [0.25, 0.5, 0.0], [-0.5, 0.25, 0.75], [1.0, 0.0, -0.25]]
SVDF_WT = [[1.0, -0.5, 0.5], [0.5, 1.5, -1.0], [-1.0, 0.5, 2.0], [0.5, 0.5, 1.0]]
SVDF_BIAS = [0.25, -0.5]
SVDF_X1 = [[1.0, -0.5, 2.0], [0.5, 1.5, -1.0]]
SVDF_S0 = [
    [0.25, -0.5, 0.0, 0.5, 0.25, 0.0, -0.25, 0.75, 0.0, 1.0, -0.5, 0.0],
    [0.0, 0.5, 0.0, -0.75, 0.25, 0.0, 0.5, 0.5, 0.0, -0.25, 0.0, 0.0],
]
SVDF_X2 = [[-1.0, 0.5, 0.5], [2.0, 0.0, 1.0]]

SEQ_W = [[0.5, -0.25], [0.25, 0.75]]
SEQ_R = [[0.5, -0.25], [0.25, 0.5]]
SEQ_B = [0.25, -0.125]
SEQ_H0 = [[0.5, 0.0], [-0.25, 1.0]]
# batch-major [B=2][T=3][I=2]
SEQ_X = [
    [[1.0, 0.5], [-0.5, 2.0], [1.5, -1.0]],
    [[0.0, -1.0], [2.0, 1.0], [-1.0, 0.5]],
]

BI_FW_W = [[0.5, 0.25], [-0.25, 1.0]]
BI_FW_R = [[0.5, 0.0], [0.25, -0.5]]
BI_FW_B = [0.125, 0.25]
BI_FW_H0 = [[0.0, 0.5], [1.0, 0.0]]
BI_BW_W = [[1.0, -0.5], [0.25, 0.25], [-0.5, 0.75]]
BI_BW_R = [[0.5, 0.0, 0.25], [0.0, 0.25, 0.0], [-0.25, 0.5, 0.5]]
BI_BW_B = [-0.25, 0.5, 0.0]
BI_BW_H0 = [[0.5, 0.0, -0.5], [0.0, 1.0, 0.25]]
BI_FW_AUX = [[0.25, -0.5], [0.5, 0.5]]
BI_BW_AUX = [[-0.5, 0.25], [1.0, 0.0], [0.25, 0.5]]
# batch-major [B=2][T=3][I=2]
BI_X = [
    [[1.0, -0.5], [0.5, 1.5], [-1.0, 2.0]],
    [[2.0, 0.0], [-0.5, -1.0], [1.0, 0.5]],
]
BI_AUX = [
    [[0.5, 1.0], [-1.0, 0.5], [0.0, -0.5]],
    [[1.0, 1.0], [0.5, -1.5], [2.0, 0.0]],
]

Q_W_IN = {  # [O=3][I=2]
    "input": [[150, 110], [130, 160], [90, 140]],
    "forget": [[170, 128], [120, 135], [140, 100]],
    "cell": [[100, 180], [145, 125], [128, 60]],
    "output": [[160, 140], [110, 95], [135, 175]],
}
Q_W_REC = {  # [O=3][O=3]
    "input": [[140, 120, 128], [100, 150, 130], [128, 128, 170]],
    "forget": [[135, 128, 110], [160, 140, 120], [120, 128, 150]],
    "cell": [[110, 170, 128], [128, 90, 160], [150, 130, 100]],
    "output": [[128, 145, 125], [170, 110, 128], [105, 150, 140]],
}
Q_BIAS = {
    "input": [-2000, 1500, 300],
    "forget": [3000, -500, 2500],
    "cell": [1000, -2500, 4000],
    "output": [-800, 2200, 0],
}
Q_X1 = [[200, 60], [140, 250]]
Q_C0 = [[1000, -3000, 8000], [-12000, 500, 30000]]
Q_H0 = [[128, 170, 90], [60, 200, 128]]
Q_X2 = [[30, 180], [128, 128]]


def show(name, values):
    print(f"{name} = {flat(values)}")


def main():
    print("# V1_0/rnn: act NONE; RELU / RELU6 clamp these")
    out = rnn(RNN_X1, RNN_W, RNN_R, RNN_B, RNN_H0, 0)
    show("rnn none", out)
    check_exact("rnn", flat(out))
    h1 = rnn(RNN_X1, RNN_W, RNN_R, RNN_B, RNN_H0, 1)
    h2 = rnn(RNN_X2, RNN_W, RNN_R, RNN_B, h1, 1)
    show("rnn relu step 1", h1)
    show("rnn relu step 2", h2)
    check_exact("rnn state", flat(h1) + flat(h2))

    print("# SVDF rank 2, bias present (act NONE) then omitted (act RELU)")
    for bias, code in ((SVDF_BIAS, 0), (None, 1)):
        s1, o1 = svdf(SVDF_X1, SVDF_WF, SVDF_WT, bias, SVDF_S0, 2, code)
        s2, o2 = svdf(SVDF_X2, SVDF_WF, SVDF_WT, bias, s1, 2, code)
        show(f"svdf bias={bias is not None} state1", s1)
        show(f"svdf bias={bias is not None} out1", o1)
        show(f"svdf bias={bias is not None} state2", s2)
        show(f"svdf bias={bias is not None} out2", o2)
        check_exact("svdf", flat(s1) + flat(o1) + flat(s2) + flat(o2))
    s1, o1 = svdf(
        SVDF_X1,
        [SVDF_WF[0], SVDF_WF[3]],
        [SVDF_WT[0], SVDF_WT[3]],
        None,
        [row[0:3] + row[9:12] for row in SVDF_S0],
        1,
        0,
    )
    show("svdf rank1 state1", s1)
    show("svdf rank1 out1", o1)

    print("# UNIDIRECTIONAL_SEQUENCE_RNN, act RELU")
    seq = to_time_major(SEQ_X)
    states = run_direction(seq, SEQ_W, SEQ_R, SEQ_B, SEQ_H0, 1, False)
    show("useq time-major input", seq)
    show("useq time-major output", states)
    show("useq batch-major output", to_time_major(states))
    check_exact("useq", flat(states))
    states0 = run_direction(seq, SEQ_W, SEQ_R, SEQ_B, SEQ_H0, 0, False)
    show("useq act none time-major output", states0)

    print("# BIDIRECTIONAL_SEQUENCE_RNN, act RELU")
    seq = to_time_major(BI_X)
    aux = to_time_major(BI_AUX)
    show("bidi time-major input", seq)
    show("bidi time-major aux", aux)
    for with_aux in (False, True):
        fw = run_direction(
            seq,
            BI_FW_W,
            BI_FW_R,
            BI_FW_B,
            BI_FW_H0,
            1,
            False,
            BI_FW_AUX if with_aux else None,
            aux if with_aux else None,
        )
        bw = run_direction(
            seq,
            BI_BW_W,
            BI_BW_R,
            BI_BW_B,
            BI_BW_H0,
            1,
            True,
            BI_BW_AUX if with_aux else None,
            aux if with_aux else None,
        )
        merged = [[fw[t][b] + bw[t][b] for b in range(2)] for t in range(3)]
        tag = "aux" if with_aux else "no aux"
        show(f"bidi {tag} fw time-major", fw)
        show(f"bidi {tag} bw time-major", bw)
        show(f"bidi {tag} merged time-major", merged)
        show(f"bidi {tag} fw batch-major", to_time_major(fw))
        show(f"bidi {tag} bw batch-major", to_time_major(bw))
        show(f"bidi {tag} merged batch-major", to_time_major(merged))
        check_exact("bidi", flat(fw) + flat(bw))

    print("# QUANTIZED_16BIT_LSTM")
    for scale, zero in ((1.0 / 128.0, 128), (0.005, 120)):
        c1, h1 = qlstm(Q_X1, Q_W_IN, Q_W_REC, Q_BIAS, Q_C0, Q_H0, zero, scale)
        c2, h2 = qlstm(Q_X2, Q_W_IN, Q_W_REC, Q_BIAS, c1, h1, zero, scale)
        show(f"qlstm s={scale} z={zero} cell1", c1)
        show(f"qlstm s={scale} z={zero} h1", h1)
        show(f"qlstm s={scale} z={zero} cell2", c2)
        show(f"qlstm s={scale} z={zero} h2", h2)
        fc, fh = qlstm_float(Q_X1, Q_W_IN, Q_W_REC, Q_BIAS, Q_C0, Q_H0, zero, scale)
        show("  float model cell1", fc)
        show("  float model h1", fh)
    main_1_3()


# ---------------------------------------------------------------------------
# HAL 1.3: final-state outputs and parallel linking (V1_3/unidirectional_sequence_rnn_v1_3,
# V1_3/bidirectional_sequence_rnn_v1_3)
# ---------------------------------------------------------------------------
# A direction's final state is its hidden state after its last step: t = T - 1 going
# forward, t = 0 going backward. With parallel linking (the auxiliary input without
# auxiliary weights) the forward direction reads the input alone and the backward
# direction reads the auxiliary input in its place, with its own weights.


def main_1_3():
    print("# HAL 1.3 UNIDIRECTIONAL_SEQUENCE_RNN final state, act RELU")
    seq = to_time_major(SEQ_X)
    states = run_direction(seq, SEQ_W, SEQ_R, SEQ_B, SEQ_H0, 1, False)
    show("useq13 time-major output", states)
    show("useq13 batch-major output", to_time_major(states))
    show("useq13 final state", states[-1])
    check_exact("useq13", flat(states))

    print("# HAL 1.3 BIDIRECTIONAL_SEQUENCE_RNN final states, act RELU")
    seq = to_time_major(BI_X)
    aux = to_time_major(BI_AUX)
    for mode in ("no aux", "parallel"):
        fw = run_direction(seq, BI_FW_W, BI_FW_R, BI_FW_B, BI_FW_H0, 1, False)
        bw_input = aux if mode == "parallel" else seq
        bw = run_direction(bw_input, BI_BW_W, BI_BW_R, BI_BW_B, BI_BW_H0, 1, True)
        merged = [[fw[t][b] + bw[t][b] for b in range(2)] for t in range(3)]
        show(f"bidi13 {mode} fw time-major", fw)
        show(f"bidi13 {mode} bw time-major", bw)
        show(f"bidi13 {mode} merged time-major", merged)
        show(f"bidi13 {mode} fw batch-major", to_time_major(fw))
        show(f"bidi13 {mode} bw batch-major", to_time_major(bw))
        show(f"bidi13 {mode} merged batch-major", to_time_major(merged))
        show(f"bidi13 {mode} fw final state", fw[-1])
        show(f"bidi13 {mode} bw final state", bw[0])
        check_exact("bidi13", flat(fw) + flat(bw))


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
