# BIDIRECTIONAL_SEQUENCE_LSTM with omitted optional inputs (CIFG, peephole, projection, aux input, layer norm).
# The cases and data are those of bidirectional_sequence_lstm.mod.py; golden values from the same oracle.
# Every case runs in the three ways a model can omit an optional input: zero-sized model
# inputs declared "{0}" (rank 1, whatever the rank of the slot) and given [] (sent with
# has_no_value), model inputs declared with their full shapes and given [] (also sent with
# has_no_value, the dims staying as declared), and constants with no value (Omitted:
# lifetime NO_VALUE). The outputs do not depend on the idiom.
#
# BIDIRECTIONAL_SEQUENCE_LSTM (HAL 1.2, 61 inputs) in float32, relaxed and
# float16: the forward cell runs t = 0..T-1 and the backward cell t = T-1..0,
# each carrying its state over every step. Covers time-major with separate
# outputs and plain cells (batch 2, 3 steps); batch-major with merged outputs
# (forward first, then backward, on the last axis), a forward CIFG + peephole
# cell without projection (3 units) and a backward cell with projection + bias
# (2 units, output size 3), both clips active; an auxiliary input with
# cross-linking weights for both directions (the backward cell CIFG, so its
# aux input-gate weights are omitted), separate outputs; and layer norm on both
# directions (forward with peephole, backward CIFG with projection), merged,
# batch row 0 of the forward pass starting from x = 0 and zero states (a layer
# norm over a variance of exactly 0). The aux input has the input's size, the
# only case the Android 10 CPU reference computes correctly.
#
# Golden values: conformance/specs/oracles/lstm_oracle.py (plain double-precision Python
# from docs/operations.md, BIDIRECTIONAL_SEQUENCE_LSTM (42)), BIDIRECTIONAL_SEQUENCE_LSTM
# cases of the same names. Weights and inputs are multiples of 1/8, exact in float16.
T = "TENSOR_FLOAT32"


def shape(dims):
    return "{%s}" % ", ".join(str(d) for d in dims)


IDIOMS = ("zero_sized_input", "full_shape_input", "no_value_constant")


def full_dims(name, data):
    """The full shape of an omitted optional tensor, from the cell's required ones."""
    prefix = name[:3] if name[:3] in ("fw_", "bw_") else ""
    base = name[len(prefix):]
    if base == "aux":
        return data["x"][0]
    units = len(data[prefix + "b_f"][1])
    inputs = data[prefix + "w_xf"][0][1]
    output = data[prefix + "w_hf"][0][1]
    if base.startswith("aux_"):
        return [units, inputs]
    if base.startswith("w_x"):
        return [units, inputs]
    if base.startswith("w_h"):
        return [units, output]
    if base == "w_proj":
        return [output, units]
    if base == "b_proj":
        return [output]
    return [units]


def omitted(name, data, idiom):
    if idiom == "zero_sized_input":
        return Input(name, T, "{0}")
    if idiom == "full_shape_input":
        return Input(name, T, shape(full_dims(name, data)))
    return Omitted(name, T, shape(full_dims(name, data)))


def operands(data, names, idiom):
    # Tensors given values are Inputs; omitted ones follow the idiom.
    return {n: Input(n, T, shape(data[n][0])) if data[n][1] else omitted(n, data, idiom)
            for n in names}


CELL = ["w_xi", "w_xf", "w_xc", "w_xo", "w_hi", "w_hf", "w_hc", "w_ho",
        "w_ci", "w_cf", "w_co", "b_i", "b_f", "b_c", "b_o", "w_proj", "b_proj"]
GATES = ["i", "f", "c", "o"]
NAMES = (["x"] + ["fw_" + n for n in CELL] + ["bw_" + n for n in CELL]
         + ["fw_h0", "fw_c0", "bw_h0", "bw_c0", "aux"]
         + ["fw_aux_" + g for g in GATES] + ["bw_aux_" + g for g in GATES])
LAYER_NORM_NAMES = ["fw_ln_" + g for g in GATES] + ["bw_ln_" + g for g in GATES]


def bidirectional_test(name, *args):
    for idiom in IDIOMS:
        _bidirectional_test(name + "_" + idiom, idiom, *args)


