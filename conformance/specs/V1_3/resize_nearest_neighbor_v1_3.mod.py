# RESIZE_NEAREST_NEIGHBOR with HAL 1.3's optional inputs 4 (align_corners) and 5
# (half_pixel_centers), after the layout; NHWC and NCHW, sizes as INT32 or as scales,
# float32, relaxed, float16 and quant8 (scale 0.5, zero point 30, in and out).
# align_corners: the scale is (size - 1) / (new - 1) and the source index is
# index * scale rounded half away from zero; half_pixel_centers: the source index is
# floor((index + 0.5) * scale); either way at most size - 1.
# Golden values: conformance/specs/oracles/pooling_oracle.py, case
# resize_nearest_neighbor_v1_3 (section "HAL 1.3"). By hand: align_corners on
# [1, 2, 3, 2] -> [1, 3, 5, 2] reads rows round(0, 0.5, 1) = 0, 1, 1 and columns
# round(0, 0.5, 1, 1.5, 2) = 0, 1, 1, 2, 2 (0.5 and 1.5 round up); half_pixel_down
# reads rows and columns floor((0.5, 1.5) * 2) = 1, 3 of the ramp 2k: 10, 14, 26, 30;
# align_corners_down reads the corners; flags_false reads cells 0 and 2 (HAL 1.2).
layout = BoolScalar("layout", False)  # NHWC
image = [0.0, 20.0, 8.0, 2.0, 4.0, 10.0,
         12.0, -4.0, 2.0, 14.0, 6.0, 8.0]
ramp = [2.0 * k for k in range(16)]


def quant8(i, o):
    return DataTypeConverter().Identify({
        i: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
        o: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
    })


def resize(name, in_dims, out_dims, sizes, flags, values, expected):
    i = Input("in", "TENSOR_FLOAT32", in_dims)
    o = Output("out", "TENSOR_FLOAT32", out_dims)
    Model(name).Operation("RESIZE_NEAREST_NEIGHBOR", i, *sizes, layout, *flags).To(o)
    Example({i: values, o: expected}).AddNchw(i, o, layout).AddVariations(
        "relaxed", "float16", quant8(i, o))


resize("align_corners", "{1, 2, 3, 2}", "{1, 3, 5, 2}", (5, 3), (True, False), image,
       [0.0, 20.0, 8.0, 2.0, 8.0, 2.0, 4.0, 10.0, 4.0, 10.0,
        12.0, -4.0, 2.0, 14.0, 2.0, 14.0, 6.0, 8.0, 6.0, 8.0,
        12.0, -4.0, 2.0, 14.0, 2.0, 14.0, 6.0, 8.0, 6.0, 8.0])
# by scale 0.5, half-pixel centers
resize("half_pixel_down", "{1, 4, 4, 1}", "{1, 2, 2, 1}", (0.5, 0.5), (False, True), ramp,
       [10.0, 14.0, 26.0, 30.0])
# align_corners alone (5 inputs)
resize("align_corners_down", "{1, 4, 4, 1}", "{1, 2, 2, 1}", (2, 2), (True,), ramp,
       [0.0, 6.0, 24.0, 30.0])
# align_corners alone, by scale 0.5: floor(4 * 0.5) = 2 cells, the scale (4 - 1) / (2 - 1)
# = 3 reads cells 0 and 3 as align_corners_down does (by hand).
resize("align_corners_by_scale", "{1, 4, 4, 1}", "{1, 2, 2, 1}", (0.5, 0.5), (True,), ramp,
       [0.0, 6.0, 24.0, 30.0])
# [1, 2, 3, 2] -> [1, 4, 6, 2] with half-pixel centers: floor(0.25, 0.75, 1.25, ...)
resize("half_pixel_up", "{1, 2, 3, 2}", "{1, 4, 6, 2}", (6, 4), (False, True), image,
       [0.0, 20.0, 0.0, 20.0, 8.0, 2.0, 8.0, 2.0, 4.0, 10.0, 4.0, 10.0,
        0.0, 20.0, 0.0, 20.0, 8.0, 2.0, 8.0, 2.0, 4.0, 10.0, 4.0, 10.0,
        12.0, -4.0, 12.0, -4.0, 2.0, 14.0, 2.0, 14.0, 6.0, 8.0, 6.0, 8.0,
        12.0, -4.0, 12.0, -4.0, 2.0, 14.0, 2.0, 14.0, 6.0, 8.0, 6.0, 8.0])
# both flags given as false: HAL 1.2's sampling
resize("flags_false", "{1, 4, 4, 1}", "{1, 2, 2, 1}", (2, 2), (False, False), ramp,
       [0.0, 4.0, 16.0, 20.0])
