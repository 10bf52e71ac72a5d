# DEPTH_TO_SPACE, SPACE_TO_DEPTH, BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND with
# TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL 1.3; the output has the input's
# quantization, SPACE_TO_BATCH_ND pads with the zero point), NHWC and NCHW. Values are
# multiples of 0.5 in [-20, 20]: at (0.5, 0) all fit, at (0.25, -60) those below -17
# saturate at -128, at (0.5, 100) those above 13.5 saturate at 127 (a copy saturates as
# its input did).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases depth_to_space,
# space_to_depth, batch_to_space and space_to_batch.
layout = BoolScalar("layout", False)  # NHWC


def signed_variations(i, o):
    def one(name, scale, zero_point):
        return DataTypeConverter(name=name).Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        })
    return (one("signed_zp0", 0.5, 0), one("signed_saturating_low", 0.25, -60),
            one("signed_saturating_high", 0.5, 100))


# 1. DEPTH_TO_SPACE [1, 2, 2, 4], block 2 -> [1, 4, 4, 1].
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 4}")
o1 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
Model("depth_to_space").Operation("DEPTH_TO_SPACE", i1, 2, layout).To(o1)
Example({
    i1: [
        -15.0, 17.5, -9.0, -10.0, 5.5, 9.0, 8.0, 9.5, 9.0, -4.0, -4.5, -8.0, 18.5, 3.5,
        11.0, -6.5
    ],
    o1: [
        -15.0, 17.5, 5.5, 9.0, -9.0, -10.0, 8.0, 9.5, 9.0, -4.0, 18.5, 3.5, -4.5, -8.0,
        11.0, -6.5
    ],
}).AddNchw(i1, o1, layout).AddVariations(*signed_variations(i1, o1), includeDefault=False)

# 2. SPACE_TO_DEPTH [1, 4, 4, 2], block 2 -> [1, 2, 2, 8].
i2 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 8}")
Model("space_to_depth").Operation("SPACE_TO_DEPTH", i2, 2, layout).To(o2)
Example({
    i2: [
        6.5, 13.0, 16.0, 15.0, 15.5, 17.5, -3.0, -14.0, 16.0, 13.0, 10.0, -10.0, -15.5,
        16.5, 20.0, 1.5, -16.5, -17.5, -18.5, -9.5, 17.0, -10.0, 18.5, 19.0, -10.0, 6.0,
        10.5, -9.5, -12.5, -10.5, 9.5, -16.0
    ],
    o2: [
        6.5, 13.0, 16.0, 15.0, 16.0, 13.0, 10.0, -10.0, 15.5, 17.5, -3.0, -14.0, -15.5,
        16.5, 20.0, 1.5, -16.5, -17.5, -18.5, -9.5, -10.0, 6.0, 10.5, -9.5, 17.0, -10.0,
        18.5, 19.0, -12.5, -10.5, 9.5, -16.0
    ],
}).AddNchw(i2, o2, layout).AddVariations(*signed_variations(i2, o2), includeDefault=False)

# 3. BATCH_TO_SPACE_ND [4, 2, 1, 2], block [2, 2] -> [1, 4, 2, 2].
i3 = Input("input", "TENSOR_FLOAT32", "{4, 2, 1, 2}")
o3 = Output("output", "TENSOR_FLOAT32", "{1, 4, 2, 2}")
Model("batch_to_space").Operation("BATCH_TO_SPACE_ND", i3, [2, 2], layout).To(o3)
Example({
    i3: [
        11.5, 16.0, 2.5, -13.0, -14.5, 2.5, -11.0, -9.0, 5.0, -12.5, -10.0, 17.0, -18.0,
        19.5, 15.0, -12.5
    ],
    o3: [
        11.5, 16.0, -14.5, 2.5, 5.0, -12.5, -18.0, 19.5, 2.5, -13.0, -11.0, -9.0, -10.0,
        17.0, 15.0, -12.5
    ],
}).AddNchw(i3, o3, layout).AddVariations(*signed_variations(i3, o3), includeDefault=False)

# 4. SPACE_TO_BATCH_ND [1, 3, 3, 2], block [2, 2], paddings [[1, 0], [0, 1]] ->
#    [4, 2, 2, 2]; the padding is the zero point (real 0).
i4 = Input("input", "TENSOR_FLOAT32", "{1, 3, 3, 2}")
o4 = Output("output", "TENSOR_FLOAT32", "{4, 2, 2, 2}")
Model("space_to_batch").Operation("SPACE_TO_BATCH_ND", i4, [2, 2], Parameter(
    "paddings", "TENSOR_INT32", "{2, 2}", [1, 0, 0, 1]), layout).To(o4)
