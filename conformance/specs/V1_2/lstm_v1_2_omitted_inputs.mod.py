# LSTM (HAL 1.2) with omitted optional inputs (CIFG, peephole, projection, layer norm). The
# cases and data are those of lstm_v1_2.mod.py; golden values from the same oracle.
# Every case runs in the three ways a model can omit an optional input: zero-sized model
# inputs declared "{0}" (rank 1, whatever the rank of the slot) and given [] (sent with
# has_no_value), model inputs declared with their full shapes and given [] (also sent with
# has_no_value, the dims staying as declared), and constants with no value (Omitted:
# lifetime NO_VALUE). The outputs do not depend on the idiom.
#
# LSTM at HAL 1.2: the 23-input form in float16 (plain cell over 3 carried
# steps; CIFG + peephole + projection with bias and both clips over 2 steps),
# and the 27-input form with layer-normalisation weights, in float32, relaxed
# and float16: layer norm + peephole + projection without bias + projection
# clip (4 units, output size 3); CIFG + layer norm (the input gate's weights
# omitted), whose batch row 0 starts from x = 0 and zero states so every gate
# sum is 0 and the layer norm meets a variance of exactly 0 (normalised to 0,
# not NaN); and the 27-input form with every layer-norm weight omitted, under
# the sigmoid activation (6). Each feed is one time step whose state inputs are
# the previous feed's state outputs. The scratch buffer is
# ignored.
#
# Golden values: conformance/specs/oracles/lstm_oracle.py, cases basic,
# cifg_peephole_projection, layer_norm, layer_norm_cifg and no_layer_norm.
# Weights and inputs are multiples of 1/8, exact in float16.
T = "TENSOR_FLOAT32"
CELL_NAMES = ["w_xi", "w_xf", "w_xc", "w_xo", "w_hi", "w_hf", "w_hc", "w_ho",
              "w_ci", "w_cf", "w_co", "b_i", "b_f", "b_c", "b_o", "w_proj", "b_proj"]
LAYER_NORM_NAMES = ["ln_i", "ln_f", "ln_c", "ln_o"]


def shape(dims):
    return "{%s}" % ", ".join(str(d) for d in dims)


IDIOMS = ("zero_sized_input", "full_shape_input", "no_value_constant")


def full_dims(name, cell):
    """The full shape of an omitted optional tensor, from the cell's required ones."""
    units, inputs, output = len(cell["b_f"][1]), cell["w_xf"][0][1], cell["w_hf"][0][1]
    if name.startswith("w_x"):
        return [units, inputs]
    if name.startswith("w_h"):
        return [units, output]
    if name == "w_proj":
        return [output, units]
    if name == "b_proj":
        return [output]
    return [units]


def weight(name, cell, constant, idiom):
    dims, values = cell[name]
    if values:
        return Parameter(name, T, shape(dims), values) if constant else Input(name, T, shape(dims))
    if idiom == "zero_sized_input":
        return Input(name, T, "{0}")
    if idiom == "full_shape_input":
        return Input(name, T, shape(full_dims(name, cell)))
    return Omitted(name, T, shape(full_dims(name, cell)))


class Examples:
    """The examples of one case in every idiom; AddVariations applies to each."""

    def __init__(self, examples):
        self.examples = examples

    def AddVariations(self, *args, **kwargs):
        for example in self.examples:
            example.AddVariations(*args, **kwargs)
        return self


def lstm_test(name, *args, **kwargs):
    return None, Examples(
        [_lstm_test(name + "_" + idiom, idiom, *args, **kwargs)[1] for idiom in IDIOMS])


def _lstm_test(name, idiom, cell, steps, activation, cell_clip, proj_clip, constant=False):
    """One LSTM model; each feed is one time step, its state inputs being the
    previous feed's state outputs. Returns the Example."""
    batch, inputs = steps[0]["x"][0]
    units, output = cell["w_xo"][0][0], cell["w_ho"][0][1]
    gates = 3 if not cell["w_xi"][1] else 4
    names = CELL_NAMES[:]
    layer_norm = "ln_o" in cell
    x = Input("x", T, shape([batch, inputs]))
    weights = {n: weight(n, cell, constant, idiom) for n in cell}
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
            if not ((constant and cell[n][1]) or (idiom == "no_value_constant" and not cell[n][1])):
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
_, example = lstm_test("basic", CELL, STEPS, 4, 0.0, 0.0)
example.AddVariations("float16", includeDefault=False)

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
_, example = lstm_test("cifg_peephole_projection", CELL, STEPS, 4, 0.75, 0.125)
example.AddVariations("float16", includeDefault=False)