def _bidirectional_test(name, idiom, data, activation, cell_clip, proj_clip, merge, time_major):
    ins = operands(data, NAMES + LAYER_NORM_NAMES, idiom)
    out_names = ["out"] if merge else ["fw_out", "bw_out"]
    outs = [Output(n, T, shape(data[n][0])) for n in out_names]
    model = Model(name).Operation(
        "BIDIRECTIONAL_SEQUENCE_LSTM", *[ins[n] for n in NAMES], activation, cell_clip,
        proj_clip, merge, time_major, *[ins[n] for n in LAYER_NORM_NAMES]).To(*outs)
    feed = {ins[n]: data[n][1] for n in ins}
    feed.update({o: data[n][1] for o, n in zip(outs, out_names)})
    Example(feed, model=model).AddVariations("relaxed", "float16")

# time_major
DATA = {
    'x': ([3, 2, 2], [-0.375, 0.875, -0.125, -0.75, -0.125, -0.5, 0.875, 0.25, -0.625, -0.125, 0.5, -0.625]),
    'fw_w_xi': ([2, 2], [0.5, 0.25, -0.125, -0.375]),
    'fw_w_xf': ([2, 2], [-1.0, 0.75, -0.5, -0.5]),
    'fw_w_xc': ([2, 2], [0.625, 0.125, -0.25, -0.75]),
    'fw_w_xo': ([2, 2], [-0.5, -0.375, -0.875, 0.0]),
    'fw_w_hi': ([2, 2], [0.5, 0.125, 0.0, 0.5]),
    'fw_w_hf': ([2, 2], [0.25, -0.375, 0.0, -0.875]),
    'fw_w_hc': ([2, 2], [0.375, 0.875, -0.5, -1.0]),
    'fw_w_ho': ([2, 2], [0.25, -0.125, -1.0, -0.375]),
    'fw_w_ci': ([0], []),
    'fw_w_cf': ([0], []),
    'fw_w_co': ([0], []),
    'fw_b_i': ([2], [-1.0, -0.125]),
    'fw_b_f': ([2], [-0.625, -0.875]),
    'fw_b_c': ([2], [-0.625, -0.625]),
    'fw_b_o': ([2], [0.625, -0.875]),
    'fw_w_proj': ([0, 0], []),
    'fw_b_proj': ([0], []),
    'bw_w_xi': ([2, 2], [0.125, 0.5, -0.5, -0.625]),
    'bw_w_xf': ([2, 2], [-1.0, -0.75, -0.5, -0.75]),
    'bw_w_xc': ([2, 2], [0.75, 0.25, -0.375, -0.5]),
    'bw_w_xo': ([2, 2], [1.0, 0.625, -0.625, -0.125]),
    'bw_w_hi': ([2, 2], [-0.75, 0.625, -1.0, 0.875]),
    'bw_w_hf': ([2, 2], [0.75, 0.5, 0.625, 0.0]),
    'bw_w_hc': ([2, 2], [-0.75, -0.875, -0.625, -0.5]),
    'bw_w_ho': ([2, 2], [-0.125, 0.625, 0.375, 0.75]),
    'bw_w_ci': ([0], []),
    'bw_w_cf': ([0], []),
    'bw_w_co': ([0], []),
    'bw_b_i': ([2], [0.5, -0.125]),
    'bw_b_f': ([2], [-1.0, -1.0]),
    'bw_b_c': ([2], [0.625, -0.75]),
    'bw_b_o': ([2], [0.625, 0.75]),
    'bw_w_proj': ([0, 0], []),
    'bw_b_proj': ([0], []),
    'fw_h0': ([2, 2], [-0.75, 0.0, -0.25, -0.125]),
    'fw_c0': ([2, 2], [0.0, 0.5, 0.25, 0.5]),
    'bw_h0': ([2, 2], [0.125, 0.75, -0.75, -0.25]),
    'bw_c0': ([2, 2], [-0.375, -0.25, -1.0, -0.125]),
    'aux': ([0, 0, 0], []),
    'fw_aux_i': ([0, 0], []),
    'fw_aux_f': ([0, 0], []),
    'fw_aux_c': ([0, 0], []),
    'fw_aux_o': ([0, 0], []),
    'bw_aux_i': ([0, 0], []),
    'bw_aux_f': ([0, 0], []),
    'bw_aux_c': ([0, 0], []),
    'bw_aux_o': ([0, 0], []),
    'fw_ln_i': ([0], []),
    'fw_ln_f': ([0], []),
    'fw_ln_c': ([0], []),
    'fw_ln_o': ([0], []),
    'bw_ln_i': ([0], []),
    'bw_ln_f': ([0], []),
    'bw_ln_c': ([0], []),
    'bw_ln_o': ([0], []),
    'fw_out': ([3, 2, 2], [-0.091136614, -0.079670269, -0.063027118, 0.12013915, -0.14172415, -0.035251252, -0.002538096, -0.046975421, -0.17899466, -0.076779329, -0.075926465, -0.044271523]),
    'bw_out': ([3, 2, 2], [0.25912553, -0.20229976, 0.15355447, -0.23830452, 0.1247605, -0.12358514, 0.43062065, -0.13363081, -0.30968262, -0.4520579, 0.28318746, -0.02435217]),
}

