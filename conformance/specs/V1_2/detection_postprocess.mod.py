# DETECTION_POSTPROCESSING (HAL 1.2): SSD box decoding from anchors (ctr_y, ctr_x, h, w)
# and encodings (dy, dx, dh, dw, ...) divided by the y, x, h, w scales, then regular NMS
# (per class >= 1, score > threshold, IoU >= threshold suppresses, then the best
# max_num_detections of all classes) or fast NMS (on each anchor's best class score,
# then each kept anchor's top min(classes - 1, max_classes_per_detection) classes, their
# scores not thresholded). Outputs: scores [B, D], boxes (y1, x1, y2, x2) [B, D, 4],
# labels [B, D] (class - 1, or the class with is_background_in_label), counts [B];
# D = max_num_detections (regular) or max_num_detections * max_classes_per_detection
# (fast); unused slots are 0.
# Covers: two images, regular and fast modes, labels with and without the background,
# several classes per detection, an encoding longer than 4 (the rest ignored), an IoU
# exactly at the threshold (suppressed), fewer detections than D (zero fill), boxes not
# clipped (negative coordinates), equal scores (they keep class order, both when merging
# classes and when ranking one anchor's classes), float32, relaxed and float16 (FLOAT16
# scalars). The operation has no quantized form.
# Golden values: conformance/specs/oracles/proposals_oracle.py, cases named below; the
# anchors and scores are exact in float16 or far from every threshold.


def detection(name, batches, anchors, classes, length, params, width):
    """A DETECTION_POSTPROCESSING model; params are the 11 scalars after the anchors."""
    s = Input("scores", "TENSOR_FLOAT32", "{%d, %d, %d}" % (batches, anchors, classes))
    e = Input("encodings", "TENSOR_FLOAT32", "{%d, %d, %d}" % (batches, anchors, length))
    a = Input("anchors", "TENSOR_FLOAT32", "{%d, 4}" % anchors)
    os = Output("scores_out", "TENSOR_FLOAT32", "{%d, %d}" % (batches, width))
    ob = Output("boxes_out", "TENSOR_FLOAT32", "{%d, %d, 4}" % (batches, width))
    oc = Output("classes_out", "TENSOR_INT32", "{%d, %d}" % (batches, width))
    on = Output("counts_out", "TENSOR_INT32", "{%d}" % batches)
    Model(name).Operation("DETECTION_POSTPROCESSING", s, e, a, *params).To(os, ob, oc, on)
    return s, e, a, os, ob, oc, on


# Two images, 4 anchors, 3 classes, scales 10, 10, 5, 5. Image 0 has zero encodings: boxes
# (0, 0, 2, 2), (0, 0.5, 2, 2.5) [IoU 0.6 with the first], (3, 2, 5, 6), (3, 2.5, 6, 5.5)
# [IoU 6/11 with the third]. Image 1 moves anchors 0, 2 and 3.
anchors4 = [1.0, 1.0, 2.0, 2.0, 1.0, 1.5, 2.0, 2.0, 4.0, 4.0, 2.0, 4.0, 4.5, 4.0, 3.0, 3.0]
scores4 = [0.1, 0.9, 0.2, 0.0, 0.8, 0.7, 0.3, 0.05, 0.6, 0.0, 0.4, 0.65,
           0.5, 0.3, 0.05, 0.2, 0.25, 0.15, 0.9, 0.0, 0.0, 0.1, 0.35, 0.05]
encodings4 = [0.0] * 16 + [1.0, -2.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0,
                           -1.0, 1.0, 0.0, -0.5, 0.5, 0.5, 1.0, 1.0]
boxes_a0 = [0.0, 0.0, 2.0, 2.0]
boxes_a3 = [3.0, 2.5, 6.0, 5.5]
moved_a3 = [2.817896, 2.317896, 6.482104, 5.982104]
moved_a0 = [0.094829, -0.4, 2.305171, 1.6]

# 1. Oracle case dp_regular: regular NMS, 3 detections, 1 class each (unused), 2 per
#    class, score > 0.1, IoU 0.5, labels without the background.
s, e, a, os, ob, oc, on = detection(
    "regular", 2, 4, 3, 4, (10.0, 10.0, 5.0, 5.0, True, 3, 1, 2, 0.1, 0.5, False), 3)
Example({
    s: scores4, e: encodings4, a: anchors4,
    os: [0.9, 0.7, 0.65, 0.35, 0.3, 0.15],
    ob: boxes_a0 + [0.0, 0.5, 2.0, 2.5] + boxes_a3 + moved_a3 + moved_a0 + [0.0, 0.5, 2.0, 2.5],
    oc: [0, 1, 1, 0, 0, 1],
    on: [3, 3],
}).AddVariations("relaxed", "float16")