Example({
    i4: [
        14.5, -8.5, -12.5, -2.5, -1.0, 7.5, -19.0, 11.5, 3.5, -0.5, 7.0, 18.0, -2.5,
        14.0, -19.0, 7.5, -19.5, 7.5
    ],
    o4: [
        0.0, 0.0, 0.0, 0.0, -19.0, 11.5, 7.0, 18.0, 0.0, 0.0, 0.0, 0.0, 3.5, -0.5, 0.0,
        0.0, 14.5, -8.5, -1.0, 7.5, -2.5, 14.0, -19.5, 7.5, -12.5, -2.5, 0.0, 0.0,
        -19.0, 7.5, 0.0, 0.0
    ],
}).AddNchw(i4, o4, layout).AddVariations(*signed_variations(i4, o4), includeDefault=False)

# 5. HAL 1.0/1.1's signatures, without the layout input (NHWC): the same four cases.
i5 = Input("input", "TENSOR_FLOAT32", "{1, 2, 2, 4}")
o5 = Output("output", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
Model("depth_to_space_no_layout").Operation("DEPTH_TO_SPACE", i5, 2).To(o5)
Example({
    i5: [
        -15.0, 17.5, -9.0, -10.0, 5.5, 9.0, 8.0, 9.5, 9.0, -4.0, -4.5, -8.0, 18.5, 3.5,
        11.0, -6.5
    ],
    o5: [
        -15.0, 17.5, 5.5, 9.0, -9.0, -10.0, 8.0, 9.5, 9.0, -4.0, 18.5, 3.5, -4.5, -8.0,
        11.0, -6.5
    ],
}).AddVariations(*signed_variations(i5, o5), includeDefault=False)

i6 = Input("input", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
o6 = Output("output", "TENSOR_FLOAT32", "{1, 2, 2, 8}")
Model("space_to_depth_no_layout").Operation("SPACE_TO_DEPTH", i6, 2).To(o6)
Example({
    i6: [
        6.5, 13.0, 16.0, 15.0, 15.5, 17.5, -3.0, -14.0, 16.0, 13.0, 10.0, -10.0, -15.5,
        16.5, 20.0, 1.5, -16.5, -17.5, -18.5, -9.5, 17.0, -10.0, 18.5, 19.0, -10.0, 6.0,
        10.5, -9.5, -12.5, -10.5, 9.5, -16.0
    ],
    o6: [
        6.5, 13.0, 16.0, 15.0, 16.0, 13.0, 10.0, -10.0, 15.5, 17.5, -3.0, -14.0, -15.5,
        16.5, 20.0, 1.5, -16.5, -17.5, -18.5, -9.5, -10.0, 6.0, 10.5, -9.5, 17.0, -10.0,
        18.5, 19.0, -12.5, -10.5, 9.5, -16.0
    ],
}).AddVariations(*signed_variations(i6, o6), includeDefault=False)

i7 = Input("input", "TENSOR_FLOAT32", "{4, 2, 1, 2}")
o7 = Output("output", "TENSOR_FLOAT32", "{1, 4, 2, 2}")
Model("batch_to_space_no_layout").Operation("BATCH_TO_SPACE_ND", i7, [2, 2]).To(o7)
Example({
    i7: [
        11.5, 16.0, 2.5, -13.0, -14.5, 2.5, -11.0, -9.0, 5.0, -12.5, -10.0, 17.0, -18.0,
        19.5, 15.0, -12.5
    ],
    o7: [
        11.5, 16.0, -14.5, 2.5, 5.0, -12.5, -18.0, 19.5, 2.5, -13.0, -11.0, -9.0, -10.0,
        17.0, 15.0, -12.5
    ],
}).AddVariations(*signed_variations(i7, o7), includeDefault=False)

i8 = Input("input", "TENSOR_FLOAT32", "{1, 3, 3, 2}")
o8 = Output("output", "TENSOR_FLOAT32", "{4, 2, 2, 2}")
Model("space_to_batch_no_layout").Operation("SPACE_TO_BATCH_ND", i8, [2, 2], Parameter(
    "paddings", "TENSOR_INT32", "{2, 2}", [1, 0, 0, 1])).To(o8)
Example({
    i8: [
        14.5, -8.5, -12.5, -2.5, -1.0, 7.5, -19.0, 11.5, 3.5, -0.5, 7.0, 18.0, -2.5,
        14.0, -19.0, 7.5, -19.5, 7.5
    ],
    o8: [
        0.0, 0.0, 0.0, 0.0, -19.0, 11.5, 7.0, 18.0, 0.0, 0.0, 0.0, 0.0, 3.5, -0.5, 0.0,
        0.0, 14.5, -8.5, -1.0, 7.5, -2.5, 14.0, -19.5, 7.5, -12.5, -2.5, 0.0, 0.0,
        -19.0, 7.5, 0.0, 0.0
    ],
}).AddVariations(*signed_variations(i8, o8), includeDefault=False)
