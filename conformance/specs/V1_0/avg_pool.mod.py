# AVERAGE_POOL_2D (HAL 1.0 forms: float32 and quant8, explicit and implicit padding).
# Golden values: conformance/specs/oracles/pooling_oracle.py, case avg_pool (plain
# loops over each window's in-image cells; padding is neither summed nor counted).
# Quant8 uses scale 0.25, zero point 100 for input and output alike (the output
# must carry the input's quantization); the oracle checks no average lands on a
# rounding tie at that scale.
act = Int32Scalar("act", 0)

# explicit: [2, 3, 4, 2] input, pads left 2, right 1, top 1, bottom 1, stride 2x2,
# filter 3 wide x 2 high -> [2, 2, 3, 2]. Window columns {-2..0}, {0..2}, {2..4}
# hold 1, 3 and 2 image columns; rows {-1, 0}, {1, 2} hold 1 and 2 rows. So
# out[0, 0, 0, 0] = in[0, 0, 0, 0] = 1.0 (one cell, pad_left = filter_w - 1) and
# out[0, 1, 1, 1] = (2.5 - 3.0 + 1.0 - 1.0 + 5.5 + 0.5) / 6 = 0.9166667.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
Model("explicit").Operation("AVERAGE_POOL_2D", i1, 2, 1, 1, 1, 2, 2, 3, 2, act).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    o1: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})
Example({
    i1: [1.0, -2.0, 3.5, 0.5, -1.5, 4.0, 2.0, 6.5,
         0.0, 2.5, 5.0, -3.0, 4.5, 1.0, -0.5, 3.0,
         7.0, -1.0, 2.5, 5.5, -4.0, 0.5, 6.0, 2.5,
         -2.5, 3.0, 1.5, 4.5, 8.0, -1.5, 0.5, -3.5,
         3.5, 1.0, -1.0, 2.0, 5.5, 0.0, 2.5, 7.5,
         -0.5, 6.0, 4.0, -2.0, 1.0, 3.5, 9.0, 2.0],
    o1: [1.0, -2.0, 1.0, 0.8333333, 0.25, 5.25,
         3.5, 0.75, 2.5, 0.9166667, 1.5, 1.75,
         -2.5, 3.0, 2.333333, 2.0, 4.25, -2.5,
         1.5, 3.5, 2.083333, 1.75, 4.5, 3.25],
}).AddVariations(quant8).AddAllActivations(o1, act)

# same: [1, 5, 4, 1], implicit SAME (code 1), stride 2x2, filter 3 wide x 2 high.
# Output 3x2; the padding totals are odd (1 row, 1 column) and go to the bottom
# and right: out[0, 2, 1, 0] averages rows {4} x columns {2, 3} = (8.5 - 2.5) / 2 = 3.
i2 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("same").Operation("AVERAGE_POOL_2D", i2, 1, 2, 2, 3, 2, 0).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    o2: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})
Example({
    i2: [2.0, -1.0, 4.5, 3.0,
         -3.5, 6.0, 0.5, 1.0,
         5.0, 2.5, -2.0, 7.5,
         1.5, -4.5, 3.5, 0.0,
         -1.0, 4.0, 8.5, -2.5],
    o2: [1.416667, 2.25, 1.0, 2.25, 3.833333, 3.0],
}).AddVariations(quant8)

# valid: [1, 3, 3, 3], implicit VALID (code 2), stride 1, a 3x3 filter covering the
# image: a global average per channel. Channel c holds -6.5 + 0.5 * (3k + c) for
# k = 0..8, so its mean is -6.5 + 0.5 * (12 + c) = -0.5, 0.0, 0.5.
i3 = Input("in", "TENSOR_FLOAT32", "{1, 3, 3, 3}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 3}")
Model("valid").Operation("AVERAGE_POOL_2D", i3, 2, 1, 1, 3, 3, 0).To(o3)
quant8 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    o3: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})
Example({
    i3: [-6.5 + 0.5 * k for k in range(27)],
    o3: [-0.5, 0.0, 0.5],
}).AddVariations(quant8)

# strided: [1, 4, 4, 1], implicit SAME, stride 3 > filter 2: row and column 2 are
# never read; SAME pads one row and column at the bottom and right, so the windows
# hold 4, 2, 2 and 1 cells: (-1.5 - 3.0 - 6.0 - 1.5) / 4 = -3.0, ..., in[3, 3] = -6.5.
i4 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o4 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("strided").Operation("AVERAGE_POOL_2D", i4, 1, 3, 3, 2, 2, act).To(o4)
quant8 = DataTypeConverter().Identify({
    i4: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    o4: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})
Example({
    i4: [-1.5, -3.0, -0.5, -4.0,
         -6.0, -1.5, -3.5, -2.0,
         -2.0, -4.5, -7.0, -0.5,
         -5.0, -2.5, -1.0, -6.5],
    o4: [-3.0, -3.0, -3.75, -6.5],
}).AddVariations(quant8).AddAllActivations(o4, act)
