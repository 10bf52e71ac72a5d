# RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR with TENSOR_QUANT8_ASYMM_SIGNED input and
# output and HAL 1.3's optional inputs 4 (align_corners) and 5 (half_pixel_centers),
# after the layout; sizes as INT32 or as FLOAT32 scales, NHWC and NCHW; the output has
# the input's quantization. Zero points from -125 to 110; RESIZE_NEAREST_NEIGHBOR also
# with values that saturate at -128 and 127 (a copy saturates as its input did).
# align_corners: scale (size - 1) / (new - 1); half_pixel_centers: cell i samples
# (i + 0.5) * scale (- 0.5 for bilinear, clamped to the image); nearest rounds half away
# from zero with align_corners, else floors.
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases
# resize_bilinear_align, resize_bilinear_half_pixel, resize_bilinear_half_pixel_down,
# resize_nearest_align, resize_nearest_half_pixel and resize_nearest_align_scale
# (pooling_oracle.resize13's exact fractions). Every bilinear output is a multiple of 0.5
# (weights of quarters on multiples of 2, of sixteenths on multiples of 8), exact at the
# scales used: how a driver rounds or truncates a blend never matters.
layout = BoolScalar("layout", False)  # NHWC


def signed(name, i, o, scale, zero_point):
    return DataTypeConverter(name=name).Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
    })


def resize(op, name, in_dims, out_dims, sizes, flags, values, expected, quantizations):
    i = Input("input", "TENSOR_FLOAT32", in_dims)
    o = Output("output", "TENSOR_FLOAT32", out_dims)
    Model(name).Operation(op, i, *sizes, layout, *flags).To(o)
    Example({i: values, o: expected}).AddNchw(i, o, layout).AddVariations(
        *[signed(n, i, o, s, z) for n, s, z in quantizations], includeDefault=False)


# 1. Bilinear [1, 3, 3, 1] -> [1, 5, 5, 1] (width 5, height 5), align_corners alone.
resize("RESIZE_BILINEAR", "bilinear_align_corners", "{1, 3, 3, 1}", "{1, 5, 5, 1}",
       (5, 5), (True,),
       [6, 4, 6, -8, 8, 6, 2, -6, 2],
       [
           6.0, 5.0, 4.0, 5.0, 6.0, -1.0, 2.5, 6.0, 6.0, 6.0, -8.0, 0.0, 8.0, 7.0, 6.0,
           -3.0, -1.0, 1.0, 2.5, 4.0, 2.0, -2.0, -6.0, -2.0, 2.0
       ],
       (("signed_zp0", 0.5, 0), ("signed_low", 0.25, -90), ("signed_high", 0.5, 110)))

# 2. Bilinear [1, 2, 4, 1] -> [1, 4, 8, 1] with half_pixel_centers (align_corners false).
resize("RESIZE_BILINEAR", "bilinear_half_pixel", "{1, 2, 4, 1}", "{1, 4, 8, 1}",
       (8, 4), (False, True),
       [-8, 8, 0, -24, -16, -48, 0, -24],
       [
           -8.0, -4.0, 4.0, 6.0, 2.0, -6.0, -18.0, -24.0, -10.0, -9.0, -7.0, -4.5, -1.5,
           -6.0, -18.0, -24.0, -14.0, -19.0, -29.0, -25.5, -8.5, -6.0, -18.0, -24.0,
           -16.0, -24.0, -40.0, -36.0, -12.0, -6.0, -18.0, -24.0
       ],
       (("signed_zp_neg", 0.5, -30), ("signed_zp_pos", 0.5, 20)))

# 3. Bilinear [1, 4, 4, 2] by scale 0.5 -> [1, 2, 2, 2] with half_pixel_centers.
resize("RESIZE_BILINEAR", "bilinear_half_pixel_scale", "{1, 4, 4, 2}", "{1, 2, 2, 2}",
       (0.5, 0.5), (False, True),
       [
           0, 2, -2, -2, -2, -6, 0, 6, 8, -2, -4, 8, 8, -8, 0, -8, 6, -4, -2, 8, 4, -4,
           2, 2, -6, -6, 8, 0, 8, 6, -2, -2
       ],
       [0.5, 1.5, 1.5, -4.0, 1.5, -0.5, 3.0, 0.5],
       (("signed_zp_neg", 0.25, -64), ("signed_zp_pos", 0.5, 100)))

