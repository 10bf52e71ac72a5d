# GATHER on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): slices picked by index along an
# axis, the int8 values copied as they are; the output keeps the input's scale and
# zero point. Golden values: conformance/specs/oracles/signed_a_oracle.py
# ("gather axis 0", "gather axis -1"). Quantizations, output as input: zp_neg
# (0.125, -112) (-2.0 is byte -128), zp_zero (0.125, 0), zp_pos (0.125, 63) (8.0 is
# byte 127).
QUANTS = [("zp_neg", 0.125, -112), ("zp_zero", 0.125, 0), ("zp_pos", 0.125, 63)]


def signed(i, o):
    return [
        DataTypeConverter(name=name).Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        })
        for name, scale, zero_point in QUANTS
    ]


# [3, 2, 2] along axis 0, indices [2, 0, 2] (one repeated) -> [3, 2, 2].
i1 = Input("in", "TENSOR_FLOAT32", "{3, 2, 2}")
k1 = Input("indices", "TENSOR_INT32", "{3}")
o1 = Output("out", "TENSOR_FLOAT32", "{3, 2, 2}")
Model("axis0").Operation("GATHER", i1, 0, k1).To(o1)
Example({
    i1: [-2.0, 0.5, 1.0, -1.5, 8.0, 0.0, -0.25, 3.0, 2.5, -0.75, 4.0, 6.0],
    k1: [2, 0, 2],
    o1: [2.5, -0.75, 4.0, 6.0, -2.0, 0.5, 1.0, -1.5, 2.5, -0.75, 4.0, 6.0],
}).AddVariations(*signed(i1, o1), includeDefault=False)

# [2, 4] along axis -1 with rank-2 indices [[3, 0], [1, 3]] -> [2, 2, 2]:
# rows [-2, 0.5, 1, 8] and [6, -1.5, 0, 3] give [[8, -2], [0.5, 8]] and [[3, 6], [-1.5, 3]].
i2 = Input("in", "TENSOR_FLOAT32", "{2, 4}")
k2 = Input("indices", "TENSOR_INT32", "{2, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 2, 2}")
Model("axis_neg1").Operation("GATHER", i2, -1, k2).To(o2)
Example({
    i2: [-2.0, 0.5, 1.0, 8.0, 6.0, -1.5, 0.0, 3.0],
    k2: [3, 0, 1, 3],
    o2: [8.0, -2.0, 0.5, 8.0, 3.0, 6.0, -1.5, 3.0],
}).AddVariations(*signed(i2, o2), includeDefault=False)
