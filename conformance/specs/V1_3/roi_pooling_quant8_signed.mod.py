# ROI_POOLING with a TENSOR_QUANT8_ASYMM_SIGNED feature map and output (HAL 1.3; the
# output has the feature map's quantization), rois TENSOR_QUANT16_ASYMM at 0.125 with
# zero point 0. Two images of [4, 5, 1], image coordinates twice the map's (ratio 2),
# 2x2 bins, rois whose corners round half away from zero, overlapping bins, a batch index
# per roi; NHWC and NCHW. Features at (0.5, 0), at (0.25, 110) where values above 4.25
# saturate at 127, and at (0.5, -125) where values below -1.5 saturate at -128 (the
# largest of saturated values is the saturated largest).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, case roi_pooling (bin edges
# computed in float32).
layout = BoolScalar("layout", False)  # NHWC
i1 = Input("features", "TENSOR_FLOAT32", "{2, 4, 5, 1}")
r1 = Input("rois", "TENSOR_FLOAT32", "{3, 4}")
b1 = Input("batches", "TENSOR_INT32", "{3}")
o1 = Output("out", "TENSOR_FLOAT32", "{3, 2, 2, 1}")
Model().Operation("ROI_POOLING", i1, r1, b1, 2, 2, 2.0, 2.0, layout).To(o1)


def signed(name, scale, zero_point):
    return DataTypeConverter(name=name).Identify({
        i1: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        r1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        o1: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
    })


Example({
    i1: [
        1.5, 4.5, 3.0, 3.5, -1.5, 5.0, 1.0, 0.5, 6.0, 4.5, -3.5, -0.5, -2.5, 2.0, 1.0,
        -6.0, 0.0, 3.5, -2.5, 5.5, 1.0, 1.0, -2.0, -0.5, -3.0, -2.5, 5.5, 3.5, 4.5, 5.0,
        -3.5, 5.5, 1.0, 2.0, -0.5, 0.5, 3.5, 0.0, -2.0, -6.0
    ],
    r1: [0, 0, 9, 7, 2, 2, 6.5, 5, 4.5, 0, 10, 3.5],
    b1: [1, 0, 1],
    o1: [5.5, 5.0, 5.5, 2.0, 1.0, 6.0, 3.5, 3.5, 4.5, 5.0, 4.5, 5.0],
}).AddNchw(i1, o1, layout).AddVariations(
    signed("signed_zp0", 0.5, 0), signed("signed_saturating_high", 0.25, 110),
    signed("signed_saturating_low", 0.5, -125), includeDefault=False)
