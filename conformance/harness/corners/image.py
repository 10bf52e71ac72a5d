"""Families of the image operations: ``resize`` (RESIZE_BILINEAR,
RESIZE_NEAREST_NEIGHBOR) and ``roi``, the operations over regions of interest and boxes
(ROI_ALIGN, ROI_POOLING, HEATMAP_MAX_KEYPOINT, AXIS_ALIGNED_BBOX_TRANSFORM)."""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from conformance.harness.corners.base import (
    _ZERO_POINTS,
    Corner,
    _array,
    _Builder,
    _classes,
    _count_classes,
    _exactly,
    _family,
    _floats,
    _quant_classes_of,
    _scalar,
    _to_nchw,
    oracle,
)
from hal.tensors import read_constants
from hal.types import Model, OperandType

# ---------------------------------------------------------------------------
# resize: RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR
# ---------------------------------------------------------------------------

_RESIZES = {"RESIZE_BILINEAR": "bilinear", "RESIZE_NEAREST_NEIGHBOR": "nearest"}
_RESIZE_SCALES = tuple(k / 4 for k in range(1, 13))
"""Scales drawn: quarters from 0.25 to 3, so size times scale is exact in float32 and the
floor of it is not a rounding question."""


def _resize_classes(model, operation, constants, name) -> list[str]:
    """The resizes: how the size is given (INT32 sizes or FLOAT32 scales, and whether a
    scale's product has a fraction the floor drops), up or down per axis, ratios that are
    no whole number either way, layout and input list, batch and channels."""
    inputs = operation.inputs
    with_layout = len(inputs) > 3
    nchw = with_layout and bool(constants[inputs[3]].reshape(-1)[0])
    dims = list(model.operands[inputs[0]].dimensions)
    batch, h, w, channels = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    classes = []
    if model.operands[inputs[1]].type == OperandType.INT32:
        new_w, new_h = (int(constants[inputs[k]].reshape(-1)[0]) for k in (1, 2))
        classes.append("resize:size-input")
    else:
        scale_w, scale_h = (np.float32(constants[inputs[k]].reshape(-1)[0]) for k in (1, 2))
        if not (0 < scale_w < 2**16 and 0 < scale_h < 2**16):
            raise ValueError("a scale the family does not draw")
        wide, high = np.float32(w) * scale_w, np.float32(h) * scale_h  # in float32, as HAL does
        new_w, new_h = int(wide), int(high)
        classes.append("resize:scale-input")
        if new_w != wide or new_h != high:
            classes.append("resize:scale-floors")
    pairs = [(old, new) for old, new in ((h, new_h), (w, new_w)) if old > 0]  # known sizes
    if any(new > old for old, new in pairs):
        classes.append("resize:up")
    if any(new < old for old, new in pairs):
        classes.append("resize:down")
    if any(new > 0 and new % old and old % new for old, new in pairs):
        classes.append("resize:non-integer")
    classes.append("layout:nchw" if nchw else "layout:nhwc")
    classes.append("inputs:layout" if with_layout else "inputs:plain")
    return classes + _count_classes(batch, channels)


