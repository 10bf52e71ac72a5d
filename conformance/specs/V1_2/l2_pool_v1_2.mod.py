# L2_POOL_2D with the HAL 1.2 layout input (NHWC and NCHW), float16 and relaxed,
# explicit and implicit padding. Golden values:
# conformance/specs/oracles/pooling_oracle.py, case l2_pool (the data of
# V1_0/l2_pool.mod.py; only in-image cells are summed and counted).
layout = BoolScalar("layout", False)  # NHWC
act = Int32Scalar("act", 0)

i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
# pads left 2, right 1, top 1, bottom 1; stride 2x2; filter 3 wide x 2 high
Model("explicit").Operation("L2_POOL_2D", i1, 2, 1, 1, 1, 2, 2, 3, 2, act, layout).To(o1)
Example({
    i1: [1.0, -2.0, 3.5, 0.5, -1.5, 4.0, 2.0, 6.5,
         0.0, 2.5, 5.0, -3.0, 4.5, 1.0, -0.5, 3.0,
         7.0, -1.0, 2.5, 5.5, -4.0, 0.5, 6.0, 2.5,
         -2.5, 3.0, 1.5, 4.5, 8.0, -1.5, 0.5, -3.5,
         3.5, 1.0, -1.0, 2.0, 5.5, 0.0, 2.5, 7.5,
         -0.5, 6.0, 4.0, -2.0, 1.0, 3.5, 9.0, 2.0],
    o1: [1.0, 2.0, 2.27303, 2.598076, 1.767767, 5.396758,
         4.949747, 1.903943, 4.406435, 2.821052, 4.257347, 2.03101,
         2.5, 3.0, 4.91596, 3.24037, 5.667892, 2.692582,
         2.5, 4.301163, 3.181981, 3.088959, 5.442885, 4.257347],
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16").AddVariations(("relu6", [o1, act]), ("relu1", [o1, act]), includeDefault=False)

i2 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
# implicit SAME, stride 2x2, filter 3 wide x 2 high
Model("same").Operation("L2_POOL_2D", i2, 1, 2, 2, 3, 2, 0, layout).To(o2)
Example({
    i2: [2.0, -1.0, 4.5, 3.0,
         -3.5, 6.0, 0.5, 1.0,
         5.0, 2.5, -2.0, 7.5,
         1.5, -4.5, 3.5, 0.0,
         -1.0, 4.0, 8.5, -2.5],
    o2: [3.505947, 2.76134, 3.41565, 4.257347, 5.454356, 6.264982],
}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16")

i3 = Input("in", "TENSOR_FLOAT32", "{1, 3, 3, 3}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 3}")
# VALID, the filter covers the image
Model("valid").Operation("L2_POOL_2D", i3, 2, 1, 1, 3, 3, 0, layout).To(o3)
Example({
    i3: [-6.5 + 0.5 * k for k in range(27)],
    o3: [3.905125, 3.872983, 3.905125],
}).AddNchw(i3, o3, layout).AddVariations("relaxed", "float16")

# The HAL 1.0 forms (no layout input) in float16: implicit SAME as above, and
# the global pooling through explicit zero padding.
i5 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("same_no_layout").Operation("L2_POOL_2D", i5, 1, 2, 2, 3, 2, 0).To(o5)
Example({
    i5: [2.0, -1.0, 4.5, 3.0,
         -3.5, 6.0, 0.5, 1.0,
         5.0, 2.5, -2.0, 7.5,
         1.5, -4.5, 3.5, 0.0,
         -1.0, 4.0, 8.5, -2.5],
    o5: [3.505947, 2.76134, 3.41565, 4.257347, 5.454356, 6.264982],
}).AddVariations("float16", includeDefault=False)

i6 = Input("in", "TENSOR_FLOAT32", "{1, 3, 3, 3}")
o6 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 3}")
Model("explicit_no_layout").Operation("L2_POOL_2D", i6, 0, 0, 0, 0, 1, 1, 3, 3, 0).To(o6)
Example({
    i6: [-6.5 + 0.5 * k for k in range(27)],
    o6: [3.905125, 3.872983, 3.905125],
}).AddVariations("float16", includeDefault=False)
