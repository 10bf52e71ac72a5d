# LSTM (HAL 1.0 form, 23 inputs), float32: one time step per execution; each
# example runs several feeds in a row, a feed's state inputs being the previous
# feed's state outputs, so the state is carried over 1 to 3 steps. Covers a
# plain cell (batch 2, 3 steps), CIFG + peephole + projection with bias and
# both clips active (3 units, output size 2), peephole + projection without
# bias under RELU (2 units, output size 3), and constant weights (Parameters)
# with RELU6 and an active cell clip. Omitted optional inputs are zero-sized
# Inputs ({0} or {0, 0}) given [] in every feed; the scratch buffer's content is
# implementation-defined and ignored.
#
# Golden values: conformance/specs/oracles/lstm_oracle.py (plain double-precision
# Python from docs/operations.md, LSTM (16)), cases basic, cifg_peephole_projection,
# peephole_projection_relu and constant_weights_relu6; weights and inputs are
# multiples of 1/8.
T = "TENSOR_FLOAT32"
CELL_NAMES = ["w_xi", "w_xf", "w_xc", "w_xo", "w_hi", "w_hf", "w_hc", "w_ho",
              "w_ci", "w_cf", "w_co", "b_i", "b_f", "b_c", "b_o", "w_proj", "b_proj"]
LAYER_NORM_NAMES = ["ln_i", "ln_f", "ln_c", "ln_o"]


def shape(dims):
    return "{%s}" % ", ".join(str(d) for d in dims)


def weight(name, dims, values, constant):
    # An omitted optional tensor is a zero-sized Input given [] in every feed.
    if constant and values:
        return Parameter(name, T, shape(dims), values)
    return Input(name, T, shape(dims))


def lstm_test(name, cell, steps, activation, cell_clip, proj_clip, constant=False):
    """One LSTM model; each feed is one time step, its state inputs being the
    previous feed's state outputs. Returns the Example."""
    batch, inputs = steps[0]["x"][0]
    units, output = cell["w_xo"][0][0], cell["w_ho"][0][1]
    gates = 3 if not cell["w_xi"][1] else 4
    names = CELL_NAMES[:]
    layer_norm = "ln_o" in cell
    x = Input("x", T, shape([batch, inputs]))
    weights = {n: weight(n, cell[n][0], cell[n][1], constant) for n in cell}
    h_in = Input("h_in", T, shape([batch, output]))
    c_in = Input("c_in", T, shape([batch, units]))
    scratch = IgnoredOutput("scratch", T, shape([batch, units * gates]))
    h_out = Output("h_out", T, shape([batch, output]))
    c_out = Output("c_out", T, shape([batch, units]))
    out = Output("out", T, shape([batch, output]))
    ins = [x] + [weights[n] for n in names] + [h_in, c_in, activation, cell_clip, proj_clip]
    if layer_norm:
        ins += [weights[n] for n in LAYER_NORM_NAMES]
    model = Model(name).Operation("LSTM", *ins).To(scratch, h_out, c_out, out)
    feeds = []
    for step in steps:
        feed = {x: step["x"][1], h_in: step["h_in"][1], c_in: step["c_in"][1],
                scratch: [0.0] * (batch * units * gates), h_out: step["h_out"][1],
                c_out: step["c_out"][1], out: step["h_out"][1]}
        for n, operand in weights.items():
            if not (constant and cell[n][1]):
                feed[operand] = cell[n][1]
        feeds.append(feed)
    return model, Example(*feeds, model=model)

