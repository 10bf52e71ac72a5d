# PRELU (HAL 1.2): x if x >= 0 else alpha * x, alpha broadcast; float32, relaxed,
# float16 and quant8 (alpha and output with their own scales and zero points).
# Oracle: conformance/specs/oracles/elementwise_oracle.py ("V1_2/prelu ...").

# Per-channel alpha [1, 1, 3] against an NHWC input [1, 2, 2, 3] (a constant, then a
# model input). alpha = [0.25, 0.5, -1] (a negative alpha flips the sign):
#   pixel [-2, 1, 0]   -> [-0.5, 1, 0]      pixel [3, -4, -1]  -> [3, -2, 1]
#   pixel [-1, 0.5, 2] -> [-0.25, 0.5, 2]   pixel [-8, 6, -2]  -> [-2, 6, 2]
# Quant8, two settings; the positive branch rescales by s_in / s_out, the negative one
# by s_in * s_alpha / s_out, both powers of two here so the fixed point is exact:
#   input 0.25 zp 128, alpha 0.25 zp 50 (bytes [51, 52, 46]), output 0.125 zp 120
#     -> [116, 128, 120, 144, 104, 128, 118, 124, 136, 104, 168, 136];
#   input 0.5 zp 100, alpha 0.125 zp 64 (bytes [66, 68, 56]), output 0.25 zp 80
#     -> [78, 84, 80, 92, 72, 84, 79, 82, 88, 72, 104, 88].
i = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
alpha = Parameter("alpha", "TENSOR_FLOAT32", "{1, 1, 3}", [0.25, 0.5, -1.0])
o = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model().Operation("PRELU", i, alpha).To(o)
quant8_a = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    alpha: ("TENSOR_QUANT8_ASYMM", 0.25, 50),
    o: ("TENSOR_QUANT8_ASYMM", 0.125, 120),
})
quant8_b = DataTypeConverter().Identify({
    i: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    alpha: ("TENSOR_QUANT8_ASYMM", 0.125, 64),
    o: ("TENSOR_QUANT8_ASYMM", 0.25, 80),
})
Example({
    i: [-2.0, 1.0, 0.0, 3.0, -4.0, -1.0, -1.0, 0.5, 2.0, -8.0, 6.0, -2.0],
    o: [-0.5, 1.0, 0.0, 3.0, -2.0, 1.0, -0.25, 0.5, 2.0, -2.0, 6.0, 2.0],
}).AddInput(alpha).AddVariations("relaxed", "float16", quant8_a, quant8_b)

# The alpha operand larger than the input: [2] against [3, 2] -> [3, 2].
# x = [-4, 2]; column 0 is negative and takes alpha[j][0] = 0.5, -1, 0.25:
# [-2, 2], [4, 2], [-1, 2]. Column 1 is positive and ignores alpha.
# Quant8: x at 0.5 zp 128 -> [120, 132], a at 0.25 zp 128, y at 0.25 zp 100
#   -> [92, 108, 116, 108, 96, 108].
x = Input("x", "TENSOR_FLOAT32", "{2}")
a = Input("a", "TENSOR_FLOAT32", "{3, 2}")
y = Output("y", "TENSOR_FLOAT32", "{3, 2}")
Model("larger_alpha").Operation("PRELU", x, a).To(y)
quant8_larger = DataTypeConverter().Identify({
    x: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    a: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    y: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})
Example({
    x: [-4.0, 2.0],
    a: [0.5, 2.0, -1.0, 1.5, 0.25, 3.0],
    y: [-2.0, 2.0, 4.0, 2.0, -1.0, 2.0],
}).AddVariations("relaxed", "float16", quant8_larger)
