"""The ``detect`` family: BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS and
DETECTION_POSTPROCESSING, whose selections are drawn so that no score, IoU or size lies near
a threshold it is compared with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from conformance.harness.corners.base import (
    Corner,
    _array,
    _Builder,
    _classes,
    _exactly,
    _f32,
    _family,
    _scalar,
    _to_nchw,
    oracle,
)
from hal.tensors import read_constants
from hal.types import Model, OperandType

# ---------------------------------------------------------------------------
# detect: BOX_WITH_NMS_LIMIT, DETECTION_POSTPROCESSING, GENERATE_PROPOSALS
# ---------------------------------------------------------------------------

_DETECT = ("BOX_WITH_NMS_LIMIT", "DETECTION_POSTPROCESSING", "GENERATE_PROPOSALS")
_NMS_KERNELS = ("hard", "linear", "gaussian")
_DETECT_MARGIN = 1e-3
"""How near a BOX_WITH_NMS_LIMIT score may come to another it is ranked against, or to a
threshold, or an IoU to the IoU threshold, before the draw is refused (a float32 driver
computes them within about 1e-6 of the oracle's doubles)."""
_IOU_CHOICES = tuple(_f32(k / 20) for k in range(5, 16))
"""IoU thresholds drawn: 0.25 to 0.75 by 0.05, of those 0.01 or more from every IoU the
selection may compare with them."""


def _detect_refuse() -> None:
    """Give the draw up: its selection would hang on float rounding (rare by design)."""
    from hypothesis import reject

    reject()


def _detect_distinct(draw, count: int, steps: int) -> list[int]:
    """``count`` distinct integers in [1, steps): scores k / steps that never tie."""
    return draw(st.lists(st.integers(1, steps - 1), min_size=count, max_size=count, unique=True))


def _detect_clear_of(draw, values: Sequence[float], choices: Sequence[float]) -> float:
    """One of ``choices`` 0.01 or more from each of ``values`` (IoUs, box sizes), so a float32
    driver compares each with it as the oracle does; refused if none is."""
    clear = [c for c in choices if all(abs(v - c) >= 0.01 for v in values)]
    if not clear:
        _detect_refuse()
    return draw(st.sampled_from(clear))


def _detect_overlaps(boxes: Sequence[Sequence[float]]) -> list[float]:
    """The IoU of each pair of ``boxes``."""
    iou = oracle("proposals_oracle").iou
    return [iou(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]]


def _box_with_nms_limit(draw, builder: _Builder) -> tuple[list, list, list, dict]:
    """1-2 images (batch indices 0-2, in order) of 1-4 rois, 1-3 classes besides the
    background; per image the scores of the classes 1 and up distinct multiples of 1/32,
    the score threshold halfway between two of them and below each image's best (so each
    image keeps a box); boxes of sides 2-4 from corners 0-2, so they overlap often."""
    detection = oracle("detection_oracle")
    images = draw(st.integers(1, 2))
    ids = sorted(draw(st.lists(st.integers(0, 2), min_size=images, max_size=images, unique=True)))
    counts = [draw(st.integers(1, 4)) for _ in ids]
    classes = draw(st.integers(2, 4))
    batches = [image for image, count in zip(ids, counts, strict=True) for _ in range(count)]
    scores: list[float] = []
    tops = []
    for count in counts:
        picks = _detect_distinct(draw, count * (classes - 1), 32)
        tops.append(max(picks))
        for r in range(count):
            own = picks[r * (classes - 1) : (r + 1) * (classes - 1)]
            scores += [draw(st.integers(0, 31)) / 32, *(k / 32 for k in own)]
    score_threshold = (draw(st.integers(0, min(tops) - 1)) + 0.5) / 32
    corner = st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(2, 4), st.integers(2, 4))
    boxes = [[float(x), float(y), float(x + w), float(y + h)]
             for x, y, w, h in draw(_exactly(corner, len(batches) * classes))]  # fmt: skip
    kernel = draw(st.integers(0, 2))
    overlaps, start = [], 0
    for count in counts:
        for c in range(1, classes):
            group = [boxes[r * classes + c] for r in range(start, start + count)]
            overlaps += _detect_overlaps(group)
        start += count
    iou_threshold = _detect_clear_of(draw, overlaps if kernel < 2 else [], _IOU_CHOICES)
    sigma = draw(st.sampled_from((0.25, 0.5, 1.0)))
    # Low for the soft kernels, so rescored boxes are often kept.
    nms_threshold = (draw(st.integers(0, 11 if kernel == 0 else 3)) + 0.25) / 32
    limit = draw(st.sampled_from((-1, 1, 2, 3)))
    params = (score_threshold, limit, _NMS_KERNELS[kernel], iou_threshold, sigma, nms_threshold)
    rois = [v for box in boxes for v in box]
    try:
        kept = detection.box_with_nms_limit(scores, rois, batches, params, _DETECT_MARGIN)
    except detection.Ambiguous:
        _detect_refuse()
    out_scores, out_boxes, out_classes, out_batches = kept
    rows, found = len(batches), len(out_scores)
    inputs = [_array(scores, (rows, classes)), _array(rois, (rows, 4 * classes)),
              _array(batches, (rows,), np.int32)]  # fmt: skip
    operands = [builder.input(inputs[0]), builder.input(inputs[1]),
                builder.input(inputs[2], OperandType.TENSOR_INT32),
                builder.float32(score_threshold), builder.int32(limit), builder.int32(kernel),
                builder.float32(iou_threshold), builder.float32(sigma),
                builder.float32(nms_threshold)]  # fmt: skip
    outputs = [_array(out_scores, (found,)), _array(out_boxes, (found, 4)),
               *(_array(v, (found,), np.int32) for v in (out_classes, out_batches))]  # fmt: skip
    builder.output((found,))
    builder.output((found, 4))
    builder.output((found,), OperandType.TENSOR_INT32)
    builder.output((found,), OperandType.TENSOR_INT32)
    parameters = {
        "rois per image": dict(zip(ids, counts, strict=True)), "classes": classes,
        "score threshold": score_threshold, "max detections": limit,
        "kernel": _NMS_KERNELS[kernel], "IoU threshold": iou_threshold, "sigma": sigma,
        "NMS score threshold": nms_threshold,
    }  # fmt: skip
    return inputs, outputs, operands, parameters