# 2. Oracle case dp_fast: fast NMS on the same data, 2 detections of 2 classes each
#    (D = 4), labels with the background.
s, e, a, os, ob, oc, on = detection(
    "fast", 2, 4, 3, 4, (10.0, 10.0, 5.0, 5.0, False, 2, 2, 1, 0.1, 0.5, True), 4)
Example({
    s: scores4, e: encodings4, a: anchors4,
    os: [0.9, 0.2, 0.65, 0.4, 0.35, 0.05, 0.3, 0.05],
    ob: boxes_a0 * 2 + boxes_a3 * 2 + moved_a3 * 2 + moved_a0 * 2,
    oc: [1, 2, 2, 1, 1, 2, 1, 2],
    on: [4, 4],
}).AddVariations("relaxed", "float16")

# One image, 3 anchors, 4 classes, encodings of length 5 (the fifth, 7, ignored), scales
# 1, zero offsets: boxes (0, 0, 2, 2), (0, 0, 1, 2) [IoU exactly 0.5 with the first] and
# (4, 4, 6, 6). Anchor 0 scores 0.6 in classes 1 and 2, anchor 2 scores 0.2 in 2 and 3.
anchors3 = [1.0, 1.0, 2.0, 2.0, 0.5, 1.0, 1.0, 2.0, 5.0, 5.0, 2.0, 2.0]
scores3 = [0.0, 0.6, 0.6, 0.3, 0.0, 0.7, 0.1, 0.2, 0.9, 0.05, 0.2, 0.2]
encodings3 = [0.0, 0.0, 0.0, 0.0, 7.0] * 3
box0, box1, box2 = [0.0, 0.0, 2.0, 2.0], [0.0, 0.0, 1.0, 2.0], [4.0, 4.0, 6.0, 6.0]

# 3. Oracle case dp_threshold_fast: fast NMS, IoU threshold 0.5 suppresses anchor 0
#    behind anchor 1; 3 detections of 1 class, only 2 anchors left: the last slot is 0.
#    Anchor 2's equal classes 2 and 3: class 2 (label 1) comes first.
s, e, a, os, ob, oc, on = detection(
    "threshold_fast", 1, 3, 4, 5, (1.0, 1.0, 1.0, 1.0, False, 3, 1, 1, 0.15, 0.5, False), 3)
Example({
    s: scores3, e: encodings3, a: anchors3,
    os: [0.7, 0.2, 0.0],
    ob: box1 + box2 + [0.0] * 4,
    oc: [0, 1, 0],
    on: [2],
}).AddVariations("relaxed", "float16")

# 4. Oracle case dp_threshold_regular: regular NMS, 1 per class, 4 per image: class 1
#    keeps anchor 1 (0.7, anchor 0 suppressed), class 2 anchor 0 (0.6), class 3 anchor 0
#    (0.3); the fourth slot is 0.
s, e, a, os, ob, oc, on = detection(
    "threshold_regular", 1, 3, 4, 5, (1.0, 1.0, 1.0, 1.0, True, 4, 1, 1, 0.15, 0.5, False), 4)
Example({
    s: scores3, e: encodings3, a: anchors3,
    os: [0.7, 0.6, 0.3, 0.0],
    ob: box1 + box0 + box0 + [0.0] * 4,
    oc: [0, 1, 2, 0],
    on: [3],
}).AddVariations("relaxed", "float16")

# 5. Oracle case dp_ties_fast: fast NMS, IoU threshold 0.6 keeps both overlapping
#    anchors; 2 detections of all 3 classes: anchor 0's equal 0.6 keep class order.
s, e, a, os, ob, oc, on = detection(
    "ties_fast", 1, 3, 4, 5, (1.0, 1.0, 1.0, 1.0, False, 2, 3, 1, 0.15, 0.6, False), 6)
Example({
    s: scores3, e: encodings3, a: anchors3,
    os: [0.7, 0.2, 0.1, 0.6, 0.6, 0.3],
    ob: box1 * 3 + box0 * 3,
    oc: [0, 2, 1, 0, 1, 2],
    on: [6],
}).AddVariations("relaxed", "float16")

# 6. Oracle case dp_ties_regular: regular NMS, IoU 0.6, 2 per class, 4 per image, labels
#    with the background: anchor 0's 0.6 in class 1 and in class 2 keep class order.
s, e, a, os, ob, oc, on = detection(
    "ties_regular", 1, 3, 4, 5, (1.0, 1.0, 1.0, 1.0, True, 4, 1, 2, 0.15, 0.6, True), 4)
Example({
    s: scores3, e: encodings3, a: anchors3,
    os: [0.7, 0.6, 0.6, 0.3],
    ob: box1 + box0 + box0 + box0,
    oc: [1, 1, 2, 3],
    on: [4],
}).AddVariations("relaxed", "float16")
