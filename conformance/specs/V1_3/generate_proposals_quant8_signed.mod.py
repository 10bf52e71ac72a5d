# GENERATE_PROPOSALS with TENSOR_QUANT8_ASYMM_SIGNED scores and deltas (HAL 1.3): the
# output scores keep the input scores' quantization; anchors stay TENSOR_QUANT16_SYMM at
# 0.125, image sizes and output boxes TENSOR_QUANT16_ASYMM at 0.125 with zero point 0.
# Two images (8x10 and 10x6) of a 2x2 map with 2 anchors, strides 4, the best 3 scores
# per image enter hard NMS at IoU 0.5, at most 2 proposals per image, min size 1, boxes
# clipped to the image; NHWC and NCHW. Scores at (1/16, -8) and (1/256, -128), deltas
# at (0.05, 0) and (0.1, 50).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, case proposals (scores are
# multiples of 1/16 and deltas of 0.1, exact at every scale used; every output box
# coordinate lies at least 0.02 of a step from a rounding tie at 0.125).
layout = BoolScalar("layout", False)  # NHWC
s = Input("scores", "TENSOR_FLOAT32", "{2, 2, 2, 2}")
d = Input("deltas", "TENSOR_FLOAT32", "{2, 2, 2, 8}")
a = Input("anchors", "TENSOR_FLOAT32", "{2, 4}")
i = Input("image_info", "TENSOR_FLOAT32", "{2, 2}")
os = Output("scores_out", "TENSOR_FLOAT32", "{4}")
orois = Output("rois_out", "TENSOR_FLOAT32", "{4, 4}")
ob = Output("batches_out", "TENSOR_INT32", "{4}")
Model().Operation("GENERATE_PROPOSALS", s, d, a, i, 4.0, 4.0, 3, 2, 0.5, 1.0, layout).To(
    os, orois, ob)


def signed(name, score_quant, delta_quant):
    return DataTypeConverter(name=name).Identify({
        s: ("TENSOR_QUANT8_ASYMM_SIGNED",) + score_quant,
        d: ("TENSOR_QUANT8_ASYMM_SIGNED",) + delta_quant,
        a: ("TENSOR_QUANT16_SYMM", 0.125, 0),
        i: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        os: ("TENSOR_QUANT8_ASYMM_SIGNED",) + score_quant,
        orois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    })


Example({
    s: [
        0.5, 0.25, 0.75, 0.875, 0.125, 0.625, 0.375, 0.0, 0.8125, 0.4375, 0.1875,
        0.6875, 0.5625, 0.3125, 0.9375, 0.0625
    ],
    d: [
        0.0, 0.1, 0.2, -0.1, 0.1, 0.0, 0.0, 0.3, -0.2, 0.0, 0.1, 0.1, 0.0, -0.3, -0.2,
        0.0, 0.3, 0.1, 0.0, 0.0, 0.0, 0.2, 0.1, -0.2, 0.1, -0.1, -0.3, 0.2, 0.2, 0.0,
        0.0, 0.1, 0.0, 0.0, 0.4, 0.0, -0.1, 0.1, 0.0, 0.0, 0.2, 0.2, 0.0, -0.1, 0.0,
        0.0, 0.2, 0.2, -0.1, 0.0, 0.0, 0.0, 0.1, -0.2, 0.3, 0.1, 0.0, 0.3, 0.1, 0.0,
        -0.3, 0.0, 0.0, -0.1
    ],
    a: [0.0, 0.0, 4.0, 2.0, -1.0, -2.0, 3.0, 6.0],
    i: [8.0, 10.0, 10.0, 6.0],
    os: [0.875, 0.75, 0.9375, 0.8125],
    orois: [
        3.362538, 0.0, 6.637462, 3.6, 2.989658, 0.0, 7.410342, 2.105171, 3.789658, 4.6,
        6.0, 6.6, 0.0, 0.0, 4.983649, 2.0
    ],
    ob: [0, 0, 1, 1],
}).AddNchw(s, d, layout).AddVariations(
    signed("signed_a", (1.0 / 16, -8), (0.05, 0)),
    signed("signed_b", (1.0 / 256, -128), (0.1, 50)), includeDefault=False)