@_family(
    "resize",
    operations=tuple(sorted(_RESIZES)),
    classes=(
        "resize:size-input", "resize:scale-input", "resize:scale-floors", "resize:up",
        "resize:down", "resize:non-integer", "layout:nchw", "layout:nhwc", "inputs:plain",
        "inputs:layout", "batch>1", "channels>1",
    ),
    classify=_resize_classes,
)  # fmt: skip
@st.composite
def resize(draw, operation: str | None = None) -> Corner:
    """RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR, float32: the output size given as INT32
    width and height or (HAL 1.2) as FLOAT32 scales, up and down and to sizes that are no
    multiple of the input's, batch 1-2, 1-2 channels, NHWC/NCHW; RESIZE_BILINEAR also
    without the layout input (RESIZE_NEAREST_NEIGHBOR requires it). No corner alignment
    and no half-pixel centres (HAL 1.3)."""
    pools = oracle("pooling_oracle")
    operation = operation or draw(st.sampled_from(sorted(_RESIZES)))
    batch, c = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    h, w = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    by_scale = draw(st.booleans())
    if by_scale:  # at least 1/size, so the output keeps a cell
        scales = [draw(st.sampled_from([s for s in _RESIZE_SCALES if s * n >= 1])) for n in (h, w)]
        new_h, new_w = (int(n * s) for n, s in zip((h, w), scales, strict=True))
    else:
        new_h, new_w = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    with_layout = operation == "RESIZE_NEAREST_NEIGHBOR" or draw(st.booleans())
    nchw = with_layout and draw(st.booleans())
    x_shape = (batch, h, w, c)
    x = _floats(draw, batch * h * w * c)
    out, out_shape = pools.resize(_RESIZES[operation], x, x_shape, new_h, new_w)
    x_nhwc, out_nhwc = _array(x, x_shape), _array(out, out_shape)
    x_array = _to_nchw(x_nhwc) if nchw else x_nhwc
    out_array = _to_nchw(out_nhwc) if nchw else out_nhwc
    builder = _Builder()
    operands = [builder.input(x_array)]
    if by_scale:  # width first, then height
        operands += [
            builder.constant(OperandType.FLOAT32, [], struct.pack("<f", s))
            for s in reversed(scales)
        ]
    else:
        operands += [builder.int32(new_w), builder.int32(new_h)]
    if with_layout:
        operands.append(builder.bool(nchw))
    builder.output(out_array.shape)
    model = builder.model(operation, operands)
    parameters: dict[str, object] = {"input": x_shape, "output (h, w)": (new_h, new_w)}
    if by_scale:
        parameters["scales (w, h)"] = (scales[1], scales[0])
    parameters["layout"] = "NCHW" if nchw else "NHWC"
    parameters["inputs"] = "layout" if with_layout else "plain"
    return Corner(
        "resize", operation, model, [x_array], [out_array], _classes(model, [out_array]),
        parameters, "pooling_oracle",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# roi: ROI_ALIGN, ROI_POOLING, HEATMAP_MAX_KEYPOINT, AXIS_ALIGNED_BBOX_TRANSFORM
# ---------------------------------------------------------------------------

_ROI = ("ROI_ALIGN", "ROI_POOLING", "HEATMAP_MAX_KEYPOINT", "AXIS_ALIGNED_BBOX_TRANSFORM")
_ROI_RATIOS = (0.5, 1.0, 2.0)
"""Image-to-feature ratios: powers of two, so scaled roi coordinates are exact (and the
ROI_POOLING bin edges, floors and ceilings of small rationals, the same in float32, float16
and exact arithmetic)."""
_BOX = 0.125
"""TENSOR_QUANT16_ASYMM box coordinates: scale 0.125, zero point 0."""
_ROI_SCALES = (0.125, 0.25, 0.5, 1.0)
"""Power-of-two scales of the quantized detection tensors: dequantized values are exact."""


def _given(b: _Builder, array: np.ndarray, as_input: bool, type_: int, scale=0.0, zp=0) -> int:
    """``array`` as a model input or as a constant."""
    if as_input:
        return b.input(array, type_, scale, zp)
    return b.constant(type_, array.shape, array.tobytes(), scale, zp)


def _boxes_q16(values: Sequence[float]) -> np.ndarray:
    """Box coordinates (multiples of 0.125, not negative) as TENSOR_QUANT16_ASYMM bytes."""
    return np.asarray([round(v / _BOX) for v in values], np.uint16)


def _round_away(value: float) -> int:
    return int(np.floor(value + 0.5)) if value >= 0 else -int(np.floor(-value + 0.5))


def _roi_span(draw, length: int) -> tuple[float, float]:
    """One axis of a roi in feature coordinates, quarters in [0, length]: anywhere, up to
    the far edge (the samples past the last cell clamped, the pooling bins clipped) or
    shorter than a cell (widened to 1)."""
    low = draw(st.integers(0, 4 * length))
    end = draw(st.sampled_from(["edge", "tiny", "any"]))
    if end == "edge":
        high = 4 * length
    elif end == "tiny":
        high = draw(st.integers(low, min(low + 3, 4 * length)))
    else:
        high = draw(st.integers(low, 4 * length))
    return low / 4, high / 4


def _roi_window(draw, operation: str, quant: bool) -> tuple:
    """ROI_ALIGN or ROI_POOLING: the inputs, outputs and operands of a drawn case."""
    detection = oracle("detection_oracle")
    align = operation == "ROI_ALIGN"
    batch, h, w, c = (draw(st.integers(1, 2)), *(draw(st.integers(1, 5)) for _ in "hw"),
                      draw(st.integers(1, 3)))  # fmt: skip
    count, out_h, out_w = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    ratio_h, ratio_w = draw(st.sampled_from(_ROI_RATIOS)), draw(st.sampled_from(_ROI_RATIOS))
    samp_h, samp_w = (draw(st.integers(0, 3)), draw(st.integers(0, 3))) if align else (0, 0)
    nchw, rois_input = draw(st.booleans()), draw(st.booleans())
    indexes = draw(_exactly(st.integers(0, batch - 1), count))
    rois = []
    for _ in range(count):
        (x1, x2), (y1, y2) = _roi_span(draw, w), _roi_span(draw, h)
        rois += [x1 * ratio_w, y1 * ratio_h, x2 * ratio_w, y2 * ratio_h]
    shape = (batch, h, w, c)
    size = batch * h * w * c
    parameters: dict[str, object] = {
        "input": shape, "rois": rois, "batch indexes": indexes, "out (h, w)": (out_h, out_w),
        "ratios (h, w)": (ratio_h, ratio_w), "layout": "NCHW" if nchw else "NHWC",
    }  # fmt: skip
    if align:
        parameters["sampling (h, w)"] = (samp_h, samp_w)
    geometry = (out_h, out_w, ratio_h, ratio_w, *((samp_h, samp_w) if align else ()))
    if not quant:
        x = _floats(draw, size)
        run = detection.roi_align if align else detection.roi_pooling
        out = run(x, shape, rois, indexes, *geometry)
        x_array, out_array = _array(x, shape), _array(out, (count, out_h, out_w, c))
        q_in = q_out = (0.0, 0)
        x_type = rois_type = OperandType.TENSOR_FLOAT32
        roi_array = _array(rois, (count, 4))
    else:
        s_in, zp_in = draw(st.sampled_from(_ROI_SCALES)), draw(_ZERO_POINTS)
        if align:
            # Bytes within 40 of the zero point and an output scale of 1, 2 or 4 input
            # scales: the doc's integer path (weights rounded to 1/255) then stays within
            # 2 * 40 / 255 < 0.32 output steps of the real result, so a driver taking
            # either path rounds to within 1 of the rounded real result expected here.
            spread = 40
            s_out, zp_out = s_in * draw(st.sampled_from([1, 2, 4])), draw(_ZERO_POINTS)
        else:  # the maximum of raw bytes; the output quantized as the input (forced)
            spread, s_out, zp_out = 255, s_in, zp_in
        q = draw(_exactly(st.integers(max(0, zp_in - spread), min(255, zp_in + spread)), size))
        x = [(v - zp_in) * s_in for v in q]
        if align:
            out = detection.roi_align(x, shape, rois, indexes, *geometry)
            quantized = (s_in, zp_in, s_out, zp_out)
            integer = detection.roi_align(x, shape, rois, indexes, *geometry, quantized, True)
            assert all(abs(a - v / s_out) < 0.5 for a, v in zip(integer, out, strict=True)), (
                "the harness's integer and float ROI_ALIGN oracles differ by half a step"
            )
        else:
            out = detection.roi_pooling(x, shape, rois, indexes, *geometry)
        values = [min(255, max(0, _round_away(v / s_out) + zp_out)) for v in out]
        x_array = _array(q, shape, np.uint8)
        out_array = _array(values, (count, out_h, out_w, c), np.uint8)
        q_in, q_out = (s_in, zp_in), (s_out, zp_out)
        x_type, rois_type = OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT16_ASYMM
        roi_array = _boxes_q16(rois).reshape(count, 4)
        parameters["quant (scale, zero point) in, out"] = (q_in, q_out)
    if nchw:
        x_array, out_array = _to_nchw(x_array), _to_nchw(out_array)
    b = _Builder()
    inputs = [x_array]
    operands = [b.input(x_array, x_type, *q_in)]
    index_array = _array(indexes, (count,), np.int32)
    roi_quant = (_BOX, 0) if quant else (0.0, 0)
    operands.append(_given(b, roi_array, rois_input, rois_type, *roi_quant))
    operands.append(_given(b, index_array, rois_input, OperandType.TENSOR_INT32))
    if rois_input:
        inputs += [roi_array, index_array]
    operands += [b.int32(out_h), b.int32(out_w), b.float32(ratio_h), b.float32(ratio_w)]
    if align:
        operands += [b.int32(samp_h), b.int32(samp_w)]
    operands.append(b.bool(nchw))
    b.output(out_array.shape, x_type, *q_out)
    return b, operands, inputs, [out_array], parameters, "detection_oracle"


def _peaked_map(draw, size: int, low: int, high: int) -> list[list[int]]:
    """A size x size map of integers with one maximum whose quadratic fit (neighbours
    mirrored at the border) is far from singular: |det A| >= 4 in these units, so the
    fit never takes the singular branch and the offset is well conditioned."""
    cells = draw(_exactly(st.integers(low, high), size * size))
    top = max(cells)
    peak = draw(st.sampled_from([i for i, v in enumerate(cells) if v == top]))
    cells[peak] += 1  # the one maximum
    grid = [cells[r * size : (r + 1) * size] for r in range(size)]
    row, col = divmod(peak, size)
    mirror = oracle("proposals_oracle").mirror
    while True:
        g = [[grid[mirror(row + i, size)][mirror(col + j, size)] for j in (-1, 0, 1)]
             for i in (-1, 0, 1)]  # fmt: skip
        a00, a11 = g[1][0] - 2 * g[1][1] + g[1][2], g[0][1] - 2 * g[1][1] + g[2][1]
        a01 = (g[2][2] - g[2][0] - g[0][2] + g[0][0]) / 4
        if abs(a00 * a11 - a01 * a01) >= 4:
            return grid
        grid[row][col] += 1  # a sharper peak: both curvatures grow


def _heatmap(draw, quant: bool) -> tuple:
    """HEATMAP_MAX_KEYPOINT: the inputs, outputs and operands of a drawn case."""
    boxes_count, size = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    points = draw(st.integers(1, 3))
    nchw = draw(st.booleans())
    if quant:
        scale, zero_point = draw(st.sampled_from(_ROI_SCALES)), draw(_ZERO_POINTS)
    maps = [[_peaked_map(draw, size, -8, 8) for _ in range(points)] for _ in range(boxes_count)]
    if quant:  # bytes: the map about the zero point, shifted into [0, 255] where needed
        for per_box in maps:
            for grid in per_box:
                shift = zero_point + min(0, 255 - zero_point - max(map(max, grid)))
                shift = max(shift, -min(map(min, grid)))
                for row in grid:
                    row[:] = [v + shift for v in row]
        unit = lambda v: (v - zero_point) * scale  # noqa: E731
    else:
        unit = lambda v: v / 2  # noqa: E731
    # heatmaps[n][y][x][k] for the oracle
    heat = [[[[unit(maps[n][k][y][x]) for k in range(points)] for x in range(size)]
             for y in range(size)] for n in range(boxes_count)]  # fmt: skip
    boxes = []
    for _ in range(boxes_count):
        low = 0 if quant else -16
        x1, y1 = draw(st.integers(low, 48)), draw(st.integers(low, 48))
        x2, y2 = draw(st.integers(x1, x1 + 32)), draw(st.integers(y1, y1 + 32))
        boxes.append(tuple(v / 4 for v in (x1, y1, x2, y2)))
    scores, keypoints = oracle("proposals_oracle").heatmap_max_keypoint(heat, boxes)
    flat_boxes = [v for box in boxes for v in box]
    raw = [maps[n][k][y][x] for n in range(boxes_count) for y in range(size)
           for x in range(size) for k in range(points)]  # fmt: skip
    shape = (boxes_count, size, size, points)
    parameters: dict[str, object] = {
        "heatmaps": shape, "boxes": boxes, "layout": "NCHW" if nchw else "NHWC",
    }  # fmt: skip
    if quant:
        s_out, zp_out = draw(st.sampled_from(_ROI_SCALES)), draw(_ZERO_POINTS)
        heat_array = _array(raw, shape, np.uint8)
        box_array = _boxes_q16(flat_boxes).reshape(boxes_count, 4)
        score_array = _array([min(255, max(0, _round_away(s / s_out) + zp_out)) for s in scores],
                             (boxes_count, points), np.uint8)  # fmt: skip
        point_array = _array([min(65535, max(0, _round_away(v / _BOX))) for v in keypoints],
                             (boxes_count, points, 2), np.uint16)  # fmt: skip
        types = (OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT16_ASYMM)
        quants = ((scale, zero_point), (_BOX, 0), (s_out, zp_out), (_BOX, 0))
        parameters["quant (scale, zero point) heatmaps, scores"] = (quants[0], quants[2])
    else:
        heat_array = _array([v / 2 for v in raw], shape)
        box_array = _array(flat_boxes, (boxes_count, 4))
        score_array = _array(scores, (boxes_count, points))
        point_array = _array(keypoints, (boxes_count, points, 2))
        types = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT32)
        quants = ((0.0, 0),) * 4
    if nchw:
        heat_array = np.ascontiguousarray(heat_array.transpose(0, 3, 1, 2))
    b = _Builder()
    operands = [b.input(heat_array, types[0], *quants[0]), b.input(box_array, types[1], *quants[1])]
    operands.append(b.bool(nchw))
    b.output(score_array.shape, types[0], *quants[2])
    b.output(point_array.shape, types[1], *quants[3])
    outputs = [score_array, point_array]
    return b, operands, [heat_array, box_array], outputs, parameters, "proposals_oracle"


