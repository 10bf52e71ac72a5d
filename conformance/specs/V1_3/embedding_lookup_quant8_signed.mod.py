# EMBEDDING_LOOKUP with TENSOR_QUANT8_ASYMM_SIGNED values (HAL 1.3): rows picked by
# the lookups, the int8 values copied as they are; the output keeps the values'
# scale and zero point. Golden values: conformance/specs/oracles/signed_a_oracle.py
# ("embedding_lookup rank 3", "embedding_lookup rank 2"). Quantizations, output as
# values: zp_neg (0.125, -112) (-2.0 is byte -128), zp_zero (0.125, 0), zp_pos
# (0.125, 63) (8.0 is byte 127).
QUANTS = [("zp_neg", 0.125, -112), ("zp_zero", 0.125, 0), ("zp_pos", 0.125, 63)]


def signed(v, o):
    return [
        DataTypeConverter(name=name).Identify({
            v: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        })
        for name, scale, zero_point in QUANTS
    ]


# Values [3, 2, 2], lookups [2, 0, 2] (one repeated) -> [3, 2, 2].
l1 = Input("lookups", "TENSOR_INT32", "{3}")
v1 = Input("values", "TENSOR_FLOAT32", "{3, 2, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{3, 2, 2}")
Model("rank3").Operation("EMBEDDING_LOOKUP", l1, v1).To(o1)
Example({
    l1: [2, 0, 2],
    v1: [-2.0, 0.5, 1.0, -1.5, 8.0, 0.0, -0.25, 3.0, 2.5, -0.75, 4.0, 6.0],
    o1: [2.5, -0.75, 4.0, 6.0, -2.0, 0.5, 1.0, -1.5, 2.5, -0.75, 4.0, 6.0],
}).AddVariations(*signed(v1, o1), includeDefault=False)

# Values [4, 3], lookups [3, 1] -> rows 3 and 1.
l2 = Input("lookups", "TENSOR_INT32", "{2}")
v2 = Input("values", "TENSOR_FLOAT32", "{4, 3}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model("rank2").Operation("EMBEDDING_LOOKUP", l2, v2).To(o2)
Example({
    l2: [3, 1],
    v2: [1.0, 2.0, 3.0, -2.0, 8.0, -0.5, 0.25, 0.0, -1.0, 7.5, -0.125, 4.0],
    o2: [7.5, -0.125, 4.0, -2.0, 8.0, -0.5],
}).AddVariations(*signed(v2, o2), includeDefault=False)
