# RESIZE_BILINEAR with HAL 1.3's optional inputs 4 (align_corners) and 5
# (half_pixel_centers), after the layout; NHWC and NCHW, sizes as INT32 or as scales,
# float32, relaxed, float16 and quant8 (scale 0.5, zero point 30, in and out).
# align_corners: the scale is (size - 1) / (new - 1), so the corners map to the corners;
# half_pixel_centers: output cell i samples (i + 0.5) * scale - 0.5, clamped to the
# image (a coordinate before cell 0 or past the last cell reads that cell alone). Every
# result is a multiple of 0.5, a whole quant8 step: truncation and rounding agree.
# Golden values: conformance/specs/oracles/pooling_oracle.py, case
# resize_bilinear_v1_3 (section "HAL 1.3"). By hand: half_pixel_down samples
# (0.5, 0.5), so output (0, 0) is the mean of 0, 2, 8 and 10 = 5; align_corners_down
# reads the four corners 0, 6, 24, 30; flags_false (both given, false) reads cells
# 0 and 2 of each axis as HAL 1.2 does: 0, 4, 16, 20.
layout = BoolScalar("layout", False)  # NHWC
image = [0.0, 20.0, 8.0, 2.0, 4.0, 10.0,
         12.0, -4.0, 2.0, 14.0, 6.0, 8.0]
align_out = [0.0, 20.0, 4.0, 11.0, 8.0, 2.0, 6.0, 6.0, 4.0, 10.0,
             6.0, 8.0, 5.5, 8.0, 5.0, 8.0, 5.0, 8.5, 5.0, 9.0,
             12.0, -4.0, 7.0, 5.0, 2.0, 14.0, 4.0, 11.0, 6.0, 8.0]
ramp = [2.0 * k for k in range(16)]


def quant8(i, o):
    return DataTypeConverter().Identify({
        i: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
        o: ("TENSOR_QUANT8_ASYMM", 0.5, 30),
    })


def resize(name, in_dims, out_dims, sizes, flags, values, expected):
    i = Input("in", "TENSOR_FLOAT32", in_dims)
    o = Output("out", "TENSOR_FLOAT32", out_dims)
    Model(name).Operation("RESIZE_BILINEAR", i, *sizes, layout, *flags).To(o)
    Example({i: values, o: expected}).AddNchw(i, o, layout).AddVariations(
        "relaxed", "float16", quant8(i, o))


# [1, 2, 3, 2] -> [1, 3, 5, 2] with align_corners (scales 1/2 and 1/2), half-pixel false
resize("align_corners", "{1, 2, 3, 2}", "{1, 3, 5, 2}", (5, 3), (True, False), image, align_out)
# the same by scale (width 3 * 1.75 -> 5, height 2 * 1.5 -> 3), align_corners alone
resize("align_corners_scale", "{1, 2, 3, 2}", "{1, 3, 5, 2}", (1.75, 1.5), (True,), image,
       align_out)
# [1, 2, 2, 1] -> [1, 4, 4, 1] with half-pixel centers: coordinates -0.25, 0.25, 0.75, 1.25
resize("half_pixel_up", "{1, 2, 2, 1}", "{1, 4, 4, 1}", (4, 4), (False, True),
       [0.0, 16.0, 40.0, 8.0],
       [0.0, 4.0, 12.0, 16.0, 10.0, 11.0, 13.0, 14.0,
        30.0, 25.0, 15.0, 10.0, 40.0, 32.0, 16.0, 8.0])
# [1, 4, 4, 1] -> [1, 2, 2, 1] by scale 0.5 with half-pixel centers
resize("half_pixel_down", "{1, 4, 4, 1}", "{1, 2, 2, 1}", (0.5, 0.5), (False, True), ramp,
       [5.0, 9.0, 21.0, 25.0])
# [1, 4, 4, 1] -> [1, 2, 2, 1] with align_corners alone (scale 3)
resize("align_corners_down", "{1, 4, 4, 1}", "{1, 2, 2, 1}", (2, 2), (True,), ramp,
       [0.0, 6.0, 24.0, 30.0])
# both flags given as false: HAL 1.2's sampling
resize("flags_false", "{1, 4, 4, 1}", "{1, 2, 2, 1}", (2, 2), (False, False), ramp,
       [0.0, 4.0, 16.0, 20.0])