# basic
CELL = {
    'w_xi': ([2, 2], [0.75, 0.75, 0.75, 1.0]),
    'w_xf': ([2, 2], [0.75, 0.125, -0.5, -0.75]),
    'w_xc': ([2, 2], [-0.75, -0.875, -0.875, -0.25]),
    'w_xo': ([2, 2], [1.0, -0.125, 0.125, 0.875]),
    'w_hi': ([2, 2], [-0.25, -0.375, 1.0, 0.875]),
    'w_hf': ([2, 2], [-0.875, 0.5, 0.75, -0.375]),
    'w_hc': ([2, 2], [-0.125, -1.0, 0.75, 0.25]),
    'w_ho': ([2, 2], [-1.0, -0.75, 0.75, 0.0]),
    'w_ci': ([0], []),
    'w_cf': ([0], []),
    'w_co': ([0], []),
    'b_i': ([2], [-0.375, -0.625]),
    'b_f': ([2], [-1.0, 1.0]),
    'b_c': ([2], [0.75, -0.25]),
    'b_o': ([2], [0.625, -0.75]),
    'w_proj': ([0, 0], []),
    'b_proj': ([0], []),
}
STEPS = [
  {
    'x': ([2, 2], [0.5, -0.625, 0.125, 0.5]),
    'h_in': ([2, 2], [0.0, 0.25, -0.125, 1.0]),
    'c_in': ([2, 2], [0.125, -1.0, -0.75, -0.625]),
    'h_out': ([2, 2], [0.18510131, -0.16193061, -0.28178684, -0.19900123]),
    'c_out': ([2, 2], [0.25769739, -0.90425102, -0.6133787, -0.54015593]),
  },
  {
    'x': ([2, 2], [-0.75, -1.0, -1.0, -0.25]),
    'h_in': ([2, 2], [0.18510131, -0.16193061, -0.28178684, -0.19900123]),
    'c_in': ([2, 2], [0.25769739, -0.90425102, -0.6133787, -0.54015593]),
    'h_out': ([2, 2], [0.089804013, -0.10917421, 0.066336254, -0.081229193]),
    'c_out': ([2, 2], [0.18768331, -0.75676901, 0.12781926, -0.40099991]),
  },
  {
    'x': ([2, 2], [-0.25, -0.875, 0.875, 0.5]),
    'h_in': ([2, 2], [0.089804013, -0.10917421, 0.066336254, -0.081229193]),
    'c_in': ([2, 2], [0.18768331, -0.75676901, 0.12781926, -0.40099991]),
    'h_out': ([2, 2], [0.15421083, -0.10257629, -0.098777384, -0.28851526]),
    'c_out': ([2, 2], [0.25538414, -0.62265378, -0.12298274, -0.73293008]),
  },
]

# activation 4 (tanh), no clipping
lstm_test("basic", CELL, STEPS, 4, 0.0, 0.0)

# cifg_peephole_projection
CELL = {
    'w_xi': ([0, 0], []),
    'w_xf': ([3, 2], [0.875, 0.0, 1.0, 0.375, -0.5, 0.5]),
    'w_xc': ([3, 2], [0.375, -0.375, 0.25, -0.25, -0.875, -0.25]),
    'w_xo': ([3, 2], [-0.75, 0.625, 0.75, -0.625, 0.625, -0.5]),
    'w_hi': ([0, 0], []),
    'w_hf': ([3, 2], [-1.0, 0.375, 0.875, 0.0, 0.75, -0.125]),
    'w_hc': ([3, 2], [-0.75, 1.0, 0.25, 0.5, -0.75, -1.0]),
    'w_ho': ([3, 2], [0.25, -0.375, -0.875, -0.375, 1.0, -0.75]),
    'w_ci': ([0], []),
    'w_cf': ([3], [0.875, 0.5, -1.0]),
    'w_co': ([3], [-0.75, -0.25, 0.0]),
    'b_i': ([0], []),
    'b_f': ([3], [-1.0, -0.5, 0.75]),
    'b_c': ([3], [-0.875, 1.0, -0.125]),
    'b_o': ([3], [0.5, 0.625, 0.875]),
    'w_proj': ([2, 3], [0.375, 0.375, 0.5, 0.125, -0.625, 0.0]),
    'b_proj': ([2], [-0.125, 0.25]),
}
STEPS = [
  {
    'x': ([2, 2], [-1.0, -0.125, 0.625, -0.875]),
    'h_in': ([2, 2], [0.375, 0.375, 1.0, 1.0]),
    'c_in': ([2, 3], [-0.375, -1.0, 0.5, 0.625, -0.875, 1.0]),
    'h_out': ([2, 2], [-0.125, 0.081050532, -0.125, 0.125]),
    'c_out': ([2, 3], [-0.75, 0.51499515, 0.39309988, 0.19208113, -0.059286163, -0.17104545]),
  },
  {
    'x': ([2, 2], [0.5, -0.25, -0.625, -0.125]),
    'h_in': ([2, 2], [-0.125, 0.081050532, -0.125, 0.125]),
    'c_in': ([2, 3], [-0.75, 0.51499515, 0.39309988, 0.19208113, -0.059286163, -0.17104545]),
    'h_out': ([2, 2], [-0.078835354, -0.05399038, -0.125, 0.037188492]),
    'c_out': ([2, 3], [-0.48689418, 0.66951464, -0.055227534, -0.48520434, 0.55399867, -0.024675492]),
  },
]

# tanh, cell clip 0.75, projection clip 0.125
lstm_test("cifg_peephole_projection", CELL, STEPS, 4, 0.75, 0.125)