# layer_norm
CELL = {
    'w_xi': ([4, 2], [-0.375, 0.625, 0.625, 0.125, 0.875, -0.25, 0.875, 1.0]),
    'w_xf': ([4, 2], [0.375, -1.0, -0.5, -0.75, -0.625, -1.0, 0.75, -0.375]),
    'w_xc': ([4, 2], [0.375, 0.75, 1.0, 0.5, 0.25, 0.875, 0.5, 0.0]),
    'w_xo': ([4, 2], [-0.75, -0.375, 0.625, 0.375, -0.375, -0.875, 1.0, -0.125]),
    'w_hi': ([4, 3], [-0.375, 1.0, 1.0, -0.125, -1.0, -1.0, 0.375, 0.625, -0.75, -0.5, -0.125, -0.125]),
    'w_hf': ([4, 3], [0.25, 0.5, 0.875, -0.5, -0.375, -0.875, 0.875, -0.125, -0.75, -0.25, -0.25, -0.75]),
    'w_hc': ([4, 3], [-1.0, -0.75, -0.375, 0.875, -1.0, 0.875, -0.75, 1.0, -0.125, 0.25, -0.625, -0.375]),
    'w_ho': ([4, 3], [0.625, -0.375, -1.0, 0.375, 0.875, 1.0, 0.5, -0.125, -0.125, -0.375, -0.75, 0.75]),
    'w_ci': ([4], [0.625, -0.125, -0.375, 0.5]),
    'w_cf': ([4], [-0.75, 0.25, -0.5, -0.5]),
    'w_co': ([4], [0.875, -0.875, 0.0, -0.5]),
    'b_i': ([4], [-0.875, 0.625, 0.625, 0.75]),
    'b_f': ([4], [-0.625, 0.875, 0.5, -0.25]),
    'b_c': ([4], [-0.375, 0.375, 0.25, 0.375]),
    'b_o': ([4], [0.625, 0.875, -0.875, 0.125]),
    'w_proj': ([3, 4], [1.0, 0.875, -1.0, -0.25, 0.375, -0.5, 0.375, 0.625, 0.875, 0.875, 0.125, -0.5]),
    'b_proj': ([0], []),
    'ln_i': ([4], [0.125, 0.75, 1.0, 0.25]),
    'ln_f': ([4], [0.75, 0.375, 0.875, 0.625]),
    'ln_c': ([4], [0.625, 0.5, 0.25, 0.375]),
    'ln_o': ([4], [0.125, 0.625, 0.625, 0.125]),
}
STEPS = [
  {
    'x': ([2, 2], [-0.5, -0.625, 0.5, -0.625]),
    'h_in': ([2, 3], [0.0, -0.5, -1.0, 0.5, -0.5, -1.0]),
    'c_in': ([2, 4], [0.0, 0.25, -0.125, 0.625, 0.0, 0.5, -0.5, -0.5]),
    'h_out': ([2, 3], [-0.0054413177, 0.17020169, -0.1167206, 0.25, -0.17755405, 0.12603036]),
    'c_out': ([2, 4], [0.022284911, 0.056472008, -0.076387073, 0.68797613, -0.10232321, 0.73238415, -0.49405384, 0.18910642]),
  },
  {
    'x': ([2, 2], [-0.375, -1.0, 0.75, -0.5]),
    'h_in': ([2, 3], [-0.0054413177, 0.17020169, -0.1167206, 0.25, -0.17755405, 0.12603036]),
    'c_in': ([2, 4], [0.022284911, 0.056472008, -0.076387073, 0.68797613, -0.10232321, 0.73238415, -0.49405384, 0.18910642]),
    'h_out': ([2, 3], [-0.25, 0.17122556, -0.25, 0.25, -0.16106364, 0.1146488]),
    'c_out': ([2, 4], [-0.17168494, -0.065192085, 0.1602015, 0.5982182, -0.22833798, 0.97942434, -0.3393702, 0.4425409]),
  },
]

# tanh, no cell clip, projection clip 0.25
_, example = lstm_test("layer_norm", CELL, STEPS, 4, 0.0, 0.25)
example.AddVariations("relaxed", "float16")

