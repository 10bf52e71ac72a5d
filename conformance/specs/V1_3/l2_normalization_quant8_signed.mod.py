# L2_NORMALIZATION on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): the output
# quantization is fixed at scale 1/128, zero point 0 (the TENSOR_QUANT8_ASYMM one
# moved by 128), so q = 128 * x / |x| clamped to [-128, 127]; since HAL 1.3 an
# all-zero vector gives zeros (the output zero point, 0 here).
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("l2_normalization
# last axis", "l2_normalization axis 0"), which also checks each quantized golden
# (round half away from zero of 128 * x / |x|; every one at least 0.1 from a tie).

# Rank 4 along the last axis (no axis input): [3, -4, 0] -> [77, -102, 0],
# [1, 2, 2] -> [43, 85, 85], [0, 0, 0] -> [0, 0, 0], [-6, 0.5, 8] -> [-77, 6, 102].
# Input quantizations: zp_neg (0.5, -110) (-6.0 is byte -122), zp_zero (0.25, 0),
# zp_pos (0.5, 111) (8.0 is byte 127).
i1 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o1 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model("last_axis").Operation("L2_NORMALIZATION", i1).To(o1)


def signed(i, o, quants):
    return [
        DataTypeConverter(name=name).Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 128, 0),
        })
        for name, scale, zero_point in quants
    ]


Example({
    i1: [3.0, -4.0, 0.0, 1.0, 2.0, 2.0, 0.0, 0.0, 0.0, -6.0, 0.5, 8.0],
    o1: [0.6, -0.8, 0.0, 0.333333333, 0.666666667, 0.666666667,
         0.0, 0.0, 0.0, -0.599251403, 0.0499376169, 0.799001871],
}).AddVariations(
    *signed(i1, o1, [("zp_neg", 0.5, -110), ("zp_zero", 0.25, 0), ("zp_pos", 0.5, 111)]),
    includeDefault=False)

# Rank 2 along axis 0: columns [2, -1, 2] -> [85, -43, 85] and [0, 5, 0] -> [0, 128, 0],
# whose 128 clamps at 127.
# Input quantizations: zp_neg (0.25, -120), zp_pos (0.125, 87) (5.0 is byte 127).
i2 = Input("in", "TENSOR_FLOAT32", "{3, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{3, 2}")
Model("axis0").Operation("L2_NORMALIZATION", i2, 0).To(o2)
Example({
    i2: [2.0, 0.0, -1.0, 5.0, 2.0, 0.0],
    o2: [0.666666667, 0.0, -0.333333333, 1.0, 0.666666667, 0.0],
}).AddVariations(
    *signed(i2, o2, [("zp_neg", 0.25, -120), ("zp_pos", 0.125, 87)]),
    includeDefault=False)
