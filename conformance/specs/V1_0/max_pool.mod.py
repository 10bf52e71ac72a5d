# MAX_POOL_2D (HAL 1.0 forms: float32 and quant8, explicit and implicit padding).
# Golden values: conformance/specs/oracles/pooling_oracle.py, case max_pool (plain
# loops: the maximum over each window's in-image cells; padding never wins).
# Quant8 uses scale 0.5, zero point 100 for input and output (the output must
# carry the input's quantization).
act = Int32Scalar("act", 0)

# explicit: pads left 2, right 1, top 1, bottom 1, stride 2x2, filter 3 wide x 2
# high -> [2, 2, 3, 2]. out[0, 0, 0, 1] = in[0, 0, 0, 1] = -2.0: the window's only
# image cell is negative and the padding around it does not count as 0.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
Model("explicit").Operation("MAX_POOL_2D", i1, 2, 1, 1, 1, 2, 2, 3, 2, act).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
Example({
    i1: [1.0, -2.0, 3.5, 0.5, -1.5, 4.0, 2.0, 6.5,
         0.0, 2.5, 5.0, -3.0, 4.5, 1.0, -0.5, 3.0,
         7.0, -1.0, 2.5, 5.5, -4.0, 0.5, 6.0, 2.5,
         -2.5, 3.0, 1.5, 4.5, 8.0, -1.5, 0.5, -3.5,
         3.5, 1.0, -1.0, 2.0, 5.5, 0.0, 2.5, 7.5,
         -0.5, 6.0, 4.0, -2.0, 1.0, 3.5, 9.0, 2.0],
    o1: [1.0, -2.0, 3.5, 4.0, 2.0, 6.5,
         7.0, 2.5, 7.0, 5.5, 6.0, 3.0,
         -2.5, 3.0, 8.0, 4.5, 8.0, -1.5,
         3.5, 6.0, 5.5, 6.0, 9.0, 7.5],
}).AddVariations(quant8).AddAllActivations(o1, act)

# same: [1, 5, 4, 1], implicit SAME, stride 2x2, filter 3 wide x 2 high; the odd
# padding goes to the bottom and right.
i2 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("same").Operation("MAX_POOL_2D", i2, 1, 2, 2, 3, 2, 0).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
Example({
    i2: [2.0, -1.0, 4.5, 3.0,
         -3.5, 6.0, 0.5, 1.0,
         5.0, 2.5, -2.0, 7.5,
         1.5, -4.5, 3.5, 0.0,
         -1.0, 4.0, 8.5, -2.5],
    o2: [6.0, 4.5, 5.0, 7.5, 8.5, 8.5],
}).AddVariations(quant8)

# valid: a 3x3 filter over a 3x3 image, VALID: the per-channel maximum, the last
# cell of each channel: -6.5 + 0.5 * (24 + c) = 5.5, 6.0, 6.5.
i3 = Input("in", "TENSOR_FLOAT32", "{1, 3, 3, 3}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 3}")
Model("valid").Operation("MAX_POOL_2D", i3, 2, 1, 1, 3, 3, 0).To(o3)
quant8 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    o3: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
Example({
    i3: [-6.5 + 0.5 * k for k in range(27)],
    o3: [5.5, 6.0, 6.5],
}).AddVariations(quant8)

# strided: all-negative [1, 4, 4, 1], SAME, stride 3 > filter 2: the bottom and
# right windows lean on padding, which must not inject a 0; RELU then clamps
# everything to 0 and RELU1 to -1.
i4 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o4 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("strided").Operation("MAX_POOL_2D", i4, 1, 3, 3, 2, 2, act).To(o4)
quant8 = DataTypeConverter().Identify({
    i4: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    o4: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
Example({
    i4: [-1.5, -3.0, -0.5, -4.0,
         -6.0, -1.5, -3.5, -2.0,
         -2.0, -4.5, -7.0, -0.5,
         -5.0, -2.5, -1.0, -6.5],
    # max{-1.5, -3.0, -6.0, -1.5}; rows {0, 1} x column {3}: max{-4.0, -2.0};
    # row {3} x columns {0, 1}: max{-5.0, -2.5}; in[3, 3] = -6.5.
    o4: [-1.5, -2.0, -2.5, -6.5],
}).AddVariations(quant8).AddAllActivations(o4, act)
