# UNIDIRECTIONAL_SEQUENCE_LSTM (HAL 1.2, 28 inputs, one output) in float32,
# relaxed and float16: the state is carried over every step of the sequence.
# Covers time-major with a plain cell (batch 2, 3 steps, non-zero initial
# states); batch-major with CIFG + peephole (its input-gate weight omitted) +
# projection with bias and both clips active (3 units, output size 2); time-major
# with layer norm + peephole + projection without bias under the sigmoid
# activation (4 units, output size 2, 2 steps); and batch-major CIFG + layer
# norm under RELU6 with a single step (maxTime 1, batch 3), batch row 0 starting
# from x = 0 and zero states (every gate sum 0: the layer norm's variance is
# exactly 0 and the row normalises to 0). Omitted optional inputs are zero-sized
# Inputs given [] in every example.
#
# Golden values: conformance/specs/oracles/lstm_oracle.py (plain double-precision Python
# from docs/operations.md, UNIDIRECTIONAL_SEQUENCE_LSTM (92)),
# UNIDIRECTIONAL_SEQUENCE_LSTM cases of the same names. Weights and inputs are multiples
# of 1/8, exact in float16.
T = "TENSOR_FLOAT32"


def shape(dims):
    return "{%s}" % ", ".join(str(d) for d in dims)


def operands(data, names):
    # An omitted optional tensor is a zero-sized Input ({0} or {0, 0}) given []
    # in every feed: the request marks it has_no_value.
    return {n: Input(n, T, shape(data[n][0])) for n in names}
NAMES = ["x", "w_xi", "w_xf", "w_xc", "w_xo", "w_hi", "w_hf", "w_hc", "w_ho",
         "w_ci", "w_cf", "w_co", "b_i", "b_f", "b_c", "b_o", "w_proj", "b_proj",
         "h0", "c0"]
LAYER_NORM_NAMES = ["ln_i", "ln_f", "ln_c", "ln_o"]


def sequence_test(name, data, activation, cell_clip, proj_clip, time_major):
    ins = operands(data, NAMES + LAYER_NORM_NAMES)
    out = Output("out", T, shape(data["out"][0]))
    model = Model(name).Operation(
        "UNIDIRECTIONAL_SEQUENCE_LSTM", *[ins[n] for n in NAMES], activation, cell_clip,
        proj_clip, time_major, *[ins[n] for n in LAYER_NORM_NAMES]).To(out)
    feed = {ins[n]: data[n][1] for n in ins}
    feed[out] = data["out"][1]
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
}

# tanh, cell clip 0.75, projection clip 0.5
sequence_test("batch_major_cifg_peephole_projection", DATA, 4, 0.75, 0.5, False)

