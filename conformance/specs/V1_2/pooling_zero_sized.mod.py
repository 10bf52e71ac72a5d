# Zero-sized batches (HAL 1.2): AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D,
# RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR and SOFTMAX accept a batch of 0 and
# produce an empty output of the right shape without computing anything.
# A zero-sized tensor can only come out of an operation: BOX_WITH_NMS_LIMIT keeps
# no box (the only class-1 score, 0.1, is under the 0.3 threshold), so ROI_ALIGN
# pools 0 regions into a [0, 2, 2, 1] tensor fed to the operation under test.
# Expected values are empty by definition (no oracle needed).
layout = BoolScalar("layout", False)  # NHWC


def zero_sized_model(name, operation, params, out_dims, out_quant=(0.1, 128)):
    scores = Input("scores", "TENSOR_FLOAT32", "{1, 2}")
    rois = Input("rois", "TENSOR_FLOAT32", "{1, 8}")
    kept_scores = Output("kept_scores", "TENSOR_FLOAT32", "{0}")
    kept_rois = Internal("kept_rois", "TENSOR_FLOAT32", "{0, 4}")
    kept_classes = Output("kept_classes", "TENSOR_INT32", "{0}")
    kept_batches = Internal("kept_batches", "TENSOR_INT32", "{0}")
    features = Input("features", "TENSOR_FLOAT32", "{1, 1, 1, 1}")
    zero_sized = Internal("zero_sized", "TENSOR_FLOAT32", "{0, 2, 2, 1}")
    out = Output("out", "TENSOR_FLOAT32", out_dims)
    model = Model(name)
    # score threshold 0.3, no detection limit, hard NMS at IoU 0.4, sigma 1, NMS score 0.3
    model.Operation("BOX_WITH_NMS_LIMIT", scores, rois, [0], 0.3, -1, 0, 0.4, 1.0, 0.3).To(
        kept_scores, kept_rois, kept_classes, kept_batches)
    # 2x2 bins, ratios 2, 4 samples per bin
    model.Operation("ROI_ALIGN", features, kept_rois, kept_batches, 2, 2, 2.0, 2.0, 4, 4, layout).To(zero_sized)
    model.Operation(operation, zero_sized, *params).To(out)
    quant8 = DataTypeConverter().Identify({
        scores: ("TENSOR_QUANT8_ASYMM", 0.1, 128),
        rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        kept_scores: ("TENSOR_QUANT8_ASYMM", 0.1, 128),
        kept_rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        features: ("TENSOR_QUANT8_ASYMM", 0.1, 128),
        zero_sized: ("TENSOR_QUANT8_ASYMM", 0.1, 128),
        out: ("TENSOR_QUANT8_ASYMM",) + out_quant,
    })
    example = Example({
        scores: [0.9, 0.1],
        rois: [1.0, 1.0, 10.0, 10.0, 0.0, 0.0, 10.0, 10.0],
        features: [1.0],
        kept_scores: [],
        kept_classes: [],
        out: [],
    })
    return example, quant8


# explicit padding 0, stride 1, 2x2 filter: [0, 2, 2, 1] -> [0, 1, 1, 1]
example, quant8 = zero_sized_model(
    "average_pool", "AVERAGE_POOL_2D", (0, 0, 0, 0, 1, 1, 2, 2, 0, layout), "{0, 1, 1, 1}")
example.AddVariations("relaxed", "float16", quant8)
example, quant8 = zero_sized_model(
    "max_pool", "MAX_POOL_2D", (0, 0, 0, 0, 1, 1, 2, 2, 0, layout), "{0, 1, 1, 1}")
example.AddVariations("relaxed", "float16", quant8)
example, _ = zero_sized_model(
    "l2_pool", "L2_POOL_2D", (0, 0, 0, 0, 1, 1, 2, 2, 0, layout), "{0, 1, 1, 1}")
example.AddVariations("relaxed", "float16")
# implicit SAME, stride 2: [0, 2, 2, 1] -> [0, 1, 1, 1]
example, quant8 = zero_sized_model(
    "average_pool_implicit", "AVERAGE_POOL_2D", (1, 2, 2, 2, 2, 0, layout), "{0, 1, 1, 1}")
example.AddVariations("relaxed", "float16", quant8)
# to 3x3 (width, height): [0, 2, 2, 1] -> [0, 3, 3, 1]
example, quant8 = zero_sized_model(
    "resize_bilinear", "RESIZE_BILINEAR", (3, 3, layout), "{0, 3, 3, 1}")
example.AddVariations("relaxed", "float16", quant8)
example, quant8 = zero_sized_model(
    "resize_nearest_neighbor", "RESIZE_NEAREST_NEIGHBOR", (1.5, 1.5, layout), "{0, 3, 3, 1}")
example.AddVariations("relaxed", "float16", quant8)
# beta 1, last axis: [0, 2, 2, 1] -> [0, 2, 2, 1], quant8 output fixed at 1/256, 0
example, quant8 = zero_sized_model(
    "softmax", "SOFTMAX", (1.0,), "{0, 2, 2, 1}", (1.0 / 256, 0))
example.AddVariations("relaxed", "float16", quant8)