def _bbox(draw, quant: bool) -> tuple:
    """AXIS_ALIGNED_BBOX_TRANSFORM: the inputs, outputs and operands of a drawn case."""
    count, classes = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    images = draw(st.integers(1, 2))
    info = [v / 2 for v in draw(_exactly(st.integers(4, 24), 2 * images))]  # (height, width)
    indexes = draw(_exactly(st.integers(0, images - 1), count))
    rois = []
    for _ in range(count):  # quarters in [0, 14]: inside, across or past the image's edges
        x1, y1 = draw(st.integers(0, 56)), draw(st.integers(0, 56))
        x2, y2 = draw(st.integers(x1, 56)), draw(st.integers(y1, 56))
        rois += [v / 4 for v in (x1, y1, x2, y2)]
    given = draw(st.booleans())  # batch indexes and image sizes as model inputs, or constants
    size = count * classes * 4
    parameters: dict[str, object] = {"rois": rois, "classes": classes, "batch indexes": indexes,
                                     "image sizes (h, w)": info}  # fmt: skip
    if quant:
        # Deltas of at most 1 (exp(1) < 3), eighths to thirty-seconds.
        scale, zero_point = draw(st.sampled_from([0.125, 0.0625, 0.03125])), draw(_ZERO_POINTS)
        reach = round(1 / scale)
        steps = draw(_exactly(st.integers(max(-zero_point, -reach), min(255 - zero_point, reach)),
                              size))  # fmt: skip
        deltas = [k * scale for k in steps]
        delta_array = _array([k + zero_point for k in steps], (count, classes * 4), np.uint8)
        roi_array = _boxes_q16(rois).reshape(count, 4)
        info_array = _boxes_q16(info).reshape(images, 2)
        types = (OperandType.TENSOR_QUANT16_ASYMM, OperandType.TENSOR_QUANT8_ASYMM)
        quants = ((_BOX, 0), (scale, zero_point))
        parameters["deltas quant (scale, zero point)"] = quants[1]
    else:
        deltas = [k / 8 for k in draw(_exactly(st.integers(-8, 8), size))]
        delta_array = _array(deltas, (count, classes * 4))
        roi_array, info_array = _array(rois, (count, 4)), _array(info, (images, 2))
        types = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT32)
        quants = ((0.0, 0), (0.0, 0))
    out = oracle("detection_oracle").bbox_transform(rois, deltas, indexes, info)
    if quant:
        out_array = _array([min(65535, max(0, _round_away(v / _BOX))) for v in out],
                           (count, classes * 4), np.uint16)  # fmt: skip
    else:
        out_array = _array(out, (count, classes * 4))
    index_array = _array(indexes, (count,), np.int32)
    b = _Builder()
    operands = [b.input(roi_array, types[0], *quants[0])]
    operands.append(b.input(delta_array, types[1], *quants[1]))
    operands.append(_given(b, index_array, given, OperandType.TENSOR_INT32))
    operands.append(_given(b, info_array, given, types[0], *quants[0]))
    inputs = [roi_array, delta_array, *((index_array, info_array) if given else ())]
    b.output(out_array.shape, types[0], *quants[0])
    return b, operands, inputs, [out_array], parameters, "detection_oracle"