# layer_norm_peephole_projection
DATA = {
    'x': ([2, 2, 2], [-1.0, -0.75, -0.5, 0.75, -0.875, -1.0, -0.25, -0.125]),
    'w_xi': ([4, 2], [-0.375, -0.125, 0.0, 0.875, 1.0, -0.375, 1.0, 0.25]),
    'w_xf': ([4, 2], [-0.875, 0.25, 0.125, -0.25, -0.75, 0.375, -0.625, 0.25]),
    'w_xc': ([4, 2], [-0.5, -0.75, -0.625, 0.25, -1.0, -0.875, 0.625, 0.0]),
    'w_xo': ([4, 2], [-0.625, -0.125, -1.0, 0.75, 0.25, -0.375, 0.875, 0.875]),
    'w_hi': ([4, 2], [1.0, 0.875, 0.75, 0.125, -0.75, 0.125, 0.625, 0.125]),
    'w_hf': ([4, 2], [-0.125, 1.0, 0.0, 0.25, -1.0, 0.375, 1.0, 0.125]),
    'w_hc': ([4, 2], [0.375, -0.25, -0.25, 0.5, 0.75, 0.875, 0.375, 0.75]),
    'w_ho': ([4, 2], [-0.875, -0.75, 0.125, 0.75, 0.0, 0.625, 1.0, 0.625]),
    'w_ci': ([4], [-0.375, -0.625, -0.375, 0.25]),
    'w_cf': ([4], [0.125, -0.375, 0.375, 0.625]),
    'w_co': ([4], [0.625, 0.25, 0.375, 1.0]),
    'b_i': ([4], [1.0, 0.875, -0.875, 0.625]),
    'b_f': ([4], [0.5, 0.5, -0.375, -0.625]),
    'b_c': ([4], [0.125, 0.875, -0.75, -1.0]),
    'b_o': ([4], [0.0, 0.875, 0.875, 0.5]),
    'w_proj': ([2, 4], [-0.875, -1.0, -0.125, 0.875, -0.75, 0.0, -0.75, -0.625]),
    'b_proj': ([0], []),
    'ln_i': ([4], [0.625, 0.75, 0.5, 0.25]),
    'ln_f': ([4], [0.125, 0.75, 0.25, 0.25]),
    'ln_c': ([4], [1.0, 0.875, 0.875, 0.75]),
    'ln_o': ([4], [0.125, 0.875, 0.75, 0.75]),
    'h0': ([2, 2], [-0.25, -0.25, -0.25, -0.75]),
    'c0': ([2, 4], [-0.75, -1.0, 0.625, 1.0, 0.375, -1.0, -0.5, 0.625]),
    'out': ([2, 2, 2], [-0.51603797, -0.67135079, -0.50715203, -0.62427708, -0.61005228, -0.72328912, -0.61510961, -0.67522418]),
}

# activation 6 (sigmoid), no clipping
sequence_test("layer_norm_peephole_projection", DATA, 6, 0.0, 0.0, True)

# layer_norm_cifg_batch_major
DATA = {
    'x': ([3, 1, 2], [0.0, 0.0, -0.375, -0.375, 0.625, 0.25]),
    'w_xi': ([0, 0], []),
    'w_xf': ([3, 2], [1.0, 0.375, -1.0, -0.125, -1.0, 0.5]),
    'w_xc': ([3, 2], [0.375, 0.0, -0.875, 0.5, -0.375, 0.125]),
    'w_xo': ([3, 2], [0.0, 0.625, -0.625, 0.125, -0.25, -0.375]),
    'w_hi': ([0, 0], []),
    'w_hf': ([3, 3], [0.375, -0.75, 0.625, 0.125, 0.25, -0.625, 1.0, -0.5, -0.625]),
    'w_hc': ([3, 3], [0.125, 0.5, 0.25, -0.25, -0.25, 0.75, -0.375, -0.5, 0.5]),
    'w_ho': ([3, 3], [0.5, 0.25, 0.75, -0.75, 1.0, 0.875, 0.625, 0.75, 0.375]),
    'w_ci': ([0], []),
    'w_cf': ([0], []),
    'w_co': ([0], []),
    'b_i': ([0], []),
    'b_f': ([3], [0.0, 0.375, -1.0]),
    'b_c': ([3], [0.625, -0.125, -0.125]),
    'b_o': ([3], [-0.5, 0.75, 0.0]),
    'w_proj': ([0, 0], []),
    'b_proj': ([0], []),
    'ln_i': ([0], []),
    'ln_f': ([3], [0.375, 0.25, 0.125]),
    'ln_c': ([3], [0.25, 0.25, 1.0]),
    'ln_o': ([3], [0.375, 0.5, 0.375]),
    'h0': ([3, 3], [0.0, 0.0, 0.0, 0.125, 1.0, -0.625, 1.0, 0.125, 0.625]),
    'c0': ([3, 3], [0.0, 0.0, 0.0, 0.375, 0.75, -0.75, -0.75, -0.875, 0.25]),
    'out': ([3, 1, 3], [0.11798146, 0.0, 0.0, 0.198805, 0.35512312, 0.0, 0.0, 0.0, 0.03529824]),
}

# ---- BIDIRECTIONAL_SEQUENCE_LSTM ----
# activation 3 (relu6), no clipping
sequence_test("layer_norm_cifg_batch_major", DATA, 3, 0.0, 0.0, False)