# activation 4 (tanh), no clipping, separate outputs, time-major
bidirectional_test("time_major", DATA, 4, 0.0, 0.0, False, True)

# batch_major_merged
DATA = {
    'x': ([2, 3, 2], [-0.75, 0.875, -0.5, 0.875, 1.0, 0.625, -0.75, -0.5, -0.375, 0.0, -0.25, -0.25]),
    'fw_w_xi': ([0, 0], []),
    'fw_w_xf': ([3, 2], [-0.625, -1.0, 0.0, -0.125, -0.125, -0.5]),
    'fw_w_xc': ([3, 2], [-0.125, 0.75, 0.0, -1.0, -0.375, 0.625]),
    'fw_w_xo': ([3, 2], [-0.875, 0.75, -0.625, 0.5, -0.75, 0.125]),
    'fw_w_hi': ([0, 0], []),
    'fw_w_hf': ([3, 3], [-0.625, -0.75, 0.625, -0.875, -1.0, -0.75, -0.25, -0.125, 1.0]),
    'fw_w_hc': ([3, 3], [0.25, 0.0, -0.5, -0.25, 0.25, -0.625, -0.75, 0.5, -0.625]),
    'fw_w_ho': ([3, 3], [0.375, -0.25, -0.75, -0.875, -0.125, 0.125, -0.75, -0.125, -0.625]),
    'fw_w_ci': ([0], []),
    'fw_w_cf': ([3], [0.375, -0.375, 0.375]),
    'fw_w_co': ([3], [0.375, -0.25, 0.0]),
    'fw_b_i': ([0], []),
    'fw_b_f': ([3], [-1.0, -0.25, 0.625]),
    'fw_b_c': ([3], [0.375, 0.375, 0.0]),
    'fw_b_o': ([3], [0.5, 0.0, 0.75]),
    'fw_w_proj': ([0, 0], []),
    'fw_b_proj': ([0], []),
    'bw_w_xi': ([2, 2], [-0.75, -0.375, -0.125, -0.375]),
    'bw_w_xf': ([2, 2], [0.25, 0.5, 0.0, -0.75]),
    'bw_w_xc': ([2, 2], [-0.5, -0.125, 0.0, 0.625]),
    'bw_w_xo': ([2, 2], [-0.625, -0.5, -0.375, 0.625]),
    'bw_w_hi': ([2, 3], [0.75, 0.5, 0.0, -0.125, 0.25, -0.875]),
    'bw_w_hf': ([2, 3], [-0.25, 0.25, -0.25, 0.875, 0.5, 0.75]),
    'bw_w_hc': ([2, 3], [0.5, 0.375, -0.125, -0.5, 1.0, 0.875]),
    'bw_w_ho': ([2, 3], [-0.75, 0.5, 0.5, 0.75, 1.0, 0.0]),
    'bw_w_ci': ([0], []),
    'bw_w_cf': ([0], []),
    'bw_w_co': ([0], []),
    'bw_b_i': ([2], [-0.125, -0.875]),
    'bw_b_f': ([2], [-0.5, 0.0]),
    'bw_b_c': ([2], [-0.75, -0.875]),
    'bw_b_o': ([2], [-1.0, -0.625]),
    'bw_w_proj': ([3, 2], [0.0, 0.25, -0.625, 0.125, 0.625, -0.375]),
    'bw_b_proj': ([3], [0.75, -1.0, 0.0]),
    'fw_h0': ([2, 3], [1.0, -0.375, 1.0, -0.625, 0.125, 1.0]),
    'fw_c0': ([2, 3], [-0.25, -0.5, 0.375, -0.375, 1.0, -1.0]),
    'bw_h0': ([2, 3], [0.25, 0.875, -1.0, -0.625, 0.375, 0.125]),
    'bw_c0': ([2, 2], [-0.125, -0.875, -0.125, -0.75]),
    'aux': ([0, 0, 0], []),
    'fw_aux_i': ([0, 0], []),
    'fw_aux_f': ([0, 0], []),
    'fw_aux_c': ([0, 0], []),
    'fw_aux_o': ([0, 0], []),
    'bw_aux_i': ([0, 0], []),
    'bw_aux_f': ([0, 0], []),
    'bw_aux_c': ([0, 0], []),
    'bw_aux_o': ([0, 0], []),
    'fw_ln_i': ([0], []),
    'fw_ln_f': ([0], []),
    'fw_ln_c': ([0], []),
    'fw_ln_o': ([0], []),
    'bw_ln_i': ([0], []),
    'bw_ln_f': ([0], []),
    'bw_ln_c': ([0], []),
    'bw_ln_o': ([0], []),
    'out': ([2, 3, 6], [0.38234331, -0.26863013, 0.076227279, 0.5, -0.5, 0.019454577, 0.40377923, -0.29662626, 0.1376656, 0.5, -0.5, 0.027643137, 0.27706058, -0.17043506, -0.03733936, 0.5, -0.5, 0.086490689, -0.159538, 0.31386013, -0.34480363, 0.5, -0.5, 0.0095252455, 0.21795717, 0.2502657, -0.0056411707, 0.5, -0.5, 0.01731621, 0.17952489, 0.1948013, -0.024977018, 0.5, -0.5, -0.057886264]),
}