# 4. Nearest [1, 3, 4, 1] -> [1, 4, 6, 1] (width 6, height 4), align_corners, both flags
#    given.
resize("RESIZE_NEAREST_NEIGHBOR", "nearest_align_corners", "{1, 3, 4, 1}", "{1, 4, 6, 1}",
       (6, 4), (True, False),
       [-3.0, -4.5, -1.5, 4.5, 5.5, -2.0, 5.5, 0.5, -5.5, 4.0, -4.0, 4.0],
       [
           -3.0, -4.5, -4.5, -1.5, -1.5, 4.5, 5.5, -2.0, -2.0, 5.5, 5.5, 0.5, 5.5, -2.0,
           -2.0, 5.5, 5.5, 0.5, -5.5, 4.0, 4.0, -4.0, -4.0, 4.0
       ],
       (("signed_zp0", 0.5, 0), ("signed_saturating_high", 0.25, 110),
        ("signed_saturating_low", 0.5, -125)))

# 5. Nearest [1, 3, 3, 2] -> [1, 2, 2, 2] with half_pixel_centers.
resize("RESIZE_NEAREST_NEIGHBOR", "nearest_half_pixel", "{1, 3, 3, 2}", "{1, 2, 2, 2}",
       (2, 2), (False, True),
       [
           -4.0, 1.0, -0.5, 3.5, -3.5, -2.5, -2.5, 5.5, 5.0, 1.5, -4.0, -5.0, -0.5,
           -6.0, -3.0, -4.5, 5.5, 1.5
       ],
       [-4.0, 1.0, -3.5, -2.5, -0.5, -6.0, 5.5, 1.5],
       (("signed_zp_neg", 0.5, -7), ("signed_saturating_high", 0.125, 90)))

# 6. Nearest [1, 2, 3, 2] by scale 2 -> [1, 4, 6, 2], align_corners alone.
resize("RESIZE_NEAREST_NEIGHBOR", "nearest_align_corners_scale", "{1, 2, 3, 2}",
       "{1, 4, 6, 2}", (2.0, 2.0), (True,),
       [-2.0, 0.0, 2.5, 5.0, 0.5, -0.5, -0.5, 2.5, 0.0, -0.5, -6.0, 2.5],
       [
           -2.0, 0.0, -2.0, 0.0, 2.5, 5.0, 2.5, 5.0, 0.5, -0.5, 0.5, -0.5, -2.0, 0.0,
           -2.0, 0.0, 2.5, 5.0, 2.5, 5.0, 0.5, -0.5, 0.5, -0.5, -0.5, 2.5, -0.5, 2.5,
           0.0, -0.5, 0.0, -0.5, -6.0, 2.5, -6.0, 2.5, -0.5, 2.5, -0.5, 2.5, 0.0, -0.5,
           0.0, -0.5, -6.0, 2.5, -6.0, 2.5
       ],
       (("signed_zp_pos", 0.5, 33), ("signed_saturating_low", 0.25, -110)))

# 7. Bilinear case 1 by scale 1.75 (3 * 1.75 -> 5 both ways), align_corners alone.
resize("RESIZE_BILINEAR", "bilinear_align_corners_scale", "{1, 3, 3, 1}", "{1, 5, 5, 1}",
       (1.75, 1.75), (True,),
       [6, 4, 6, -8, 8, 6, 2, -6, 2],
       [
           6.0, 5.0, 4.0, 5.0, 6.0, -1.0, 2.5, 6.0, 6.0, 6.0, -8.0, 0.0, 8.0, 7.0, 6.0,
           -3.0, -1.0, 1.0, 2.5, 4.0, 2.0, -2.0, -6.0, -2.0, 2.0
       ],
       (("signed_zp_neg", 0.5, -50),))

# 8. Nearest case 4 with align_corners alone (5 inputs), and case 5 by scale 0.75
#    (3 * 0.75 -> 2) with both flags given.
resize("RESIZE_NEAREST_NEIGHBOR", "nearest_align_corners_only", "{1, 3, 4, 1}",
       "{1, 4, 6, 1}", (6, 4), (True,),
       [-3.0, -4.5, -1.5, 4.5, 5.5, -2.0, 5.5, 0.5, -5.5, 4.0, -4.0, 4.0],
       [
           -3.0, -4.5, -4.5, -1.5, -1.5, 4.5, 5.5, -2.0, -2.0, 5.5, 5.5, 0.5, 5.5, -2.0,
           -2.0, 5.5, 5.5, 0.5, -5.5, 4.0, 4.0, -4.0, -4.0, 4.0
       ],
       (("signed_saturating_low", 0.25, -120),))
resize("RESIZE_NEAREST_NEIGHBOR", "nearest_half_pixel_scale", "{1, 3, 3, 2}", "{1, 2, 2, 2}",
       (0.75, 0.75), (False, True),
       [
           -4.0, 1.0, -0.5, 3.5, -3.5, -2.5, -2.5, 5.5, 5.0, 1.5, -4.0, -5.0, -0.5,
           -6.0, -3.0, -4.5, 5.5, 1.5
       ],
       [-4.0, 1.0, -3.5, -2.5, -0.5, -6.0, 5.5, 1.5],
       (("signed_zp_pos", 0.5, 9),))
