# UNIDIRECTIONAL_SEQUENCE_RNN: 3 time steps, batch 2, input size 2, 2 units, activation RELU,
# time-major ([T, B, I]) and batch-major ([B, T, I]) forms of the same sequence; float32,
# relaxed and float16, weights as constants and as inputs. The hidden state is carried over
# the time steps from h0.
# Oracle: conformance/specs/oracles/rnn_oracle.py ("UNIDIRECTIONAL_SEQUENCE_RNN"). By hand,
# t = 0, batch 0, unit 0: relu(0.25 + 0.5 * 1.0 - 0.25 * 0.5 + 0.5 * 0.5 - 0.25 * 0.0) = 0.875.
# Every value is a small dyadic fraction, exact in float16.
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
Model("time_major").Operation("UNIDIRECTIONAL_SEQUENCE_RNN", x, w, r, b, h0, 1, 1).To(out)

Example({
    x: [1.0, 0.5, 0.0, -1.0, -0.5, 2.0, 2.0, 1.0, 1.5, -1.0, -1.0, 0.5],
    h0: h0_values,
    out: [0.875, 0.625, 0.125, 0.0, 0.0, 1.78125, 1.0625, 1.15625,
          0.8046875, 0.390625, 0.0, 0.84375],
}).AddInput(w, r, b).AddVariations("relaxed", "float16")

xb = Input("xb", "TENSOR_FLOAT32", "{2, 3, 2}")
wb = Parameter("wb", "TENSOR_FLOAT32", "{2, 2}", w_values)
rb = Parameter("rb", "TENSOR_FLOAT32", "{2, 2}", r_values)
bb = Parameter("bb", "TENSOR_FLOAT32", "{2}", b_values)
h0b = Input("h0b", "TENSOR_FLOAT32", "{2, 2}")
outb = Output("outb", "TENSOR_FLOAT32", "{2, 3, 2}")
Model("batch_major").Operation("UNIDIRECTIONAL_SEQUENCE_RNN", xb, wb, rb, bb, h0b, 1, 0).To(outb)

Example({
    xb: [1.0, 0.5, -0.5, 2.0, 1.5, -1.0, 0.0, -1.0, 2.0, 1.0, -1.0, 0.5],
    h0b: h0_values,
    outb: [0.875, 0.625, 0.0, 1.78125, 0.8046875, 0.390625, 0.125, 0.0,
           1.0625, 1.15625, 0.0, 0.84375],
}).AddVariations("relaxed", "float16")

# Activation NONE, time-major: the negative sums stay and feed the next steps.
xn = Input("xn", "TENSOR_FLOAT32", "{3, 2, 2}")
wn = Parameter("wn", "TENSOR_FLOAT32", "{2, 2}", w_values)
rn = Parameter("rn", "TENSOR_FLOAT32", "{2, 2}", r_values)
bn = Parameter("bn", "TENSOR_FLOAT32", "{2}", b_values)
h0n = Input("h0n", "TENSOR_FLOAT32", "{2, 2}")
outn = Output("outn", "TENSOR_FLOAT32", "{3, 2, 2}")
Model("act_none").Operation("UNIDIRECTIONAL_SEQUENCE_RNN", xn, wn, rn, bn, h0n, 0, 1).To(outn)

Example({
    xn: [1.0, 0.5, 0.0, -1.0, -0.5, 2.0, 2.0, 1.0, 1.5, -1.0, -1.0, 0.5],
    h0n: h0_values,
    outn: [0.875, 0.625, 0.125, -0.4375, -0.21875, 1.78125, 1.171875, 0.9375,
           0.6953125, 0.3359375, -0.0234375, 0.76171875],
}).AddVariations("relaxed", "float16")
