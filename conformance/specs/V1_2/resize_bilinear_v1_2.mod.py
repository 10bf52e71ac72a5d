# RESIZE_BILINEAR in HAL 1.2: the layout input (NHWC and NCHW), the size given as
# INT32 sizes or as FLOAT32/FLOAT16 scales (new size = floor(size * scale), and
# the sampling ratio stays size / new size), float16, relaxed and quant8 (the
# output carries the input's scale 0.5, zero point 30). Golden values:
# conformance/specs/oracles/pooling_oracle.py, cases resize_bilinear_v1_2 (the
# upscales) and resize_bilinear (the downscales, the data of
# V1_0/resize_bilinear.mod.py). Quant8 expectations are the oracle's values rounded
# by the generator; Android 10's kernel truncates its float32 interpolation of the
# raw bytes instead, and newer kernels round. The upscale data is chosen so that all
# of these agree on every element (each result is a whole byte or 0.2, 1/3 or 0.4
# of a step above one, never near a half), which the oracle checks; every downscale
# result is a whole byte.
layout = BoolScalar("layout", False)  # NHWC
up_in = [4.5, 58.0, 8.0, 19.0, 10.5, 26.5,
         10.0, 48.5, -3.0, 53.0, 7.0, 53.0,
         9.5, 28.0, 23.0, 44.0, 48.0, 46.5,
         -9.0, 50.0, 25.5, 4.5, 35.5, 52.0]
up_out = [4.5, 58.0, 6.6, 34.6, 8.5, 20.5, 10.0, 25.0, 10.5, 26.5,
          8.166667, 51.66667, 3.666667, 45.66667, 2.166667, 42.16667, 6.666667, 43.66667, 8.166667, 44.16667,
          10.0, 48.5, 2.2, 51.2, -1.0, 53.0, 5.0, 53.0, 7.0, 53.0,
          9.5, 28.0, 17.6, 37.6, 28.0, 44.5, 43.0, 46.0, 48.0, 46.5,
          -2.833333, 42.66667, 13.66667, 27.66667, 27.66667, 24.16667, 36.66667, 43.66667, 39.66667, 50.16667,
          -9.0, 50.0, 11.7, 22.7, 27.5, 14.0, 33.5, 42.5, 35.5, 52.0]

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
