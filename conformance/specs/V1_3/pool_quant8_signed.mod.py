# AVERAGE_POOL_2D and MAX_POOL_2D with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL
# 1.3; the output has the input's quantization): implicit SAME and explicit padding,
# strides, with and without the layout input, NHWC and NCHW, every fused activation,
# zero points from -120 to 119 and for MAX_POOL_2D values that saturate at -128 and 127
# (the largest of saturated values is the saturated largest, so input and output
# saturate alike).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases avg_pool_same,
# avg_pool_explicit, max_pool and max_pool_same. Inputs are multiples of 0.5 (scale 0.5): every mean
# lies at least 0.1 of a step from a rounding tie (the oracle checks it), so rounding half
# away from zero (the HAL) and half to even (the generator) agree; maxima are inputs.
layout = BoolScalar("layout", False)  # NHWC


def signed(name, i, o, scale, zero_point):
    return DataTypeConverter(name=name).Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
    })


# 1. AVERAGE_POOL_2D [1, 4, 4, 2], implicit SAME, 3x3 filter, stride 1: windows of 4, 6
#    and 9 cells (padding is never counted).
i1 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
act1 = Int32Scalar("act", 0)
o1 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
Model("avg_same").Operation("AVERAGE_POOL_2D", i1, 1, 1, 1, 3, 3, act1, layout).To(o1)
Example({
    i1: [
        -3.5, 3.0, -2.5, -4.0, 1.5, 1.0, -2.0, 1.5, -3.0, 1.5, -3.0, 4.0, -0.5, 3.5,
        3.5, 2.0, 3.0, 3.5, -3.5, 1.0, 2.0, 3.5, 1.5, -0.5, -3.0, 2.0, -3.0, -2.5, -4.0,
        0.5, -2.0, -3.0
    ],
    o1: [
        -3.0, 1.125, -1.833333, 1.5, -0.5, 1.333333, 0.625, 2.0, -2.083333, 1.5,
        -1.055556, 1.888889, -0.3333333, 1.333333, 1.0, 1.833333, -2.083333, 1.583333,
        -1.666667, 1.888889, -1.0, 0.9444444, 0.08333333, 1.0, -1.625, 1.0, -1.416667,
        1.333333, -1.5, -0.1666667, -0.625, 0.125
    ],
}).AddNchw(i1, o1, layout).AddAllActivations(o1, act1).AddVariations(
    signed("signed_zp0", i1, o1, 0.5, 0), signed("signed_low", i1, o1, 0.5, -120),
    signed("signed_high", i1, o1, 0.5, 119), includeDefault=False)

# 2. AVERAGE_POOL_2D [2, 3, 4, 1], pads left 1, right 0, top 0, bottom 1, stride 2
#    across and 1 down, 2x2 filter: output [2, 3, 2, 1].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 3, 4, 1}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 3, 2, 1}")
Model("avg_explicit").Operation("AVERAGE_POOL_2D", i2, 1, 0, 0, 1, 2, 1, 2, 2, 0, layout).To(o2)
Example({
    i2: [
        3.0, -1.5, 0.5, 0.0, 4.0, -0.5, -4.0, 0.5, -2.0, 3.0, -1.0, -1.0, 3.5, 4.0, 0.0,
        1.0, 1.5, -0.5, -1.0, 0.0, -1.5, 0.5, 2.5, 1.5
    ],
    o2: [3.5, -1.375, 1.0, -0.625, -2.0, 1.0, 2.5, 0.625, 0.0, 0.375, -1.5, 1.5],
}).AddNchw(i2, o2, layout).AddVariations(
    signed("signed_zp_neg", i2, o2, 0.5, -37), signed("signed_high", i2, o2, 0.5, 119),
    includeDefault=False)

