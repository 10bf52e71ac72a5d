# QUANTIZED_16BIT_LSTM: one LSTM step on 8-bit data with a 16-bit cell state; batch 2,
# input size 2, output size 3 (input size != output size, so the reference's pairing of
# [x, h] with the weight columns [recurrent | input] matters: docs/operations.md,
# QUANTIZED_16BIT_LSTM (73), which these goldens follow). Two models: weights at scale
# 1/128 zeroPoint 128 (as constants, then as inputs) and at scale 0.005 zeroPoint 120.
# Each has two chained examples: the second feeds the first one's cell state and output
# back (the state carried across steps). Cell states reach 16133 / 2048 = 7.9 and the
# pre-activations exceed 4, out in the gates' curved range.
# Oracle: conformance/specs/oracles/rnn_oracle.py ("QUANTIZED_16BIT_LSTM"): the op 73 integer
# steps (gemmlowp 16-bit logistic / tanh), bit for bit; its float LSTM of the same data agrees
# within 5 LSBs of the cell state and 0.5 of the output.

# Weights at scale 0.0078125, zeroPoint 128; biases at scale 0.0078125 / 128.
x = Input("x", ("TENSOR_QUANT8_ASYMM", [2, 2], 1.0 / 128.0, 128))
input_to_input = Parameter("input_to_input", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.0078125, 128), [150, 110, 130, 160, 90, 140])
input_to_forget = Parameter("input_to_forget", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.0078125, 128), [170, 128, 120, 135, 140, 100])
input_to_cell = Parameter("input_to_cell", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.0078125, 128), [100, 180, 145, 125, 128, 60])
input_to_output = Parameter("input_to_output", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.0078125, 128), [160, 140, 110, 95, 135, 175])
recurrent_to_input = Parameter("recurrent_to_input", ("TENSOR_QUANT8_ASYMM", [3, 3], 0.0078125, 128), [140, 120, 128, 100, 150, 130, 128, 128, 170])
recurrent_to_forget = Parameter("recurrent_to_forget", ("TENSOR_QUANT8_ASYMM", [3, 3], 0.0078125, 128), [135, 128, 110, 160, 140, 120, 120, 128, 150])
recurrent_to_cell = Parameter("recurrent_to_cell", ("TENSOR_QUANT8_ASYMM", [3, 3], 0.0078125, 128), [110, 170, 128, 128, 90, 160, 150, 130, 100])
recurrent_to_output = Parameter("recurrent_to_output", ("TENSOR_QUANT8_ASYMM", [3, 3], 0.0078125, 128), [128, 145, 125, 170, 110, 128, 105, 150, 140])
input_bias = Parameter("input_bias", ("TENSOR_INT32", [3], 0.0078125 / 128.0, 0), [-2000, 1500, 300])
forget_bias = Parameter("forget_bias", ("TENSOR_INT32", [3], 0.0078125 / 128.0, 0), [3000, -500, 2500])
cell_bias = Parameter("cell_bias", ("TENSOR_INT32", [3], 0.0078125 / 128.0, 0), [1000, -2500, 4000])
output_bias = Parameter("output_bias", ("TENSOR_INT32", [3], 0.0078125 / 128.0, 0), [-800, 2200, 0])
c_prev = Input("c_prev", ("TENSOR_QUANT16_SYMM", [2, 3], 1.0 / 2048.0, 0))
h_prev = Input("h_prev", ("TENSOR_QUANT8_ASYMM", [2, 3], 1.0 / 128.0, 128))
c_out = Output("c_out", ("TENSOR_QUANT16_SYMM", [2, 3], 1.0 / 2048.0, 0))
h_out = Output("h_out", ("TENSOR_QUANT8_ASYMM", [2, 3], 1.0 / 128.0, 128))
Model().Operation("QUANTIZED_16BIT_LSTM", x, input_to_input, input_to_forget, input_to_cell, input_to_output, recurrent_to_input, recurrent_to_forget, recurrent_to_cell, recurrent_to_output, input_bias, forget_bias, cell_bias, output_bias, c_prev, h_prev).To(c_out, h_out)
Example((
    {x: [200, 60, 140, 250], c_prev: [1000, -3000, 8000, -12000, 500, 30000], h_prev: [128, 170, 90, 60, 200, 128]},
    {c_out: [193, -1466, 4866, -7091, -263, 16133], h_out: [134, 80, 182, 57, 120, 196]},
), (
    {x: [30, 180, 128, 128], c_prev: [193, -1466, 4866, -7091, -263, 16133], h_prev: [134, 80, 182, 57, 120, 196]},
    {c_out: [526, -1067, 2403, -3709, -477, 7884], h_out: [144, 101, 190, 67, 113, 196]},
)).AddInput(input_to_input, input_to_forget, input_to_cell, input_to_output, recurrent_to_input, recurrent_to_forget, recurrent_to_cell, recurrent_to_output, input_bias, forget_bias, cell_bias, output_bias)

