# Requantization rounding: quant8 ADD, SUB, MUL, AVERAGE_POOL_2D, FULLY_CONNECTED,
# CONV_2D and DEPTHWISE_CONV_2D whose exact results, in output units, mostly end in .5 or .75 (some exactly
# .5, a few whole), where rounding half away from zero and truncation differ by one.
# Each output has 16 elements so the strict bias items (docs/suite.md) can judge the
# mean of its errors: a driver that truncates is one unit low almost everywhere.
#
# Every scale is a power of two, so the HAL's fixed-point multipliers are exact and the
# only rounding is the last one. Golden values by hand: each formula below, evaluated
# in exact fractions and rounded half away from zero (all results are positive). MUL,
# FULLY_CONNECTED and the convolutions multiply by 0.25 through the doubling high multiply and a
# rounding shift, which round twice: results ending in .25 would come out one higher
# than the exact value rounded, so none does here.

# 1. ADD, zero points 0 and 3: out = 3 + round((a + b) * 0.5 / 2.0) = 3 + round((a + b) / 4).
#    E.g. (254 + 32) / 4 = 71.5 -> 72 -> 75; (27 + 140) / 4 = 41.75 -> 42 -> 45;
#    (55 + 169) / 4 = 56 exactly -> 59.
a1 = Input("a", "TENSOR_QUANT8_ASYMM", "{4, 4}, 0.5f, 0")
b1 = Input("b", "TENSOR_QUANT8_ASYMM", "{4, 4}, 0.5f, 0")
o1 = Output("out", "TENSOR_QUANT8_ASYMM", "{4, 4}, 2.0f, 3")
Model("add").Operation("ADD", a1, b1, 0).To(o1)
Example({
    a1: [254, 27, 63, 202, 171, 79, 130, 227, 224, 65, 154, 200, 55, 3, 9, 215],
    b1: [32, 140, 7, 89, 199, 200, 28, 184, 38, 38, 216, 195, 169, 87, 74, 201],
    o1: [75, 45, 21, 76, 96, 73, 43, 106, 69, 29, 96, 102, 59, 26, 24, 107],
})

# 2. SUB, output zero point 5: out = 5 + round((a - b) * 1.0 / 4.0) = 5 + round((a - b) / 4).
#    E.g. (90 - 67) / 4 = 5.75 -> 6 -> 11; (203 - 165) / 4 = 9.5 -> 10 -> 15;
#    (116 - 72) / 4 = 11 exactly -> 16.
a2 = Input("a", "TENSOR_QUANT8_ASYMM", "{4, 4}, 1.0f, 0")
b2 = Input("b", "TENSOR_QUANT8_ASYMM", "{4, 4}, 1.0f, 0")
o2 = Output("out", "TENSOR_QUANT8_ASYMM", "{4, 4}, 4.0f, 5")
Model("sub").Operation("SUB", a2, b2, 0).To(o2)
Example({
    a2: [90, 203, 132, 251, 116, 200, 53, 228, 229, 190, 134, 208, 192, 231, 222, 144],
    b2: [67, 165, 1, 73, 72, 161, 35, 45, 83, 111, 44, 25, 102, 203, 155, 70],
    o2: [11, 15, 38, 50, 16, 15, 10, 51, 42, 25, 28, 51, 28, 12, 22, 24],
})

# 3. MUL: out = round(a * 0.5 * b * 0.5 / 1.0) = round(a * b / 4).
#    E.g. 37 * 19 / 4 = 175.75 -> 176; 15 * 10 / 4 = 37.5 -> 38; 10 * 24 / 4 = 60.
a3 = Input("a", "TENSOR_QUANT8_ASYMM", "{4, 4}, 0.5f, 0")
b3 = Input("b", "TENSOR_QUANT8_ASYMM", "{4, 4}, 0.5f, 0")
o3 = Output("out", "TENSOR_QUANT8_ASYMM", "{4, 4}, 1.0f, 0")
Model("mul").Operation("MUL", a3, b3, 0).To(o3)
Example({
    a3: [37, 15, 22, 35, 39, 10, 13, 37, 37, 15, 11, 36, 1, 34, 1, 7],
    b3: [19, 10, 31, 21, 17, 24, 30, 15, 11, 10, 18, 26, 30, 19, 22, 29],
    o3: [176, 38, 171, 184, 166, 60, 98, 139, 102, 38, 50, 234, 8, 162, 6, 51],
})

# 4. AVERAGE_POOL_2D, a 2x2 filter at stride 1 over a 5x5 image, VALID padding: each
#    output is the mean of its window's four values, rounded. E.g. the top-left window
#    (162 + 18 + 14 + 144) / 4 = 84.5 -> 85; the next (18 + 171 + 144 + 78) / 4 = 102.75
#    -> 103.
i4 = Input("in", "TENSOR_QUANT8_ASYMM", "{1, 5, 5, 1}, 0.5f, 0")
o4 = Output("out", "TENSOR_QUANT8_ASYMM", "{1, 4, 4, 1}, 0.5f, 0")
Model("avg_pool").Operation("AVERAGE_POOL_2D", i4, 2, 1, 1, 2, 2, 0).To(o4)
Example({
    i4: [
        162, 18, 171, 15, 17, 14, 144, 78, 167, 94, 114, 4, 25, 108, 114, 168, 49, 60, 170,
        186, 121, 52, 105, 183, 103,
    ],
    o4: [85, 103, 108, 73, 69, 63, 95, 121, 84, 35, 91, 145, 98, 67, 130, 161],
})