def _generate_proposals(draw, builder: _Builder) -> tuple[list, list, list, dict]:
    """1-2 images of their own sizes, a feature map of 1-2 rows and 1-3 columns, 1-2
    anchors, strides 2-4, deltas of eighths (shifts) and quarters (log sizes), scores
    distinct multiples of 1/64; pre-NMS limits -1, 0, cutting or not, post-NMS limits -1
    or 1-3 (0, where Android 10 and the HAL text disagree, is the specs' business); the
    min size and the IoU threshold 0.01 or more from every size and IoU they meet."""
    proposals = oracle("proposals_oracle")
    batch, height, width, count = (draw(st.integers(1, top)) for top in (2, 2, 3, 2))
    strides = (float(draw(st.integers(2, 4))), float(draw(st.integers(2, 4))))  # (h, w)
    sizes = [draw(st.tuples(st.integers(-1, 2), st.integers(-1, 2))) for _ in range(batch)]
    info = [(height * strides[0] + dh, width * strides[1] + dw) for dh, dw in sizes]  # (h, w)
    anchor = st.tuples(st.integers(-2, 1), st.integers(-2, 1), st.integers(2, 5), st.integers(2, 5))
    anchors = [(float(x), float(y), float(x + w), float(y + h))
               for x, y, w, h in draw(_exactly(anchor, count))]  # fmt: skip
    cells = height * width * count
    flat_scores = [k / 64 for _ in range(batch) for k in _detect_distinct(draw, cells, 64)]
    shift, size = st.integers(-3, 3).map(lambda v: v / 8), st.integers(-2, 2).map(lambda v: v / 4)
    flat_deltas = [v for _ in range(batch * cells)
                   for v in draw(st.tuples(shift, shift, size, size))]  # fmt: skip
    scores = proposals.nest(flat_scores, [batch, height, width, count])
    deltas = proposals.nest(flat_deltas, [batch, height, width, 4 * count])
    pre = draw(st.sampled_from([-1, 0, *range(1, cells + 2)]))
    post = draw(st.sampled_from((-1, 1, 2, 3)))
    entering = []
    for b in range(batch):
        cand_scores, cand_boxes = proposals.proposal_boxes(
            scores[b], deltas[b], anchors, info[b], strides
        )
        entering.append([cand_boxes[i] for i in proposals.pre_nms(cand_scores, pre)])
    sides = [box[k + 2] - box[k] for boxes in entering for box in boxes for k in (0, 1)]
    min_size = _detect_clear_of(draw, sides, (0.25, 0.5, 1.0, 1.5))
    overlaps = []
    for (image_h, image_w), boxes in zip(info, entering, strict=True):
        # A clipped box whose sides pass the min size has its centre that far inside the
        # image: the centre test never hangs on rounding.
        kept = [box for box in boxes if proposals.keeps(box, min_size, image_w, image_h)]
        overlaps += _detect_overlaps(kept)
    iou_threshold = _detect_clear_of(draw, overlaps, _IOU_CHOICES)
    out_scores, out_rois, out_batches = proposals.generate_proposals(
        scores, deltas, anchors, info, strides, pre, post, iou_threshold, min_size
    )
    if not out_scores:
        _detect_refuse()  # no proposal at all: zero-sized outputs are the specs' business
    nchw = draw(st.booleans())
    found = len(out_scores)
    inputs = [_array(flat_scores, (batch, height, width, count)),
              _array(flat_deltas, (batch, height, width, 4 * count)),
              _array([v for a in anchors for v in a], (count, 4)),
              _array([v for i in info for v in i], (batch, 2))]  # fmt: skip
    if nchw:
        inputs[:2] = [_to_nchw(a) for a in inputs[:2]]
    operands = [builder.input(a) for a in inputs]
    operands += [builder.float32(strides[0]), builder.float32(strides[1]), builder.int32(pre),
                 builder.int32(post), builder.float32(iou_threshold), builder.float32(min_size),
                 builder.bool(nchw)]  # fmt: skip
    outputs = [_array(out_scores, (found,)), _array(out_rois, (found, 4)),
               _array(out_batches, (found,), np.int32)]  # fmt: skip
    builder.output((found,))
    builder.output((found, 4))
    builder.output((found,), OperandType.TENSOR_INT32)
    parameters = {
        "scores (NHWC)": (batch, height, width, count), "strides (h, w)": strides,
        "image sizes (h, w)": info, "pre-NMS top n": pre, "post-NMS top n": post,
        "IoU threshold": iou_threshold, "min size": min_size,
        "layout": "NCHW" if nchw else "NHWC",
    }  # fmt: skip
    return inputs, outputs, operands, parameters


