# RESIZE_NEAREST_NEIGHBOR (HAL 1.2): output (y, x) copies input
# (min(floor(y * H / newH), H - 1), min(floor(x * W / newW), W - 1)), no corner
# alignment, no half-pixel offset. Sizes as INT32 (width, then height) or as
# FLOAT32/FLOAT16 scales (new size = floor(size * scale)); the layout input is
# required. Float32, float16, relaxed and quant8 (output quantization = input's).
# Golden values: conformance/specs/oracles/pooling_oracle.py, case
# resize_nearest_neighbor. By hand, down_3x2: sources rows floor(0, 4/3, 8/3) =
# 0, 1, 2 and columns 0, 2 of a 4x4 ramp 3k: 0, 6, 12, 18, 24, 30.
layout = BoolScalar("layout", False)  # NHWC
small = [1.0, 10.0, 2.0, 20.0, 4.0, 40.0,
         3.0, 30.0, 6.0, 60.0, 5.0, 50.0,
         -2.0, 0.0, 2.0, 8.0, 0.0, 16.0,
         6.0, 4.0, -6.0, 12.0, 4.0, 0.0]


def quant8(i, o):
    return DataTypeConverter().Identify({
        i: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
        o: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
    })


# up: [2, 2, 3, 2] -> [2, 3, 5, 2]; rows 0, 0, 1 and columns 0, 0, 1, 1, 2.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 3, 5, 2}")
Model("up").Operation("RESIZE_NEAREST_NEIGHBOR", i1, 5, 3, layout).To(o1)
Example({
    i1: small,
    o1: [1.0, 10.0, 1.0, 10.0, 2.0, 20.0, 2.0, 20.0, 4.0, 40.0,
         1.0, 10.0, 1.0, 10.0, 2.0, 20.0, 2.0, 20.0, 4.0, 40.0,
         3.0, 30.0, 3.0, 30.0, 6.0, 60.0, 6.0, 60.0, 5.0, 50.0,
         -2.0, 0.0, -2.0, 0.0, 2.0, 8.0, 2.0, 8.0, 0.0, 16.0,
         -2.0, 0.0, -2.0, 0.0, 2.0, 8.0, 2.0, 8.0, 0.0, 16.0,
         6.0, 4.0, 6.0, 4.0, -6.0, 12.0, -6.0, 12.0, 4.0, 0.0],
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16", quant8(i1, o1))

# down: [1, 4, 4, 1] -> [1, 3, 2, 1] by size.
i2 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("down").Operation("RESIZE_NEAREST_NEIGHBOR", i2, 2, 3, layout).To(o2)
Example({
    i2: [3.0 * k for k in range(16)],
    o2: [0.0, 6.0, 12.0, 18.0, 24.0, 30.0],
}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16", quant8(i2, o2))

# by scale, width 1.5 and height 2.5 (width before height): [2, 2, 3, 2] ->
# [2, 5, 4, 2]; rows floor(y * 2/5) = 0, 0, 0, 1, 1; columns floor(x * 3/4) = 0, 0, 1, 2.
i3 = Input("in", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
o3 = Output("out", "TENSOR_FLOAT32", "{2, 5, 4, 2}")
Model("scale").Operation("RESIZE_NEAREST_NEIGHBOR", i3, 1.5, 2.5, layout).To(o3)
Example({
    i3: small,
    o3: [1.0, 10.0, 1.0, 10.0, 2.0, 20.0, 4.0, 40.0,
         1.0, 10.0, 1.0, 10.0, 2.0, 20.0, 4.0, 40.0,
         1.0, 10.0, 1.0, 10.0, 2.0, 20.0, 4.0, 40.0,
         3.0, 30.0, 3.0, 30.0, 6.0, 60.0, 5.0, 50.0,
         3.0, 30.0, 3.0, 30.0, 6.0, 60.0, 5.0, 50.0,
         -2.0, 0.0, -2.0, 0.0, 2.0, 8.0, 0.0, 16.0,
         -2.0, 0.0, -2.0, 0.0, 2.0, 8.0, 0.0, 16.0,
         -2.0, 0.0, -2.0, 0.0, 2.0, 8.0, 0.0, 16.0,
         6.0, 4.0, 6.0, 4.0, -6.0, 12.0, 4.0, 0.0,
         6.0, 4.0, 6.0, 4.0, -6.0, 12.0, 4.0, 0.0],
}).AddNchw(i3, o3, layout).AddVariations("relaxed", "float16", quant8(i3, o3))