# tanh, cell clip 0.5, projection clip 0.5, merged outputs, batch-major
bidirectional_test("batch_major_merged", DATA, 4, 0.5, 0.5, True, False)

# aux_input
DATA = {
    'x': ([2, 2, 2], [-0.875, 0.75, 1.0, -0.875, -0.625, -1.0, -1.0, 1.0]),
    'fw_w_xi': ([2, 2], [-0.875, 0.125, -0.5, 0.75]),
    'fw_w_xf': ([2, 2], [-0.375, -0.875, -0.625, -0.625]),
    'fw_w_xc': ([2, 2], [-0.375, 0.5, -0.75, -0.875]),
    'fw_w_xo': ([2, 2], [-0.625, 0.75, 0.25, 0.25]),
    'fw_w_hi': ([2, 2], [0.375, -0.625, 0.75, 0.875]),
    'fw_w_hf': ([2, 2], [0.5, -0.5, -0.625, -0.375]),
    'fw_w_hc': ([2, 2], [-0.875, -0.375, -0.875, -0.375]),
    'fw_w_ho': ([2, 2], [1.0, 0.75, -0.375, -0.5]),
    'fw_w_ci': ([0], []),
    'fw_w_cf': ([0], []),
    'fw_w_co': ([0], []),
    'fw_b_i': ([2], [-1.0, 1.0]),
    'fw_b_f': ([2], [1.0, 0.875]),
    'fw_b_c': ([2], [0.125, 0.0]),
    'fw_b_o': ([2], [-0.75, 0.25]),
    'fw_w_proj': ([0, 0], []),
    'fw_b_proj': ([0], []),
    'bw_w_xi': ([0, 0], []),
    'bw_w_xf': ([2, 2], [-0.75, -0.625, 0.125, 0.875]),
    'bw_w_xc': ([2, 2], [0.125, -0.625, 0.625, 0.75]),
    'bw_w_xo': ([2, 2], [0.0, 0.75, 0.25, 0.5]),
    'bw_w_hi': ([0, 0], []),
    'bw_w_hf': ([2, 2], [0.375, 0.625, -0.875, 0.875]),
    'bw_w_hc': ([2, 2], [-0.875, -0.5, -1.0, -0.625]),
    'bw_w_ho': ([2, 2], [-0.75, -0.875, -0.75, -0.25]),
    'bw_w_ci': ([0], []),
    'bw_w_cf': ([0], []),
    'bw_w_co': ([0], []),
    'bw_b_i': ([0], []),
    'bw_b_f': ([2], [0.625, -0.75]),
    'bw_b_c': ([2], [-0.625, -0.5]),
    'bw_b_o': ([2], [0.5, -0.25]),
    'bw_w_proj': ([0, 0], []),
    'bw_b_proj': ([0], []),
    'fw_h0': ([2, 2], [0.5, 0.375, -0.875, -0.375]),
    'fw_c0': ([2, 2], [-0.375, -0.25, -0.875, -0.125]),
    'bw_h0': ([2, 2], [0.125, -0.125, 0.375, -0.25]),
    'bw_c0': ([2, 2], [-0.25, 0.5, 0.5, -0.125]),
    'aux': ([2, 2, 2], [1.0, 1.0, -0.625, 0.375, 0.0, -0.125, -0.5, 0.75]),
    'fw_aux_i': ([2, 2], [0.625, 0.375, 0.625, 0.5]),
    'fw_aux_f': ([2, 2], [-0.5, 0.5, 1.0, 0.0]),
    'fw_aux_c': ([2, 2], [-0.75, 1.0, -0.625, -0.875]),
    'fw_aux_o': ([2, 2], [-0.875, 0.0, 0.375, -0.375]),
    'bw_aux_i': ([0, 0], []),
    'bw_aux_f': ([2, 2], [0.375, -0.5, -0.75, -0.5]),
    'bw_aux_c': ([2, 2], [-1.0, 0.25, -0.625, 0.875]),
    'bw_aux_o': ([2, 2], [0.5, 0.0, 0.625, 0.25]),
    'fw_ln_i': ([0], []),
    'fw_ln_f': ([0], []),
    'fw_ln_c': ([0], []),
    'fw_ln_o': ([0], []),
    'bw_ln_i': ([0], []),
    'bw_ln_f': ([0], []),
    'bw_ln_c': ([0], []),
    'bw_ln_o': ([0], []),
    'fw_out': ([2, 2, 2], [0.037680654, -0.37744231, -0.038636054, 0.041232099, -0.00063894276, -0.244036, -0.019684478, -0.14689705]),
    'bw_out': ([2, 2, 2], [-0.39354275, -0.11019384, 0.10574994, 0.057741777, -0.10231431, -0.1710632, -0.038704523, 0.07435289]),
}

