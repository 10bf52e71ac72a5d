# BIDIRECTIONAL_SEQUENCE_RNN: 3 time steps, batch 2, input size 2, 2 forward units and 3
# backward units, activation RELU; float32, relaxed and float16.
# Models: "merged" (time-major, one output [T, B, 2 + 3]), "separate" (batch-major, two
# outputs), "aux" (time-major, separate outputs, with the auxiliary input and its weights) and
# "aux_merged" (batch-major, merged, with the auxiliary input). Without the auxiliary input,
# inputs 9-11 are omitted: zero-sized inputs sent with no value. The auxiliary input has the
# same size as the input (the Android 10 CPU reference assumes it).
# Oracle: conformance/specs/oracles/rnn_oracle.py ("BIDIRECTIONAL_SEQUENCE_RNN"). The forward
# direction runs from t = 0 with fw_h0, the backward one from t = 2 with bw_h0. By hand,
# forward t = 0, batch 0: relu([0.125 + 0.5 - 0.125 + 0, 0.25 - 0.25 - 0.5 - 0.25]) = [0.5, 0].
# Every value is a small dyadic fraction, exact in float16.
fw_w = [0.5, 0.25, -0.25, 1.0]
fw_r = [0.5, 0.0, 0.25, -0.5]
fw_b = [0.125, 0.25]
fw_h0 = [0.0, 0.5, 1.0, 0.0]
bw_w = [1.0, -0.5, 0.25, 0.25, -0.5, 0.75]
bw_r = [0.5, 0.0, 0.25, 0.0, 0.25, 0.0, -0.25, 0.5, 0.5]
bw_b = [-0.25, 0.5, 0.0]
bw_h0 = [0.5, 0.0, -0.5, 0.0, 1.0, 0.25]
fw_aux_w = [0.25, -0.5, 0.5, 0.5]
bw_aux_w = [-0.5, 0.25, 1.0, 0.0, 0.25, 0.5]
x_time_major = [1.0, -0.5, 2.0, 0.0, 0.5, 1.5, -0.5, -1.0, -1.0, 2.0, 1.0, 0.5]
x_batch_major = [1.0, -0.5, 0.5, 1.5, -1.0, 2.0, 2.0, 0.0, -0.5, -1.0, 1.0, 0.5]
aux_time_major = [0.5, 1.0, 1.0, 1.0, -1.0, 0.5, 0.5, -1.5, 0.0, -0.5, 2.0, 0.0]
aux_batch_major = [0.5, 1.0, -1.0, 0.5, 0.0, -0.5, 1.0, 1.0, 0.5, -1.5, 2.0, 0.0]


# merged: time_major=True, merge_outputs=True, auxiliary input=omitted
x_merged = Input("x_merged", "TENSOR_FLOAT32", "{3, 2, 2}")
fw_w_merged = Parameter("fw_w_merged", "TENSOR_FLOAT32", "{2, 2}", fw_w)
fw_r_merged = Parameter("fw_r_merged", "TENSOR_FLOAT32", "{2, 2}", fw_r)
fw_b_merged = Parameter("fw_b_merged", "TENSOR_FLOAT32", "{2}", fw_b)
fw_h0_merged = Input("fw_h0_merged", "TENSOR_FLOAT32", "{2, 2}")
bw_w_merged = Parameter("bw_w_merged", "TENSOR_FLOAT32", "{3, 2}", bw_w)
bw_r_merged = Parameter("bw_r_merged", "TENSOR_FLOAT32", "{3, 3}", bw_r)
bw_b_merged = Parameter("bw_b_merged", "TENSOR_FLOAT32", "{3}", bw_b)
bw_h0_merged = Input("bw_h0_merged", "TENSOR_FLOAT32", "{2, 3}")
aux_merged = Input("aux_merged", "TENSOR_FLOAT32", "{0, 0, 0}")
fw_aux_w_merged = Input("fw_aux_w_merged", "TENSOR_FLOAT32", "{0, 0}")
bw_aux_w_merged = Input("bw_aux_w_merged", "TENSOR_FLOAT32", "{0, 0}")
out_merged = Output("out_merged", "TENSOR_FLOAT32", "{3, 2, 5}")
Model("merged").Operation(
    "BIDIRECTIONAL_SEQUENCE_RNN", x_merged, fw_w_merged, fw_r_merged, fw_b_merged, fw_h0_merged,
    bw_w_merged, bw_r_merged, bw_b_merged, bw_h0_merged, aux_merged, fw_aux_w_merged, bw_aux_w_merged, 1, True, True,
).To(out_merged)
Example({
    x_merged: x_time_major,
    fw_h0_merged: fw_h0,
    bw_h0_merged: bw_h0,
    aux_merged: [],
    fw_aux_w_merged: [],
    bw_aux_w_merged: [],
    out_merged: [0.5, 0.0, 1.515625, 0.921875, 0.75, 1.625, 0.0, 1.87109375, 1.1015625, 0.0, 1.0, 1.75, 0.0, 1.1875, 2.0625, 0.4375, 0.0, 0.15625, 0.40625, 0.171875, 0.625, 1.875, 0.0, 0.75, 1.625, 0.96875, 0.609375, 0.5625, 1.125, 0.5],
}).AddInput(fw_w_merged, fw_r_merged, fw_b_merged, bw_w_merged, bw_r_merged, bw_b_merged).AddVariations("relaxed", "float16")

