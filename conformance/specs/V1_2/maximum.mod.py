# MAXIMUM (HAL 1.2): element-wise larger value, with broadcasting; float32, relaxed,
# float16, int32 and quant8 (inputs and output each with their own scale and zero point).
# Oracle: conformance/specs/oracles/elementwise_oracle.py ("V1_2/maximum ...").
# The int32 variation rounds every value half to even (-0.5 -> 0, 0.5 -> 0,
# 2.5 -> 2, 7.5 -> 8); rounding is monotonic, so the expected values stay the
# maximum of the rounded inputs.

# Same shapes: a = [3, -1.5, 0, 7.5, -4, 2], b = [1, -0.5, 0, 8, -6, 2.5]
# -> [3.0, -0.5, 0.0, 8.0, -4.0, 2.5].
# Quant8: a at 0.5 zp 100, b at 0.25 zp 80, out at 0.5 zp 90: each input is first
# requantized to the output's scale (exactly, here), then compared:
# out bytes [96, 89, 90, 106, 82, 95].
a = Input("a", "TENSOR_FLOAT32", "{2, 3}")
b = Input("b", "TENSOR_FLOAT32", "{2, 3}")
out = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("MAXIMUM", a, b).To(out)
quant8 = DataTypeConverter().Identify({
    a: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    b: ("TENSOR_QUANT8_ASYMM", 0.25, 80),
    out: ("TENSOR_QUANT8_ASYMM", 0.5, 90),
})
Example({
    a: [3.0, -1.5, 0.0, 7.5, -4.0, 2.0],
    b: [1.0, -0.5, 0.0, 8.0, -6.0, 2.5],
    out: [3.0, -0.5, 0.0, 8.0, -4.0, 2.5],
}).AddVariations("relaxed", "float16", "int32", quant8)

# Both operands broadcast: [3, 1] against a constant [1, 2] (then the same as a
# model input) -> [3, 2]; out[i][j] = maximum(x[i], c[j]) with x = [-2, 0.5, 4], c = [0, 1]
# -> [0.0, 1.0, 0.5, 1.0, 4.0, 4.0].
# Quant8: x at 0.5 zp 10 -> [6, 11, 18], c at 0.0625 zp 0 -> [0, 16], y at 0.03125
# zp 128: 4.0 would be byte 256 and saturates at 255; -2.0 is byte 64.
# y bytes [128, 160, 144, 160, 255, 255].
x = Input("x", "TENSOR_FLOAT32", "{3, 1}")
c = Parameter("c", "TENSOR_FLOAT32", "{1, 2}", [0.0, 1.0])
y = Output("y", "TENSOR_FLOAT32", "{3, 2}")
Model("broadcast").Operation("MAXIMUM", x, c).To(y)
quant8_broadcast = DataTypeConverter().Identify({
    x: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
    c: ("TENSOR_QUANT8_ASYMM", 0.0625, 0),
    y: ("TENSOR_QUANT8_ASYMM", 0.03125, 128),
})
Example({
    x: [-2.0, 0.5, 4.0],
    y: [0.0, 1.0, 0.5, 1.0, 4.0, 4.0],
}).AddInput(c).AddVariations("relaxed", "float16", "int32", quant8_broadcast)

# TENSOR_INT32 extremes (by hand), the second operand broadcast from [1]:
# maximum([INT32_MAX, INT32_MIN, 5], INT32_MIN).
i = Input("i", "TENSOR_INT32", "{3}")
j = Input("j", "TENSOR_INT32", "{1}")
k = Output("k", "TENSOR_INT32", "{3}")
Model("int32_extremes").Operation("MAXIMUM", i, j).To(k)
Example({i: [2147483647, -2147483648, 5], j: [-2147483648], k: [2147483647, -2147483648, 5]})