# 3. MAX_POOL_2D [1, 4, 5, 2], pads left 0, right 1, top 1, bottom 0, stride 2, filter 2
#    wide and 3 high: output [1, 2, 3, 2]. At scale 0.25 and zero point 110 values above
#    4.25 saturate at 127; at 0.5 and -125 values below -1.5 saturate at -128.
i3 = Input("input", "TENSOR_FLOAT32", "{1, 4, 5, 2}")
act3 = Int32Scalar("act", 0)
o3 = Output("output", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
Model("max").Operation("MAX_POOL_2D", i3, 0, 1, 1, 0, 2, 2, 2, 3, act3, layout).To(o3)
Example({
    i3: [
        1.0, 1.0, -1.5, -2.0, 1.5, 4.5, -5.0, 0.0, 5.5, -5.0, -5.0, 4.5, -3.0, -1.5,
        -5.0, 4.0, -1.5, 5.5, 3.5, -5.5, -2.5, 4.5, -4.0, -1.0, -2.5, -2.0, 3.5, 4.5,
        -6.0, -5.5, 3.5, 5.0, -3.5, -2.5, 6.0, 3.5, 2.5, 0.5, 0.5, 4.0
    ],
    o3: [1.0, 4.5, 1.5, 5.5, 5.5, -5.0, 3.5, 5.0, 6.0, 5.5, 3.5, 4.0],
}).AddNchw(i3, o3, layout).AddAllActivations(o3, act3).AddVariations(
    signed("signed_zp0", i3, o3, 0.5, 0), signed("signed_saturating_high", i3, o3, 0.25, 110),
    signed("signed_saturating_low", i3, o3, 0.5, -125), includeDefault=False)

# 4. MAX_POOL_2D [1, 3, 5, 2], implicit SAME, 2x2 filter, stride 2 (pads bottom 1 and
#    right 1): output [1, 2, 3, 2] (oracle case max_pool_same).
i4 = Input("input", "TENSOR_FLOAT32", "{1, 3, 5, 2}")
o4 = Output("output", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
Model("max_same").Operation("MAX_POOL_2D", i4, 1, 2, 2, 2, 2, 0, layout).To(o4)
Example({
    i4: [
        1.5, -4.5, 4.0, 3.5, 0.0, 2.5, 4.5, -6.0, -3.0, -2.0, 5.0, 4.0, 6.0, -3.0, 5.0,
        6.0, 4.0, -4.0, -5.0, 0.5, 1.0, -3.0, 5.5, -6.0, -5.0, 0.0, 4.5, -6.0, -5.0,
        -3.5
    ],
    o4: [6.0, 4.0, 5.0, 6.0, -3.0, 0.5, 5.5, -3.0, 4.5, 0.0, -5.0, -3.5],
}).AddNchw(i4, o4, layout).AddVariations(
    signed("signed_zp_neg", i4, o4, 0.5, -17), signed("signed_saturating_high", i4, o4, 0.125, 100),
    includeDefault=False)

# 5. HAL 1.0's signatures, without the layout input (NHWC): cases 1 and 2 of
#    AVERAGE_POOL_2D, cases 3 and 4 of MAX_POOL_2D.
i5 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
o5 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
Model("avg_same_no_layout").Operation("AVERAGE_POOL_2D", i5, 1, 1, 1, 3, 3, 0).To(o5)
Example({
    i5: [
        -3.5, 3.0, -2.5, -4.0, 1.5, 1.0, -2.0, 1.5, -3.0, 1.5, -3.0, 4.0, -0.5, 3.5,
        3.5, 2.0, 3.0, 3.5, -3.5, 1.0, 2.0, 3.5, 1.5, -0.5, -3.0, 2.0, -3.0, -2.5, -4.0,
        0.5, -2.0, -3.0
    ],
    o5: [
        -3.0, 1.125, -1.833333, 1.5, -0.5, 1.333333, 0.625, 2.0, -2.083333, 1.5,
        -1.055556, 1.888889, -0.3333333, 1.333333, 1.0, 1.833333, -2.083333, 1.583333,
        -1.666667, 1.888889, -1.0, 0.9444444, 0.08333333, 1.0, -1.625, 1.0, -1.416667,
        1.333333, -1.5, -0.1666667, -0.625, 0.125
    ],
}).AddVariations(signed("signed", i5, o5, 0.5, 70), includeDefault=False)

i6 = Input("input", "TENSOR_FLOAT32", "{2, 3, 4, 1}")
o6 = Output("output", "TENSOR_FLOAT32", "{2, 3, 2, 1}")
Model("avg_explicit_no_layout").Operation("AVERAGE_POOL_2D", i6, 1, 0, 0, 1, 2, 1, 2, 2, 0).To(o6)
Example({
    i6: [
        3.0, -1.5, 0.5, 0.0, 4.0, -0.5, -4.0, 0.5, -2.0, 3.0, -1.0, -1.0, 3.5, 4.0, 0.0,
        1.0, 1.5, -0.5, -1.0, 0.0, -1.5, 0.5, 2.5, 1.5
    ],
    o6: [3.5, -1.375, 1.0, -0.625, -2.0, 1.0, 2.5, 0.625, 0.0, 0.375, -1.5, 1.5],
}).AddVariations(signed("signed", i6, o6, 0.5, -119), includeDefault=False)

i7 = Input("input", "TENSOR_FLOAT32", "{1, 4, 5, 2}")
o7 = Output("output", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
Model("max_explicit_no_layout").Operation("MAX_POOL_2D", i7, 0, 1, 1, 0, 2, 2, 2, 3, 0).To(o7)
Example({
    i7: [
        1.0, 1.0, -1.5, -2.0, 1.5, 4.5, -5.0, 0.0, 5.5, -5.0, -5.0, 4.5, -3.0, -1.5,
        -5.0, 4.0, -1.5, 5.5, 3.5, -5.5, -2.5, 4.5, -4.0, -1.0, -2.5, -2.0, 3.5, 4.5,
        -6.0, -5.5, 3.5, 5.0, -3.5, -2.5, 6.0, 3.5, 2.5, 0.5, 0.5, 4.0
    ],
    o7: [1.0, 4.5, 1.5, 5.5, 5.5, -5.0, 3.5, 5.0, 6.0, 5.5, 3.5, 4.0],
}).AddVariations(signed("signed_saturating_low", i7, o7, 0.25, -110), includeDefault=False)

i8 = Input("input", "TENSOR_FLOAT32", "{1, 3, 5, 2}")
o8 = Output("output", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
Model("max_same_no_layout").Operation("MAX_POOL_2D", i8, 1, 2, 2, 2, 2, 0).To(o8)
Example({
    i8: [
        1.5, -4.5, 4.0, 3.5, 0.0, 2.5, 4.5, -6.0, -3.0, -2.0, 5.0, 4.0, 6.0, -3.0, 5.0,
        6.0, 4.0, -4.0, -5.0, 0.5, 1.0, -3.0, 5.5, -6.0, -5.0, 0.0, 4.5, -6.0, -5.0,
        -3.5
    ],
    o8: [6.0, 4.0, 5.0, 6.0, -3.0, 0.5, 5.5, -3.0, 4.5, 0.0, -5.0, -3.5],
}).AddVariations(signed("signed", i8, o8, 0.5, 5), includeDefault=False)
