# BIDIRECTIONAL_SEQUENCE_RNN with HAL 1.3's changes: the two optional state outputs
# (after the outputs: the forward hidden state after t = T - 1, then the backward one
# after t = 0, shaped as inputs 4 and 8), and parallel linking (the auxiliary input
# given, its weights omitted: the backward direction reads the auxiliary input instead
# of input 0, the forward one input 0 alone). The data of V1_2/bidirectional_sequence_rnn
# (3 steps, batch 2, input and auxiliary sizes 2, 2 forward and 3 backward units, RELU);
# float32, relaxed and float16.
# Models: "states" (time-major, separate outputs, 4 outputs), "states_merged"
# (batch-major, merged, 3 outputs), "parallel" (time-major, merged, no state outputs:
# a HAL 1.3 configuration of the 1.2 signature), "parallel_states" (batch-major,
# separate, 4 outputs). Auxiliary operands left out are Omitted (NO_VALUE) constants.
# Golden values: conformance/specs/oracles/rnn_oracle.py, section "HAL 1.3" (bidi13).
# By hand, the states are the output's rows: forward at the last step, backward at
# step 0.
fw_w = [0.5, 0.25, -0.25, 1.0]
fw_r = [0.5, 0.0, 0.25, -0.5]
fw_b = [0.125, 0.25]
fw_h0 = [0.0, 0.5, 1.0, 0.0]
bw_w = [1.0, -0.5, 0.25, 0.25, -0.5, 0.75]
bw_r = [0.5, 0.0, 0.25, 0.0, 0.25, 0.0, -0.25, 0.5, 0.5]
bw_b = [-0.25, 0.5, 0.0]
bw_h0 = [0.5, 0.0, -0.5, 0.0, 1.0, 0.25]
x_time_major = [1.0, -0.5, 2.0, 0.0, 0.5, 1.5, -0.5, -1.0, -1.0, 2.0, 1.0, 0.5]
x_batch_major = [1.0, -0.5, 0.5, 1.5, -1.0, 2.0, 2.0, 0.0, -0.5, -1.0, 1.0, 0.5]
aux_time_major = [0.5, 1.0, 1.0, 1.0, -1.0, 0.5, 0.5, -1.5, 0.0, -0.5, 2.0, 0.0]
aux_batch_major = [0.5, 1.0, -1.0, 0.5, 0.0, -0.5, 1.0, 1.0, 0.5, -1.5, 2.0, 0.0]
fw_state = [0.625, 1.875, 0.96875, 0.609375]
bw_state = [1.515625, 0.921875, 0.75, 1.87109375, 1.1015625, 0.0]
parallel_bw_state = [0.0078125, 0.9921875, 1.25, 1.203125, 1.140625, 0.0546875]


def bidirectional(name, time_major, merge, parallel, states, outputs):
    seq = "{3, 2, 2}" if time_major else "{2, 3, 2}"
    x = Input("x", "TENSOR_FLOAT32", seq)
    weights = [
        Parameter("fw_w", "TENSOR_FLOAT32", "{2, 2}", fw_w),
        Parameter("fw_r", "TENSOR_FLOAT32", "{2, 2}", fw_r),
        Parameter("fw_b", "TENSOR_FLOAT32", "{2}", fw_b),
    ]
    fw_h0_op = Input("fw_h0", "TENSOR_FLOAT32", "{2, 2}")
    bw_weights = [
        Parameter("bw_w", "TENSOR_FLOAT32", "{3, 2}", bw_w),
        Parameter("bw_r", "TENSOR_FLOAT32", "{3, 3}", bw_r),
        Parameter("bw_b", "TENSOR_FLOAT32", "{3}", bw_b),
    ]
    bw_h0_op = Input("bw_h0", "TENSOR_FLOAT32", "{2, 3}")
    if parallel:
        aux = Input("aux", "TENSOR_FLOAT32", seq)
    else:
        aux = Omitted("aux", "TENSOR_FLOAT32", seq)
    fw_aux_w = Omitted("fw_aux_w", "TENSOR_FLOAT32", "{2, 2}")
    bw_aux_w = Omitted("bw_aux_w", "TENSOR_FLOAT32", "{3, 2}")
    dims = ["{3, 2, %s}", "{2, 3, %s}"][0 if time_major else 1]
    if merge:
        outs = [Output("out", "TENSOR_FLOAT32", dims % 5)]
    else:
        outs = [Output("fw_out", "TENSOR_FLOAT32", dims % 2),
                Output("bw_out", "TENSOR_FLOAT32", dims % 3)]
    if states:
        outs += [Output("fw_state", "TENSOR_FLOAT32", "{2, 2}"),
                 Output("bw_state", "TENSOR_FLOAT32", "{2, 3}")]
    Model(name).Operation(
        "BIDIRECTIONAL_SEQUENCE_RNN", x, *weights, fw_h0_op, *bw_weights, bw_h0_op,
        aux, fw_aux_w, bw_aux_w, 1, time_major, merge,
    ).To(*outs)
    feed = {x: x_time_major if time_major else x_batch_major, fw_h0_op: fw_h0, bw_h0_op: bw_h0}
    if parallel:
        feed[aux] = aux_time_major if time_major else aux_batch_major
    feed.update(zip(outs, outputs))
    Example(feed).AddInput(*weights, *bw_weights).AddVariations("relaxed", "float16")


bidirectional("states", True, False, False, True, [
    [0.5, 0.0, 1.625, 0.0, 1.0, 1.75, 0.4375, 0.0, 0.625, 1.875, 0.96875, 0.609375],
    [1.515625, 0.921875, 0.75, 1.87109375, 1.1015625, 0.0, 0.0, 1.1875, 2.0625, 0.15625,
     0.40625, 0.171875, 0.0, 0.75, 1.625, 0.5625, 1.125, 0.5],
    fw_state, bw_state,
])
bidirectional("states_merged", False, True, False, True, [
    [0.5, 0.0, 1.515625, 0.921875, 0.75, 1.0, 1.75, 0.0, 1.1875, 2.0625, 0.625, 1.875, 0.0,
     0.75, 1.625, 1.625, 0.0, 1.87109375, 1.1015625, 0.0, 0.4375, 0.0, 0.15625, 0.40625,
     0.171875, 0.96875, 0.609375, 0.5625, 1.125, 0.5],
    fw_state, bw_state,
])
bidirectional("parallel", True, True, True, False, [
    [0.5, 0.0, 0.0078125, 0.9921875, 1.25, 1.625, 0.0, 1.203125, 1.140625, 0.0546875, 1.0,
     1.75, 0.0, 0.46875, 1.03125, 0.4375, 0.0, 1.90625, 0.5625, 0.0, 0.625, 1.875, 0.125,
     0.375, 0.0, 0.96875, 0.609375, 1.8125, 1.25, 0.0],
])
bidirectional("parallel_states", False, False, True, True, [
    [0.5, 0.0, 1.0, 1.75, 0.625, 1.875, 1.625, 0.0, 0.4375, 0.0, 0.96875, 0.609375],
    [0.0078125, 0.9921875, 1.25, 0.0, 0.46875, 1.03125, 0.125, 0.375, 0.0, 1.203125,
     1.140625, 0.0546875, 1.90625, 0.5625, 0.0, 1.8125, 1.25, 0.0],
    fw_state, parallel_bw_state,
])
