# AXIS_ALIGNED_BBOX_TRANSFORM with TENSOR_QUANT8_ASYMM_SIGNED deltas (HAL 1.3): rois,
# image sizes and the output stay TENSOR_QUANT16_ASYMM at scale 0.125 with zero point 0.
# Three rois in two images (12x16 and 20x20, batch index per roi), two classes, boxes
# clamped at the image borders; deltas at zero points -10 and 110 (near the top of the
# int8 range), the image sizes as a constant and as an input.
# Golden values: conformance/specs/oracles/signed_b_oracle.py, case bbox (computed in
# double; every output lies at least 0.02 of a step from a rounding tie at 0.125). The
# deltas are multiples of 0.125, exact at the deltas' scale.
rois = Input("rois", "TENSOR_FLOAT32", "{3, 4}")
deltas = Input("deltas", "TENSOR_FLOAT32", "{3, 8}")
batches = Input("batches", "TENSOR_INT32", "{3}")
images = Parameter("image_info", "TENSOR_FLOAT32", "{2, 2}", [12, 16, 20, 20])
out = Output("out", "TENSOR_FLOAT32", "{3, 8}")
Model().Operation("AXIS_ALIGNED_BBOX_TRANSFORM", rois, deltas, batches, images).To(out)


def signed(name, zero_point):
    return DataTypeConverter(name=name).Identify({
        rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        deltas: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, zero_point),
        images: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        out: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    })


Example({
    rois: [1, 2, 9, 6, 0, 0, 4, 12, 10, 4, 18, 20],
    deltas: [
        0.25, -0.5, 0.125, 0.0, -1.0, 0.5, 1.5, -0.25, 0.0, 0.0, -0.5, 0.5, 0.75, 1.0,
        0.0, 1.25, -0.125, 0.375, 0.25, -0.75, 1.0, -1.0, 0.5, 0.25
    ],
    batches: [0, 1, 1],
    out: [
        2.467406, 0.0, 11.53259, 4.0, 0.0, 4.442398, 14.92676, 7.557602, 0.7869387, 0.0,
        3.213061, 15.89233, 3.0, 0.0, 7.0, 20, 7.863898, 14.22107, 18.1361, 20,
        15.40511, 0.0, 20, 6.272203
    ],
}).AddInput(images).AddVariations(
    signed("signed_zp_neg", -10), signed("signed_zp_high", 110), includeDefault=False)