def _detection_postprocessing(draw, builder: _Builder) -> tuple[list, list, list, dict]:
    """1-2 images, 1-4 anchors, 1-3 classes besides the background, encodings of 4 or 5
    values (halves in [-1, 1]), scales 1, 2, 10 (centres) and 1, 2, 5 (sizes); per image
    the scores of the classes 1 and up distinct multiples of 1/64, the score threshold
    halfway between two; regular or fast NMS, 1-3 detections, classes per detection and
    detections per class, the background in the labels or not; the IoU threshold 0.01 or
    more from every IoU of two decoded boxes."""
    proposals = oracle("proposals_oracle")
    batch, count, classes = (draw(st.integers(low, high)) for low, high in ((1, 2), (1, 4), (2, 4)))
    length = draw(st.sampled_from((4, 5)))
    anchor = st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3))
    anchors = [tuple(float(v) for v in a) for a in draw(_exactly(anchor, count))]
    scales = tuple(float(draw(st.sampled_from(c))) for c in ((1, 2, 10),) * 2 + ((1, 2, 5),) * 2)
    flat_scores: list[float] = []
    for _ in range(batch):
        picks = _detect_distinct(draw, count * (classes - 1), 64)
        for a in range(count):
            own = picks[a * (classes - 1) : (a + 1) * (classes - 1)]
            flat_scores += [draw(st.integers(0, 63)) / 64, *(k / 64 for k in own)]
    flat_codes = [v / 2 for v in draw(_exactly(st.integers(-2, 2), batch * count * length))]
    scores = proposals.nest(flat_scores, [batch, count, classes])
    codes = proposals.nest(flat_codes, [batch, count, length])
    overlaps = []
    for b in range(batch):
        boxes = [proposals.box_from_anchor(anchors[a], codes[b][a], scales) for a in range(count)]
        overlaps += _detect_overlaps(boxes)
    iou_threshold = _detect_clear_of(draw, overlaps, _IOU_CHOICES)
    score_threshold = (draw(st.integers(0, 40)) + 0.5) / 64
    regular, with_background = draw(st.booleans()), draw(st.booleans())
    most, per_detection, per_class = (draw(st.integers(1, 3)) for _ in range(3))
    out_scores, out_boxes, out_classes, out_counts = proposals.detection_postprocess(
        scores, codes, anchors, scales, regular, most, per_detection, per_class,
        score_threshold, iou_threshold, with_background,
    )  # fmt: skip
    slots = most if regular else most * per_detection
    inputs = [_array(flat_scores, (batch, count, classes)),
              _array(flat_codes, (batch, count, length)),
              _array([v for a in anchors for v in a], (count, 4))]  # fmt: skip
    operands = [builder.input(a) for a in inputs]
    operands += [builder.float32(v) for v in scales]
    operands += [builder.bool(regular), builder.int32(most), builder.int32(per_detection),
                 builder.int32(per_class), builder.float32(score_threshold),
                 builder.float32(iou_threshold), builder.bool(with_background)]  # fmt: skip
    outputs = [_array(out_scores, (batch, slots)), _array(out_boxes, (batch, slots, 4)),
               _array(out_classes, (batch, slots), np.int32),
               _array(out_counts, (batch,), np.int32)]  # fmt: skip
    builder.output((batch, slots))
    builder.output((batch, slots, 4))
    builder.output((batch, slots), OperandType.TENSOR_INT32)
    builder.output((batch,), OperandType.TENSOR_INT32)
    parameters = {
        "scores": (batch, count, classes), "encoding length": length,
        "scales (y, x, h, w)": scales, "NMS": "regular" if regular else "fast",
        "max detections": most, "max classes per detection": per_detection,
        "max detections per class": per_class, "score threshold": score_threshold,
        "IoU threshold": iou_threshold, "background in label": with_background,
    }  # fmt: skip
    return inputs, outputs, operands, parameters