# Weights at scale 0.005, zeroPoint 120; biases at scale 0.005 / 128.
scale_0_005_x = Input("scale_0_005_x", ("TENSOR_QUANT8_ASYMM", [2, 2], 1.0 / 128.0, 128))
scale_0_005_input_to_input = Parameter("scale_0_005_input_to_input", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.005, 120), [150, 110, 130, 160, 90, 140])
scale_0_005_input_to_forget = Parameter("scale_0_005_input_to_forget", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.005, 120), [170, 128, 120, 135, 140, 100])
scale_0_005_input_to_cell = Parameter("scale_0_005_input_to_cell", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.005, 120), [100, 180, 145, 125, 128, 60])
scale_0_005_input_to_output = Parameter("scale_0_005_input_to_output", ("TENSOR_QUANT8_ASYMM", [3, 2], 0.005, 120), [160, 140, 110, 95, 135, 175])
scale_0_005_recurrent_to_input = Parameter("scale_0_005_recurrent_to_input", ("TENSOR_QUANT8_ASYMM", [3, 3], 0.005, 120), [140, 120, 128, 100, 150, 130, 128, 128, 170])
scale_0_005_recurrent_to_forget = Parameter("scale_0_005_recurrent_to_forget", ("TENSOR_QUANT8_ASYMM", [3, 3], 0.005, 120), [135, 128, 110, 160, 140, 120, 120, 128, 150])
scale_0_005_recurrent_to_cell = Parameter("scale_0_005_recurrent_to_cell", ("TENSOR_QUANT8_ASYMM", [3, 3], 0.005, 120), [110, 170, 128, 128, 90, 160, 150, 130, 100])
scale_0_005_recurrent_to_output = Parameter("scale_0_005_recurrent_to_output", ("TENSOR_QUANT8_ASYMM", [3, 3], 0.005, 120), [128, 145, 125, 170, 110, 128, 105, 150, 140])
scale_0_005_input_bias = Parameter("scale_0_005_input_bias", ("TENSOR_INT32", [3], 0.005 / 128.0, 0), [-2000, 1500, 300])
scale_0_005_forget_bias = Parameter("scale_0_005_forget_bias", ("TENSOR_INT32", [3], 0.005 / 128.0, 0), [3000, -500, 2500])
scale_0_005_cell_bias = Parameter("scale_0_005_cell_bias", ("TENSOR_INT32", [3], 0.005 / 128.0, 0), [1000, -2500, 4000])
scale_0_005_output_bias = Parameter("scale_0_005_output_bias", ("TENSOR_INT32", [3], 0.005 / 128.0, 0), [-800, 2200, 0])
scale_0_005_c_prev = Input("scale_0_005_c_prev", ("TENSOR_QUANT16_SYMM", [2, 3], 1.0 / 2048.0, 0))
scale_0_005_h_prev = Input("scale_0_005_h_prev", ("TENSOR_QUANT8_ASYMM", [2, 3], 1.0 / 128.0, 128))
scale_0_005_c_out = Output("scale_0_005_c_out", ("TENSOR_QUANT16_SYMM", [2, 3], 1.0 / 2048.0, 0))
scale_0_005_h_out = Output("scale_0_005_h_out", ("TENSOR_QUANT8_ASYMM", [2, 3], 1.0 / 128.0, 128))
Model("scale_0_005").Operation("QUANTIZED_16BIT_LSTM", scale_0_005_x, scale_0_005_input_to_input, scale_0_005_input_to_forget, scale_0_005_input_to_cell, scale_0_005_input_to_output, scale_0_005_recurrent_to_input, scale_0_005_recurrent_to_forget, scale_0_005_recurrent_to_cell, scale_0_005_recurrent_to_output, scale_0_005_input_bias, scale_0_005_forget_bias, scale_0_005_cell_bias, scale_0_005_output_bias, scale_0_005_c_prev, scale_0_005_h_prev).To(scale_0_005_c_out, scale_0_005_h_out)
Example((
    {scale_0_005_x: [200, 60, 140, 250], scale_0_005_c_prev: [1000, -3000, 8000, -12000, 500, 30000], scale_0_005_h_prev: [128, 170, 90, 60, 200, 128]},
    {scale_0_005_c_out: [302, -1476, 4579, -6784, -37, 16106], scale_0_005_h_out: [137, 83, 185, 58, 127, 196]},
), (
    {scale_0_005_x: [30, 180, 128, 128], scale_0_005_c_prev: [302, -1476, 4579, -6784, -37, 16106], scale_0_005_h_prev: [137, 83, 185, 58, 127, 196]},
    {scale_0_005_c_out: [457, -941, 2241, -3502, -230, 7949], scale_0_005_h_out: [142, 103, 185, 68, 121, 195]},
))
