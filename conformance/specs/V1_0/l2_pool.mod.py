# L2_POOL_2D (HAL 1.0: float32, explicit and implicit padding):
# out = sqrt(sum of x^2 over the window's in-image cells / their count).
# Golden values: conformance/specs/oracles/pooling_oracle.py, case l2_pool. By hand:
# out[0, 0, 0, 0] covers one cell, 1.0 -> 1.0; out[0, 0, 1, 0] covers row 0 x
# columns {0, 1, 2}: sqrt((1 + 12.25 + 2.25) / 3) = sqrt(5.1666667) = 2.27303.
act = Int32Scalar("act", 0)

# explicit: pads left 2, right 1, top 1, bottom 1; stride 2x2; filter 3 wide x 2 high.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
Model("explicit").Operation("L2_POOL_2D", i1, 2, 1, 1, 1, 2, 2, 3, 2, act).To(o1)
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
}).AddAllActivations(o1, act)

# same: [1, 5, 4, 1], implicit SAME, stride 2x2, filter 3 wide x 2 high.
i2 = Input("in", "TENSOR_FLOAT32", "{1, 5, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("same").Operation("L2_POOL_2D", i2, 1, 2, 2, 3, 2, 0).To(o2)
Example({
    i2: [2.0, -1.0, 4.5, 3.0,
         -3.5, 6.0, 0.5, 1.0,
         5.0, 2.5, -2.0, 7.5,
         1.5, -4.5, 3.5, 0.0,
         -1.0, 4.0, 8.5, -2.5],
    o2: [3.505947, 2.76134, 3.41565, 4.257347, 5.454356, 6.264982],
})

# valid: VALID, a 3x3 filter over a 3x3 image with 3 channels.
i3 = Input("in", "TENSOR_FLOAT32", "{1, 3, 3, 3}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 1, 1, 3}")
Model("valid").Operation("L2_POOL_2D", i3, 2, 1, 1, 3, 3, 0).To(o3)
Example({
    i3: [-6.5 + 0.5 * k for k in range(27)],
    o3: [3.905125, 3.872983, 3.905125],
})
