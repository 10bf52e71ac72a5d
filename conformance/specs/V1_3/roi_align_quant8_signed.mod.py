# ROI_ALIGN with a TENSOR_QUANT8_ASYMM_SIGNED feature map and output (HAL 1.3; the output
# has a quantization of its own), rois TENSOR_QUANT16_ASYMM at 0.125 with zero point 0.
# [1, 4, 4, 2] features, image coordinates twice the map's (ratio 2), 2x2 bins of 2x2
# samples; rois over the whole image, inside it, on its right and bottom edges, and one
# smaller than a cell; NHWC and NCHW. Features at (0.5, -3) and (0.5, 100); the output at
# (0.15, -100) and at (0.15, 120), where results above 1.05 saturate at 127.
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases roi_align and
# roi_align_batches. The oracle also runs the integer path of docs/operations.md,
# ROI_ALIGN, on the unsigned twin of each quantization (zero points + 128) and checks that
# it gives the generator's bytes (+ 128), no output within 0.02 of a step from a tie.
layout = BoolScalar("layout", False)  # NHWC
i1 = Input("features", "TENSOR_FLOAT32", "{1, 4, 4, 2}")
r1 = Input("rois", "TENSOR_FLOAT32", "{4, 4}")
b1 = Input("batches", "TENSOR_INT32", "{4}")
o1 = Output("out", "TENSOR_FLOAT32", "{4, 2, 2, 2}")
Model().Operation("ROI_ALIGN", i1, r1, b1, 2, 2, 2.0, 2.0, 2, 2, layout).To(o1)


def signed(name, feature_zero_point, out_zero_point):
    return DataTypeConverter(name=name).Identify({
        i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, feature_zero_point),
        r1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.15, out_zero_point),
    })


Example({
    i1: [
        -1.0, 1.0, 3.5, -1.0, 2.0, 2.5, -1.5, -1.0, 2.5, -0.5, -1.5, 3.0, 2.5, 2.0, 0.0,
        2.0, -0.5, 1.5, 3.5, -3.5, 1.0, -0.5, 3.0, 2.5, -3.0, 2.5, 4.0, -2.5, 0.5, -2.5,
        1.0, 3.0
    ],
    r1: [0, 0, 8, 8, 2, 1, 7, 6, 5, 4, 8, 8, 1, 2, 1.5, 2.25],
    b1: [0, 0, 0, 0],
    o1: [
        1.21875, 0.65625, 0.78125, 1.40625, 1.5, -1.3125, 1.28125, 1.65625, 1.351562,
        1.388672, 0.8676758, 1.756348, 1.890625, -1.953125, 1.935547, 1.826172,
        1.804688, 2.085938, 2.0, 2.75, 0.921875, 2.140625, 1.0, 3.0, 0.25, 1.03125,
        0.34375, 1.375, 1.75, -1.15625, 2.03125, -1.375
    ],
}).AddNchw(i1, o1, layout).AddVariations(
    signed("signed_a", -3, -100), signed("signed_saturating", 100, 120), includeDefault=False)

# 2. Two images of [3, 4, 1], height ratio 1, width ratio 2, 2x3 bins, adaptive sampling
#    (0: ceil of the bin size per axis), rois in images 0, 1, 1 (oracle case
#    roi_align_batches). Features at (0.5, -20) and (0.5, 60); the output at (0.07, -88),
#    where results below -2.8 saturate at -128, and at (0.125, 10).
i2 = Input("features", "TENSOR_FLOAT32", "{2, 3, 4, 1}")
r2 = Input("rois", "TENSOR_FLOAT32", "{3, 4}")
b2 = Input("batches", "TENSOR_INT32", "{3}")
o2 = Output("out", "TENSOR_FLOAT32", "{3, 2, 3, 1}")
Model("batches").Operation("ROI_ALIGN", i2, r2, b2, 2, 3, 1.0, 2.0, 0, 0, layout).To(o2)


def signed2(name, feature_zero_point, out_scale, out_zero_point):
    return DataTypeConverter(name=name).Identify({
        i2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, feature_zero_point),
        r2: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        o2: ("TENSOR_QUANT8_ASYMM_SIGNED", out_scale, out_zero_point),
    })


Example({
    i2: [
        -4.0, 0.0, -4.0, 3.5, 1.5, -0.5, 2.5, -4.0, -3.0, 0.5, -2.0, 0.5, 3.5, 0.5, 0.5,
        2.5, 1.0, 2.0, -1.0, 3.0, 2.0, 0.5, -3.5, 4.0
    ],
    r2: [0, 0, 8, 3, 2, 0.5, 6, 2.5, 1, 1, 3, 3],
    b2: [0, 1, 1],
    o2: [
        -0.3541667, -0.1510417, -1.375, -0.6145833, -1.036458, 0.21875, 1, -1, 1.666667,
        -0.8333333, -3.5, 1.5, 1.333333, 1.25, 0.08333333, 1.0, 0.5, -0.8333333
    ],
}).AddNchw(i2, o2, layout).AddVariations(
    signed2("signed_saturating", -20, 0.07, -88), signed2("signed_b", 60, 0.125, 10),
    includeDefault=False)