# separate: time_major=False, merge_outputs=False, auxiliary input=omitted
x_separate = Input("x_separate", "TENSOR_FLOAT32", "{2, 3, 2}")
fw_w_separate = Parameter("fw_w_separate", "TENSOR_FLOAT32", "{2, 2}", fw_w)
fw_r_separate = Parameter("fw_r_separate", "TENSOR_FLOAT32", "{2, 2}", fw_r)
fw_b_separate = Parameter("fw_b_separate", "TENSOR_FLOAT32", "{2}", fw_b)
fw_h0_separate = Input("fw_h0_separate", "TENSOR_FLOAT32", "{2, 2}")
bw_w_separate = Parameter("bw_w_separate", "TENSOR_FLOAT32", "{3, 2}", bw_w)
bw_r_separate = Parameter("bw_r_separate", "TENSOR_FLOAT32", "{3, 3}", bw_r)
bw_b_separate = Parameter("bw_b_separate", "TENSOR_FLOAT32", "{3}", bw_b)
bw_h0_separate = Input("bw_h0_separate", "TENSOR_FLOAT32", "{2, 3}")
aux_separate = Input("aux_separate", "TENSOR_FLOAT32", "{0, 0, 0}")
fw_aux_w_separate = Input("fw_aux_w_separate", "TENSOR_FLOAT32", "{0, 0}")
bw_aux_w_separate = Input("bw_aux_w_separate", "TENSOR_FLOAT32", "{0, 0}")
fw_out_separate = Output("fw_out_separate", "TENSOR_FLOAT32", "{2, 3, 2}")
bw_out_separate = Output("bw_out_separate", "TENSOR_FLOAT32", "{2, 3, 3}")
Model("separate").Operation(
    "BIDIRECTIONAL_SEQUENCE_RNN", x_separate, fw_w_separate, fw_r_separate, fw_b_separate, fw_h0_separate,
    bw_w_separate, bw_r_separate, bw_b_separate, bw_h0_separate, aux_separate, fw_aux_w_separate, bw_aux_w_separate, 1, False, False,
).To(fw_out_separate, bw_out_separate)
Example({
    x_separate: x_batch_major,
    fw_h0_separate: fw_h0,
    bw_h0_separate: bw_h0,
    aux_separate: [],
    fw_aux_w_separate: [],
    bw_aux_w_separate: [],
    fw_out_separate: [0.5, 0.0, 1.0, 1.75, 0.625, 1.875, 1.625, 0.0, 0.4375, 0.0, 0.96875, 0.609375],
    bw_out_separate: [1.515625, 0.921875, 0.75, 0.0, 1.1875, 2.0625, 0.0, 0.75, 1.625, 1.87109375, 1.1015625, 0.0, 0.15625, 0.40625, 0.171875, 0.5625, 1.125, 0.5],
}).AddVariations("relaxed", "float16")

