# UNIDIRECTIONAL_SEQUENCE_RNN with HAL 1.3's optional second output: the hidden state
# after the last time step, [batch, units]. The sequence of
# V1_2/unidirectional_sequence_rnn (3 steps, batch 2, input size 2, 2 units, RELU),
# time-major and batch-major; float32, relaxed and float16.
# Golden values: conformance/specs/oracles/rnn_oracle.py, section "HAL 1.3"
# (useq13). By hand, the final state is the output's last step: time-major, the
# last [B, U] block of the output; batch-major, step 2 of each batch row.
w_values = [0.5, -0.25, 0.25, 0.75]
r_values = [0.5, -0.25, 0.25, 0.5]
b_values = [0.25, -0.125]
h0_values = [0.5, 0.0, -0.25, 1.0]

x = Input("x", "TENSOR_FLOAT32", "{3, 2, 2}")
w = Parameter("w", "TENSOR_FLOAT32", "{2, 2}", w_values)
r = Parameter("r", "TENSOR_FLOAT32", "{2, 2}", r_values)
b = Parameter("b", "TENSOR_FLOAT32", "{2}", b_values)
h0 = Input("h0", "TENSOR_FLOAT32", "{2, 2}")
out = Output("out", "TENSOR_FLOAT32", "{3, 2, 2}")
state = Output("state", "TENSOR_FLOAT32", "{2, 2}")
Model("time_major").Operation("UNIDIRECTIONAL_SEQUENCE_RNN", x, w, r, b, h0, 1, 1).To(out, state)
Example({
    x: [1.0, 0.5, 0.0, -1.0, -0.5, 2.0, 2.0, 1.0, 1.5, -1.0, -1.0, 0.5],
    h0: h0_values,
    out: [0.875, 0.625, 0.125, 0.0, 0.0, 1.78125, 1.0625, 1.15625,
          0.8046875, 0.390625, 0.0, 0.84375],
    state: [0.8046875, 0.390625, 0.0, 0.84375],
}).AddInput(w, r, b).AddVariations("relaxed", "float16")

xb = Input("xb", "TENSOR_FLOAT32", "{2, 3, 2}")
wb = Parameter("wb", "TENSOR_FLOAT32", "{2, 2}", w_values)
rb = Parameter("rb", "TENSOR_FLOAT32", "{2, 2}", r_values)
bb = Parameter("bb", "TENSOR_FLOAT32", "{2}", b_values)
h0b = Input("h0b", "TENSOR_FLOAT32", "{2, 2}")
outb = Output("outb", "TENSOR_FLOAT32", "{2, 3, 2}")
stateb = Output("stateb", "TENSOR_FLOAT32", "{2, 2}")
Model("batch_major").Operation(
    "UNIDIRECTIONAL_SEQUENCE_RNN", xb, wb, rb, bb, h0b, 1, 0).To(outb, stateb)
Example({
    xb: [1.0, 0.5, -0.5, 2.0, 1.5, -1.0, 0.0, -1.0, 2.0, 1.0, -1.0, 0.5],
    h0b: h0_values,
    outb: [0.875, 0.625, 0.0, 1.78125, 0.8046875, 0.390625, 0.125, 0.0,
           1.0625, 1.15625, 0.0, 0.84375],
    stateb: [0.8046875, 0.390625, 0.0, 0.84375],
}).AddVariations("relaxed", "float16")