def _real_constant(model: Model, constants, index: int) -> np.ndarray:
    """A constant's real values (a quantized one dequantized)."""
    operand = model.operands[index]
    values = constants[index].astype(np.float64)
    if operand.type in (OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT16_ASYMM):
        values = (values - operand.zero_point) * operand.scale
    return values


def _roi_classes(model, operation, constants, name) -> list[str]:
    """The detection operations. ROI_ALIGN and ROI_POOLING: layout, batch, channels, rois,
    ratios below or above 1 and unequal, unequal output sizes, ROI_ALIGN's adaptive or fixed
    sampling, rois as model inputs or constants, and from constant rois: a roi shorter than
    a cell (widened to 1), one whose samples pass the last cell (clamped) or whose pooling
    bins pass the edge (clipped), an empty bin, a coordinate rounding from a half.
    HEATMAP_MAX_KEYPOINT: layout, boxes, keypoints, 2x2 maps (every neighbour of the
    maximum mirrored) or larger. AXIS_ALIGNED_BBOX_TRANSFORM: rois, classes, images, the
    image sizes and batch indexes as constants or model inputs, boxes clipped at the
    image's near (0) or far edge."""
    inputs = operation.inputs
    if name == "HEATMAP_MAX_KEYPOINT":
        nchw = bool(_scalar(constants, inputs[2]))
        count, s1, s2, points = model.operands[inputs[0]].dimensions
        if nchw:
            points, s1, s2 = s1, s2, points
        classes = ["layout:nchw" if nchw else "layout:nhwc"]
        for holds, label in ((count > 1, "boxes>1"), (points > 1, "keypoints>1"),
                             (s1 == 2, "heatmap:2x2"), (s1 > 2, "heatmap>2x2")):  # fmt: skip
            if holds:
                classes.append(label)
        return classes + _quant_classes_of(model, [inputs[0], operation.outputs[0]])
    if name == "AXIS_ALIGNED_BBOX_TRANSFORM":
        count, width = model.operands[inputs[1]].dimensions
        images = model.operands[inputs[3]].dimensions[0]
        classes = []
        for holds, label in ((count > 1, "rois>1"), (width > 4, "classes>1"),
                             (images > 1, "batch>1")):  # fmt: skip
            if holds:
                classes.append(label)
        given = inputs[2] not in constants or inputs[3] not in constants
        classes.append("image-info:model-input" if given else "image-info:constant")
        return classes + _quant_classes_of(model, [inputs[1]])
    align = name == "ROI_ALIGN"
    nchw = bool(_scalar(constants, inputs[9 if align else 7]))
    dims = list(model.operands[inputs[0]].dimensions)
    batch, h, w, c = (dims[0], dims[2], dims[3], dims[1]) if nchw else dims
    out_h, out_w = _scalar(constants, inputs[3]), _scalar(constants, inputs[4])
    ratio_h, ratio_w = (float(constants[inputs[k]].reshape(-1)[0]) for k in (5, 6))
    classes = ["layout:nchw" if nchw else "layout:nhwc", *_count_classes(batch, c)]
    if model.operands[inputs[1]].dimensions[0] > 1:
        classes.append("rois>1")
    for holds, label in ((min(ratio_h, ratio_w) < 1, "ratio<1"),
                         (max(ratio_h, ratio_w) > 1, "ratio>1"),
                         (ratio_h != ratio_w, "ratio:unequal"),
                         (out_h != out_w, "out:unequal")):  # fmt: skip
        if holds:
            classes.append(label)
    samples = (_scalar(constants, inputs[7]), _scalar(constants, inputs[8])) if align else ()
    if 0 in samples:
        classes.append("sampling:adaptive")
    if any(s > 0 for s in samples):
        classes.append("sampling:fixed")
    classes.append("rois:model-input" if inputs[1] not in constants else "rois:constant")
    if inputs[1] in constants and h > 0 and w > 0:
        classes += _roi_geometry(
            _real_constant(model, constants, inputs[1]).reshape(-1, 4),
            align, (h, w), (out_h, out_w), (ratio_h, ratio_w), samples,
        )  # fmt: skip
    return classes + _quant_classes_of(model, [inputs[0], operation.outputs[0]])


