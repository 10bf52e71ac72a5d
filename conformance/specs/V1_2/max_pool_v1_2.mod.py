# MAX_POOL_2D with the HAL 1.2 layout input (NHWC and NCHW), float16, relaxed and
# quant8, explicit and implicit padding. Golden values:
# conformance/specs/oracles/pooling_oracle.py, case max_pool (the data of
# V1_0/max_pool.mod.py; padding never wins). Quant8 here: scale 0.25, zero point 120.
layout = BoolScalar("layout", False)  # NHWC
act = Int32Scalar("act", 0)

i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
# pads left 2, right 1, top 1, bottom 1; stride 2x2; filter 3 wide x 2 high
Model("explicit").Operation("MAX_POOL_2D", i1, 2, 1, 1, 1, 2, 2, 3, 2, act, layout).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.25, 120),
    o1: ("TENSOR_QUANT8_ASYMM", 0.25, 120),
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
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16", quant8).AddAllActivations(o1, act)

i2 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
# implicit SAME, stride 2x2, filter 3 wide x 2 high
Model("same").Operation("MAX_POOL_2D", i2, 1, 2, 2, 3, 2, 0, layout).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.25, 120),
    o2: ("TENSOR_QUANT8_ASYMM", 0.25, 120),
})
Example({
    i2: [2.0, -1.0, 4.5, 3.0,
         -3.5, 6.0, 0.5, 1.0,
         5.0, 2.5, -2.0, 7.5,
         1.5, -4.5, 3.5, 0.0,
         -1.0, 4.0, 8.5, -2.5],
    o2: [6.0, 4.5, 5.0, 7.5, 8.5, 8.5],
}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16", quant8)

i3 = Input("in", "TENSOR_FLOAT32", "{1, 3, 3, 3}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 3}")
# VALID, the filter covers the image: per-channel maxima
Model("valid").Operation("MAX_POOL_2D", i3, 2, 1, 1, 3, 3, 0, layout).To(o3)
quant8 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.25, 120),
    o3: ("TENSOR_QUANT8_ASYMM", 0.25, 120),
})
Example({
    i3: [-6.5 + 0.5 * k for k in range(27)],
    o3: [5.5, 6.0, 6.5],
}).AddNchw(i3, o3, layout).AddVariations("relaxed", "float16", quant8)

i4 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o4 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
# all negative, SAME, stride 3 > filter 2
Model("strided").Operation("MAX_POOL_2D", i4, 1, 3, 3, 2, 2, 0, layout).To(o4)
quant8 = DataTypeConverter().Identify({
    i4: ("TENSOR_QUANT8_ASYMM", 0.25, 120),
    o4: ("TENSOR_QUANT8_ASYMM", 0.25, 120),
})
Example({
    i4: [-1.5, -3.0, -0.5, -4.0,
         -6.0, -1.5, -3.5, -2.0,
         -2.0, -4.5, -7.0, -0.5,
         -5.0, -2.5, -1.0, -6.5],
    o4: [-1.5, -2.0, -2.5, -6.5],
}).AddNchw(i4, o4, layout).AddVariations("relaxed", "float16", quant8)

# The HAL 1.0 forms (no layout input) in float16: implicit SAME as above, and
# the global pooling through explicit zero padding.
i5 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("same_no_layout").Operation("MAX_POOL_2D", i5, 1, 2, 2, 3, 2, 0).To(o5)
Example({
    i5: [2.0, -1.0, 4.5, 3.0,
         -3.5, 6.0, 0.5, 1.0,
         5.0, 2.5, -2.0, 7.5,
         1.5, -4.5, 3.5, 0.0,
         -1.0, 4.0, 8.5, -2.5],
    o5: [6.0, 4.5, 5.0, 7.5, 8.5, 8.5],
}).AddVariations("float16", includeDefault=False)

i6 = Input("in", "TENSOR_FLOAT32", "{1, 3, 3, 3}")
o6 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 3}")
Model("explicit_no_layout").Operation("MAX_POOL_2D", i6, 0, 0, 0, 0, 1, 1, 3, 3, 0).To(o6)
Example({
    i6: [-6.5 + 0.5 * k for k in range(27)],
    o6: [5.5, 6.0, 6.5],
}).AddVariations("float16", includeDefault=False)
