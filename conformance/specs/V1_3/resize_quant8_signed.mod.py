# RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR with TENSOR_QUANT8_ASYMM_SIGNED input and
# output (HAL 1.3; the output has the input's quantization), output sizes given, NHWC and
# NCHW, zero points from -125 to 111; RESIZE_NEAREST_NEIGHBOR also with values that
# saturate at -128 and 127 (a copy saturates as its input did).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases resize_bilinear_up,
# resize_bilinear_mixed, resize_nearest_up and resize_nearest_down. Bilinear inputs are
# multiples of 2 and every blend weight a multiple of 1/4, so every bilinear output is a
# multiple of 0.5 and exact at the scales 0.5 and 0.25: how a driver rounds or truncates
# a blend (Android 11's kernels differ there) never matters.
layout = BoolScalar("layout", False)  # NHWC


def signed(name, i, o, scale, zero_point):
    return DataTypeConverter(name=name).Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
    })


# 1. RESIZE_BILINEAR [1, 2, 3, 2] -> [1, 4, 6, 2] (width 6, height 4): source
#    coordinates dst / 2, the last row and column repeated.
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
o1 = Output("output", "TENSOR_FLOAT32", "{1, 4, 6, 2}")
Model("bilinear_up").Operation("RESIZE_BILINEAR", i1, 6, 4, layout).To(o1)
Example({
    i1: [2, 8, -8, 0, -4, -2, 0, -6, -2, 8, -8, -2],
    o1: [
        2.0, 8.0, -3.0, 4.0, -8.0, 0.0, -6.0, -1.0, -4.0, -2.0, -4.0, -2.0, 1.0, 1.0,
        -2.0, 2.5, -5.0, 4.0, -5.5, 1.0, -6.0, -2.0, -6.0, -2.0, 0.0, -6.0, -1.0, 1.0,
        -2.0, 8.0, -5.0, 3.0, -8.0, -2.0, -8.0, -2.0, 0.0, -6.0, -1.0, 1.0, -2.0, 8.0,
        -5.0, 3.0, -8.0, -2.0, -8.0, -2.0
    ],
}).AddNchw(i1, o1, layout).AddVariations(
    signed("signed_zp0", i1, o1, 0.5, 0), signed("signed_low", i1, o1, 0.25, -96),
    signed("signed_high", i1, o1, 0.5, 111), includeDefault=False)