_DETECT_DRAWS = {
    "BOX_WITH_NMS_LIMIT": (_box_with_nms_limit, "detection_oracle"),
    "GENERATE_PROPOSALS": (_generate_proposals, "proposals_oracle"),
    "DETECTION_POSTPROCESSING": (_detection_postprocessing, "proposals_oracle"),
}


def _detect_classes(model, operation, constants, name) -> list[str]:
    """BOX_WITH_NMS_LIMIT: the kernel, classes besides the background, no limit.
    GENERATE_PROPOSALS: layout, batch, anchors, a pre-NMS limit that cuts or none (0 or
    less, or not below the candidates), no post-NMS limit. DETECTION_POSTPROCESSING:
    regular or fast NMS, the background in the labels or not, batch, classes, several
    classes per detection (fast), encodings longer than 4. What the expected outputs
    show: ``_detect_result_classes``."""
    inputs = operation.inputs
    dims = list(model.operands[inputs[0]].dimensions)
    classes: list[str] = []
    if name == "BOX_WITH_NMS_LIMIT":
        kernel, limit = _scalar(constants, inputs[5]), _scalar(constants, inputs[4])
        if kernel in range(3):
            classes.append(f"nms:{_NMS_KERNELS[kernel]}")
        if limit is not None and limit < 0:
            classes.append("limit:none")
        return classes + ["classes>1"] * (dims[1] > 2)
    if name == "GENERATE_PROPOSALS":
        nchw = _scalar(constants, inputs[10])
        if nchw is not None:
            classes.append("layout:nchw" if nchw else "layout:nhwc")
        anchors = model.operands[inputs[2]].dimensions[0]
        classes += ["batch>1"] * (dims[0] > 1) + ["anchors>1"] * (anchors > 1)
        pre, post = _scalar(constants, inputs[6]), _scalar(constants, inputs[7])
        cells = dims[1] * dims[2] * dims[3]  # H * W * A in either layout (0: unknown)
        if pre is not None and (pre <= 0 or 0 < cells <= pre):
            classes.append("pre-nms:none")
        elif pre is not None and cells:
            classes.append("pre-nms:cuts")
        return classes + ["post-nms:none"] * (post is not None and post < 0)
    regular, background = _scalar(constants, inputs[7]), _scalar(constants, inputs[13])
    if regular is not None:
        classes.append("regular-nms" if regular else "fast-nms")
    if background is not None:
        classes.append("background:included" if background else "background:excluded")
    length = model.operands[inputs[1]].dimensions[2]
    classes += ["batch>1"] * (dims[0] > 1) + ["classes>1"] * (dims[2] > 2)
    if regular == 0 and (_scalar(constants, inputs[9]) or 0) > 1:
        classes.append("max-classes>1")
    return classes + ["encoding>4"] * (length > 4)