def _roi_geometry(rois, align: bool, lengths, bins, ratios, samples) -> list[str]:
    """Where constant rois fall on the feature map (see ``_roi_classes``)."""
    detection = oracle("detection_oracle")
    classes = []
    for x1, y1, x2, y2 in rois.tolist():
        for low, high, length, count, ratio, given in zip(
            (y1, x1), (y2, x2), lengths, bins, ratios, samples or (0, 0), strict=True
        ):
            low, high = low / ratio, high / ratio
            if align:
                if high - low < 1:
                    classes.append("roi:tiny")
                points = detection.align_samples(low, high - low, count, given, length)
                if any(a == b for bin_ in points for a, b, _ in bin_):
                    classes.append("roi:edge-clamped")
                continue
            start, end = detection.round_half_away(low), detection.round_half_away(high)
            if start + max(end - start + 1, 1) > length:
                classes.append("roi:edge-clamped")
            if any(a >= b for a, b in detection.pool_edges(low, high, count, length, np.float32)):
                classes.append("bin:empty")
            if 0.5 in (low % 1, high % 1):
                classes.append("roi:half-coordinate")
    return classes


def _clip_classes(model: Model, name: str, outputs: Sequence[np.ndarray]) -> list[str]:
    """AXIS_ALIGNED_BBOX_TRANSFORM boxes clipped: a coordinate at 0 (``clip:low``) or, where
    the image sizes and batch indexes are constants, at its image's width or height."""
    out = outputs[0].reshape(outputs[0].shape[0], -1, 2).astype(np.float64)
    operand = model.operands[model.output_indexes[0]]
    if operand.type == OperandType.TENSOR_QUANT16_ASYMM:
        out = (out - operand.zero_point) * operand.scale
    classes = ["clip:low"] if np.any(out == 0) else []
    inputs = model.operations[0].inputs
    constants = read_constants(model)
    if inputs[2] in constants and inputs[3] in constants:
        info = _real_constant(model, constants, inputs[3]).reshape(-1, 2)
        sizes = info[constants[inputs[2]].reshape(-1)][:, None, ::-1]  # (width, height) per roi
        if np.any(out == sizes):
            classes.append("clip:high")
    return classes


