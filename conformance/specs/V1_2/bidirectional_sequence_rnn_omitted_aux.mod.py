# BIDIRECTIONAL_SEQUENCE_RNN with its optional auxiliary input and auxiliary weights
# (inputs 9-11) omitted, in the three ways a model can omit an input: model inputs declared
# "{0}" (rank 1, whatever the rank of the slot) and given [] (sent with has_no_value),
# model inputs declared with their full shapes ([3, 2, 2], [2, 2], [3, 2]) and given [],
# and constants with no value (Omitted: lifetime NO_VALUE). The data is the "merged" case
# of bidirectional_sequence_rnn.mod.py (time-major, merged outputs, RELU, 3 steps, batch 2,
# input size 2, 2 forward and 3 backward units); golden values from
# conformance/specs/oracles/rnn_oracle.py (BIDIRECTIONAL_SEQUENCE_RNN), the same in every
# idiom.
fw_w = [0.5, 0.25, -0.25, 1.0]
fw_r = [0.5, 0.0, 0.25, -0.5]
fw_b = [0.125, 0.25]
fw_h0 = [0.0, 0.5, 1.0, 0.0]
bw_w = [1.0, -0.5, 0.25, 0.25, -0.5, 0.75]
bw_r = [0.5, 0.0, 0.25, 0.0, 0.25, 0.0, -0.25, 0.5, 0.5]
bw_b = [-0.25, 0.5, 0.0]
bw_h0 = [0.5, 0.0, -0.5, 0.0, 1.0, 0.25]
x_time_major = [1.0, -0.5, 2.0, 0.0, 0.5, 1.5, -0.5, -1.0, -1.0, 2.0, 1.0, 0.5]
merged = [0.5, 0.0, 1.515625, 0.921875, 0.75, 1.625, 0.0, 1.87109375, 1.1015625, 0.0,
          1.0, 1.75, 0.0, 1.1875, 2.0625, 0.4375, 0.0, 0.15625, 0.40625, 0.171875,
          0.625, 1.875, 0.0, 0.75, 1.625, 0.96875, 0.609375, 0.5625, 1.125, 0.5]
FULL = {"aux": "{3, 2, 2}", "fw_aux_w": "{2, 2}", "bw_aux_w": "{3, 2}"}

for idiom in ("zero_sized_input", "full_shape_input", "no_value_constant"):
    x = Input("x", "TENSOR_FLOAT32", "{3, 2, 2}")
    fw_w_op = Parameter("fw_w", "TENSOR_FLOAT32", "{2, 2}", fw_w)
    fw_r_op = Parameter("fw_r", "TENSOR_FLOAT32", "{2, 2}", fw_r)
    fw_b_op = Parameter("fw_b", "TENSOR_FLOAT32", "{2}", fw_b)
    fw_h0_op = Input("fw_h0", "TENSOR_FLOAT32", "{2, 2}")
    bw_w_op = Parameter("bw_w", "TENSOR_FLOAT32", "{3, 2}", bw_w)
    bw_r_op = Parameter("bw_r", "TENSOR_FLOAT32", "{3, 3}", bw_r)
    bw_b_op = Parameter("bw_b", "TENSOR_FLOAT32", "{3}", bw_b)
    bw_h0_op = Input("bw_h0", "TENSOR_FLOAT32", "{2, 3}")
    if idiom == "zero_sized_input":
        aux = [Input(n, "TENSOR_FLOAT32", "{0}") for n in FULL]
    elif idiom == "full_shape_input":
        aux = [Input(n, "TENSOR_FLOAT32", dims) for n, dims in FULL.items()]
    else:
        aux = [Omitted(n, "TENSOR_FLOAT32", dims) for n, dims in FULL.items()]
    out = Output("out", "TENSOR_FLOAT32", "{3, 2, 5}")
    Model(idiom).Operation(
        "BIDIRECTIONAL_SEQUENCE_RNN", x, fw_w_op, fw_r_op, fw_b_op, fw_h0_op,
        bw_w_op, bw_r_op, bw_b_op, bw_h0_op, *aux, 1, True, True,
    ).To(out)
    feed = {x: x_time_major, fw_h0_op: fw_h0, bw_h0_op: bw_h0, out: merged}
    feed.update({operand: [] for operand in aux})
    Example(feed).AddInput(fw_w_op, fw_r_op, fw_b_op, bw_w_op, bw_r_op, bw_b_op).AddVariations(
        "relaxed", "float16")
