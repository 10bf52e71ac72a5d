# RNN (one step): batch 2, input size 3, 2 units; weights as constants, then as inputs.
# Oracle: conformance/specs/oracles/rnn_oracle.py ("V1_0/rnn"), h = act(W x + R h_prev + b):
#   row 0: [0.125 + 0.5 - 0.5 - 1.0, -0.25 + 0.25 + 1.0 + 0.5] = [-0.875, 1.5]
#   row 1: [0.125 + 4.0 + 0.375 + 2.0 + 0.5, -0.25 + 2.0 - 0.75 - 1.0 - 0.25 - 0.25] = [7.0, -0.5]
# Covers activation NONE, RELU and RELU6 (RELU1 aborts the Android 10 CPU reference, so no
# spec uses it), both outputs (hidden state and output hold the same values), and the state
# carried over two executions (the second example's h_prev is the first one's output).
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
    ActivationConverter("relu").Identify([h_out, out, act]),
    ActivationConverter("relu6").Identify([h_out, out, act]),
).AddInput(w, r, b)

# Two steps under RELU: step 1 gives [0, 1.5, 7, 0]; step 2 feeds it back with a new x:
#   row 0: relu([0.125 - 1.0 - 0.125 + 1.5 + 0, -0.25 - 0.5 + 0.25 - 0.75 + 0.75]) = [0.5, 0]
#   row 1: relu([0.125 + 0.5 - 0.25 + 1.0 + 3.5, -0.25 + 0.25 + 0.5 - 0.5 - 1.75]) = [4.875, 0]
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
))
