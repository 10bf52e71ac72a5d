# RESIZE_BILINEAR in HAL 1.2: the layout input (NHWC and NCHW), the size given as
# INT32 sizes or as FLOAT32/FLOAT16 scales (new size = floor(size * scale), and
# the sampling ratio stays size / new size), float16, relaxed and quant8 (the
# output carries the input's scale 0.5, zero point 30). Golden values:
# conformance/specs/oracles/pooling_oracle.py, case resize_bilinear (the data of
# V1_0/resize_bilinear.mod.py). Quant8 expectations round the oracle's values;
# Android 10's kernel truncates its interpolation instead, within the tolerance of 1.
layout = BoolScalar("layout", False)  # NHWC
up_in = [1.0, 10.0, 2.0, 20.0, 4.0, 40.0,
         3.0, 30.0, 6.0, 60.0, 5.0, 50.0,
         -2.0, 0.0, 2.0, 8.0, 0.0, 16.0,
         6.0, 4.0, -6.0, 12.0, 4.0, 0.0]
up_out = [1.0, 10.0, 1.6, 16.0, 2.4, 24.0, 3.6, 36.0, 4.0, 40.0,
          2.333333, 23.33333, 3.733333, 37.33333, 4.666667, 46.66667, 4.666667, 46.66667, 4.666667, 46.66667,
          3.0, 30.0, 4.8, 48.0, 5.8, 58.0, 5.2, 52.0, 5.0, 50.0,
          -2.0, 0.0, 0.4, 4.8, 1.6, 9.6, 0.4, 14.4, 0.0, 16.0,
          3.333333, 2.666667, -0.6666667, 7.466667, -2.133333, 9.6, 1.466667, 6.4, 2.666667, 5.333333,
          6.0, 4.0, -1.2, 8.8, -4.0, 9.6, 2.0, 2.4, 4.0, 0.0]


def quant8(i, o):
    return DataTypeConverter().Identify({
        i: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
        o: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
    })


# up, by size: [2, 2, 3, 2] -> [2, 3, 5, 2]
i1 = Input("in", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 3, 5, 2}")
Model("up").Operation("RESIZE_BILINEAR", i1, 5, 3, layout).To(o1)
Example({i1: up_in, o1: up_out}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16", quant8(i1, o1))

# up, by scale: width 3 * 1.75 -> 5, height 2 * 1.5 -> 3: the same output.
i2 = Input("in", "TENSOR_FLOAT32", "{2, 2, 3, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 3, 5, 2}")
Model("up_scale").Operation("RESIZE_BILINEAR", i2, 1.75, 1.5, layout).To(o2)
Example({i2: up_in, o2: up_out}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16", quant8(i2, o2))

# down, by scale: width 4 * 0.5 -> 2, height 4 * 0.75 -> 3 (see the V1_0 spec).
i3 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("down_scale").Operation("RESIZE_BILINEAR", i3, 0.5, 0.75, layout).To(o3)
Example({
    i3: [3.0 * k for k in range(16)],
    o3: [0.0, 6.0, 16.0, 22.0, 32.0, 38.0],
}).AddNchw(i3, o3, layout).AddVariations("relaxed", "float16", quant8(i3, o3))

# No layout input: the HAL 1.0 form with the 1.2 types, and the scale form.
i4 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o4 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("down_no_layout").Operation("RESIZE_BILINEAR", i4, 2, 3).To(o4)
Example({
    i4: [3.0 * k for k in range(16)],
    o4: [0.0, 6.0, 16.0, 22.0, 32.0, 38.0],
}).AddVariations("float16", quant8(i4, o4), includeDefault=False)

i5 = Input("in", "TENSOR_FLOAT32", "{1, 4, 4, 1}")
o5 = Output("out", "TENSOR_FLOAT32", "{1, 3, 2, 1}")
Model("down_scale_no_layout").Operation("RESIZE_BILINEAR", i5, 0.5, 0.75).To(o5)
Example({
    i5: [3.0 * k for k in range(16)],
    o5: [0.0, 6.0, 16.0, 22.0, 32.0, 38.0],
}).AddVariations("float16", quant8(i5, o5))