# 2. RESIZE_BILINEAR [1, 4, 3, 1] -> [1, 2, 2, 1]: source rows 0 and 2, source columns
#    0 and 1.5.
i2 = Input("input", "TENSOR_FLOAT32", "{1, 4, 3, 1}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("bilinear_mixed").Operation("RESIZE_BILINEAR", i2, 2, 2, layout).To(o2)
Example({
    i2: [-6, -4, 2, 8, 2, 0, -4, 2, -2, 4, -4, -8],
    o2: [-6.0, -1.0, -4.0, 0.0],
}).AddNchw(i2, o2, layout).AddVariations(
    signed("signed_zp_neg", i2, o2, 0.25, -50), signed("signed_zp_pos", i2, o2, 0.5, 90),
    includeDefault=False)

# 3. RESIZE_NEAREST_NEIGHBOR [1, 2, 2, 2] -> [1, 3, 5, 2]: source floor(dst * in / out).
i3 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o3 = Output("output", "TENSOR_FLOAT32", "{1, 3, 5, 2}")
Model("nearest_up").Operation("RESIZE_NEAREST_NEIGHBOR", i3, 5, 3, layout).To(o3)
Example({
    i3: [-2.0, -4.5, 2.0, 1.5, 3.0, -3.5, 1.0, -1.5],
    o3: [
        -2.0, -4.5, -2.0, -4.5, -2.0, -4.5, 2.0, 1.5, 2.0, 1.5, -2.0, -4.5, -2.0, -4.5,
        -2.0, -4.5, 2.0, 1.5, 2.0, 1.5, 3.0, -3.5, 3.0, -3.5, 3.0, -3.5, 1.0, -1.5, 1.0,
        -1.5
    ],
}).AddNchw(i3, o3, layout).AddVariations(
    signed("signed_zp0", i3, o3, 0.5, 0), signed("signed_saturating_high", i3, o3, 0.25, 110),
    signed("signed_saturating_low", i3, o3, 0.5, -125), includeDefault=False)

# 4. RESIZE_NEAREST_NEIGHBOR [2, 4, 5, 1] -> [2, 2, 3, 1].
i4 = Input("input", "TENSOR_FLOAT32", "{2, 4, 5, 1}")
o4 = Output("output", "TENSOR_FLOAT32", "{2, 2, 3, 1}")
Model("nearest_down").Operation("RESIZE_NEAREST_NEIGHBOR", i4, 3, 2, layout).To(o4)
Example({
    i4: [
        3.5, 2.0, -4.5, -1.0, -4.5, -1.5, -3.5, -3.0, -0.5, -4.5, 1.0, 1.0, 2.0, -2.0,
        1.0, -3.5, -1.0, -2.0, 2.0, 3.5, -6.0, 5.0, 2.0, -5.5, -4.0, -2.5, 1.0, -4.0,
        3.5, 0.5, -2.5, -2.0, -2.0, 4.5, 0.5, -6.0, 2.5, -3.0, 4.5, -3.5
    ],
    o4: [3.5, 2.0, -1.0, 1.0, 1.0, -2.0, -6.0, 5.0, -5.5, -2.5, -2.0, 4.5],
}).AddNchw(i4, o4, layout).AddVariations(
    signed("signed_zp_neg", i4, o4, 0.5, -3), signed("signed_saturating", i4, o4, 0.125, 80),
    includeDefault=False)

# 5. Output sizes as FLOAT32 scales: case 1 by 2 (height) and 2 (width), case 3 by 1.5
#    (height: 2 -> 3) and 2.5 (width: 2 -> 5).
i5 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
o5 = Output("output", "TENSOR_FLOAT32", "{1, 4, 6, 2}")
Model("bilinear_up_scale").Operation("RESIZE_BILINEAR", i5, 2.0, 2.0, layout).To(o5)
Example({
    i5: [2, 8, -8, 0, -4, -2, 0, -6, -2, 8, -8, -2],
    o5: [
        2.0, 8.0, -3.0, 4.0, -8.0, 0.0, -6.0, -1.0, -4.0, -2.0, -4.0, -2.0, 1.0, 1.0,
        -2.0, 2.5, -5.0, 4.0, -5.5, 1.0, -6.0, -2.0, -6.0, -2.0, 0.0, -6.0, -1.0, 1.0,
        -2.0, 8.0, -5.0, 3.0, -8.0, -2.0, -8.0, -2.0, 0.0, -6.0, -1.0, 1.0, -2.0, 8.0,
        -5.0, 3.0, -8.0, -2.0, -8.0, -2.0
    ],
}).AddNchw(i5, o5, layout).AddVariations(
    signed("signed_zp_neg", i5, o5, 0.25, -77), includeDefault=False)

i6 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 2}")
o6 = Output("output", "TENSOR_FLOAT32", "{1, 3, 5, 2}")
Model("nearest_up_scale").Operation("RESIZE_NEAREST_NEIGHBOR", i6, 2.5, 1.5, layout).To(o6)
Example({
    i6: [-2.0, -4.5, 2.0, 1.5, 3.0, -3.5, 1.0, -1.5],
    o6: [
        -2.0, -4.5, -2.0, -4.5, -2.0, -4.5, 2.0, 1.5, 2.0, 1.5, -2.0, -4.5, -2.0, -4.5,
        -2.0, -4.5, 2.0, 1.5, 2.0, 1.5, 3.0, -3.5, 3.0, -3.5, 3.0, -3.5, 1.0, -1.5, 1.0,
        -1.5
    ],
}).AddNchw(i6, o6, layout).AddVariations(
    signed("signed_saturating_high", i6, o6, 0.25, 110), includeDefault=False)

# 6. RESIZE_BILINEAR's HAL 1.0 signature (sizes, no layout) and its 1.2 scale form
#    without the layout: case 2, and case 1 by scale 2.
i7 = Input("input", "TENSOR_FLOAT32", "{1, 4, 3, 1}")
o7 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("bilinear_mixed_no_layout").Operation("RESIZE_BILINEAR", i7, 2, 2).To(o7)
Example({
    i7: [-6, -4, 2, 8, 2, 0, -4, 2, -2, 4, -4, -8],
    o7: [-6.0, -1.0, -4.0, 0.0],
}).AddVariations(signed("signed", i7, o7, 0.5, -1), includeDefault=False)

i8 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 2}")
o8 = Output("output", "TENSOR_FLOAT32", "{1, 4, 6, 2}")
Model("bilinear_up_scale_no_layout").Operation("RESIZE_BILINEAR", i8, 2.0, 2.0).To(o8)
Example({
    i8: [2, 8, -8, 0, -4, -2, 0, -6, -2, 8, -8, -2],
    o8: [
        2.0, 8.0, -3.0, 4.0, -8.0, 0.0, -6.0, -1.0, -4.0, -2.0, -4.0, -2.0, 1.0, 1.0,
        -2.0, 2.5, -5.0, 4.0, -5.5, 1.0, -6.0, -2.0, -6.0, -2.0, 0.0, -6.0, -1.0, 1.0,
        -2.0, 8.0, -5.0, 3.0, -8.0, -2.0, -8.0, -2.0, 0.0, -6.0, -1.0, 1.0, -2.0, 8.0,
        -5.0, 3.0, -8.0, -2.0, -8.0, -2.0
    ],
}).AddVariations(signed("signed", i8, o8, 0.5, 60), includeDefault=False)
