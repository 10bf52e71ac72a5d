# TOPK_V2 on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): the k largest values of each
# last-axis row, in descending order, with their positions; the values output keeps
# the input's scale and zero point and the int8 values are compared as they are.
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("topk_v2 k 3"), which
# also compares the int8 values of every variation.
# Rows [1, -3, 4.5, 0.5, 2] -> [4.5, 2, 1] at [2, 4, 0];
# [-6, -1.5, 7.5, -0.5, 3] -> [7.5, 3, -0.5] at [2, 4, 3].
# zp_neg (0.5, -116) (-6.0 is byte -128), zp_zero (0.25, 0), zp_pos (0.125, 67)
# (7.5 is byte 127).
i = Input("in", "TENSOR_FLOAT32", "{2, 5}")
values = Output("values", "TENSOR_FLOAT32", "{2, 3}")
indices = Output("indices", "TENSOR_INT32", "{2, 3}")
Model().Operation("TOPK_V2", i, 3).To(values, indices)
Example({
    i: [1.0, -3.0, 4.5, 0.5, 2.0, -6.0, -1.5, 7.5, -0.5, 3.0],
    values: [4.5, 2.0, 1.0, 7.5, 3.0, -0.5],
    indices: [2, 4, 0, 2, 4, 3],
}).AddVariations(*[
    DataTypeConverter(name=name).Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        values: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
    })
    for name, scale, zero_point in [("zp_neg", 0.5, -116), ("zp_zero", 0.25, 0), ("zp_pos", 0.125, 67)]
], includeDefault=False)
