# UNIDIRECTIONAL_SEQUENCE_LSTM with HAL 1.3's two optional outputs: after the output,
# the output state [batch, output size] and the cell state [batch, units] after the
# last time step. The first two cases of V1_2/unidirectional_sequence_lstm: time-major
# with a plain cell (batch 2, 3 steps, tanh, no clipping), and batch-major with CIFG +
# peephole + projection with bias, cell clip 0.75 and projection clip 0.5 (3 units,
# output size 2); float32, relaxed and float16. Omitted optional inputs are zero-sized
# Inputs given [] in every example.
#
# Golden values: conformance/specs/oracles/lstm_oracle.py, section "HAL 1.3"
# (uni_case_1_3, cases of the same names). By hand, the output state is the output's
# last step (time-major: its last [B, P] block; batch-major: step 2 of each row).
T = "TENSOR_FLOAT32"


def shape(dims):
    return "{%s}" % ", ".join(str(d) for d in dims)


def operands(data, names):
    return {n: Input(n, T, shape(data[n][0])) for n in names}


NAMES = ["x", "w_xi", "w_xf", "w_xc", "w_xo", "w_hi", "w_hf", "w_hc", "w_ho",
         "w_ci", "w_cf", "w_co", "b_i", "b_f", "b_c", "b_o", "w_proj", "b_proj",
         "h0", "c0"]
LAYER_NORM_NAMES = ["ln_i", "ln_f", "ln_c", "ln_o"]
OUT_NAMES = ["out", "h", "c"]


def sequence_test(name, data, activation, cell_clip, proj_clip, time_major):
    ins = operands(data, NAMES + LAYER_NORM_NAMES)
    outs = [Output(n, T, shape(data[n][0])) for n in OUT_NAMES]
    model = Model(name).Operation(
        "UNIDIRECTIONAL_SEQUENCE_LSTM", *[ins[n] for n in NAMES], activation, cell_clip,
        proj_clip, time_major, *[ins[n] for n in LAYER_NORM_NAMES]).To(*outs)
    feed = {ins[n]: data[n][1] for n in ins}
    feed.update({o: data[n][1] for o, n in zip(outs, OUT_NAMES)})
    Example(feed, model=model).AddVariations("relaxed", "float16")


# time_major
DATA = {
    'x': ([3, 2, 2], [0.375, -0.25, 0.25, -0.125, 0.875, -0.875, 0.0, 0.25, 0.125, 0.25, 0.5, 0.875]),
    'w_xi': ([2, 2], [-1.0, 0.875, -0.625, 0.5]),
    'w_xf': ([2, 2], [-0.5, -0.875, -0.875, -0.5]),
    'w_xc': ([2, 2], [-0.625, -1.0, 0.5, 0.25]),
    'w_xo': ([2, 2], [-0.25, -0.25, 0.625, -0.875]),
    'w_hi': ([2, 2], [-0.5, -0.875, -0.5, -0.625]),
    'w_hf': ([2, 2], [-0.125, 0.75, 1.0, 0.625]),
    'w_hc': ([2, 2], [-0.25, -0.25, 0.25, 0.5]),
    'w_ho': ([2, 2], [-0.875, -0.375, 0.375, -0.5]),
    'w_ci': ([0], []),
    'w_cf': ([0], []),
    'w_co': ([0], []),
    'b_i': ([2], [-0.125, -0.5]),
    'b_f': ([2], [-0.25, -0.75]),
    'b_c': ([2], [0.375, -0.125]),
    'b_o': ([2], [-0.25, -0.5]),
    'w_proj': ([0, 0], []),
    'b_proj': ([0], []),
    'ln_i': ([0], []),
    'ln_f': ([0], []),
    'ln_c': ([0], []),
    'ln_o': ([0], []),
    'h0': ([2, 2], [0.5, -1.0, -0.75, 1.0]),
    'c0': ([2, 2], [0.75, -0.25, -0.25, 0.625]),
    'out': ([3, 2, 2], [0.16579639, -0.12930921, -0.042699483, 0.06253301, 0.11968874, -0.02952461, 0.011718237, 0.016947367, 0.046596168, -0.0022515664, -0.1188795, 0.040351749]),
    'h': ([2, 2], [0.046596168, -0.0022515664, -0.1188795, 0.040351749]),
    'c': ([2, 2], [0.11932202, -0.0062769736, -0.35154786, 0.14648285]),
}

# activation 4 (tanh), no clipping
sequence_test("time_major", DATA, 4, 0.0, 0.0, True)

# batch_major_cifg_peephole_projection
DATA = {
    'x': ([2, 3, 2], [0.5, -0.875, 0.875, -1.0, 0.25, 0.375, -0.25, -0.875, 1.0, 1.0, 0.875, 0.875]),
    'w_xi': ([0, 0], []),
    'w_xf': ([3, 2], [-0.75, -0.25, -0.5, 0.125, -0.125, 0.875]),
    'w_xc': ([3, 2], [0.375, -1.0, -0.5, 1.0, -1.0, 0.875]),
    'w_xo': ([3, 2], [-0.625, -0.375, 0.75, -1.0, 0.625, -0.875]),
    'w_hi': ([0, 0], []),
    'w_hf': ([3, 2], [-1.0, -0.875, -0.625, 0.25, 1.0, 0.25]),
    'w_hc': ([3, 2], [-0.25, 0.125, -0.25, 0.75, -0.75, 0.25]),
    'w_ho': ([3, 2], [-0.875, 0.375, -0.125, -0.375, 0.75, 0.125]),
    'w_ci': ([0], []),
    'w_cf': ([3], [-0.75, -0.875, 0.125]),
    'w_co': ([3], [-0.125, 0.125, 0.25]),
    'b_i': ([0], []),
    'b_f': ([3], [-0.875, 1.0, 0.875]),
    'b_c': ([3], [-0.625, -0.875, 1.0]),
    'b_o': ([3], [0.875, -0.375, 0.125]),
    'w_proj': ([2, 3], [-0.75, -0.125, 0.5, 0.125, 0.625, -0.75]),
    'b_proj': ([2], [0.875, -1.0]),
    'ln_i': ([0], []),
    'ln_f': ([0], []),
    'ln_c': ([0], []),
    'ln_o': ([0], []),
    'h0': ([2, 2], [-0.375, 0.75, -0.375, -0.75]),
    'c0': ([2, 3], [-0.875, -0.5, 0.0, -0.875, 0.125, -0.5]),
    'out': ([2, 3, 2], [0.5, -0.5, 0.5, -0.5, 0.5, -0.5, 0.5, -0.5, 0.5, -0.5, 0.5, -0.5]),
    'h': ([2, 2], [0.5, -0.5, 0.5, -0.5]),
    'c': ([2, 3], [-0.58330952, -0.74847364, -0.15478021, -0.75, -0.51789259, 0.18569264]),
}

# tanh, cell clip 0.75, projection clip 0.5
sequence_test("batch_major_cifg_peephole_projection", DATA, 4, 0.75, 0.5, False)