# peephole_projection_relu
CELL = {
    'w_xi': ([2, 2], [0.0, 0.125, -0.375, -0.125]),
    'w_xf': ([2, 2], [0.625, -0.5, -1.0, 0.0]),
    'w_xc': ([2, 2], [-0.125, 0.875, 0.625, 0.375]),
    'w_xo': ([2, 2], [0.75, -0.375, 0.125, -0.25]),
    'w_hi': ([2, 3], [-0.5, -0.125, -0.375, -0.5, -0.75, -0.25]),
    'w_hf': ([2, 3], [-0.5, -0.75, 0.0, 0.75, 0.625, -0.5]),
    'w_hc': ([2, 3], [0.625, 0.25, -0.625, 0.375, 0.0, 0.75]),
    'w_ho': ([2, 3], [-0.375, 1.0, 0.375, 0.0, 0.375, 0.75]),
    'w_ci': ([2], [0.5, -0.5]),
    'w_cf': ([2], [0.875, -0.125]),
    'w_co': ([2], [-0.125, -0.25]),
    'b_i': ([2], [0.125, -1.0]),
    'b_f': ([2], [0.0, 0.375]),
    'b_c': ([2], [-0.5, 0.75]),
    'b_o': ([2], [0.0, 0.0]),
    'w_proj': ([3, 2], [0.375, -0.5, -0.75, 0.625, 0.75, 0.5]),
    'b_proj': ([0], []),
}
STEPS = [
  {
    'x': ([2, 2], [0.0, 0.375, -0.25, 0.375]),
    'h_in': ([2, 3], [-1.0, 0.625, -0.875, -0.125, -0.5, 0.875]),
    'c_in': ([2, 2], [0.75, 0.0, -0.375, 0.625]),
    'h_out': ([2, 3], [0.10785309, -0.21570618, 0.21570618, -0.16846312, 0.2105789, 0.16846312]),
    'c_out': ([2, 2], [0.4668445, 0.0, -0.16562738, 0.6155917]),
  },
  {
    'x': ([2, 2], [1.0, -0.5, -0.125, 0.875]),
    'h_in': ([2, 3], [0.10785309, -0.21570618, 0.21570618, -0.16846312, 0.2105789, 0.16846312]),
    'c_in': ([2, 2], [0.4668445, 0.0, -0.16562738, 0.6155917]),
    'h_out': ([2, 3], [0.0075883723, -0.080103225, 0.27488267, -0.12519677, 0.15482041, 0.13189897]),
    'c_out': ([2, 2], [0.37385206, 0.30743425, 0.012453325, 0.55639489]),
  },
]

# activation 1 (relu), no clipping
lstm_test("peephole_projection_relu", CELL, STEPS, 1, 0.0, 0.0)

# constant_weights_relu6
CELL = {
    'w_xi': ([2, 2], [-0.625, 1.0, -0.125, 0.0]),
    'w_xf': ([2, 2], [0.5, 0.5, -0.625, 0.0]),
    'w_xc': ([2, 2], [-0.5, -0.375, 0.0, -0.375]),
    'w_xo': ([2, 2], [0.0, -0.25, 0.5, 0.5]),
    'w_hi': ([2, 2], [0.0, 0.125, -0.75, 0.75]),
    'w_hf': ([2, 2], [-0.125, 0.25, 0.375, 0.0]),
    'w_hc': ([2, 2], [-1.0, -0.75, -0.625, 0.25]),
    'w_ho': ([2, 2], [0.75, -0.625, -0.625, 0.375]),
    'w_ci': ([0], []),
    'w_cf': ([0], []),
    'w_co': ([0], []),
    'b_i': ([2], [0.125, 0.75]),
    'b_f': ([2], [0.375, 1.0]),
    'b_c': ([2], [-1.0, -0.75]),
    'b_o': ([2], [-0.375, -0.625]),
    'w_proj': ([0, 0], []),
    'b_proj': ([0], []),
}
STEPS = [
  {
    'x': ([2, 2], [1.0, 0.0, -0.625, -0.625]),
    'h_in': ([2, 2], [0.875, 1.0, -0.25, 0.0]),
    'c_in': ([2, 2], [0.75, -0.25, 0.875, 0.125]),
    'h_out': ([2, 2], [0.20744942, 0.0, 0.15586191, 0.024630496]),
    'c_out': ([2, 2], [0.5, -0.16722007, 0.38983834, 0.098163573]),
  },
]

# ---- LSTM 27 inputs (V1_2 lstm_v1_2) ----

# ---- LSTM 27 inputs (V1_2 lstm_v1_2) ----
# activation 3 (relu6), cell clip 0.5
lstm_test("constant_weights_relu6", CELL, STEPS, 3, 0.5, 0.0, constant=True)
