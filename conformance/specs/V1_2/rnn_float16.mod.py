# RNN (one step) in float16 (HAL 1.2): the V1_0/rnn data (oracle
# conformance/specs/oracles/rnn_oracle.py, "V1_0/rnn"), every value a small dyadic fraction
# that float16 arithmetic holds exactly. Activation NONE and RELU6, and two chained steps
# under RELU (the second example's h_prev is the first one's output).
x = Input("x", "TENSOR_FLOAT32", "{2, 3}")
w = Parameter("w", "TENSOR_FLOAT32", "{2, 3}", [0.5, -0.25, 1.0, 0.25, 0.5, -0.5])
r = Parameter("r", "TENSOR_FLOAT32", "{2, 2}", [0.5, 0.0, -0.25, 0.5])
b = Parameter("b", "TENSOR_FLOAT32", "{2}", [0.125, -0.25])
h_prev = Input("h_prev", "TENSOR_FLOAT32", "{2, 2}")
act = Int32Scalar("act", 0)
h_out = Output("h_out", "TENSOR_FLOAT32", "{2, 2}")
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("RNN", x, w, r, b, h_prev, act).To(h_out, out)

Example({
    x: [1.0, 2.0, -1.0, 8.0, -1.5, 2.0],
    h_prev: [0.0, 0.0, 1.0, -0.5],
    h_out: [-0.875, 1.5, 7.0, -0.5],
    out: [-0.875, 1.5, 7.0, -0.5],
}).AddVariations(
    ActivationConverter("relu6").Identify([h_out, out, act])
).AddInput(w, r, b).AddVariations("float16", includeDefault=False)

x2 = Input("x2", "TENSOR_FLOAT32", "{2, 3}")
w2 = Parameter("w2", "TENSOR_FLOAT32", "{2, 3}", [0.5, -0.25, 1.0, 0.25, 0.5, -0.5])
r2 = Parameter("r2", "TENSOR_FLOAT32", "{2, 2}", [0.5, 0.0, -0.25, 0.5])
b2 = Parameter("b2", "TENSOR_FLOAT32", "{2}", [0.125, -0.25])
h_prev2 = Input("h_prev2", "TENSOR_FLOAT32", "{2, 2}")
h_out2 = Output("h_out2", "TENSOR_FLOAT32", "{2, 2}")
out2 = Output("out2", "TENSOR_FLOAT32", "{2, 2}")
Model("state").Operation("RNN", x2, w2, r2, b2, h_prev2, 1).To(h_out2, out2)

Example((
    {x2: [1.0, 2.0, -1.0, 8.0, -1.5, 2.0], h_prev2: [0.0, 0.0, 1.0, -0.5]},
    {h_out2: [0.0, 1.5, 7.0, 0.0], out2: [0.0, 1.5, 7.0, 0.0]},
), (
    {x2: [-2.0, 0.5, 1.5, 1.0, 1.0, 1.0], h_prev2: [0.0, 1.5, 7.0, 0.0]},
    {h_out2: [0.5, 0.0, 4.875, 0.0], out2: [0.5, 0.0, 4.875, 0.0]},
)).AddVariations("float16", includeDefault=False)