# layer_norm_cifg
CELL = {
    'w_xi': ([0, 0], []),
    'w_xf': ([3, 2], [-0.5, -0.125, -1.0, 0.75, -0.375, -0.625]),
    'w_xc': ([3, 2], [-0.625, 1.0, -0.875, 0.25, 0.25, 0.0]),
    'w_xo': ([3, 2], [1.0, 0.625, 0.5, -0.375, 0.125, 0.375]),
    'w_hi': ([0, 0], []),
    'w_hf': ([3, 3], [0.375, -0.75, -0.125, 0.0, -0.875, 0.25, -0.375, 0.625, -0.875]),
    'w_hc': ([3, 3], [-0.375, 0.5, 0.125, 1.0, -0.5, 0.0, 0.0, -0.375, 0.625]),
    'w_ho': ([3, 3], [0.5, -1.0, 0.125, 1.0, 0.625, 1.0, 0.625, -0.75, -0.75]),
    'w_ci': ([0], []),
    'w_cf': ([0], []),
    'w_co': ([0], []),
    'b_i': ([0], []),
    'b_f': ([3], [-1.0, 0.0, 0.125]),
    'b_c': ([3], [-0.875, 0.25, -0.875]),
    'b_o': ([3], [0.75, 0.375, -0.625]),
    'w_proj': ([0, 0], []),
    'b_proj': ([0], []),
    'ln_i': ([0], []),
    'ln_f': ([3], [0.875, 0.5, 0.375]),
    'ln_c': ([3], [0.875, 0.625, 0.625]),
    'ln_o': ([3], [0.875, 0.875, 0.125]),
}
STEPS = [
  {
    'x': ([2, 2], [-0.375, 0.25, 0.375, -0.25]),
    'h_in': ([2, 3], [0.0, 0.0, 0.0, 0.5, -1.0, -0.625]),
    'c_in': ([2, 3], [0.0, 0.0, 0.0, -1.0, 0.5, 0.375]),
    'h_out': ([2, 3], [-0.046029495, 0.068048861, -0.18941563, -0.59644811, 0.1617642, -0.062731175]),
    'c_out': ([2, 3], [-0.079169521, 0.17396345, -0.53186117, -0.98535264, 0.61059018, -0.17097277]),
  },
  {
    'x': ([2, 2], [0.75, -0.875, -0.75, -0.5]),
    'h_in': ([2, 3], [-0.046029495, 0.068048861, -0.18941563, -0.59644811, 0.1617642, -0.062731175]),
    'c_in': ([2, 3], [-0.079169521, 0.17396345, -0.53186117, -0.98535264, 0.61059018, -0.17097277]),
    'h_out': ([2, 3], [-0.38140857, 0.059153411, -0.10540531, 0.045700495, 0.19081217, -0.14736423]),
    'c_out': ([2, 3], [-0.68443645, 0.072209925, -0.34491704, 0.1206732, 0.26922089, -0.42206018]),
  },
]

# tanh, no clipping
_, example = lstm_test("layer_norm_cifg", CELL, STEPS, 4, 0.0, 0.0)
example.AddVariations("relaxed", "float16")

# no_layer_norm
CELL = {
    'w_xi': ([2, 2], [0.125, -0.75, -1.0, 0.125]),
    'w_xf': ([2, 2], [0.0, 0.75, -1.0, -0.125]),
    'w_xc': ([2, 2], [-1.0, 1.0, 0.625, 0.375]),
    'w_xo': ([2, 2], [0.375, 0.375, 0.125, 0.25]),
    'w_hi': ([2, 2], [0.625, 0.5, 1.0, 0.375]),
    'w_hf': ([2, 2], [0.75, -1.0, -0.625, -0.75]),
    'w_hc': ([2, 2], [-0.875, -0.25, -0.875, 0.375]),
    'w_ho': ([2, 2], [-0.75, 0.875, -0.375, 0.875]),
    'w_ci': ([0], []),
    'w_cf': ([0], []),
    'w_co': ([0], []),
    'b_i': ([2], [-0.5, -0.25]),
    'b_f': ([2], [0.875, 0.625]),
    'b_c': ([2], [-0.375, -0.25]),
    'b_o': ([2], [0.75, -0.375]),
    'w_proj': ([0, 0], []),
    'b_proj': ([0], []),
    'ln_i': ([0], []),
    'ln_f': ([0], []),
    'ln_c': ([0], []),
    'ln_o': ([0], []),
}
STEPS = [
  {
    'x': ([2, 2], [0.625, -0.875, 0.0, 0.0]),
    'h_in': ([2, 2], [-0.375, -0.375, 0.25, 1.0]),
    'c_in': ([2, 2], [-0.25, -0.625, -0.75, -0.625]),
    'h_out': ([2, 2], [0.31443243, 0.1396263, 0.3588468, 0.3021364]),
    'c_out': ([2, 2], [-0.058471161, -0.31588403, -0.22461812, 0.013610749]),
  },
]

# ---- UNIDIRECTIONAL_SEQUENCE_LSTM ----

# ---- UNIDIRECTIONAL_SEQUENCE_LSTM ----
# activation 6 (sigmoid), no clipping
_, example = lstm_test("no_layer_norm", CELL, STEPS, 6, 0.0, 0.0)
example.AddVariations("relaxed", "float16")
