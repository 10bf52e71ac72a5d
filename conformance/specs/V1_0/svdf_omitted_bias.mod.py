# SVDF with its optional bias (input 3) omitted, in the three ways a model can omit an
# input: a model input declared "{0}" and given [] (sent with has_no_value), a model input
# declared with its full shape "{2}" and given [] (also sent with has_no_value, the dims
# staying as declared), and a constant with no value (Omitted: lifetime NO_VALUE).
# The data is the "no_bias" case of svdf.mod.py (rank 2, batch 2, input size 3, 2 units,
# memory 3, activation RELU, two steps); golden values from
# conformance/specs/oracles/rnn_oracle.py ("svdf bias=False"), the same in every idiom.
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

for idiom in ("zero_sized_input", "full_shape_input", "no_value_constant"):
    x = Input("x", "TENSOR_FLOAT32", "{2, 3}")
    wf = Parameter("wf", "TENSOR_FLOAT32", "{4, 3}", wf_values)
    wt = Parameter("wt", "TENSOR_FLOAT32", "{4, 3}", wt_values)
    if idiom == "zero_sized_input":
        bias = Input("bias", "TENSOR_FLOAT32", "{0}")
    elif idiom == "full_shape_input":
        bias = Input("bias", "TENSOR_FLOAT32", "{2}")
    else:
        bias = Omitted("bias", "TENSOR_FLOAT32", "{2}")
    state_in = Input("state_in", "TENSOR_FLOAT32", "{2, 12}")
    state_out = Output("state_out", "TENSOR_FLOAT32", "{2, 12}")
    out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
    Model(idiom).Operation("SVDF", x, wf, wt, bias, state_in, 2, 1).To(state_out, out)
    Example((
        {x: x1, bias: [], state_in: state0},
        {state_out: state1, out: [1.6875, 3.125, 0.0, 0.0]},
    ), (
        {x: x2, bias: [], state_in: state1},
        {state_out: state2, out: [0.0, 0.5625, 2.25, 0.8125]},
    )).AddInput(wf, wt).AddVariations("relaxed")
