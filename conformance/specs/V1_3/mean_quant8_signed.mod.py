# MEAN on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): the output keeps the input's scale
# and zero point. Every mean here is a whole number of steps at every quantization,
# so the integer division of the kernels has nothing to round.
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("mean axis 1",
# "mean axes 0 2 keep"), which also checks each quantized golden against the sum of
# the int8 values divided by the count.


def signed(i, o, quants):
    return [
        DataTypeConverter(name=name).Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        })
        for name, scale, zero_point in quants
    ]


# [2, 3, 2] over axis 1, keep_dims 0: [1, 2, 3] -> 2, [-2, -3.5, -0.5] -> -2,
# [4, 6, -1] -> 3, [-4, 0.5, 2] -> -0.5.
# zp_neg (0.5, -116), zp_zero (0.25, 0), zp_pos (0.125, 79) (6.0 is byte 127).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("axis1").Operation("MEAN", i1, [1], 0).To(o1)
Example({
    i1: [1.0, -2.0, 2.0, -3.5, 3.0, -0.5, 4.0, -4.0, 6.0, 0.5, -1.0, 2.0],
    o1: [2.0, -2.0, 3.0, -0.5],
}).AddVariations(*signed(i1, o1, [("zp_neg", 0.5, -116), ("zp_zero", 0.25, 0), ("zp_pos", 0.125, 79)]),
                 includeDefault=False)

# [2, 2, 2] over axes 0 and 2, keep_dims 1: [1.5, -0.5, 3, 4] -> 2 and
# [-3, -1, 0.5, -2.5] -> -1.5, of shape [1, 2, 1].
# zp_neg (0.5, -122) (-3.0 is byte -128), zp_zero (0.125, 0), zp_pos (0.25, 111)
# (4.0 is byte 127).
i2 = Input("in", "TENSOR_FLOAT32", "{2, 2, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 2, 1}")
Model("axes_keep").Operation("MEAN", i2, [0, 2], 1).To(o2)
Example({
    i2: [1.5, -0.5, -3.0, -1.0, 3.0, 4.0, 0.5, -2.5],
    o2: [2.0, -1.5],
}).AddVariations(*signed(i2, o2, [("zp_neg", 0.5, -122), ("zp_zero", 0.125, 0), ("zp_pos", 0.25, 111)]),
                 includeDefault=False)
