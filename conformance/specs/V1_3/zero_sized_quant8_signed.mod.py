# Zero-sized TENSOR_QUANT8_ASYMM_SIGNED tensors (HAL 1.3): BOX_WITH_NMS_LIMIT keeps no box
# (the only class-1 score, 0.125, is under the 0.3 threshold), so ROI_ALIGN pools 0 regions
# and the operations after it see a batch of 0: AVERAGE_POOL_2D, MAX_POOL_2D,
# RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR, and FULLY_CONNECTED feeding
# AXIS_ALIGNED_BBOX_TRANSFORM with 0 rois. Each produces an empty output of the right
# shape without computing anything. Scores, features and every 8-bit tensor signed (zero
# points -128 to 100), boxes TENSOR_QUANT16_ASYMM at 0.125 with zero point 0.
# Expected values are empty by definition (no oracle needed).
layout = BoolScalar("layout", False)  # NHWC


def nms_then_align(model, scores, rois, features, zero_sized):
    kept_scores = Output("kept_scores", "TENSOR_FLOAT32", "{0}")
    kept_rois = Internal("kept_rois", "TENSOR_FLOAT32", "{0, 4}")
    kept_classes = Output("kept_classes", "TENSOR_INT32", "{0}")
    kept_batches = Internal("kept_batches", "TENSOR_INT32", "{0}")
    # score threshold 0.3, no detection limit, hard NMS at IoU 0.4, sigma 1, NMS score 0.3
    model.Operation("BOX_WITH_NMS_LIMIT", scores, rois, [0], 0.3, -1, 0, 0.4, 1.0, 0.3).To(
        kept_scores, kept_rois, kept_classes, kept_batches)
    # 2x2 bins, ratios 2, 2 samples per bin
    model.Operation("ROI_ALIGN", features, kept_rois, kept_batches, 2, 2, 2.0, 2.0, 2, 2,
                    layout).To(zero_sized)
    return kept_scores, kept_rois, kept_classes, kept_batches


def zero_sized_model(name, operation, params, out_dims):
    scores = Input("scores", "TENSOR_FLOAT32", "{1, 2}")
    rois = Input("rois", "TENSOR_FLOAT32", "{1, 8}")
    features = Input("features", "TENSOR_FLOAT32", "{1, 1, 1, 1}")
    zero_sized = Internal("zero_sized", "TENSOR_FLOAT32", "{0, 2, 2, 1}")
    out = Output("out", "TENSOR_FLOAT32", out_dims)
    model = Model(name)
    kept_scores, kept_rois, kept_classes, _ = nms_then_align(
        model, scores, rois, features, zero_sized)
    model.Operation(operation, zero_sized, *params).To(out)
    signed = DataTypeConverter(name="signed").Identify({
        scores: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 128, -128),
        rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        kept_scores: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 128, -128),
        kept_rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
        features: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -3),
        zero_sized: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -3),
        out: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -3),
    })
    Example({
        scores: [0.875, 0.125],
        rois: [1.0, 1.0, 10.0, 10.0, 0.0, 0.0, 10.0, 10.0],
        features: [1.0],
        kept_scores: [],
        kept_classes: [],
        out: [],
    }).AddVariations(signed, includeDefault=False)


# explicit padding 0, stride 1, 2x2 filter: [0, 2, 2, 1] -> [0, 1, 1, 1]
zero_sized_model("average_pool", "AVERAGE_POOL_2D", (0, 0, 0, 0, 1, 1, 2, 2, 0, layout),
                 "{0, 1, 1, 1}")
zero_sized_model("max_pool", "MAX_POOL_2D", (0, 0, 0, 0, 1, 1, 2, 2, 0, layout), "{0, 1, 1, 1}")
# [0, 2, 2, 1] -> [0, 3, 3, 1] (width 3, height 3)
zero_sized_model("resize_bilinear", "RESIZE_BILINEAR", (3, 3, layout), "{0, 3, 3, 1}")
zero_sized_model("resize_nearest_neighbor", "RESIZE_NEAREST_NEIGHBOR", (3, 3, layout),
                 "{0, 3, 3, 1}")

# 0 rois through ROI_ALIGN (1x1 bins), FULLY_CONNECTED (batch 0, 8 units) and
# AXIS_ALIGNED_BBOX_TRANSFORM (2 classes): an output of [0, 8].
scores = Input("scores", "TENSOR_FLOAT32", "{1, 2}")
rois = Input("rois", "TENSOR_FLOAT32", "{1, 8}")
features = Input("features", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
images = Input("image_info", "TENSOR_FLOAT32", "{1, 2}")
kept_scores = Output("kept_scores", "TENSOR_FLOAT32", "{0}")
kept_rois = Internal("kept_rois", "TENSOR_FLOAT32", "{0, 4}")
kept_classes = Output("kept_classes", "TENSOR_INT32", "{0}")
kept_batches = Internal("kept_batches", "TENSOR_INT32", "{0}")
pooled = Internal("pooled", "TENSOR_FLOAT32", "{0, 1, 1, 1}")
weights = Parameter("weights", "TENSOR_FLOAT32", "{8, 1}", [0.5] * 8)
bias = Parameter("bias", "TENSOR_FLOAT32", "{8}", [0.0] * 8)
deltas = Internal("deltas", "TENSOR_FLOAT32", "{0, 8}")
out = Output("out", "TENSOR_FLOAT32", "{0, 8}")
Model("bbox_transform").Operation(
    "BOX_WITH_NMS_LIMIT", scores, rois, [0], 0.3, -1, 0, 0.4, 1.0, 0.3).To(
    kept_scores, kept_rois, kept_classes, kept_batches).Operation(
    "ROI_ALIGN", features, kept_rois, kept_batches, 1, 1, 1.0, 1.0, 2, 2, False).To(
    pooled).Operation(
    "FULLY_CONNECTED", pooled, weights, bias, 0).To(deltas).Operation(
    "AXIS_ALIGNED_BBOX_TRANSFORM", kept_rois, deltas, kept_batches, images).To(out)
signed = DataTypeConverter(name="signed").Identify({
    scores: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 64, 0),
    rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    kept_scores: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 64, 0),
    kept_rois: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    features: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 100),
    pooled: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 100),
    weights: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -8),
    bias: ("TENSOR_INT32", 0.25, 0),
    deltas: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -1),
    images: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    out: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
})
Example({
    scores: [0.875, 0.125],
    rois: [1.0, 1.0, 10.0, 10.0, 0.0, 0.0, 10.0, 10.0],
    features: [1.0, 2.0, 3.0, 4.0],
    images: [16.0, 16.0],
    kept_scores: [],
    kept_classes: [],
    out: [],
}).AddVariations(signed, includeDefault=False)
