# HEATMAP_MAX_KEYPOINT with a TENSOR_QUANT8_ASYMM_SIGNED heatmap and score output (HAL
# 1.3; the score has a quantization of its own); boxes and keypoints stay
# TENSOR_QUANT16_ASYMM at 0.125 with zero point 0 (Android 11, not the HAL text's -128).
# Three boxes, 3x3 heatmaps, one keypoint: maxima on the top edge and on the left edge
# (the neighbours past them mirrored) and one in the middle; NHWC and NCHW. Heatmap at
# (0.5, -10) and (0.25, 100); scores at (0.125, -80) and at (0.125, 90), where the
# scores above 4.625 saturate at 127.
# Golden values: conformance/specs/oracles/signed_b_oracle.py, case heatmap (every score
# and keypoint coordinate lies at least 0.02 of a step from a rounding tie at 0.125; the
# heatmap holds multiples of 0.5).
layout = BoolScalar("layout", False)  # NHWC
heatmap = Input("heatmap", "TENSOR_FLOAT32", "{3, 3, 3, 1}")
boxes = Input("boxes", "TENSOR_FLOAT32", "{3, 4}")
score = Output("score", "TENSOR_FLOAT32", "{3, 1}")
keypoint = Output("keypoint", "TENSOR_FLOAT32", "{3, 1, 2}")
Model().Operation("HEATMAP_MAX_KEYPOINT", heatmap, boxes, layout).To(score, keypoint)


def signed(name, heatmap_quant, score_quant):
    return DataTypeConverter(name=name).Identify({
        heatmap: ("TENSOR_QUANT8_ASYMM_SIGNED",) + heatmap_quant,
        boxes: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        score: ("TENSOR_QUANT8_ASYMM_SIGNED",) + score_quant,
        keypoint: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    })


Example({
    heatmap: [
        0.5, 3.0, 1.5, 2.0, -1.0, 0.0, -0.5, 1.0, 0.0, 1.0, 2.5, 4.0, 6.5, 5.0, 3.5,
        2.0, 1.5, 0.5, 3.0, 1.0, 2.0, 4.0, 6.0, 2.5, 5.5, 0.0, 1.0
    ],
    boxes: [0.0, 0.0, 6.0, 6.0, 2.0, 1.0, 8.0, 4.0, 1.0, 3.0, 4.0, 9.0],
    score: [3.03125, 6.5125, 6.057808],
    keypoint: [3.25, 1.0, 3.0, 2.55, 2.369213, 5.929898],
}).AddNchw(heatmap, layout).AddVariations(
    signed("signed_a", (0.5, -10), (0.125, -80)),
    signed("signed_saturating", (0.25, 100), (0.125, 90)), includeDefault=False)