# tanh, no clipping, separate outputs, time-major
bidirectional_test("aux_input", DATA, 4, 0.0, 0.0, False, True)

# layer_norm
DATA = {
    'x': ([2, 2, 2], [0.0, 0.0, -0.625, -0.25, -1.0, -0.375, -0.75, -0.375]),
    'fw_w_xi': ([3, 2], [0.625, 1.0, -0.625, -0.375, 0.5, -0.125]),
    'fw_w_xf': ([3, 2], [0.125, -0.375, -0.625, 1.0, -0.75, -0.625]),
    'fw_w_xc': ([3, 2], [-0.875, -0.875, 0.625, -0.875, 0.25, 0.375]),
    'fw_w_xo': ([3, 2], [-0.25, 0.5, -0.625, 0.375, 0.25, -0.625]),
    'fw_w_hi': ([3, 3], [0.125, -1.0, -0.125, -0.625, -1.0, -0.625, -0.375, 1.0, 0.125]),
    'fw_w_hf': ([3, 3], [0.0, 0.25, -0.625, 0.125, -0.875, 0.375, 0.5, -0.625, 0.875]),
    'fw_w_hc': ([3, 3], [0.875, 0.75, -0.5, -0.125, 0.875, 0.75, 0.375, -0.875, 0.0]),
    'fw_w_ho': ([3, 3], [-0.125, -0.875, 0.625, -0.875, 0.875, -0.625, -0.5, -0.375, -1.0]),
    'fw_w_ci': ([3], [0.0, -0.375, 1.0]),
    'fw_w_cf': ([3], [-0.25, -0.875, 0.0]),
    'fw_w_co': ([3], [0.875, 0.0, -0.75]),
    'fw_b_i': ([3], [0.5, 0.5, 0.25]),
    'fw_b_f': ([3], [0.875, -0.25, -0.25]),
    'fw_b_c': ([3], [-0.375, -1.0, -0.125]),
    'fw_b_o': ([3], [0.125, -0.75, 0.0]),
    'fw_w_proj': ([0, 0], []),
    'fw_b_proj': ([0], []),
    'bw_w_xi': ([0, 0], []),
    'bw_w_xf': ([3, 2], [1.0, 0.25, 0.875, -0.75, 0.125, 0.875]),
    'bw_w_xc': ([3, 2], [0.75, 0.5, 0.375, 0.75, -0.75, 0.0]),
    'bw_w_xo': ([3, 2], [0.75, 0.0, -0.5, -0.125, 0.375, 1.0]),
    'bw_w_hi': ([0, 0], []),
    'bw_w_hf': ([3, 2], [0.125, 0.5, 0.5, 0.125, 0.75, -0.75]),
    'bw_w_hc': ([3, 2], [-0.5, 0.0, 1.0, 0.375, -0.125, -0.875]),
    'bw_w_ho': ([3, 2], [-0.625, 0.25, 0.25, 0.875, -0.5, -1.0]),
    'bw_w_ci': ([0], []),
    'bw_w_cf': ([0], []),
    'bw_w_co': ([0], []),
    'bw_b_i': ([0], []),
    'bw_b_f': ([3], [0.25, 0.0, -0.5]),
    'bw_b_c': ([3], [-0.125, 0.875, -0.75]),
    'bw_b_o': ([3], [-0.75, 0.5, 0.5]),
    'bw_w_proj': ([2, 3], [-0.125, -0.375, -0.5, -1.0, 0.25, 0.125]),
    'bw_b_proj': ([0], []),
    'fw_h0': ([2, 3], [0.0, 0.0, 0.0, -0.375, -0.25, -1.0]),
    'fw_c0': ([2, 3], [0.0, 0.0, 0.0, 0.5, 1.0, -0.875]),
    'bw_h0': ([2, 2], [0.0, 0.0, -0.5, 0.0]),
    'bw_c0': ([2, 3], [0.0, 0.0, 0.0, 0.25, 0.125, -1.0]),
    'aux': ([0, 0, 0], []),
    'fw_aux_i': ([0, 0], []),
    'fw_aux_f': ([0, 0], []),
    'fw_aux_c': ([0, 0], []),
    'fw_aux_o': ([0, 0], []),
    'bw_aux_i': ([0, 0], []),
    'bw_aux_f': ([0, 0], []),
    'bw_aux_c': ([0, 0], []),
    'bw_aux_o': ([0, 0], []),
    'fw_ln_i': ([3], [0.75, 0.25, 0.75]),
    'fw_ln_f': ([3], [0.375, 0.625, 0.5]),
    'fw_ln_c': ([3], [0.125, 0.625, 0.75]),
    'fw_ln_o': ([3], [0.25, 0.125, 0.875]),
    'bw_ln_i': ([0], []),
    'bw_ln_f': ([3], [0.375, 0.375, 0.25]),
    'bw_ln_c': ([3], [0.625, 0.875, 0.375]),
    'bw_ln_o': ([3], [0.875, 1.0, 0.5]),
    'out': ([2, 2, 5], [-0.09762436, -0.1470578, -0.048474875, -0.01530575, 0.12057543, 0.11644603, -0.12082141, -0.28631238, 0.015555853, 0.10810012, -0.098165682, -0.24502865, -0.15405753, -0.018448953, 0.097346861, 0.025030658, -0.21626003, -0.30054048, 0.1046615, -0.0087214351]),
}

# tanh, no clipping, merged outputs, time-major
bidirectional_test("layer_norm", DATA, 4, 0.0, 0.0, True, True)
