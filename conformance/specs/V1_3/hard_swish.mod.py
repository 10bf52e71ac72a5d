# HARD_SWISH (HAL 1.3): out = x * min(6, max(0, x + 3)) / 6 element-wise; inputs below
# -3 give 0, above 3 give x. TENSOR_FLOAT32 (with relaxed and float16 variations),
# TENSOR_QUANT8_ASYMM and TENSOR_QUANT8_ASYMM_SIGNED; any rank from 1 (rank 5 here),
# zero-sized inputs accepted.
#
# The quantized models are written with their stored integers: their golden values are
# those of the integer procedure Android 11 runs (docs/operations.md, HARD_SWISH (99)),
# which a float computation matches within 1 almost everywhere. Output quantizations
# differ from the input's, and several have a smaller output scale than the input's,
# so large values saturate. The "zero_point_wrap" model pins the procedure's one sharp
# difference: with an output multiplier just under 1 (exponent 0) the zero point is
# added on int16, and for q = 255 the sum 32830 wraps to -32706, clamped to 0 where a
# float computation gives 255.
#
# Golden values: conformance/specs/oracles/newops_oracle.py (floats in float64; the
# integer procedure step by step, checked there on hand-derived elements). Every float
# input is exact in float16.
i = Input("in", "TENSOR_FLOAT32", "{12}")
o = Output("out", "TENSOR_FLOAT32", "{12}")
Model().Operation("HARD_SWISH", i).To(o)
Example({
    i: [-6.0, -3.5, -3.0, -2.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.5, 3.0, 4.5],
    o: [-0.0, -0.0, -0.0, -0.208333333, -0.333333333, -0.208333333, 0.0, 0.291666667,
        0.666666667, 2.29166667, 3.0, 4.5],
}).AddVariations("relaxed", "float16")

# Rank 5.
i5 = Input("in", "TENSOR_FLOAT32", "{1, 2, 1, 3, 1}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 2, 1, 3, 1}")
Model("rank5").Operation("HARD_SWISH", i5).To(o5)
Example({
    i5: [-4.0, -2.0, -1.5, 1.5, 2.0, 7.0],
    o5: [-0.0, -0.333333333, -0.375, 1.125, 1.66666667, 7.0],
}).AddVariations("relaxed", "float16")


def quant_model(name, type_name, inputs, outputs, in_quant, out_quant, dims=None):
    dims = dims or "{%d}" % len(inputs)
    x = Input("in", type_name, "%s, %sf, %d" % (dims, in_quant[0], in_quant[1]))
    y = Output("out", type_name, "%s, %sf, %d" % (dims, out_quant[0], out_quant[1]))
    Model(name).Operation("HARD_SWISH", x).To(y)
    Example({x: inputs, y: outputs})


Q8A = "TENSOR_QUANT8_ASYMM"

# The same scale in and out: x from -4 to 4 in steps of 0.5.
quant_model("quant8_same_scale", Q8A, list(range(96, 161, 4)),
            [128, 128, 128, 126, 125, 125, 125, 126, 128, 130, 133, 137, 141, 146, 152, 156,
             160], (0.125, 128), (0.125, 128))
# A finer output scale and another zero point: x from -12.8 to 12.7; outputs past
# (255 - 30) * 0.05 = 11.25 saturate.
quant_model("quant8_wide", Q8A, [0, 20, 64, 100, 120, 127, 128, 129, 136, 150, 200, 255],
            [30, 30, 30, 28, 24, 29, 30, 31, 40, 68, 174, 255], (0.1, 128), (0.05, 30))
# Output scale under a third of the input's, zero point 0: negative outputs clamp to 0,
# outputs past 255 * 0.02 = 5.1 to 255.
quant_model("quant8_saturating", Q8A,
            [0, 40, 90, 100, 110, 128, 140, 160, 192, 224, 240, 255],
            [0, 0, 0, 0, 19, 69, 115, 187, 255, 255, 255, 255], (0.0625, 100), (0.02, 0))
# A coarse input scale (1.5): inputs step past -3 and 3 at once.
quant_model("quant8_coarse_input", Q8A, [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16],
            [20, 20, 20, 19, 20, 22, 26, 32, 38, 44, 50, 56], (1.5, 4), (0.5, 20))
# Rank 5.
quant_model("quant8_rank5", Q8A, [100, 120, 130, 140, 150, 160],
            [127, 125, 129, 136, 147, 160], (0.1, 128), (0.1, 128), dims="{1, 2, 1, 3, 1}")

Q8AS = "TENSOR_QUANT8_ASYMM_SIGNED"

# Signed: the same scale in and out, zero point 0.
quant_model("quant8_signed_same_scale", Q8AS, list(range(-32, 33, 4)),
            [0, 0, 0, -2, -3, -3, -3, -2, 0, 2, 5, 9, 13, 18, 24, 28, 32], (0.125, 0),
            (0.125, 0))
# A finer output scale, zero point -98: outputs past (127 + 98) * 0.05 = 11.25 saturate.
quant_model("quant8_signed_wide", Q8AS,
            [-128, -100, -64, -30, -10, -1, 0, 1, 10, 30, 64, 127],
            [-98, -98, -98, -98, -105, -99, -98, -97, -85, -38, 30, 127], (0.1, 0), (0.05, -98))
# Output scale under a third of the input's, zero point -128: negative outputs clamp to
# -128, outputs past 255 * 0.02 = 5.1 to 127.
quant_model("quant8_signed_saturating", Q8AS,
            [-128, -90, -40, -20, -8, 0, 8, 20, 40, 80, 100, 127],
            [-128, -128, -128, -113, -84, -59, -30, 22, 84, 127, 127, 127], (0.0625, -28),
            (0.02, -128))
# A small input scale (0.01: x within [-1.23, 1.32], never past -3 or 3).
quant_model("quant8_signed_small_scale", Q8AS,
            [-128, -64, -16, -1, 0, 1, 16, 64, 100, 127, -100, 50],
            [-111, -79, -33, -15, -14, -12, 8, 86, 127, 127, -101, 61], (0.01, -5),
            (0.004, -20))
# The int16 wrap of the zero point (see the header).
quant_model("zero_point_wrap", Q8A, [0, 1, 2, 4, 64, 128, 200, 253, 254, 255],
            [255, 255, 255, 255, 255, 255, 255, 255, 255, 0], (0.998046875, 0),
            (0.0078125, 255))

# Zero-sized: SLICE makes a [0, 3] tensor, HARD_SWISH keeps it [0, 3], and its
# concatenation before x adds no rows, so the output is x (by hand).
x = [1.0, -2.0, 3.5, 0.0, 4.0, -0.5]
iz = Input("x", "TENSOR_FLOAT32", "{2, 3}")
ez = Internal("empty", "TENSOR_FLOAT32", "{0, 3}")
hz = Internal("swished", "TENSOR_FLOAT32", "{0, 3}")
oz = Output("passed_through", "TENSOR_FLOAT32", "{2, 3}")
Model("zero_sized").Operation("SLICE", iz, [0, 0], [0, -1]).To(ez).Operation(
    "HARD_SWISH", ez).To(hz).Operation("CONCATENATION", hz, iz, 0).To(oz)
quant8 = DataTypeConverter().Identify({
    iz: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    ez: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    hz: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    oz: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({iz: x, oz: x}).AddVariations("relaxed", "float16", quant8)