# 5. FULLY_CONNECTED, 4 rows of 4 inputs, 4 units: acc[r][u] = sum_j x[r][j] w[u][j] +
#    bias[u] (bias scale 0.5 * 0.5 = 0.25), out = round(acc * 0.25 / 1.0) = round(acc / 4).
#    E.g. row 0, unit 0: 12*0 + 11*9 + 11*1 + 8*1 + 5 = 123 -> 30.75 -> 31; row 1, unit 1:
#    2*0 + 12*0 + 1*7 + 4*3 + 13 = 32 -> 8.
x5 = Input("x", "TENSOR_QUANT8_ASYMM", "{4, 4}, 0.5f, 0")
w5 = Parameter("w", "TENSOR_QUANT8_ASYMM", "{4, 4}, 0.5f, 0",
               [0, 9, 1, 1, 0, 0, 7, 3, 8, 3, 0, 4, 8, 2, 3, 0])
c5 = Parameter("bias", "TENSOR_INT32", "{4}, 0.25f, 0", [5, 13, 14, 27])
o5 = Output("out", "TENSOR_QUANT8_ASYMM", "{4, 4}, 1.0f, 0")
Model("fully_connected").Operation("FULLY_CONNECTED", x5, w5, c5, 0).To(o5)
Example({
    x5: [12, 11, 11, 8, 2, 12, 1, 4, 6, 4, 8, 10, 10, 11, 9, 9],
    o5: [31, 29, 44, 45, 30, 8, 21, 18, 15, 25, 29, 27, 31, 26, 41, 39],
})

# 6. CONV_2D, a 2x2 filter of 4s at stride 1 over a 5x5 image, VALID padding, bias 10 at
#    scale 0.25: acc = 4 * (window sum) + 10, out = round(acc / 4) = round(sum + 2.5).
#    E.g. the top-left window 6 + 4 + 7 + 10 = 27: acc 118 -> 29.5 -> 30.
i6 = Input("in", "TENSOR_QUANT8_ASYMM", "{1, 5, 5, 1}, 0.5f, 0")
f6 = Parameter("filter", "TENSOR_QUANT8_ASYMM", "{1, 2, 2, 1}, 0.5f, 0", [4, 4, 4, 4])
c6 = Parameter("bias", "TENSOR_INT32", "{1}, 0.25f, 0", [10])
o6 = Output("out", "TENSOR_QUANT8_ASYMM", "{1, 4, 4, 1}, 1.0f, 0")
Model("conv2d").Operation("CONV_2D", i6, f6, c6, 2, 1, 1, 0).To(o6)
Example({
    i6: [
        6, 4, 7, 3, 0, 7, 10, 4, 1, 0, 10, 13, 8, 2, 10, 6, 8, 12, 5, 1, 5, 6, 10, 2, 0,
    ],
    o6: [30, 28, 18, 7, 43, 38, 18, 16, 40, 44, 30, 21, 28, 39, 32, 11],
})

# 7. DEPTHWISE_CONV_2D, depth multiplier 1, a 2x2 filter at stride 1 over a 5x5 image of
#    2 channels, VALID padding: acc[c] = bias[c] + sum over the window of x[c] * w[c]
#    (filter {1, 2, 2, 2}, [row][column][channel]), out = round(acc / 4). E.g. the
#    top-left window, channel 0: 18 + 5*4 + 15*4 + 14*0 + 1*0 = 98 -> 24.5 -> 25;
#    channel 1: 12 + 1*7 + 14*0 + 11*7 + 2*3 = 102 -> 25.5 -> 26.
i7 = Input("in", "TENSOR_QUANT8_ASYMM", "{1, 5, 5, 2}, 0.5f, 0")
f7 = Parameter("filter", "TENSOR_QUANT8_ASYMM", "{1, 2, 2, 2}, 0.5f, 0", [4, 7, 4, 0, 0, 7, 0, 3])
c7 = Parameter("bias", "TENSOR_INT32", "{2}, 0.25f, 0", [18, 12])
o7 = Output("out", "TENSOR_QUANT8_ASYMM", "{1, 4, 4, 2}, 1.0f, 0")
Model("depthwise_conv2d").Operation("DEPTHWISE_CONV_2D", i7, f7, c7, 2, 1, 1, 1, 0).To(o7)
Example({
    i7: [
        5, 1, 15, 14, 10, 12, 15, 5, 0, 0, 14, 11, 1, 2, 11, 6, 5, 2, 8, 15, 0, 3, 2, 3, 7,
        15, 4, 5, 7, 13, 9, 6, 6, 15, 0, 2, 2, 13, 9, 6, 8, 9, 8, 7, 6, 3, 4, 1, 4, 6,
    ],
    o7: [
        25, 26, 30, 36, 30, 36, 20, 27, 20, 30, 17, 23, 21, 44, 18, 25, 7, 30, 14, 36, 16, 43,
        16, 39, 20, 35, 11, 44, 7, 13, 16, 32,
    ],
})