@_family(
    "roi",
    operations=_ROI,
    classes=(
        "layout:nchw", "layout:nhwc", "batch>1", "channels>1", "rois>1", "ratio<1", "ratio>1",
        "ratio:unequal", "out:unequal", "sampling:adaptive", "sampling:fixed", "rois:model-input",
        "rois:constant", "roi:tiny", "roi:edge-clamped", "bin:empty", "roi:half-coordinate",
        "boxes>1", "keypoints>1", "heatmap:2x2", "heatmap>2x2", "classes>1",
        "image-info:model-input", "image-info:constant", "clip:low", "clip:high", "quant8",
    ),
    classify=_roi_classes,
    results=_clip_classes,
    results_of=("AXIS_ALIGNED_BBOX_TRANSFORM",),
)  # fmt: skip
@st.composite
def roi(draw, operation: str | None = None) -> Corner:
    """ROI_ALIGN, ROI_POOLING, HEATMAP_MAX_KEYPOINT and AXIS_ALIGNED_BBOX_TRANSFORM, float32
    or quantized (TENSOR_QUANT8_ASYMM data, TENSOR_QUANT16_ASYMM boxes at 0.125).
    ROI_ALIGN and ROI_POOLING: batch 1-2, 1-5 rows and columns, 1-3 channels, 1-3 rois of
    quarter coordinates anywhere in the feature map, up to its far edge or shorter than a
    cell, each with its batch index, as model inputs or constants; outputs of 1-3 by 1-3,
    ratios 0.5, 1 or 2 per axis, ROI_ALIGN's sampling 0 (adaptive) to 3 per axis, NHWC or
    NCHW. HEATMAP_MAX_KEYPOINT: 1-3 boxes, 2x2 to 4x4 maps of 1-3 keypoints, each map with
    one maximum and a fit far from singular. AXIS_ALIGNED_BBOX_TRANSFORM: 1-3 rois (inside,
    across and past the image), 1-3 classes, 1-2 images, deltas of at most 1."""
    operation = operation or draw(st.sampled_from(_ROI))
    quant = draw(st.booleans())
    if operation in ("ROI_ALIGN", "ROI_POOLING"):
        b, operands, inputs, outputs, parameters, oracle_name = _roi_window(draw, operation, quant)
    elif operation == "HEATMAP_MAX_KEYPOINT":
        b, operands, inputs, outputs, parameters, oracle_name = _heatmap(draw, quant)
    else:
        b, operands, inputs, outputs, parameters, oracle_name = _bbox(draw, quant)
    parameters["type"] = "quant" if quant else "float32"
    model = b.model(operation, operands)
    return Corner(
        "roi", operation, model, inputs, outputs, _classes(model, outputs), parameters,
        oracle_name,
    )  # fmt: skip
