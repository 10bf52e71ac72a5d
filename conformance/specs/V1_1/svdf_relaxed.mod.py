# SVDF in relaxed models: the V1_0/svdf data (every value a small dyadic fraction, exact in
# float16 arithmetic).
# SVDF at rank 2: batch 2, input size 3, 2 units (4 filters), memory 3, so the state is
# [2, 12] = [batch][filter][memory]. Oracle: conformance/specs/oracles/rnn_oracle.py ("SVDF
# rank 2"). Batch 0, filter 0 by hand: the state row [0.25, -0.5, 0] gets its newest column
# Wf[0].x = 0.5 + 0.125 + 0.5 = 1.125; Wt[0].[0.25, -0.5, 1.125] = 0.25 + 0.25 + 0.5625 =
# 1.0625; filter 1 gives 0.25 + 0.375 + 0 = 0.625; unit 0 = 1.0625 + 0.625 + bias 0.25 =
# 1.9375; the state comes back shifted: [-0.5, 1.125, 0, ...].
# Covers: bias present (activation NONE, then RELU), bias omitted (a zero-sized input sent
# with no value), the memory carried over two executions (the second example's state_in is
# the first one's state_out), weights as inputs, and rank 1.
wf_values = [0.5, -0.25, 0.25, 0.25, 0.5, 0.0, -0.5, 0.25, 0.75, 1.0, 0.0, -0.25]
wt_values = [1.0, -0.5, 0.5, 0.5, 1.5, -1.0, -1.0, 0.5, 2.0, 0.5, 0.5, 1.0]
x1 = [1.0, -0.5, 2.0, 0.5, 1.5, -1.0]
state0 = [0.25, -0.5, 0.0, 0.5, 0.25, 0.0, -0.25, 0.75, 0.0, 1.0, -0.5, 0.0,
          0.0, 0.5, 0.0, -0.75, 0.25, 0.0, 0.5, 0.5, 0.0, -0.25, 0.0, 0.0]
state1 = [-0.5, 1.125, 0.0, 0.25, 0.0, 0.0, 0.75, 0.875, 0.0, -0.5, 0.5, 0.0,
          0.5, -0.375, 0.0, 0.25, 0.875, 0.0, 0.5, -0.625, 0.0, 0.0, 0.75, 0.0]
x2 = [-1.0, 0.5, 0.5, 2.0, 0.0, 1.0]
state2 = [1.125, -0.5, 0.0, 0.0, 0.0, 0.0, 0.875, 1.0, 0.0, 0.5, -1.125, 0.0,
          -0.375, 1.25, 0.0, 0.875, 0.5, 0.0, -0.625, -0.25, 0.0, 0.75, 1.75, 0.0]

x = Input("x", "TENSOR_FLOAT32", "{2, 3}")
wf = Parameter("wf", "TENSOR_FLOAT32", "{4, 3}", wf_values)
wt = Parameter("wt", "TENSOR_FLOAT32", "{4, 3}", wt_values)
bias = Parameter("bias", "TENSOR_FLOAT32", "{2}", [0.25, -0.5])
state_in = Input("state_in", "TENSOR_FLOAT32", "{2, 12}")
act = Int32Scalar("act", 0)
state_out = Output("state_out", "TENSOR_FLOAT32", "{2, 12}")
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("SVDF", x, wf, wt, bias, state_in, 2, act).To(state_out, out)

Example((
    {x: x1, state_in: state0},
    {state_out: state1, out: [1.9375, 2.625, -1.0625, -1.375]},
), (
    {x: x2, state_in: state1},
    {state_out: state2, out: [-0.9375, 0.0625, 2.5, 0.3125]},
)).AddVariations(
    ActivationConverter("relu").Identify([out, act])
).AddInput(wf, wt, bias).AddVariations("relaxed", includeDefault=False)

# Bias omitted, activation RELU: without the bias the sums are [1.6875, 3.125, -1.0625 - 0.25,
# -1.375 + 0.5] for the first step, and RELU clears the negative ones.
x_nb = Input("x_nb", "TENSOR_FLOAT32", "{2, 3}")
wf_nb = Parameter("wf_nb", "TENSOR_FLOAT32", "{4, 3}", wf_values)
wt_nb = Parameter("wt_nb", "TENSOR_FLOAT32", "{4, 3}", wt_values)
no_bias = Input("no_bias", "TENSOR_FLOAT32", "{0}")
state_in_nb = Input("state_in_nb", "TENSOR_FLOAT32", "{2, 12}")
state_out_nb = Output("state_out_nb", "TENSOR_FLOAT32", "{2, 12}")
out_nb = Output("out_nb", "TENSOR_FLOAT32", "{2, 2}")
Model("no_bias").Operation("SVDF", x_nb, wf_nb, wt_nb, no_bias, state_in_nb, 2, 1).To(
    state_out_nb, out_nb)

Example((
    {x_nb: x1, no_bias: [], state_in_nb: state0},
    {state_out_nb: state1, out_nb: [1.6875, 3.125, 0.0, 0.0]},
), (
    {x_nb: x2, no_bias: [], state_in_nb: state1},
    {state_out_nb: state2, out_nb: [0.0, 0.5625, 2.25, 0.8125]},
)).AddVariations("relaxed", includeDefault=False)

# Rank 1: filters 0 and 3 of the data above as two units, memory 3, no bias.
x_r1 = Input("x_r1", "TENSOR_FLOAT32", "{2, 3}")
wf_r1 = Parameter("wf_r1", "TENSOR_FLOAT32", "{2, 3}", [0.5, -0.25, 0.25, 1.0, 0.0, -0.25])
wt_r1 = Parameter("wt_r1", "TENSOR_FLOAT32", "{2, 3}", [1.0, -0.5, 0.5, 0.5, 0.5, 1.0])
no_bias_r1 = Input("no_bias_r1", "TENSOR_FLOAT32", "{0}")
state_in_r1 = Input("state_in_r1", "TENSOR_FLOAT32", "{2, 6}")
state_out_r1 = Output("state_out_r1", "TENSOR_FLOAT32", "{2, 6}")
out_r1 = Output("out_r1", "TENSOR_FLOAT32", "{2, 2}")
Model("rank1").Operation("SVDF", x_r1, wf_r1, wt_r1, no_bias_r1, state_in_r1, 1, 0).To(
    state_out_r1, out_r1)

Example({
    x_r1: x1,
    no_bias_r1: [],
    state_in_r1: [0.25, -0.5, 0.0, 1.0, -0.5, 0.0, 0.0, 0.5, 0.0, -0.25, 0.0, 0.0],
    state_out_r1: [-0.5, 1.125, 0.0, -0.5, 0.5, 0.0, 0.5, -0.375, 0.0, 0.0, 0.75, 0.0],
    out_r1: [1.0625, 0.75, -0.4375, 0.625],
}).AddVariations("relaxed", includeDefault=False)