def _detect_result_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """What the expected detections show: boxes of several images (``batch>1``), an image
    keeping as many boxes as BOX_WITH_NMS_LIMIT's max_detections (``limit:reached``) or
    GENERATE_PROPOSALS' post_nms_top_n (``post-nms:reached``); DETECTION_POSTPROCESSING's
    counts filling an image's slots or leaving some zero."""
    if len(outputs) < (3 if name == "GENERATE_PROPOSALS" else 4):
        return []
    if name == "DETECTION_POSTPROCESSING":
        counts, slots = outputs[3].reshape(-1), outputs[0].shape[-1]
        full, short = bool(np.any(counts == slots)), bool(np.any(counts < slots))
        return ["detections:full"] * full + ["detections:zero-fill"] * short
    per_image = Counter(outputs[-1].reshape(-1).tolist())  # the batch index of each box
    classes = ["batch>1"] * (len(per_image) > 1)
    slot = 4 if name == "BOX_WITH_NMS_LIMIT" else 7
    try:
        constants = read_constants(model)
    except Exception:  # a pool that cannot be opened: no limit read
        constants = {}
    for operation in model.operations:
        if list(operation.outputs) == list(model.output_indexes) and len(operation.inputs) > slot:
            limit = _scalar(constants, operation.inputs[slot])
            if limit is not None and limit > 0 and limit in per_image.values():
                label = "limit:reached" if slot == 4 else "post-nms:reached"
                classes.append(label)
    return classes


@_family(
    "detect",
    operations=_DETECT,
    classes=(
        "nms:hard", "nms:linear", "nms:gaussian", "limit:none", "limit:reached", "classes>1",
        "batch>1", "layout:nchw", "layout:nhwc", "anchors>1", "pre-nms:cuts", "pre-nms:none",
        "post-nms:none", "post-nms:reached", "regular-nms", "fast-nms", "background:included",
        "background:excluded", "max-classes>1", "encoding>4", "detections:full",
        "detections:zero-fill",
    ),
    classify=_detect_classes,
    results=_detect_result_classes,
)  # fmt: skip
@st.composite
def detect(draw, operation: str | None = None) -> Corner:
    """BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS, DETECTION_POSTPROCESSING, float32: discrete
    selections, so scores are distinct multiples of 1/32 or 1/64 (no ties, thresholds
    halfway between two), and the IoU thresholds (and GENERATE_PROPOSALS' min size) are
    drawn 0.01 or more from every IoU (and size) they meet, so a float32 driver selects
    exactly the oracle's boxes; a draw whose soft-NMS rescoring still comes within 1e-3 of
    a tie or threshold is refused (rare). Every case keeps at least one box. The outputs
    are declared with the number of boxes kept (as the specs do); the twin of unknown
    dimensions is lawful (the driver reports that number)."""
    operation = operation or draw(st.sampled_from(_DETECT))
    builder = _Builder()
    make, oracle_name = _DETECT_DRAWS[operation]
    inputs, outputs, operands, parameters = make(draw, builder)
    model = builder.model(operation, operands)
    return Corner(
        "detect", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        oracle_name,
    )  # fmt: skip
