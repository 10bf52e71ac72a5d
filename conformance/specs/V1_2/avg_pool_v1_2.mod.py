# AVERAGE_POOL_2D with the HAL 1.2 layout input (NHWC and NCHW), float16,
# relaxed and quant8, explicit and implicit padding. Golden values:
# conformance/specs/oracles/pooling_oracle.py, case avg_pool (the data of
# V1_0/avg_pool.mod.py; windows average their in-image cells only). The layout
# converter transposes input and output for the NCHW variations.
layout = BoolScalar("layout", False)  # NHWC
act = Int32Scalar("act", 0)

# explicit: pads left 2, right 1, top 1, bottom 1; stride 2x2; filter 3 wide x 2
# high; window cell counts 1 to 6 (see V1_0/avg_pool.mod.py).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
Model("explicit").Operation("AVERAGE_POOL_2D", i1, 2, 1, 1, 1, 2, 2, 3, 2, act, layout).To(o1)
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
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16", quant8).AddAllActivations(o1, act)

# same: implicit SAME, stride 2x2, filter 3 wide x 2 high, odd padding totals.
i2 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("same").Operation("AVERAGE_POOL_2D", i2, 1, 2, 2, 3, 2, 0, layout).To(o2)
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
}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16", quant8)

# valid: a 3x3 filter over a 3x3 image with 3 channels (global average), VALID.
i3 = Input("in", "TENSOR_FLOAT32", "{1, 3, 3, 3}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 3}")
Model("valid").Operation("AVERAGE_POOL_2D", i3, 2, 1, 1, 3, 3, 0, layout).To(o3)
quant8 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    o3: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})
Example({
    i3: [-6.5 + 0.5 * k for k in range(27)],
    o3: [-0.5, 0.0, 0.5],
}).AddNchw(i3, o3, layout).AddVariations("relaxed", "float16", quant8)

# strided: stride 3 > filter 2, SAME, all-negative data (see V1_0/avg_pool.mod.py).
i4 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o4 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("strided").Operation("AVERAGE_POOL_2D", i4, 1, 3, 3, 2, 2, 0, layout).To(o4)
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
}).AddNchw(i4, o4, layout).AddVariations("relaxed", "float16", quant8)

# The HAL 1.0 forms (no layout input) in float16: implicit SAME as above, and
# the global pooling through explicit zero padding.
i5 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("same_no_layout").Operation("AVERAGE_POOL_2D", i5, 1, 2, 2, 3, 2, 0).To(o5)
Example({
    i5: [2.0, -1.0, 4.5, 3.0,
         -3.5, 6.0, 0.5, 1.0,
         5.0, 2.5, -2.0, 7.5,
         1.5, -4.5, 3.5, 0.0,
         -1.0, 4.0, 8.5, -2.5],
    o5: [1.416667, 2.25, 1.0, 2.25, 3.833333, 3.0],
}).AddVariations("float16", includeDefault=False)

i6 = Input("in", "TENSOR_FLOAT32", "{1, 3, 3, 3}")
o6 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 3}")
Model("explicit_no_layout").Operation("AVERAGE_POOL_2D", i6, 0, 0, 0, 0, 1, 1, 3, 3, 0).To(o6)
Example({
    i6: [-6.5 + 0.5 * k for k in range(27)],
    o6: [-0.5, 0.0, 0.5],
}).AddVariations("float16", includeDefault=False)