# aux: time_major=True, merge_outputs=False, auxiliary input=yes
x_aux = Input("x_aux", "TENSOR_FLOAT32", "{3, 2, 2}")
fw_w_aux = Parameter("fw_w_aux", "TENSOR_FLOAT32", "{2, 2}", fw_w)
fw_r_aux = Parameter("fw_r_aux", "TENSOR_FLOAT32", "{2, 2}", fw_r)
fw_b_aux = Parameter("fw_b_aux", "TENSOR_FLOAT32", "{2}", fw_b)
fw_h0_aux = Input("fw_h0_aux", "TENSOR_FLOAT32", "{2, 2}")
bw_w_aux = Parameter("bw_w_aux", "TENSOR_FLOAT32", "{3, 2}", bw_w)
bw_r_aux = Parameter("bw_r_aux", "TENSOR_FLOAT32", "{3, 3}", bw_r)
bw_b_aux = Parameter("bw_b_aux", "TENSOR_FLOAT32", "{3}", bw_b)
bw_h0_aux = Input("bw_h0_aux", "TENSOR_FLOAT32", "{2, 3}")
aux_aux = Input("aux_aux", "TENSOR_FLOAT32", "{3, 2, 2}")
fw_aux_w_aux = Parameter("fw_aux_w_aux", "TENSOR_FLOAT32", "{2, 2}", fw_aux_w)
bw_aux_w_aux = Parameter("bw_aux_w_aux", "TENSOR_FLOAT32", "{3, 2}", bw_aux_w)
fw_out_aux = Output("fw_out_aux", "TENSOR_FLOAT32", "{3, 2, 2}")
bw_out_aux = Output("bw_out_aux", "TENSOR_FLOAT32", "{3, 2, 3}")
Model("aux").Operation(
    "BIDIRECTIONAL_SEQUENCE_RNN", x_aux, fw_w_aux, fw_r_aux, fw_b_aux, fw_h0_aux,
    bw_w_aux, bw_r_aux, bw_b_aux, bw_h0_aux, aux_aux, fw_aux_w_aux, bw_aux_w_aux, 1, True, False,
).To(fw_out_aux, bw_out_aux)
Example({
    x_aux: x_time_major,
    fw_h0_aux: fw_h0,
    bw_h0_aux: bw_h0,
    aux_aux: aux_time_major,
    fw_out_aux: [0.125, 0.0, 1.375, 1.0, 0.3125, 1.40625, 1.1875, 0.0, 0.53125, 1.625, 1.84375, 1.796875],
    bw_out_aux: [1.71875, 1.171875, 0.6953125, 1.734375, 2.3515625, 0.921875, 0.46875, 0.1875, 1.9375, 0.0, 1.40625, 0.9375, 0.0, 0.75, 1.375, 0.0, 3.125, 1.0],
}).AddVariations("relaxed", "float16")

# aux_merged: time_major=False, merge_outputs=True, auxiliary input=yes
x_aux_merged = Input("x_aux_merged", "TENSOR_FLOAT32", "{2, 3, 2}")
fw_w_aux_merged = Parameter("fw_w_aux_merged", "TENSOR_FLOAT32", "{2, 2}", fw_w)
fw_r_aux_merged = Parameter("fw_r_aux_merged", "TENSOR_FLOAT32", "{2, 2}", fw_r)
fw_b_aux_merged = Parameter("fw_b_aux_merged", "TENSOR_FLOAT32", "{2}", fw_b)
fw_h0_aux_merged = Input("fw_h0_aux_merged", "TENSOR_FLOAT32", "{2, 2}")
bw_w_aux_merged = Parameter("bw_w_aux_merged", "TENSOR_FLOAT32", "{3, 2}", bw_w)
bw_r_aux_merged = Parameter("bw_r_aux_merged", "TENSOR_FLOAT32", "{3, 3}", bw_r)
bw_b_aux_merged = Parameter("bw_b_aux_merged", "TENSOR_FLOAT32", "{3}", bw_b)
bw_h0_aux_merged = Input("bw_h0_aux_merged", "TENSOR_FLOAT32", "{2, 3}")
aux_aux_merged = Input("aux_aux_merged", "TENSOR_FLOAT32", "{2, 3, 2}")
fw_aux_w_aux_merged = Parameter("fw_aux_w_aux_merged", "TENSOR_FLOAT32", "{2, 2}", fw_aux_w)
bw_aux_w_aux_merged = Parameter("bw_aux_w_aux_merged", "TENSOR_FLOAT32", "{3, 2}", bw_aux_w)
out_aux_merged = Output("out_aux_merged", "TENSOR_FLOAT32", "{2, 3, 5}")
Model("aux_merged").Operation(
    "BIDIRECTIONAL_SEQUENCE_RNN", x_aux_merged, fw_w_aux_merged, fw_r_aux_merged, fw_b_aux_merged, fw_h0_aux_merged,
    bw_w_aux_merged, bw_r_aux_merged, bw_b_aux_merged, bw_h0_aux_merged, aux_aux_merged, fw_aux_w_aux_merged, bw_aux_w_aux_merged, 1, False, True,
).To(out_aux_merged)
Example({
    x_aux_merged: x_batch_major,
    fw_h0_aux_merged: fw_h0,
    bw_h0_aux_merged: bw_h0,
    aux_aux_merged: aux_batch_major,
    out_aux_merged: [0.125, 0.0, 1.71875, 1.171875, 0.6953125, 0.3125, 1.40625, 0.46875, 0.1875, 1.9375, 0.53125, 1.625, 0.0, 0.75, 1.375, 1.375, 1.0, 1.734375, 2.3515625, 0.921875, 1.1875, 0.0, 0.0, 1.40625, 0.9375, 1.84375, 1.796875, 0.0, 3.125, 1.0],
}).AddVariations("relaxed", "float16")
